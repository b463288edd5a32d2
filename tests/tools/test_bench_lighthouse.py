"""The Lighthouse benchmark's server (scripts/tools/bench_lighthouse.py) serves as a static host
does: gzip when asked, and one connection for many files. Its figures depend on both: over a
connection closed after each file, Lighthouse's simulation charged every stylesheet and script a
new connection's round trips."""

import gzip
import http.client

import pytest

from scripts.tools.bench_lighthouse import GzipHandler, StaticHost, serving


@pytest.fixture
def host(tmp_path):
    (tmp_path / "index.html").write_text("<p>home</p>" * 100)
    (tmp_path / "style.css").write_text("p { color: red }\n" * 100)
    (tmp_path / "a.png").write_bytes(b"\x89PNG" + bytes(100))
    with serving(tmp_path) as origin:
        yield int(origin.rsplit(":", 1)[1]), tmp_path


def test_one_connection_serves_every_file_compressed_where_asked(host):
    port, root = host
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for path, name, compressed in (("/", "index.html", True), ("/style.css", "style.css", True),
                                   ("/a.png", "a.png", False)):
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, path
        assert response.version == 11, f"{path}: answered in HTTP/1.0, which closes the connection"
        assert not response.will_close, f"{path}: the server closed the connection after one file"
        assert (gzip.decompress(body) if compressed else body) == (root / name).read_bytes()
        assert (response.getheader("Content-Encoding") == "gzip") == compressed, path
    connection.close()


def test_a_browser_dropping_a_connection_prints_nothing_but_other_errors_still_show(host, capfd):
    """Lighthouse closes its tab with requests open: Python's server printed a traceback of the
    reset for each, between the benchmark's rows. Other errors are still printed."""
    port, _ = host
    for error in (ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "Broken pipe"),
                  ValueError("a fault of the host's own")):
        server = StaticHost(("127.0.0.1", 0), GzipHandler, bind_and_activate=False)
        try:
            raise error
        except Exception:  # noqa: BLE001 (the error is handled as the server's request loop does)
            server.handle_error(None, ("127.0.0.1", port))
        server.server_close()
    printed = capfd.readouterr().err
    assert "ValueError: a fault of the host's own" in printed
    assert "ConnectionResetError" not in printed and "BrokenPipeError" not in printed, printed

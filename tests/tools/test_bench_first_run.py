"""The first-Run benchmark's server (scripts/tools/bench_first_run.py) caches as GitHub Pages
does: a page opened again by its address finds Python's files in the browser's cache, and asks
again only with their ETag. Its "warm" figure means that only if the host says so: a file with
no validator and no max-age is fetched again whole."""

import gzip
import http.client

import pytest

from scripts.tools.bench_first_run import PagesHandler
from scripts.tools.bench_lighthouse import serving


@pytest.fixture
def host(tmp_path):
    (tmp_path / "index.html").write_text("<p>home</p>" * 100)
    (tmp_path / "runtime.wasm").write_bytes(b"\0asm" + bytes(100))
    with serving(tmp_path, PagesHandler) as origin:
        yield int(origin.rsplit(":", 1)[1]), tmp_path


@pytest.mark.parametrize("path, name", [("/", "index.html"), ("/runtime.wasm", "runtime.wasm")])
def test_every_file_is_kept_ten_minutes_and_then_revalidated_by_its_etag(host, path, name):
    port, root = host
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    body = response.read()
    assert response.status == 200 and gzip.decompress(body) == (root / name).read_bytes()
    assert response.getheader("Cache-Control") == "max-age=600" and response.getheader("Last-Modified")
    tag = response.getheader("ETag")
    assert tag and tag.startswith('"')
    connection.request("GET", path, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    again = connection.getresponse()
    assert again.status == 304 and again.read() == b"" and again.getheader("ETag") == tag
    (root / name).write_bytes((root / name).read_bytes() + b"changed")  # a new build: a new tag, the file
    connection.request("GET", path, headers={"If-None-Match": tag})
    changed = connection.getresponse()
    assert changed.status == 200 and changed.read().endswith(b"changed") and changed.getheader("ETag") != tag

"""Lighthouse's mobile profile on every page of a built site, served with gzip over kept
connections as a static host serves it: a benchmark that prints figures, not a test (issue 27,
item 6: performance 95 or more, total blocking time 200 ms or less, CLS 0.05 or less,
accessibility 100).

    python scripts/tools/bench_lighthouse.py [site_dir] [--pages 04-engine,09-tensors] [--runs 1]

site_dir: a built site (default site/; build it with `mkdocs build`). Lighthouse 12.2.3 comes
from package.json (npm ci; 13 needs Node 22), and drives the Chromium the tests use
(CHROMIUM, else chromium-headless-shell or chromium on PATH). Its mobile profile simulates a
slow 4G network and a CPU 4 times slower than this one; the figures vary from run to run on a
busy machine (--runs N prints the median of N). Prints one row per page.

Lighthouse's total blocking time is simulated from one run and swings on a shared machine; the
"CPU ms" column is steadier: the CPU time of the page's main thread (Chromium's ThreadTime),
from the page's start until its widgets are bound and 2 s have passed, at 390 x 844 as a
phone, without throttling; "task ms" is the wall time of its tasks (TaskDuration), which
other processes on the machine stretch, and "style ms" their Style & Layout part (the median
of --runs loads; --no-lighthouse prints only these). "held" counts the runs whose first paint
this machine held back until after DOMContentLoaded, on any page (one run in four on 2026-11-26;
on 2026-11-27, 25 of 52 runs over every page, 19 of 32 of chapter 4's): such a run's simulated
LCP is about 1 s later, so a median over few runs can hide or show it.
"perf*" and "TBT*" are the medians over the runs that were not held ("-" if every run was):
the page's figures when this machine did not hold its paint. In a held run, Chromium asks for
no frame at all from the first byte until about 1.28 s, whatever the page: the same chapter 9
HTML scored 96 in one pass and 89 in the next. Unheld runs swing too: the same chapter 4 gave
perf* 91 over 5 runs and 85 over 9, an hour apart (2026-11-27).
"""

import argparse
import contextlib
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".wasm", ".map"}


class StaticHost(http.server.ThreadingHTTPServer):
    """The benchmark's server: GzipHandler's files, one thread per connection. A browser that
    drops a connection it no longer needs (Lighthouse closing its tab) is no error of the host's:
    Python's server printed each such reset or broken pipe as a traceback between the rows of
    figures. Any other error is printed as before."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """A static host: files as they are, compressed with gzip when the browser accepts it, over
    connections kept open (HTTP/1.1) as every static host keeps them (GitHub Pages speaks
    HTTP/2). Python's handler speaks HTTP/1.0 unless told otherwise and closes the connection
    after each file; Lighthouse's simulation then charges a new connection's round trips to
    every stylesheet and script the page asks for (chapter 5: first paint 2.6 s, 1.9-2.1 s over
    kept connections, the same build)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESSED or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


@contextlib.contextmanager
def serving(directory, handler=None):
    """A StaticHost on 127.0.0.1 (a free port) serving `directory` with `handler` (GzipHandler's
    class, or a subclass of it), for the `with` block: yields its origin, "http://127.0.0.1:<port>"."""
    server = StaticHost(("127.0.0.1", 0), functools.partial(handler or GzipHandler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Body:
    def __init__(self, data):
        self.data = data

    def read(self, *_):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


def chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium-headless-shell", "chromium"):
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit("no Chromium: set CHROMIUM or install chromium-headless-shell")


def audit(url, browser):
    """Lighthouse's figures for one page: performance, TBT (ms), CLS, LCP (ms), accessibility,
    DOM size, and held: 1 if the load it simulated from painted first only after
    DOMContentLoaded (a paint this machine held back: it adds about 1 s to the simulated LCP
    and costs 6-8 points, whatever the page), else 0."""
    with tempfile.TemporaryDirectory() as profile:
        flags = f"--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking " \
                f"--disable-component-update --disable-sync --user-data-dir={profile}"
        result = subprocess.run(
            [str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout",
             "--only-categories=performance,accessibility", f"--chrome-flags={flags}"],
            capture_output=True, text=True, env={**os.environ, "CHROME_PATH": browser}, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    audits = report["audits"]
    observed = audits["metrics"]["details"]["items"][0]  # the unthrottled load Lighthouse simulated from
    return {"performance": round(report["categories"]["performance"]["score"] * 100),
            "tbt": round(audits["total-blocking-time"]["numericValue"]),
            "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
            "lcp": round(audits["largest-contentful-paint"]["numericValue"]),
            "accessibility": round(report["categories"]["accessibility"]["score"] * 100),
            "dom": audits["dom-size"]["numericValue"],
            "held": int(observed["observedFirstContentfulPaint"] > observed["observedDomContentLoaded"])}


def main_thread_ms(url, browser, runs):
    """The main thread's work loading `url` (CDP Performance metrics, ms), each from navigation
    until the page's widgets are bound plus 2 s, the median over `runs` fresh loads: a tuple
    (ThreadTime: its CPU time, TaskDuration: its tasks' wall time, LayoutDuration +
    RecalcStyleDuration: their style and layout)."""
    from playwright.sync_api import sync_playwright

    cpu, task, style = [], [], []
    with sync_playwright() as playwright:
        chrome = playwright.chromium.launch(executable_path=browser, args=["--no-sandbox", "--disable-gpu"])
        try:
            for _ in range(runs):
                page = chrome.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                       is_mobile=True, has_touch=True)
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable")
                page.goto(url, wait_until="load")
                page.wait_for_function("() => !document.querySelector('script[src*=\"widgets.js\"]')"
                                       " || document.documentElement.dataset.bvBound", timeout=60_000)
                page.wait_for_timeout(2000)
                metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                cpu.append(metrics["ThreadTime"] * 1000)
                task.append(metrics["TaskDuration"] * 1000)
                style.append((metrics["LayoutDuration"] + metrics["RecalcStyleDuration"]) * 1000)
                page.close()
        finally:
            chrome.close()
    return statistics.median(cpu), statistics.median(task), statistics.median(style)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--pages", help="comma-separated page folders, index for the home page (default: every page)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-lighthouse", action="store_true", help="only the main thread's CPU time")
    args = parser.parse_args()
    site = Path(args.site)
    if not (site / "index.html").exists():
        sys.exit(f"{site}: no built site (mkdocs build -d {site})")
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: npm ci")
    pages = args.pages.split(",") if args.pages else [""] + sorted(
        p.parent.name for p in site.glob("*/index.html") if p.parent.name not in ("search", "_sources", "index"))
    server = StaticHost(("127.0.0.1", 0), functools.partial(GzipHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    browser = chromium()
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'page':28} {'perf':>4} {'TBT ms':>7} {'CLS':>6} {'LCP ms':>7} {'a11y':>4} {'DOM':>6}"
          f" {'CPU ms':>7} {'task ms':>7} {'style ms':>8} {'held':>5} {'perf*':>5} {'TBT*':>5}")
    try:
        for page in pages:
            home = page in ("", "index", "home")
            url, name = (f"{origin}/", "home") if home else (f"{origin}/{page}/", page)
            cpu, task, style = main_thread_ms(url, browser, args.runs)
            trace = f"{cpu:>7.0f} {task:>7.0f} {style:>8.0f}"
            if args.no_lighthouse:
                print(f"{name:28} {'':>4} {'':>7} {'':>6} {'':>7} {'':>4} {'':>6} {trace}", flush=True)
                continue
            runs = [audit(url, browser) for _ in range(args.runs)]
            row = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
            held = f"{sum(run['held'] for run in runs)}/{len(runs)}"
            clear = [run for run in runs if not run["held"]]  # the runs whose first paint was not held
            unheld = (f"{statistics.median(r['performance'] for r in clear):>5.0f} "
                      f"{statistics.median(r['tbt'] for r in clear):>5.0f}") if clear else f"{'-':>5} {'-':>5}"
            print(f"{name:28} {row['performance']:>4.0f} {row['tbt']:>7.0f} {row['cls']:>6.3f} "
                  f"{row['lcp']:>7.0f} {row['accessibility']:>4.0f} {row['dom']:>6.0f} {trace} {held:>5} {unheld}",
                  flush=True)
        print(f"load average {os.getloadavg()[0]:.2f}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()

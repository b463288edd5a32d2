"""How long a page's first Run takes after a full page load: issue 44's figure, not a test.

    python -m scripts.tools.bench_first_run [site_dir] [--page 04-engine] [--runs 3] [--wait 0]

Serves a built site (default site/) as GitHub Pages serves one: gzip, an ETag and a
Last-Modified on every file, `Cache-Control: max-age=600`, a 304 to a request that names the
file's ETag. In the tests' Chromium at 1280 x 800, each run starts the browser on a new profile
of its own on disk (an empty HTTP cache and code cache: the reader's first visit; a profile on
disk, not an incognito context, which keeps no compiled code), loads the page by its address,
waits --wait seconds (a reader reading before their first Run), clicks the Run of its first
block and waits for the result: "cold". Then the same browser loads the page again by its
address (a reload, a link from outside, a new tab: the caches warm, no Python in the page; for
this reader, whose Python was up before, the page starts its own as its blocks come near) and
does the same: "warm". Prints, per run and as medians, the seconds from the click to the result.

Take the figures with nothing else running: two cores shared with another browser double them.
"""

import argparse
import hashlib
import statistics
import tempfile
import time
from email.utils import formatdate
from pathlib import Path

from scripts.tools.bench_lighthouse import ROOT, GzipHandler, chromium, serving

RUN = "document.querySelector('.bv-run').runState"


class PagesHandler(GzipHandler):
    """GzipHandler with GitHub Pages' caching headers: a browser keeps each file for ten minutes,
    then asks again with its ETag and gets a 304 if it has not changed."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        path = path / "index.html" if path.is_dir() else path
        if not path.is_file():
            return super().send_head()
        stat = path.stat()
        tag = '"' + hashlib.sha1(f"{stat.st_mtime_ns}-{stat.st_size}".encode()).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == tag:
            self.send_response(304)
            self.send_header("ETag", tag)
            self.send_header("Cache-Control", "max-age=600")
            self.end_headers()
            return None
        self._tag, self._modified = tag, formatdate(stat.st_mtime, usegmt=True)
        return super().send_head()

    def end_headers(self):
        if getattr(self, "_tag", None):
            self.send_header("ETag", self._tag)
            self.send_header("Cache-Control", "max-age=600")
            if self._modified:
                self.send_header("Last-Modified", self._modified)
            self._tag = None
        super().end_headers()


def first_run(page, url, wait):
    """Seconds from the Run click to its result for the first block of the page at url, loaded by
    its address in `page`, clicked `wait` seconds after its Run bar came."""
    page.goto(url, wait_until="load")
    page.wait_for_function(f"() => {RUN}?.blocks?.[0]?.run", timeout=60_000)
    page.wait_for_timeout(wait * 1000)
    page.evaluate(f"() => {{ {RUN}.blocks[0].result = null; }}")
    started = time.perf_counter()
    page.locator(".bv-run-bar").first.locator(".bv-run-run").click()
    page.wait_for_function(f"() => {RUN}.blocks[0].result", polling="raf", timeout=120_000)
    seconds = time.perf_counter() - started
    result = page.evaluate(f"() => {RUN}.blocks[0].result.kind")
    if result != "result":
        raise SystemExit(f"{url}: the first block's Run ended as {result!r}, not a result")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--page", default="04-engine", help="a chapter's folder")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wait", type=float, default=0.0, help="seconds between the page's load and the click")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    figures = {"cold": [], "warm": []}
    with serving(args.site, PagesHandler) as origin, sync_playwright() as playwright:
        url = f"{origin}/{args.page}/"
        for k in range(args.runs):
            with tempfile.TemporaryDirectory() as profile:
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=chromium(), args=["--disable-gpu"],
                    viewport={"width": 1280, "height": 800})
                page = context.new_page()
                for kind in ("cold", "warm"):
                    seconds = first_run(page, url, args.wait)
                    figures[kind].append(seconds)
                    print(f"run {k + 1} {kind}: first Run {seconds:.2f} s", flush=True)
                context.close()
    for kind, values in figures.items():
        print(f"median {kind}, clicked {args.wait:g} s after the load: {statistics.median(values):.2f} s "
              f"over {len(values)} runs "
              f"({', '.join(f'{v:.2f}' for v in values)})")


if __name__ == "__main__":
    main()

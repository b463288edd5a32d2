"""Helpers for the site and browser tests (imported by tests/conftest.py and the test modules)."""

import os
import re
import shutil
import subprocess
import sys

from scripts import ROOT

BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium():
    """Path of a Chromium binary: $CHROMIUM (scripts/dev.sh sets it), else Debian's headless
    shell, else Debian's or Ubuntu's full Chromium (scripts/dev.sh: chromium_path)."""
    return (os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell")
            or shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium")


def mkdocs_build(config, site_dir, site_url=None):
    """`mkdocs build --strict` of `config` into `site_dir`: the CompletedProcess.

    site_url: the address the site is built for (mkdocs.yml reads SITE_URL), or None for
    mkdocs.yml's default."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        cwd=ROOT, capture_output=True, text=True, env=env,
    )



def page_urls(site):
    """(path, URL path) of every page of the built site, e.g. ("04-engine", "/04-engine/")."""
    pages = []
    for html in sorted(site.rglob("index.html")):
        path = html.parent.relative_to(site).as_posix()
        if path.split("/")[0] in ("search", "assets", "_sources"):
            continue
        pages.append((path, "/" if path == "." else f"/{path}/"))
    return pages


# Results the browser's Python (Pyodide) gives differently from the Python the page ran in:
# {(chapter, a snippet of the block): why}. An entry must still differ: the browser tests
# (test_browser_python.py, test_live.py) fail when one is gone, so a fixed page drops its entry.
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {
    ("07-check-break-fix", "print(check(InputTanhValue, neuron, **NEURON))"):
        "Pyodide's libm rounds tanh differently in the last bit: one finite difference prints "
        "0.5000000001 where the page's Python prints 0.5",
    ("10-under-the-hood", 'hasattr(node, "__dict__"), sys.getsizeof(node)'):
        "Pyodide is 32-bit WebAssembly: with 4-byte pointers the node is 48 bytes and its float 16, "
        "where the page's 64-bit Python says 96 and 24",
}


def recorded(page):
    """page, recording from now on every request's URL in page.requests and every uncaught
    error and console error in page.errors (the page's and its workers'): what the browser
    tests check for requests to another host and for errors. Returns page."""
    page.requests, page.errors = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    return page


def foreign(page, origin):
    """The requests page (recorded()) made to anything but origin, data: or blob: URLs."""
    return [url for url in page.requests if not url.startswith((origin, "data:", "blob:"))]


# True once widgets.js has bound every widget of the page shown (it marks the page so).
BOUND = "document.documentElement.dataset.bvBound === location.pathname"


def follow(page, selector, path):
    """Click the link `selector` of the page shown, as a reader does: Material's instant
    navigation swaps the next page in without a reload, keeping the page's JavaScript and its
    Python. Waits until `path` ("/02-chain-rule/") is shown and its widgets are bound
    (widgets.js marks the page); fails if the page was reloaded (the window's mark is gone)."""
    page.evaluate("() => { window.bvSamePage ??= true; }")
    page.locator(selector).first.click()
    page.wait_for_function(f"path => location.pathname.endsWith(path) && {BOUND}", arg=path)
    assert page.evaluate("() => window.bvSamePage === true"), f"{path}: the page was reloaded"


def documented_csp():
    """The Content-Security-Policy MAINTAINERS.md tells a static host to send, from its one
    `Content-Security-Policy: ...` line: the browser tests serve the site with it, so what a
    host is told is what the tests ran under. AssertionError if there is not exactly one."""
    text = (ROOT / "MAINTAINERS.md").read_text(encoding="utf-8")
    policies = re.findall(r"^Content-Security-Policy: (.+)$", text, re.M)
    assert len(policies) == 1, f"MAINTAINERS.md gives {len(policies)} Content-Security-Policy lines, not 1"
    return policies[0]

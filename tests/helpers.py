"""Helpers for the site and browser tests (imported by tests/conftest.py and the test modules).

The one way to serve a built site is serve_site (a static host, optionally with the documented
Content-Security-Policy); the one way to catch requests that leave it is foreign (what a recorded
page asked of other hosts) with elsewhere (another origin that records whatever reaches it).
"""

import contextlib
import functools
import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import types
import urllib.request
from html.parser import HTMLParser

from scripts import ROOT

BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]

CHAPTERS = sorted((ROOT / "docs").glob("[0-9][0-9]-*.md"))  # the chapters' Markdown, in order


class Tags(HTMLParser):
    """Every start tag of an HTML document, as (tag, attributes)."""

    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def chapter_3_L():
    """L = (a·b + c)·f of chapter 3, every node labelled (a = 2, b = −3, c = 10, f = −2; e, d, L),
    before its backward pass: a micrograd Value."""
    from micrograd import Value

    a, b, c, f = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c"), Value(-2.0, label="f")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    L = d * f
    L.label = "L"
    return L


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
# (test_run_browser.py, test_live.py) fail when one is gone, so a fixed page drops its entry.
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


def foreign(urls, origin):
    """The URLs of `urls` (a recorded() page's .requests, say) that are not origin's, data: or
    blob: URLs: the requests that left the site."""
    return [url for url in urls if not url.startswith((origin, "data:", "blob:"))]


@contextlib.contextmanager
def elsewhere():
    """Another origin on 127.0.0.1 (another port) that would answer anything, CORS open (200, an
    empty text/javascript body), and records every request it gets, for the `with` block: yields
    a namespace with url ("http://127.0.0.1:<port>") and seen (["GET /path", ...]). The reader's
    code must reach it never (tests/conftest.py's `elsewhere` fixture)."""
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self):
            seen.append(f"{self.command} {self.path}")
            self.send_response(200)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = do_OPTIONS = answer

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        urllib.request.urlopen(f"{url}/probe").read()  # it answers
        assert seen == ["GET /probe"], seen
        seen.clear()
        yield types.SimpleNamespace(url=url, seen=seen)
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def serve_site(folder, port=0, csp=False):
    """`folder` (a built site) served over HTTP as a static host would, for the `with` block:
    yields its address, "http://127.0.0.1:<port>" (no slash at the end).

    port: 0 for any free port; a given port is bound with SO_REUSEPORT (the kernel hands each
    connection to one of the processes serving it), so every pytest-xdist worker can serve the
    site on the address it was built for. csp: send MAINTAINERS.md's Content-Security-Policy
    (documented_csp) with every answer. The server is a process of its own, not a thread of the
    test's: it would handle the other worker's requests while this one runs a page whose numbers
    count the process's objects (chapter 10 counts what the garbage collector tracks).
    RuntimeError, with the server's error, if it cannot serve there (the port is taken)."""
    errors = tempfile.TemporaryFile("w+")  # not a pipe: a long run's broken connections would fill it
    server = subprocess.Popen([sys.executable, "-m", "tests.helpers", str(folder), str(port)] + ["--csp"] * csp,
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("serving "):
            server.wait()
            errors.seek(0)
            raise RuntimeError(f"cannot serve {folder} on port {port}: {errors.read()}")
        yield f"http://127.0.0.1:{line.split()[1]}"
    finally:
        server.terminate()
        server.wait()
        errors.close()


def _serve(folder, port, *options):
    """serve_site's server process: prints "serving <port>", then serves until terminated."""
    csp = documented_csp() if "--csp" in options else None

    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            if csp:
                self.send_header("Content-Security-Policy", csp)
            super().end_headers()

        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def server_bind(self):
            if self.server_address[1]:
                self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            super().server_bind()

    server = Server(("127.0.0.1", int(port)), functools.partial(Handler, directory=folder))
    print("serving", server.server_address[1], flush=True)
    server.serve_forever()


# Screenshots for a person to look at (the playground, the progress box, an edited stepper at
# each width and scheme): taken only when BV_SHOTS names a folder, `BV_SHOTS=/tmp/shots
# .venv/bin/pytest tests/playground`. The suite takes 25: 5.7 s of its tests' time at a load of 3,
# on a machine its two workers keep busy, for files no test reads.
SHOTS = os.environ.get("BV_SHOTS")


def report_shot(locator, name, **options):
    """Save a screenshot of `locator` as BV_SHOTS/<name> (options: Locator.screenshot's) if
    BV_SHOTS is set. Either way the element must be visible, as the screenshot needed it to be;
    raises Playwright's TimeoutError if it is not."""
    if not SHOTS:
        locator.wait_for(state="visible")
        return
    os.makedirs(SHOTS, exist_ok=True)
    locator.screenshot(path=os.path.join(SHOTS, name), **options)


def stepper_view(widget):
    """What the stepper shows now: data and grad text of every node, caption, status."""
    return widget.evaluate("""w => ({
      fields: Object.fromEntries(Array.from(w.querySelectorAll("g.node[data-id]")).map(g =>
        [g.dataset.id, Array.from(g.querySelectorAll("text")).map(t => t.textContent)
           .filter(t => /^(data|grad) /.test(t))])),
      current: (w.querySelector(".bv-current") || {dataset: {}}).dataset.id || null,
      caption: w.querySelector(".bv-widget__caption").textContent,
      status: w.querySelector(".bv-widget__status").textContent,
    })""")


# True once widgets.js has bound every widget of the page shown that is near the viewport (it marks
# the page so): every widget, on the pages of the `browser` fixture (tests/conftest.py: BIND_AT_ONCE).
BOUND = "document.documentElement.dataset.bvBound === location.pathname"


@contextlib.contextmanager
def loaded(browser, url, context_options, init_script=None):
    """The page of url, loaded in a fresh browser context made with `context_options`
    (Playwright's new_context keywords: viewport, color_scheme...) until its widgets are bound
    (BOUND); `init_script` runs before the page's own. The context is closed on leaving."""
    context = browser.new_context(**context_options)
    try:
        page = context.new_page()
        if init_script:
            page.add_init_script(init_script)
        page.goto(url, wait_until="load")
        page.wait_for_function(BOUND)
        yield page
    finally:
        context.close()

# Material's copy button (9.7+: one per code block, added when Material mounts the block).
COPY_BUTTON = "button.md-code__button[data-md-type=copy]"

# Material mounts a code block (its copy button and scroll cue's box) when the block comes into
# view (mkdocs.yml: content.lazy). MOUNT_BLOCK scrolls one shown block to the middle of the
# window and answers "mounted" once it has its copy button, "hidden" if the page's script
# hides it meanwhile (exercise.js puts an exercise's editor in place of its starter code when
# the exercise comes near), or "never" after about 3 s (120 frames) with neither.
MOUNT_BLOCK = f"""async (block) => {{
  block.scrollIntoView({{block: "center", behavior: "instant"}});
  for (let n = 0; n < 120; n++) {{
    if (!block.checkVisibility()) return "hidden";
    if (block.querySelector("{COPY_BUTTON}")) return "mounted";
    await new Promise(requestAnimationFrame);
  }}
  return "never";
}}"""

# MOUNT_BLOCK on each shown block of the page in turn (not those in a closed fold: Chromium
# lays their content out hidden, and a reader opens the fold first, which mounts them), then
# back to the top; returns how many never were mounted (0 expected).
MOUNT_CODE_BLOCKS = f"""async () => {{
  const mount = {MOUNT_BLOCK};
  const blocks = [...document.querySelectorAll("article div.highlight")].filter((b) => b.checkVisibility());
  const never = [];
  for (const block of blocks) if (await mount(block) === "never") never.push(block);
  scrollTo(0, 0);
  await new Promise(requestAnimationFrame);
  return never.length;
}}"""



# Resolves once the page has rendered two frames and run the tasks those queued: what an observer
# of layout reports (IntersectionObserver, ResizeObserver: Material's lazy code blocks, its
# scroll handlers, a widget's resize) has been delivered and handled. A wait for what the page
# does after a scroll, a resize or its load, never a fixed time.
SETTLED = """() => new Promise((resolve) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve))))"""


def settled(page):
    """Wait until `page` has handled what its last layout changed (SETTLED)."""
    page.evaluate(SETTLED)


def follow(page, selector, path):
    """Click the link `selector` of the page shown, as a reader does: Material's instant
    navigation swaps the next page in without a reload, keeping the page's JavaScript and its
    Python. Waits until `path` ("/02-chain-rule/") is shown and its widgets are bound
    (widgets.js marks the page); fails if the page was reloaded (the window's mark is gone)."""
    page.evaluate("() => { window.bvSamePage ??= true; }")
    page.locator(selector).first.click()
    page.wait_for_function(f"path => location.pathname.endsWith(path) && {BOUND}", arg=path)
    assert page.evaluate("() => window.bvSamePage === true"), f"{path}: the page was reloaded"


def wait_for_text(page, selector, pattern, timeout=30_000):
    """Wait until the first element matching `selector` exists and its text matches the regular
    expression `pattern` (JavaScript syntax); return that text. After a load or a reload, a
    widget's element may not be built yet: a predicate that reads `.textContent` of null throws,
    and Playwright fails the wait at once instead of waiting (seen in CI). TimeoutError if it
    never matches within `timeout` ms."""
    page.wait_for_function("""([selector, pattern]) => {
        const element = document.querySelector(selector);
        return element !== null && new RegExp(pattern).test(element.textContent);
    }""", arg=[selector, pattern], timeout=timeout)
    return page.locator(selector).first.text_content()


def documented_csp():
    """The Content-Security-Policy MAINTAINERS.md tells a static host to send, from its one
    `Content-Security-Policy: ...` line: the browser tests serve the site with it, so what a
    host is told is what the tests ran under. AssertionError if there is not exactly one."""
    text = (ROOT / "MAINTAINERS.md").read_text(encoding="utf-8")
    policies = re.findall(r"^Content-Security-Policy: (.+)$", text, re.M)
    assert len(policies) == 1, f"MAINTAINERS.md gives {len(policies)} Content-Security-Policy lines, not 1"
    return policies[0]


if __name__ == "__main__":
    _serve(*sys.argv[1:])

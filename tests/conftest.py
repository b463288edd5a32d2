"""Fixtures for the tests of the built site: one strict build per test run, shared by every
test module and every pytest-xdist worker, and Debian's Chromium driven by Playwright."""

import collections
import fcntl
import json
import os
import pickle
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scripts import ROOT
from tests import browser_pool, helpers, schedule
from tests.chapter_page import open_chapter_4
from tests.helpers import BOUND, BROWSER_ARGS, foreign, mkdocs_build, recorded, serve_site
from tests.warm_python import WarmPython

# --- The run's schedule, markers and figures ------------------------------------------------
# Modules are handed to pytest-xdist's workers longest first, by the last run's own timings
# (tests/schedule.py). Every test that drives Chromium is marked `browser`, whatever fixture
# brings it; `network` is marked by hand (pyproject.toml lists both): `pytest -m "not browser"`
# is the quick loop for the Python side.
BROWSER_FIXTURES = {"browser", "chromium", "cold_browser", "page", "chapter", "warm_python"}
_timings = schedule.Timings()
_tally = dict.fromkeys(browser_pool.tally, 0)  # the workers' browser_pool.tally, added up
_python_starts = collections.Counter()  # and their Python starts by test module


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        # a parameter named like a fixture (`page` over chapter files) is not that fixture
        params = getattr(getattr(item, "callspec", None), "params", {})
        if BROWSER_FIXTURES & (set(getattr(item, "fixturenames", ())) - set(params)):
            item.add_marker(pytest.mark.browser)
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider
    schedule.order(items, cache.get(schedule.SECONDS_KEY, {}) if cache else {})


def pytest_runtest_logreport(report):
    _timings.add(report)


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if hasattr(config, "workeroutput"):  # a pytest-xdist worker: the controller adds the figures up
        config.workeroutput["bv_tally"] = dict(browser_pool.tally)
        config.workeroutput["bv_python_starts"] = dict(browser_pool.python_starts)
        return
    whole = not (config.option.keyword or config.option.markexpr or config.option.maxfail)
    if getattr(config, "cache", None) and whole and exitstatus in (0, 1) and _timings.seconds:
        before = config.cache.get(schedule.SECONDS_KEY, {})
        config.cache.set(schedule.SECONDS_KEY, _timings.merged(before, config.rootpath))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):  # pytest-xdist's controller, as each worker ends
    for name, count in getattr(node, "workeroutput", {}).get("bv_tally", {}).items():
        _tally[name] += count
    _python_starts.update(getattr(node, "workeroutput", {}).get("bv_python_starts", {}))


def pytest_terminal_summary(terminalreporter, config):
    xdist = getattr(config.option, "numprocesses", None)
    tally, starts = (_tally, _python_starts) if xdist else (browser_pool.tally, browser_pool.python_starts)
    if any(tally.values()):
        most = ", ".join(f"{module} {count}" for module, count in starts.most_common(5))
        terminalreporter.write_line(
            f"browser: {tally['contexts']} contexts made, {tally['leases']} lent, "
            f"{tally['python_starts']} Python workers started" + (f" (most: {most})" if most else ""))


@pytest.fixture(scope="session")
def site_build(tmp_path_factory):
    """The site built once per test run: {"site": Path, "site_url", "returncode", "output", "seconds"}.

    Under pytest-xdist the first worker builds and the others wait on a lock
    and read its result, so a run pays for one build. It is built for
    site_url http://127.0.0.1:<port>/ (SITE_URL, as a published build is for its
    address), a port that was free when the build started: what links to the site
    itself (the sitemap, canonical links, the notebooks' install cell) points there,
    and a test that serves the site on that port can follow them.
    """
    shared = _shared_folder(tmp_path_factory)
    site, record = shared / "site", shared / "site-build.json"
    with open(shared / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            start = time.perf_counter()
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                site_url = f"http://127.0.0.1:{probe.getsockname()[1]}/"
            result = mkdocs_build(ROOT / "mkdocs.yml", site, site_url=site_url)
            record.write_text(json.dumps({
                "site": str(site), "site_url": site_url, "returncode": result.returncode,
                "output": result.stdout + result.stderr,
                "seconds": round(time.perf_counter() - start, 1)}))
    build = json.loads(record.read_text())
    build["site"] = Path(build["site"])
    return build


def _shared_folder(tmp_path_factory):
    """The test run's own folder: shared by every pytest-xdist worker (each has one below it)."""
    shared = tmp_path_factory.getbasetemp()
    return shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared


@pytest.fixture(scope="session")
def fresh_run(tmp_path_factory):
    """fresh_run(md_path) -> scripts.build.page_build.PageRun: the page run now, from its source.

    Once per test run: the first test (on any xdist worker) that asks runs the page and
    keeps the result in a file; the others read it. Two tests need it (the build's files
    match a fresh run; every number in the prose is computed), and a page like chapter 10
    takes seconds.
    """
    from scripts.build.page_build import run

    shared = _shared_folder(tmp_path_factory)

    def get(md_path):
        record = shared / f"run-{md_path.name}.pickle"
        with open(shared / f"run-{md_path.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not record.exists():
                record.write_bytes(pickle.dumps(run(md_path, md_path.name)))
        return pickle.loads(record.read_bytes())

    return get


@pytest.fixture(scope="session")
def site(site_build):
    """The built site's folder; fails (once, with MkDocs' output) if the strict build failed."""
    assert site_build["returncode"] == 0, site_build["output"]
    return site_build["site"]


@pytest.fixture(scope="session")
def origin(site):
    """http://127.0.0.1:<port>: the built site served over HTTP, as a static host would."""
    with serve_site(site) as url:
        yield url


@pytest.fixture(scope="session")
def served_site(site_build, site):
    """site_build["site_url"], with the built site served there over HTTP: the address the
    site was built for, so what it links to itself (the notebooks' wheel) is reachable, and
    Material's instant navigation works (it follows only links its sitemap.xml lists, which
    name that address). Every pytest-xdist worker serves it (tests/helpers.py: serve_site), so
    any test module may use the address. Fails if that port, free when the build started, has
    been taken since by a program other than this test run."""
    url = site_build["site_url"]
    try:
        with serve_site(site, port=urlsplit(url).port):
            yield url
    except RuntimeError as error:
        pytest.fail(f"cannot serve the site at {url}, the address it was built for: {error}")


@pytest.fixture()
def page(browser, origin):
    """A fresh page; it fails the test on any console error or request to another host."""
    context = browser.new_context()
    page = recorded(context.new_page())
    yield page
    context.close()
    assert page.errors == [], page.errors
    assert foreign(page.requests, origin) == []


@pytest.fixture(scope="module")
def elsewhere():
    """Another origin that answers anything and records what reaches it (tests/helpers.py:
    elsewhere): .url, and .seen, which must stay empty."""
    with helpers.elsewhere() as other:
        yield other


SEARCH_INDEX = "**/search/search_index.json"


_EMPTY_INDEX = {}  # origin -> Material's search index with its config and no page in it


def _index_without_pages(route):
    """Serve Material's search index with its config and no page in it."""
    from playwright.sync_api import Error

    origin = route.request.url.split("/search/")[0]
    try:
        if origin not in _EMPTY_INDEX:
            _EMPTY_INDEX[origin] = {**route.fetch().json(), "docs": []}
        route.fulfill(json=_EMPTY_INDEX[origin])
    except Error:  # the page closed while its request was in flight: nothing is waiting for it
        pass


class SearchlessBrowser:
    """A Playwright Browser whose pages get Material's search index with no page in it, each
    context made new (cold: an empty HTTP cache; the `cold_browser` fixture).

    On every page load Material builds its search index in a web worker: 1.2 s of
    Chromium's CPU per load for this site's 264 KB index, over a third of what the
    browser tests cost, in tests that never search. Pages opened through this browser
    load the index's config (so the search box works, and finds nothing); the request is
    still made and seen. tests/site/test_browser.py searches the real index with `real`.
    Its pages also bind every widget at load (BIND_AT_ONCE), unless opened with
    bind_at_once=False.
    """

    def __init__(self, browser):
        self.real = browser

    def __getattr__(self, name):
        return getattr(self.real, name)

    def new_context(self, bind_at_once=True, **kwargs):
        context = self.real.new_context(**kwargs)
        context.route(SEARCH_INDEX, _index_without_pages)
        if bind_at_once:
            context.add_init_script(BIND_AT_ONCE)
        js = kwargs.get("java_script_enabled", True)
        context.on("page", lambda page: _prepare_page(page, js))
        browser_pool.tally["contexts"] += 1
        return context

    def new_page(self, bind_at_once=True, **kwargs):
        context = self.new_context(bind_at_once, **kwargs)
        page = context.new_page()
        close = page.close
        page.close = lambda **options: (close(**options), context.close())[0]
        return page


class WarmBrowser(SearchlessBrowser):
    """The `browser` fixture: a SearchlessBrowser whose contexts come from a pool kept for the
    worker's whole run (tests/browser_pool.py), so Chromium's HTTP cache and the WebAssembly
    it compiled stay warm from test to test. new_context() lends one (a Lease: close() clears
    what the pages kept and gives it back); new_page() lends one to the page alone."""

    def __init__(self, browser):
        super().__init__(browser)
        self.pool = browser_pool.Pool(lambda options: SearchlessBrowser.new_context(self, **options))

    def new_context(self, bind_at_once=True, **kwargs):
        return browser_pool.Lease(self.pool, {"bind_at_once": bind_at_once, **kwargs})

    def new_page(self, bind_at_once=True, **kwargs):
        lease = self.new_context(bind_at_once, **kwargs)
        page = lease.new_page()
        close = page.close
        page.close = lambda **options: (close(**options), lease.close())[0]
        return page


def _prepare_page(page, javascript):
    """What every test page gets: its Python starts counted; with JavaScript, page.goto and
    page.reload that return once the page's widgets are bound."""
    browser_pool.count_python_starts(page)
    if javascript:
        _wait_for_widgets(page)


# A reader's page binds each widget as it comes near the viewport (docs/javascripts/shared/dom.js:
# whenNear); a test acts at once, anywhere on the page, so its pages bind every widget at load.
# Pages opened with bind_at_once=False bind as a reader's do (tests/widgets/test_bind_near.py).
BIND_AT_ONCE = "window.bvBindAtOnce = true;"


# widgets.js binds a page's widgets after its modules load, which the load event does not
# wait for; it marks the page when done. A test, unlike a reader, acts at once.
WIDGETS_BOUND = f"() => !document.querySelector('script[src*=\"javascripts/widgets.js\"]') || {BOUND}"


def _wait_for_widgets(page):
    """Make page.goto and page.reload return once the page's widgets are bound."""
    def then_bound(original):
        def go(*args, **kwargs):
            response = original(*args, **kwargs)
            page.wait_for_function(WIDGETS_BOUND, timeout=30_000)
            return response
        return go

    page.goto, page.reload = then_bound(page.goto), then_bound(page.reload)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium under Playwright (never a browser Playwright downloads), one per
    pytest-xdist worker, as a WarmBrowser: its contexts are lent from a pool and come back
    with their storage cleared and their HTTP cache warm. `browser.real` is the unchanged one."""
    path = helpers.chromium()
    if not Path(path).exists():
        pytest.skip(f"Chromium is not installed at {path}: `bash scripts/dev.sh test` installs it "
                    "(apt-get install chromium), or set CHROMIUM to a Chromium binary")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        warm = WarmBrowser(browser)
        yield warm
        warm.pool.close()
        browser.close()


@pytest.fixture(scope="session")
def cold_browser(browser):
    """The same Chromium, each context made new with an empty HTTP cache, for a test that must
    meet the site as a first visit does (Python downloaded and compiled, say): it costs such a
    test 1.5-2 s, which the other tests do not pay."""
    return SearchlessBrowser(browser.real)


@pytest.fixture(scope="session")
def warm_python(browser, origin):
    """The browser's Python, started once for this pytest-xdist worker and kept
    (tests/warm_python.py): .call(fn, args), for checks that compare it with CPython on the
    book's own code. A test of what a reader meets (a Run, its messages, a fresh Python for an
    exercise) goes through the page instead."""
    page = browser.new_page()
    page.goto(f"{origin}/04-engine/", wait_until="load")
    yield WarmPython(page)
    page.close()


@pytest.fixture(scope="session")
def chromium(browser):
    """Debian's Chromium (tests/conftest.py); the site is the run's one strict build (`site`)."""
    return browser


@pytest.fixture(scope="module")
def chapter(chromium, origin):
    """Chapter 4, opened once for a test module (tests/chapter_page.py drives it); every
    exercise scrolled into view, so every editor is loaded.

    Records each request (the page's and its worker's), with the requests made
    at load and before any Run, and every uncaught error; fails the module's last test if a
    request left the site or an error was logged. A module whose tests measure a first visit
    (what the first Run fetches, and how long it takes) opens it with `cold_browser` instead:
    `yield from open_chapter_4(cold_browser, origin)` in a `chapter` fixture of its own.
    """
    yield from open_chapter_4(chromium, origin)


@pytest.fixture(scope="session")
def executed_notebook():
    """The training notebook as the build executes it (cached on the notebook and micrograd/)."""
    from scripts.notebooks.training_notebook import executed

    return executed(ROOT / "docs" / "06-training.py")

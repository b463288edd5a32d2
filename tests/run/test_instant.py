"""Python once per visit (issue 18, item 5), in Debian's Chromium: moving between pages with
Material's instant navigation keeps the page's JavaScript, and with it the reader's Python
(docs/javascripts/python/python.js's worker); widgets.js binds every widget of each page it brings
(docs/javascripts/shared/dom.js: onEveryPage).

The site is served at the address it was built for (`served_site`): Material navigates
instantly only to the pages its sitemap.xml lists, which name that address. Each test
marks the window (`window.bvSamePage`): a page that reloaded would have lost the mark.
"""

import re
import time

import pytest

from scripts.reader import exercise_format
from tests.helpers import BOUND, follow, recorded

PYTHON_RUNTIME = re.compile(r"/assets/pyodide/|site-python\.zip|/javascripts/python/python-worker\.js")
RUN = "document.querySelector('.bv-run').runState"


@pytest.fixture(scope="module")
def reader(browser, served_site):
    """A page at chapter 1, the window marked, each request and error recorded: one reader's
    visit, which the tests below continue in file order (one page, one Python)."""
    page = recorded(browser.new_page(viewport={"width": 1280, "height": 900}))
    page.goto(served_site + "01-computational-graphs/", wait_until="load")
    page.evaluate("() => { window.bvSamePage = true; }")
    yield page
    page.close()


def run_block(page, n, timeout=60_000):
    """Run block n of the page shown (its Run button); the result, and seconds from the click."""
    page.wait_for_function(f"() => {RUN}?.blocks.length > 0")
    start = time.perf_counter()
    page.locator(".bv-run-bar").nth(n - 1).locator(".bv-run-run").click()
    page.wait_for_function(f"n => {{ const b = {RUN}?.blocks[n - 1]; return b && !b.running && b.result; }}",
                           arg=n, timeout=timeout)
    return page.evaluate(f"n => {RUN}.blocks[n - 1].result", n), time.perf_counter() - start


def test_the_next_chapter_keeps_python_and_its_first_run_needs_no_start(reader):
    page = reader
    first, cold_seconds = run_block(page, 1)
    assert first["kind"] == "result" and first["coldStart"], first
    runtime_fetches = len([u for u in page.requests if PYTHON_RUNTIME.search(u)])
    assert runtime_fetches > 0

    follow(page, "a.md-footer__link--next", "/02-chain-rule/")
    # Material's navigation swaps the <head>: the Run bars' and the progress's styles are there, in
    # site.css (scripts/build/stylesheets.py), which the new page links.
    page.wait_for_function("() => ['run-blocks.css', 'progress.css'].every(name => [...document.styleSheets]"
                           ".some(sheet => sheet.href?.endsWith('/stylesheets/site.css')"
                           " && sheet.ownerNode.dataset.bvParts.split(' ').includes(name)))")
    second, seconds = run_block(page, 1)
    assert second["kind"] == "result" and not second["coldStart"], second
    assert page.locator(".bv-run-output").first.inner_text().strip(), "the block shows its output"
    assert len([u for u in page.requests if PYTHON_RUNTIME.search(u)]) == runtime_fetches, \
        "nothing of Python was fetched again"
    print(f"\nmeasured: first Run, Python starting (chapter 1) {cold_seconds:.2f} s; first Run on the "
          f"next chapter, Python up (chapter 2) {seconds:.2f} s (budget 0.5 s)")

    # Back with the browser's own button: chapter 1 again, bound again, same Python.
    page.go_back()
    # The URL changes at once; Material then fetches chapter 1 and swaps it in. Until widgets.js
    # has bound it (BOUND), chapter 2's Run bars are still the page's.
    page.wait_for_function(f"() => location.pathname.endsWith('/01-computational-graphs/') && {BOUND}")
    assert page.evaluate("() => window.bvSamePage === true")
    again, _ = run_block(page, 1)
    assert again["kind"] == "result" and not again["coldStart"], again
    assert page.errors == []


def test_a_run_left_running_on_the_last_page_does_not_hold_up_the_next_pages_run(reader):
    """Chapter 1's block 1 edited into an endless loop and Run, then chapter 2 by the footer:
    its Run stops the loop (Python with it) instead of waiting out the loop's 20 s limit, and
    never says it waits. A learner who left a slow Run behind waited 20 s with nothing to see."""
    page = reader
    page.wait_for_function(f"() => {RUN}?.blocks.length > 0")
    page.evaluate(f"() => {RUN}.blocks[0].edit.click()")
    page.wait_for_function(f"() => {RUN}.blocks[0].editor")
    page.evaluate(f"() => {RUN}.blocks[0].editor.setCode('while True:\\n    pass\\n')")
    page.locator(".bv-run-bar").first.locator(".bv-run-run").click()
    page.wait_for_function(f"() => {RUN}.blocks[0].running")
    page.evaluate(f"() => {{ window.bvLoop = {RUN}.blocks[0]; }}")  # chapter 1's block, kept past the page
    follow(page, "a.md-footer__link--next", "/02-chain-rule/")
    page.evaluate("""() => { window.bvSaid = []; new MutationObserver(() => window.bvSaid.push(
        ...[...document.querySelectorAll('.bv-run-progress')].map(p => p.textContent)))
        .observe(document.querySelector('article'), { subtree: true, childList: true, characterData: true }); }""")
    result, seconds = run_block(page, 1)
    assert result["kind"] == "result" and result["coldStart"], result  # the loop took its Python down
    # The loop's own Run says how it ended: stopped by this Run, not at its 20 s limit ("timeout").
    # (A time alone could not tell: Python's start again took 12 to 20 s on this machine under load.)
    page.wait_for_function("() => window.bvLoop.result", timeout=30_000)
    assert page.evaluate("() => window.bvLoop.result.kind") == "stopped", "it waited for the loop's 20 s limit"
    assert not any("Waiting" in text for text in page.evaluate("() => window.bvSaid")), "it said it waits"
    print(f"\nmeasured: next chapter's Run with a loop left running on the last: {seconds:.2f} s "
          "(Python started again)")


def test_every_widget_of_a_page_reached_instantly_works(reader, served_site):
    """Chapter 2 to 4 through the footer, the playground through the navigation: a stepper
    steps, a quiz answers and counts in the progress, an exercise runs in a Python of its own
    (issue 25: none of the reader's chapter code ran there), and the playground, the page's own
    code, in the Python that has been loading since the exercise (none of the reader's code ran
    there either), with no start of its own."""
    page = reader
    pythons = []  # the Python workers started from here on
    page.on("worker", lambda worker: "python-worker" in worker.url and pythons.append(worker.url))
    follow(page, "a.md-footer__link--next", "/03-backprop-by-hand/")

    stepper = page.locator(".bv-stepper").first
    stepper.wait_for(state="visible")
    before = stepper.locator(".bv-widget__status").text_content()
    stepper.get_by_role("button", name=re.compile("Next forward step")).click()
    assert stepper.locator(".bv-widget__status").text_content() != before

    follow(page, "a.md-footer__link--next", "/04-engine/")
    # A quiz: right, and the chapter's progress (under its title and in the navigation) counts it.
    quiz = page.locator('.bv-quiz[data-quiz="number"]').first
    quiz.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('.bv-progress')")
    progress_before = page.locator(".bv-progress__text").text_content()
    answer = quiz.get_attribute("data-shown")
    quiz.get_by_label("Your answer").fill(answer)
    quiz.get_by_label("Your answer").press("Enter")
    assert quiz.get_attribute("data-state") == "right"
    assert page.locator(".bv-progress__text").text_content() != progress_before
    badge = page.locator(".md-nav__link--active .bv-progress-badge [aria-hidden]").first
    assert badge.text_content().startswith("1/")
    # An exercise, run with its solution, in a Python none of chapter 1's Runs ran in.
    exercise = page.locator('.exercise[data-exercise="local_add_mul"]')
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-editor").wait_for()
    solution = exercise_format.load("local_add_mul").solution
    page.evaluate("code => document.querySelector('.exercise[data-exercise=\"local_add_mul\"]')"
                  ".exerciseState.editor.setCode(code)", solution)
    exercise.locator(".exercise-run").click()
    page.wait_for_function("() => document.querySelector('.exercise[data-exercise=\"local_add_mul\"]')"
                           "?.classList.contains('is-running') === false", timeout=60_000)
    assert exercise.locator(".exercise-summary").text_content().startswith("All ")
    assert exercise.locator(".exercise-status").text_content().startswith("Python started in ")
    # the exercise's, and the one python.js starts for the next exercise once this Run ends (the
    # sync API hands on events only inside its calls: none can slip between the test and the wait)
    if len(pythons) < 2:
        page.wait_for_event("worker", lambda worker: "python-worker" in worker.url, timeout=10_000)
    started = len(pythons)

    follow(page, 'nav.md-nav--primary a.md-nav__link[href$="/playground/"]', "/playground/")
    page.get_by_role("button", name="Draw and check").click()
    page.wait_for_function("() => { const p = document.querySelector('.bv-playground')?.playground; "
                           "return p?.data && !p.running; }", timeout=60_000)
    assert page.locator(".bv-pg__pass").count() == 1, page.locator(".bv-playground").inner_text()
    # one more start: the next spare, once the playground took the one loading since the exercise
    assert len(pythons) == started + 1, (started, pythons)
    assert page.errors == []


WATCH_PROGRESS = """() => { window.progressLines = [];
    const record = () => document.querySelectorAll('.bv-run-progress').forEach((p) => {
        if (p.textContent && window.progressLines.at(-1) !== p.textContent) window.progressLines.push(p.textContent);
    });
    new MutationObserver(record).observe(document.body, { childList: true, characterData: true, subtree: true }); }"""


def test_a_page_opened_by_its_address_says_it_loads_python_again_and_from_where(cold_browser, origin):
    """Issue 44, item 12: "Downloading Python (first Run only)" showed on every page opened by its
    address (a link from outside, a new tab, a reload), each of which loads Python again. The
    first Run of a visit says it downloads; a later page's, its HTTP cache warm, says it loads from
    the browser's cache; neither says "first Run only"."""
    # The real browser's context: a routed one (the search index's) has no HTTP cache in Chromium
    context = cold_browser.real.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    said = []
    for path in ("01-computational-graphs", "02-chain-rule"):
        # a reader whose Python was up before gets it started before the Run (the next test): not here
        page.evaluate("() => localStorage.removeItem('bv-python')") if said else None
        page.goto(f"{origin}/{path}/", wait_until="load")
        page.evaluate(WATCH_PROGRESS)
        result, _ = run_block(page, 1, timeout=120_000)
        assert result["kind"] == "result" and result["coldStart"], result
        said.append(page.evaluate("window.progressLines"))
    first, second = said
    assert any(re.fullmatch(r"Downloading Python: [0-9.]+ of [0-9.]+ MB", line) for line in first), first
    assert not any("Downloading" in line for line in second), second
    assert any(re.fullmatch(r"Loading Python from your browser's cache: [0-9.]+ of [0-9.]+ MB", line)
               for line in second), second
    assert not any("first Run" in line for line in first + second), said
    context.close()


def test_a_returning_readers_page_starts_python_before_the_first_run(cold_browser, origin):
    """Issue 44: a page opened by its address loads Python again, about 2-3 s here with the
    browser's cache warm, mostly compiling the interpreter, and its first Run waited for all of it.
    For a reader whose Python was up before in this browser, the page starts its own as its blocks
    come near, with the first Run's imports, so the reader's reading hides it: the Run says Python
    was loading since before it, or needs no start. A first visit starts nothing before a Run
    (13 MB only when asked for). The seconds: scripts/tools/bench_first_run.py."""
    context = cold_browser.real.new_context(viewport={"width": 1280, "height": 900})
    page = recorded(context.new_page())
    page.goto(f"{origin}/01-computational-graphs/", wait_until="load")
    page.wait_for_function(f"() => {RUN}?.blocks?.[0]?.bar")
    python = [w for w in page.workers if "python-worker" in w.url]  # (Material's search has one too)
    assert page.evaluate(f"{RUN}.warmed") is False and python == []  # a first visit: nothing yet
    result, _ = run_block(page, 1, timeout=120_000)
    assert result["kind"] == "result" and result["started"].startswith("Python started in"), result
    assert page.evaluate("() => localStorage.getItem('bv-python')") == "true"
    with page.expect_worker(lambda worker: "python-worker" in worker.url, timeout=60_000):  # before any Run
        page.goto(f"{origin}/02-chain-rule/", wait_until="load")
    assert page.evaluate(f"{RUN}.warmed") is True and page.evaluate(f"{RUN}.blocks.every((b) => !b.result)")
    result, _ = run_block(page, 1, timeout=120_000)
    assert result["kind"] == "result", result
    assert not result["coldStart"] or re.fullmatch(
        r"Python, loading since before this Run, was ready in [0-9.]+ s", result["started"]), result
    assert not page.errors, page.errors
    context.close()


def test_a_returning_reader_who_asks_to_save_data_gets_no_python_before_a_run(browser, origin):
    """A reader whose browser asks sites to save data (navigator.connection.saveData, Chrome's
    Data Saver; set here by a script before the page's own) is not sent 13 MB they did not ask
    for: their page starts no Python as its blocks come near, even though their Python was up
    before (run-blocks.js: setUpBar). Their Run starts it, and says so."""
    page = recorded(browser.new_page(viewport={"width": 1280, "height": 900}))
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'connection', "
                         "{ get: () => ({ saveData: true }), configurable: true });")
    page.goto(f"{origin}/01-computational-graphs/", wait_until="load")
    page.evaluate("() => localStorage.setItem('bv-python', 'true')")  # their Python was up before
    page.goto(f"{origin}/02-chain-rule/", wait_until="load")
    page.wait_for_function(f"() => {RUN}?.blocks?.[0]?.bar")  # the first bar set up: warming was decided then
    assert page.evaluate("() => navigator.connection.saveData") is True
    assert page.evaluate(f"{RUN}.warmed") is False
    assert [w for w in page.workers if "python-worker" in w.url] == []
    result, _ = run_block(page, 1, timeout=120_000)
    assert result["kind"] == "result" and result["started"].startswith("Python started in"), result
    assert not page.errors, page.errors

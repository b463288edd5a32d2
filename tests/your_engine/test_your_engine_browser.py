"""Your engine runs the book, in the browser (issue 28, items 1-3), in Debian's Chromium on the
built site, clicked as a reader clicks: the switch "Run on: micrograd | your engine" on every
page (docs/javascripts/engine-switch.js), every Run, a stepper's "Run with these values" and the
playground on the reader's engine, the "Your engine" page's map of the whole book
(engine-map.js) and a failed block's first differing node, lit (scripts/reader/your_engine.py:
diagnose). The engines are tests/engines/: the book's solution, the lecture's closure shape and
the classic bugs. The budgets are printed, not asserted: the first Run after switching with
Python up (0.5 s), the whole book (30 s)."""

import re
import time

import pytest

from scripts import ROOT
from tests import engines
from tests.helpers import report_shot, settled, stepper_view, wait_for_text

# The engine switch's status (engine-switch.js: describe()): what runs on which engine
ON_YOURS = "Chapter blocks, steppers and the playground run on your engine"
ON_MICROGRAD = "Chapter blocks, steppers and the playground run on micrograd"

ENGINES = ROOT / "tests" / "engines"
MAP = "document.querySelector('.bv-engine-map').engineMap"
# The same for a wait: after a load or instant navigation the element may not be there yet, and a
# predicate that throws fails the wait at once (seen with PyTorch installed, after go_back())
MAP_SOON = "document.querySelector('.bv-engine-map')?.engineMap"
RUN = "document.querySelector('.bv-run').runState"


def engine_page(browser, origin, **context):
    """A new reader (a page of their own, nothing stored: tests/conftest.py) on the Your engine page."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, **context)
    page.goto(origin + "/your-engine/")
    page.wait_for_function(f"() => {MAP_SOON}", timeout=30_000)
    return page


@pytest.fixture(scope="module")
def reader(browser, origin):
    """One reader on the Your engine page for the tests that give an engine and run the book on
    it: each gives its own, so nothing of the one before is left in use (the map is the new
    engine's: its run replaces it, and each test checks its counts and causes). Python starts
    once (the first check), not once a test: the page, its Python and its start cost 3 to 4 s a
    test here. `page.python_up` says whether an earlier test has started it."""
    page = engine_page(browser, origin)
    page.python_up = False
    yield page
    page.close()


def give_engine(page, name, how="paste"):
    """Paste the engine `name` of tests/engines/ and press Use this code, or choose its file (book,
    lecture), as a reader would; the status once it is checked (this check's: the line an earlier
    engine left is cleared first)."""
    page.evaluate("() => { document.querySelector('.bv-map__status').textContent = ''; }")
    if how == "file":
        page.get_by_label("or choose a file:").set_input_files(ENGINES / f"{name}.py")
    else:
        page.get_by_label("Paste your engine").fill(engines.source(name))
        page.get_by_role("button", name="Use this code").click()
    status = page.locator(".bv-map__status")
    wait_for_text(page, ".bv-map__status", r"passed its check|did not pass", timeout=120_000)
    return status.text_content()


def run_book(page):
    """Press Run the book on your engine; its chapters' counts and timing once it is done."""
    page.evaluate(f"() => {{ {MAP}.timing = null; }}")
    page.get_by_role("button", name="Run the book on your engine").click()
    page.wait_for_function(f"() => {MAP}.timing", timeout=240_000)
    return page.evaluate(f"() => ({{chapters: {MAP}.chapters, timing: {MAP}.timing}})")


def switch(page):
    return {"micrograd": page.get_by_role("radio", name="micrograd", exact=True).is_checked(),
            "yours": page.get_by_role("radio", name="your engine", exact=True).is_checked(),
            "status": page.locator(".bv-engine__status").text_content()}


def run_block(page, n):
    """Click Run on block n; its progress line once the Run is shown, and the ms it took."""
    page.evaluate(f"n => {{ const b = {RUN}.blocks[n - 1]; b.result = null; b.progress.textContent = ''; "
                  "window.bvRunStart = performance.now(); b.run.click(); }", n)
    page.wait_for_function(f"n => {{ const b = {RUN}.blocks[n - 1]; return !b.running && b.result && "
                           "/Ran on/.test(b.progress.textContent); }", arg=n, timeout=120_000)
    ms = page.evaluate("() => performance.now() - window.bvRunStart")
    return page.evaluate(f"n => {RUN}.blocks[n - 1].progress.textContent", n), ms


def test_the_switch_is_on_every_page_kept_across_pages_and_a_reload_and_every_result_names_its_engine(
        browser, origin):
    page = engine_page(browser, origin)
    assert switch(page) == {"micrograd": True, "yours": False,
                            "status": f"{ON_MICROGRAD}, the book's engine."}
    page.get_by_role("radio", name="your engine", exact=True).check()  # no engine yet: it says so
    assert "You have no engine yet" in switch(page)["status"]
    assert "passed its check" in give_engine(page, "book")
    assert switch(page)["yours"]
    assert switch(page)["status"].startswith(f"{ON_YOURS}: the code you pasted, "
                                             "in this book's shape")

    page.goto(origin + "/")  # the home page has the switch too
    assert switch(page)["yours"], "the choice is kept across pages"
    page.goto(origin + "/01-computational-graphs/")  # a chapter, a fresh Python
    assert switch(page)["yours"]
    page.reload()
    assert switch(page)["yours"], "and across a reload"
    progress, _ = run_block(page, 1)
    assert progress.endswith("Ran on your engine."), progress

    # Python is up: the first Run after each switch, on each engine.
    page.get_by_role("radio", name="your engine", exact=True).focus()  # the keyboard: an arrow key switches
    page.keyboard.press("ArrowLeft")
    assert switch(page)["micrograd"] and switch(page)["status"].startswith(ON_MICROGRAD)
    progress, ms_micrograd = run_block(page, 2)
    assert progress.endswith("Ran on micrograd."), progress
    page.get_by_role("radio", name="your engine", exact=True).check()
    progress, ms_yours = run_block(page, 3)
    assert re.fullmatch(r"Blocks 1 to 3 ran in [0-9.]+ s\. Ran on your engine\.", progress), progress
    print(f"\nFirst Run after switching, Python up (budget 0.5 s): to micrograd {ms_micrograd / 1000:.2f} s, "
          f"to your engine {ms_yours / 1000:.2f} s")

    page.close()


@pytest.mark.parametrize(("name", "how"), [("book", "paste"), ("lecture", "file")])
def test_a_correct_engine_maps_the_book_without_a_failure(reader, name, how):
    page = reader
    started = time.perf_counter()
    assert "passed its check" in give_engine(page, name, how)
    checked = time.perf_counter() - started  # the check, and Python's start if it is the page's first call
    starting, page.python_up = "" if page.python_up else "Python's start and ", True
    shape = "this book's shape" if name == "book" else "the lecture's shape"
    assert shape in switch(page)["status"]
    if how == "file":  # the file's name is how the page names the engine, and its code is in the box
        assert "the code in lecture.py" not in switch(page)["status"]
        assert switch(page)["status"].startswith(f"{ON_YOURS}: lecture.py,")
        assert page.get_by_label("Paste your engine").input_value() == engines.source("lecture")
    result = run_book(page)
    rows = result["chapters"]
    print(f"\n{name}: the book in {result['timing']['bookMs'] / 1000:.1f} s (budget 30 s), after {starting}"
          f"the engine's check in {checked:.1f} s")
    for row in rows:
        print(f"  {row['title']}: {row.get('passed')} passed, {row.get('failed')} failed, "
              f"{row.get('notApplicable')} not applicable, {row.get('didNotRun')} did not run")
    ran = [row for row in rows if "passed" in row]
    assert len(ran) >= 8 and all(row["passed"] > 0 for row in ran), rows
    assert [row for row in rows if row.get("failed") or row.get("error")] == []
    assert page.locator(".bv-map__failure").count() == 0
    assert page.locator(".bv-map__pass").text_content().startswith("No block failed")
    # Every block that does not apply says what it reads.
    page.locator(".bv-map__na-list summary").first.click()
    first = page.locator(".bv-map__na-list li").first.text_content()
    assert re.fullmatch(r"Block \d+: .*\S", first), first


BUGS = {  # tests/engines/__init__.py's bugs: the classic mistake, and how the cause begins
    "assign": "Likely cause: = instead of +=",
    "no_upstream": "Likely cause: the upstream factor left out",
    "reversed_order": "Likely cause: a wrong visit order",
    "tanh_from_input": "Likely cause: tanh's local derivative taken from the input",
    # one bug in one operation or operand (issue 44): named with that operation, in both shapes
    "assign_mul_right": "Likely cause: = instead of += in *'s backward, for its right operand",
    "no_upstream_tanh": "Likely cause: the upstream factor left out of tanh's backward",
    "pow_exponent": "Likely cause: a wrong local derivative in **'s backward",
    "lecture_assign_add": "Likely cause: = instead of += in +'s backward",
    "lecture_assign_mul": "Likely cause: = instead of += in *'s backward",
    "lecture_reversed_order": "Likely cause: a wrong visit order",
}


@pytest.fixture(scope="module")
def assign_map(browser, origin):
    """(page, run_book's result): the assign engine's map of the book, in light mode at 1280 px,
    made once for the tests that read it (a run of the book is 6 to 10 s here)."""
    page = engine_page(browser, origin, color_scheme="light")
    give_engine(page, "assign")
    yield page, run_book(page)
    page.close()


@pytest.mark.parametrize("name", BUGS)
def test_a_buggy_engine_shows_its_failures_and_a_lit_node_with_both_numbers_and_the_cause(
        reader, assign_map, name):
    """Each classic bug of tests/engines/ (the book's engine with one change): the map shows
    failures, each linked to its block with the page's output beside the reader's; Node by node,
    pressed from the keyboard on the first failure that has a graph whose grads differ, lights
    that node with both numbers and names the cause. For the assign engine, the link goes to
    the block, and back on the map's page the map is there again (the page's, the same for
    every engine: checked once). The other bugs are given in turn to one reader (`reader`)."""
    if name == "assign":
        page, result = assign_map
    else:
        page = reader
        give_engine(page, name)
        page.python_up = True
        result = run_book(page)
    failed = {row["title"]: row["failed"] for row in result["chapters"] if row.get("failed")}
    print(f"\n{name}: the book in {result['timing']['bookMs'] / 1000:.1f} s; failures per chapter {failed}")
    assert failed, result
    status = page.locator(".bv-map__status").text_content()
    assert re.fullmatch(rf"Ran on your engine: \d+ blocks passed, {sum(failed.values())} failed, \d+ did not "
                        r"apply, in [0-9.]+ s\.", status), status
    failures = page.locator(".bv-map__failure")
    assert failures.count() == sum(failed.values())
    for i in range(failures.count()):
        failure = failures.nth(i)
        link = failure.get_by_role("link").first
        assert re.fullmatch(r".*/[0-9]+-[a-z-]+/#block-\d+", link.get_attribute("href"))
        page_out, yours = failure.locator(".bv-map__pair pre").all_text_contents()
        assert page_out != yours
        failure.get_by_role("button", name=re.compile("^Node by node")).focus()  # the keyboard
        page.keyboard.press("Enter")
        node = failure.locator(".bv-map__node")
        page.wait_for_function("n => { const p = document.querySelectorAll('.bv-map__node')[n]; "
                               "return p.textContent && !/^Comparing/.test(p.textContent); }", arg=i, timeout=60_000)
        assert "None of the classic mistakes gives this difference" not in node.text_content()
        if re.search(r"micrograd gives grad \S+, your engine \S+\.$", node.locator("p").first.text_content()):
            break
    else:
        pytest.fail(f"no failure of {name} has a node whose grad differs")
    print(f"  block {failure.get_attribute('data-page')}#{failure.get_attribute('data-block')}: "
          f"{node.locator('p').first.text_content()}")
    page.wait_for_function("n => document.querySelectorAll('.bv-map__node')[n].querySelector('svg')", arg=i,
                           timeout=60_000)
    text = node.locator("p").first.text_content()
    numbers = re.search(r"micrograd gives grad (\S+), your engine (\S+)\.$", text)
    assert numbers and numbers[1] != numbers[2], text
    assert node.locator(".bv-map__cause").text_content().startswith(BUGS[name])
    svg = node.locator("svg")
    assert svg.get_attribute("role") == "img"
    assert "your engine" in svg.text_content(), "the lit node carries the reader's number"
    if name != "assign":
        return
    # The link goes to the block on its page.
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url(href)
    assert page.locator(f"#{href.split('#')[1]}").count() == 1, href
    # Back on the map's page, the map of this visit is there again, and Node by node still works.
    page.go_back()
    page.wait_for_function(f"() => {MAP_SOON}?.chapters.length", timeout=30_000)
    assert page.locator(".bv-map__status").text_content().startswith("Your engine's map from earlier in this "
                                                                      f"visit: {status.split(': ', 1)[1][:-1]}")
    assert page.locator(".bv-map__failure").count() == sum(failed.values())
    again = page.locator(".bv-map__failure").nth(i)
    again.get_by_role("button", name=re.compile("^Node by node")).click()
    page.wait_for_function("n => document.querySelectorAll('.bv-map__node')[n].querySelector('svg')", arg=i,
                           timeout=60_000)
    assert again.locator(".bv-map__cause").text_content().startswith(BUGS[name])


def test_the_map_and_a_lit_node_read_well_at_1280_and_390_px_light_and_dark(assign_map):
    """One map of the assign engine, with a node lit, read in light mode and then in dark mode,
    switched as a reader switches (Material's toggle), each at 1280 and 390 px: nothing wider
    than the window, axe's WCAG A and AA rules pass. (One book's run for both schemes: it was
    two, 10 s each.)"""
    page, _ = assign_map
    page.locator(".bv-map__diagnose").first.click()
    page.wait_for_function("() => document.querySelector('.bv-map__node svg')", timeout=60_000)
    page.add_script_tag(content=(ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    problems = []
    for scheme, width in [("light", 390), ("light", 1280), ("dark", 1280), ("dark", 390)]:
        if scheme == "dark" and page.evaluate("document.body.dataset.mdColorScheme") != "slate":
            page.get_by_title("Switch to dark mode").click()
            page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
            page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")
        page.set_viewport_size({"width": width, "height": 900})
        settled(page)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            problems.append(f"{scheme} {width} px: the page is {wide} px wide")
        table = page.evaluate("() => { const t = document.querySelector('.bv-map__table'); "
                              "return [t.scrollWidth, t.clientWidth]; }")
        if table[0] > table[1]:
            problems.append(f"{scheme} {width} px: the map scrolls sideways ({table})")
        report_shot(page.locator(".bv-map__table"), f"engine-map-{width}-{scheme}.png",
                    style=".md-header { visibility: hidden }")
        report_shot(page.locator(".bv-map__failure").first, f"engine-node-{width}-{scheme}.png",
                    style=".md-header { visibility: hidden }")
        report_shot(page.locator(".bv-engine"), f"engine-switch-{width}-{scheme}.png")
        problems += [f"{scheme} {width} px: {v}" for v in page.evaluate("""async () => {
            const result = await axe.run({ include: [['.bv-engine'], ['.bv-engine-map']] },
                                         { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
            return result.violations.map(v =>
                `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
        }""")]
    # Labelled controls and a status a screen reader reads out.
    for label in ("Paste your engine", "or choose a file:"):
        assert page.get_by_label(label).count() == 1, label
    assert page.locator(".bv-map__status").get_attribute("role") == "status"
    assert page.locator(".bv-engine__status").get_attribute("role") == "status"
    assert problems == [], problems


WHOLE = '.exercise[data-exercise="whole_engine"]'


def pass_whole_engine(page):
    """Put the solution in chapter 4's whole-engine exercise and press Run; once all its tests passed."""
    from scripts.reader import exercise_format

    exercise = page.locator(WHOLE)
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-editor").wait_for()
    page.evaluate(f"code => document.querySelector('{WHOLE}').exerciseState.editor.setCode(code)",
                  exercise_format.load("whole_engine").solution)
    exercise.locator(".exercise-run").click()
    page.wait_for_function(f"() => {{ const e = document.querySelector('{WHOLE}'); "
                           "return e !== null && !e.classList.contains('is-running'); }",
                           timeout=120_000)
    assert exercise.locator(".exercise-summary").text_content().startswith("All ")


def test_a_passed_whole_engine_exercise_is_your_engine_and_code_without_a_value_is_refused(browser, origin):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(origin + "/04-engine/")
    page.get_by_role("radio", name="your engine", exact=True).check()
    assert "You have no engine yet" in switch(page)["status"], "an exercise not yet passed is no engine"
    pass_whole_engine(page)
    page.goto(origin + "/02-chain-rule/")  # the pass is kept: the switch finds the exercise's code
    wait_for_text(page, ".bv-engine__status", r"run on your engine:", timeout=120_000)
    assert "your whole-engine exercise (chapter 4)" in switch(page)["status"]
    progress, _ = run_block(page, 2)
    assert progress.endswith("Ran on your engine."), progress

    page.goto(origin + "/your-engine/")
    page.wait_for_function(f"() => {MAP_SOON}", timeout=30_000)
    page.get_by_label("Paste your engine").fill("x = 1\n")
    page.get_by_role("button", name="Use this code").click()
    wait_for_text(page, ".bv-map__status", r"did not pass", timeout=120_000)
    assert switch(page)["status"].startswith("Every Run still runs on micrograd: the code you pasted did not pass "
                                             "its check: "), switch(page)["status"]
    page.get_by_role("button", name="Forget the pasted code").click()  # the exercise's engine again
    assert "your whole-engine exercise (chapter 4)" in switch(page)["status"]

    # The whole book can be stopped: Stop shows beside the button while a chapter runs.
    page.get_by_role("button", name="Run the book on your engine").click()
    page.locator(".bv-map__run-row").get_by_role("button", name="Stop").click()
    page.wait_for_function(f"() => {MAP_SOON} && !{MAP_SOON}.running")
    status = page.locator(".bv-map__status").text_content()
    assert re.fullmatch(r"Stopped in .+: Stopped\. Python was shut down; the next Run starts it again\. The map "
                        r"shows the chapters before it\.", status), status
    assert page.evaluate(f"() => {MAP}.timing") is None
    page.close()


def test_passing_the_whole_engine_exercise_with_the_switch_on_your_engine_updates_the_switch_at_once(
        browser, origin):
    """The switch on "your engine" with no engine yet says so; passing chapter 4's whole-engine
    exercise then makes its code the engine, and the switch says so without a toggle or a reload
    (before, it said "You have no engine yet" until one), and the next Run runs on it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(origin + "/04-engine/")
    page.get_by_role("radio", name="your engine", exact=True).check()
    assert "You have no engine yet" in switch(page)["status"]
    pass_whole_engine(page)
    wait_for_text(page, ".bv-engine__status", r"run on your engine:", timeout=60_000)
    assert switch(page)["yours"]
    assert "the code that passed your whole-engine exercise (chapter 4)" in switch(page)["status"]
    progress, _ = run_block(page, 1)
    assert progress.endswith("Ran on your engine."), progress
    page.close()


def test_an_edit_after_passing_the_whole_engine_exercise_leaves_the_switch_and_every_run_on_the_code_that_passed(
        browser, origin):
    """The engine is the code that passed: an edit of the exercise's code after its pass (typed, and
    kept by the page as typed) changes neither what the switch says nor what a Run runs on, before
    and after a reload. Before, the switch went on saying "your engine" while the next Run said
    "Ran on micrograd." (the edited code had no check, so micrograd ran)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(origin + "/04-engine/")
    pass_whole_engine(page)
    page.get_by_role("radio", name="your engine", exact=True).check()
    wait_for_text(page, ".bv-engine__status", r"run on your engine:", timeout=60_000)
    passed = switch(page)["status"]
    page.locator(WHOLE).locator(".cm-content").click()  # an edit, as a reader types it, not run
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type("\nValue = None  # not yet\n")
    page.wait_for_function("() => /not yet/.test(localStorage.getItem(Object.keys(localStorage).find("
                           "k => k.startsWith('bv-exercise:whole_engine:'))))")  # the edit is kept
    for when in ("after the edit", "after a reload"):
        if when == "after a reload":
            page.reload()
            page.wait_for_function(f"() => {RUN}")
        status = switch(page)["status"]
        progress, _ = run_block(page, 1)
        ran = "your engine" if "run on your engine:" in status else "micrograd"
        assert progress.endswith(f"Ran on {ran}."), (when, status, progress)  # the switch says what ran
        assert (status, ran) == (passed, "your engine"), when  # and that is the code that passed
    page.close()


def test_a_result_your_engine_changed_says_your_engine_ran_before_it_names_the_python_version(browser, origin):
    """A new reader's audit: on a buggy engine, a block whose results differed said only "The page
    ran in 64-bit Python 3.11.7; your browser runs 32-bit Python…", as if Python were the cause."""
    page = engine_page(browser, origin)
    assert "passed its check" in give_engine(page, "assign")  # = instead of +=: three steps' grads are lost
    assert switch(page)["yours"]
    page.goto(origin + "/04-engine/")
    # a block that applies (the one with b = a * a reads _local: not applicable to a reader's engine)
    n = page.evaluate(f"""() => {RUN}.blocks.find(b => b.code.textContent.includes('out = n(inputs)')).n""")
    progress, _ = run_block(page, n)
    assert progress.endswith("Ran on your engine."), progress
    summary = page.evaluate(f"n => {RUN}.blocks[n - 1].output.querySelector('.bv-run-fail').textContent", n)
    assert re.fullmatch(r"\d of \d+ results differ from the page's: marked, with the page's after “page:”\. "
                        r"This Run used your engine; the page's results are micrograd's\.( The page ran in .+)?",
                        summary), summary
    page.close()


# An engine that passes its check and has no Value when a Run uses it (a hostile audit's; a flaky
# engine does the same): it has a Value only while check_engine runs it.
FLIPS = """import sys
def _on_stack(name):
    f = sys._getframe()
    while f is not None:
        if f.f_code.co_name == name:
            return True
        f = f.f_back
    return False
if _on_stack("_check_engine"):
    from micrograd.engine import Value
else:
    Value = 1
"""


def test_an_engine_that_fails_after_its_check_stops_the_run_without_blaming_the_page(browser, origin):
    """Before, the Run said "The page asked Python for what it does not do: EngineError: …"."""
    page = engine_page(browser, origin)
    page.get_by_label("Paste your engine").fill(FLIPS)
    page.get_by_role("button", name="Use this code").click()
    wait_for_text(page, ".bv-map__status", r"passed its check|did not pass", timeout=120_000)
    assert "passed its check" in page.locator(".bv-map__status").text_content()
    page.goto(origin + "/01-computational-graphs/")
    page.wait_for_function(f"() => {RUN}")
    page.evaluate(f"() => {{ const b = {RUN}.blocks[0]; b.result = null; b.run.click(); }}")
    page.wait_for_function(f"() => {{ const b = {RUN}.blocks[0]; return !b.running && b.result; }}", timeout=120_000)
    shown = page.evaluate(f"() => {RUN}.blocks[0].output.textContent + {RUN}.blocks[0].progress.textContent")
    assert "This Run stopped on an error: EngineError: your engine's Value is an object of type int, " \
           "not a class" in shown, shown
    assert "The page asked" not in shown
    page.close()


# Two engines whose 32-bit FNV-1a hashes are the same (f5fa9e14), found by a hostile reader's
# audit in about a second: the switch kept a check's verdict under that hash, so the second,
# with no usable Value, "passed its check" on the first one's verdict.
USABLE = "from micrograd.engine import Value\n# a178797"
NO_VALUE = "Value = 1\n# b113110"


def test_a_check_is_kept_for_its_own_code_so_another_text_is_checked_again(browser, origin):
    page = engine_page(browser, origin)
    for text, said in [(USABLE, "passed its check"), (NO_VALUE, "did not pass")]:
        page.evaluate("() => { document.querySelector('.bv-map__status').textContent = ''; }")
        page.get_by_label("Paste your engine").fill(text)
        page.get_by_role("button", name="Use this code").click()
        wait_for_text(page, ".bv-map__status", r"passed its check|did not pass", timeout=120_000)
        assert said in page.locator(".bv-map__status").text_content(), (text, said)
    assert switch(page)["status"].startswith("Every Run still runs on micrograd"), switch(page)
    page.close()


def to_the_end(widget):
    for name in ("Next forward step", "Next backward step"):
        button = widget.get_by_role("button", name=name, exact=True)
        while button.is_enabled():
            button.click()


def draw_and_check(page):
    """Press Draw and check; the progress line once the result is shown, and the ms it took."""
    page.evaluate("() => { document.querySelector('.bv-pg__progress').textContent = ''; }")
    page.get_by_role("button", name="Draw and check").click()
    wait_for_text(page, ".bv-pg__progress", r"Ran on", timeout=120_000)
    ms = page.evaluate("() => document.querySelector('.bv-playground').playground.timing.totalMs")
    return page.locator(".bv-pg__progress").text_content(), ms


def test_a_stepper_and_the_playground_run_on_a_buggy_engine_show_its_numbers_and_say_so(browser, origin):
    """Issue 28, items 1 and 3: with the switch on the reader's engine (= for +=), chapter 4's
    stepper b = a·a, run with a = 3, steps through that engine's own backward pass: a.grad
    ends at 3, not micrograd's 6, and the step says what it wrote; the playground builds the
    expression with it, and checked against micrograd lights the first node whose grad differs
    with both numbers and names the cause. Before, both ran micrograd and said so."""
    page = engine_page(browser, origin)
    give_engine(page, "assign")
    page.goto(origin + "/04-engine/")
    widget = page.locator(".bv-stepper").first
    widget.scroll_into_view_if_needed()
    widget.get_by_label("a", exact=True).fill("3")
    widget.get_by_role("button", name="Run with these values").click()
    page.wait_for_function("() => /^Traced by your engine in your browser with a = 3:/.test("
                           "document.querySelector('.bv-widget__leaf-note')?.textContent)", timeout=120_000)
    to_the_end(widget)
    fields = stepper_view(widget)["fields"]
    grads = {node: text for node, texts in fields.items() for text in texts if text.startswith("grad")}
    assert sorted(grads.values()) == ["grad 1.0000", "grad 3.0000"], grads  # micrograd: 6 for a
    widget.get_by_role("button", name="Back one step", exact=True).click()
    assert "a.grad became 3, not 3 + 3 × 1 = 6." in stepper_view(widget)["caption"]

    page.goto(origin + "/playground/")
    against = page.get_by_role("group", name="Check against:")
    assert against.is_visible()
    page.get_by_label("Expression").fill("a * b + a")
    page.get_by_label("Leaf values").fill("a = 2, b = -3")
    against.get_by_role("radio", name="micrograd").check()
    progress, _ = draw_and_check(page)
    assert "Built, traced and checked by your engine in" in progress, progress
    assert progress.endswith("Ran on your engine, checked against micrograd."), progress
    assert page.get_by_role("columnheader", name="micrograd's grad").is_visible()
    summary = page.locator(".bv-pg__fail").first.text_content()
    assert summary.startswith("Your engine's grads differ from micrograd's. The first node, in reverse topological "
                              "order, whose grad differs is a, lit on the graph: micrograd gives grad −2, your "
                              "engine −3. Likely cause: = instead of +="), summary
    lit = page.locator(".bv-pg__graph g.node", has_text="micrograd: grad")
    assert lit.count() == 1 and "grad -3.0000" in lit.text_content() and "micrograd: grad -2.0000" in lit.text_content()
    rows = page.locator(".bv-pg__table tbody tr").all_inner_texts()
    assert rows[0].split("\t")[:3] == ["a", "−3", "−2"], rows
    against.get_by_role("radio", name="finite differences").check()
    progress, _ = draw_and_check(page)
    assert progress.endswith("Ran on your engine."), progress
    assert page.get_by_role("columnheader", name="finite differences").is_visible()
    assert page.locator(".bv-pg__table tbody tr").first.inner_text().split("\t")[1] == "−3", "your engine's grad"

    # Back on micrograd: nothing to check against, and it says what ran. Then the first Run after
    # switching to the reader's engine, Python up (budget 0.5 s).
    page.get_by_role("radio", name="micrograd", exact=True).first.check()
    assert not against.is_visible(), "no engine of the reader's: nothing to check against"
    progress, ms_micrograd = draw_and_check(page)
    assert progress.endswith("Ran on micrograd."), progress
    page.get_by_role("radio", name="your engine", exact=True).check()
    page.wait_for_function("() => document.querySelector('.bv-pg__against')?.hidden === false")
    progress, ms_yours = draw_and_check(page)
    assert progress.endswith("Ran on your engine."), progress
    print(f"\nPlayground, first Draw and check after switching, Python up (budget 0.5 s): to micrograd "
          f"{ms_micrograd / 1000:.2f} s, to your engine {ms_yours / 1000:.2f} s")
    page.close()


# An edit that replaces micrograd's Value.__mul__ with a function needing the edit's own names
# (`_m`): after its Run those names are gone, so any later product in that Python fails.
LEAVES_A_BROKEN_MUL = """
import micrograd.engine as _e
_m = _e.Value.__mul__
def _mul(self, other):
    return _m(self, other)
_e.Value.__mul__ = _mul
"""


def test_what_an_earlier_edit_left_never_decides_an_engines_check_and_reset_gives_a_fresh_python(browser, origin):
    """A hostile audit: an edited Run left micrograd's __mul__ broken; the reader then checked the
    correct engine `from micrograd.engine import Value` in that same Python, and it "did not pass"
    (NameError), a verdict kept for good. And with the switch on their engine, "Reset your edits
    and Run again for a fresh Python" was false: a Run on the reader's engine kept its Python
    whatever had run there. Now a call that brings no edit (the check, an unedited Run) runs where
    none of the reader's other code ran, an error where it did says so, and the advice names a
    reload, which keeps the edits."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(f"localStorage.setItem('bv-engine-source', JSON.stringify("
                            f"{{name: 'mine.py', text: {USABLE!r} + ' (leftover test)'}}))")
    page = context.new_page()
    page.goto(origin + "/04-engine/")
    page.wait_for_function(f"() => {RUN}")
    page.evaluate(f"() => {RUN}.blocks[0].edit.click()")
    page.wait_for_function(f"() => {RUN}.blocks[0].editor")
    page.evaluate(f"text => {RUN}.blocks[0].editor.setCode({RUN}.blocks[0].editor.getCode() + text)",
                  LEAVES_A_BROKEN_MUL)
    run_block(page, 1)  # the edit runs: micrograd's __mul__ is the edit's from now on, in this Python
    page.get_by_role("radio", name="your engine", exact=True).check()  # checks the engine
    page.wait_for_function("() => /run on your engine|did not pass/.test(document.querySelector('.bv-engine__status')"
                           "?.textContent)", timeout=120_000)
    assert switch(page)["status"].startswith(ON_YOURS), switch(page)

    run_block(page, 2)  # on the engine, with the edit: its Python, where this Run's edit runs again
    page.evaluate(f"() => {{ const b = {RUN}.blocks[1]; b.result = null; b.run.click(); }}")
    page.wait_for_function(f"() => {{ const b = {RUN}.blocks[1]; return !b.running && b.result; }}", timeout=120_000)
    # again: the edit now wraps the last Run's __mul__, whose _m is gone
    shown = page.evaluate(f"() => {RUN}.blocks[1].output.textContent")
    assert "NameError" in shown and "An earlier Run gave this same Python code of yours" in shown, shown
    assert "reload the page (this tab keeps your edits, where the browser lets it store them)" in shown, shown

    page.evaluate(f"() => {RUN}.blocks[0].reset.click()")
    progress, _ = run_block(page, 2)  # no edit left: a fresh Python, on the engine
    assert progress.startswith("Python started afresh"), progress
    # block 2 reads _local: not applicable to a reader's engine (issue 44, item 5), and no error now
    shown = page.evaluate(f"() => {RUN}.blocks[1].output.textContent")
    assert "Ran on your engine." in progress and shown.startswith("Not applicable to your engine: reads _op") \
        and "Error" not in shown, shown
    context.close()

"""Every chapter's exercises but chapter 4's (issue 47) in the reader's browser, in Debian's
Chromium, on the built site. Each exercise's first classic mistake is typed in with the keyboard,
as a reader pastes it, and Run: the page must show the rows pytest's runner gives in CPython, the
mistake's message among the failures. Its solution, its starter and its other mistakes go
through the same grader in the worker's kept Python (tests/warm_python.py), so each exercise
costs one fresh Python, the one its Run takes. One exercise of each kind of page (chapter 5's
prediction, the widest program of chapters 1 to 5; chapter 9's softmax prediction; chapter 12's
debug exercise, whose messages print matrices as nested lists) is read at 1280 and 390 px,
light and dark, with a mistake's message, its hints and its solution open: nothing scrolls
sideways, axe finds no WCAG 2 A or AA problem (screenshots saved when BV_SHOTS names a folder).
Chapters 9 and 12 have no Run bars (their blocks need NumPy): their exercises run all the same.

Chapter 4's exercises have their own file (tests/exercises/test_exercises_browser.py), and so has
chapter 11's closures exercise (tests/exercises/test_closures_browser.py), whose starter has
blanks; tests/exercises/test_exercises.py checks every exercise in CPython."""

import re

import pytest

from scripts import ROOT
from scripts.reader import exercise_format
from tests.chapter_page import block, code_of, expected_rows, report, run, set_code, set_scheme
from tests.helpers import BOUND, foreign, report_shot

AXE = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
ELSEWHERE = {"04-engine"}  # chapters whose exercises have a file of their own
OWN_FILE = {"closures"}  # exercises graded in a file of their own
PLACED = [(page.stem, name) for page in sorted((ROOT / "docs").glob("[01][0-9]-*.md"))
          for name in re.findall(r"^<!-- exercise: (\w+) -->$", page.read_text(encoding="utf-8"), re.M)]
CASES = [(chapter, name) for chapter, name in PLACED if chapter not in ELSEWHERE and name not in OWN_FILE]
CHAPTER_OF = dict((name, chapter) for chapter, name in CASES)
READ = ["predict_network", "softmax_gradient", "debug_vjp_transpose"]  # read at both widths
# Where Pyodide's numbers differ from CPython's, and why: those rows are compared with each number
# of their messages to 3 significant digits, their words exactly.
LIBM = {("finite_differences", "the input left nudged"):
        "Pyodide's libm rounds tanh differently in the last bit, and a centered difference at h = 1e-6 "
        "multiplies that by a million: an estimate at a shifted point is -5.001e-07 there, -5.00044e-07 in CPython"}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


# name -> (the page, the report) of the Run a view of READ made: the views after it read that
# report while the page still holds that code and shows that report
RAN = {}


def to_digits(rows, digits=3):
    """rows with every number of their messages written to `digits` significant digits."""
    return [(verdict, test, NUMBER.sub(lambda m: f"{float(m[0]):.{digits}g}", message))
            for verdict, test, message in rows]


@pytest.fixture(scope="module")
def chapter_page(browser, origin):
    """open(chapter) -> the chapter's page at 1280 x 800, widgets bound. One chapter is open at a
    time (the tests come chapter by chapter: each page holds a Python or two); at the end,
    nothing of any visit left the site and no page logged an error."""
    shown, errors, requests = {}, [], []

    def open_chapter(chapter):
        if chapter not in shown:
            for page in shown.values():
                page.close()
            shown.clear()
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(f"{origin}/{chapter}/", wait_until="load")
            page.wait_for_function(BOUND)
            shown[chapter] = page
        return shown[chapter]

    yield open_chapter
    for page in shown.values():
        page.close()
    assert foreign(requests, origin) == [], foreign(requests, origin)
    assert errors == [], errors


def type_in(page, name, code):
    """Put `code` in the exercise's editor with the keyboard, as a reader pastes it."""
    box = block(page, name)
    box.scroll_into_view_if_needed()
    box.locator(".cm-editor").wait_for()
    box.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)
    assert code_of(page, name) == code


def test_every_chapter_holds_three_exercises_or_more_each_graded_in_a_browser_test():
    """Every Markdown chapter (chapter 6 is the training notebook) holds three exercises or more;
    those this file leaves to another are on a page, so that file grades them."""
    for page in sorted((ROOT / "docs").glob("[01][0-9]-*.md")):
        assert sum(chapter == page.stem for chapter, _ in PLACED) >= 3, page.stem
    assert OWN_FILE <= {name for _, name in PLACED} and ELSEWHERE <= {chapter for chapter, _ in PLACED}
    assert set(READ) <= set(CHAPTER_OF)


@pytest.mark.parametrize("name", list(CHAPTER_OF))
def test_a_classic_mistake_is_graded_in_the_browser_as_in_cpython(chapter_page, warm_python, name):
    page = chapter_page(CHAPTER_OF[name])
    exercise = exercise_format.load(name)
    first, *others = exercise.mistakes
    code = first.apply(exercise.solution)
    type_in(page, name, code)
    summary, rows, _ = run(page, name)
    assert rows == expected_rows(name, code), code
    assert re.fullmatch(r"\d+ of \d+ tests passed\.", summary), summary
    assert any(verdict == "failed" and first.message in message for verdict, _, message in rows), rows
    report_shot(block(page, name), f"exercise-{name}-1280-mistake.png")
    for other, mistake in [(exercise.solution, None), (exercise.starter, None),
                           *((m.apply(exercise.solution), m.name) for m in others)]:
        report = warm_python.call("run_exercise", {"exercise": name, "code": other})
        graded = [("passed" if r["passed"] else "failed", r["name"], r["message"]) for r in report["results"]]
        expected = expected_rows(name, other)
        if (name, mistake) in LIBM:
            assert graded != expected, f"{name}, {mistake}: no longer differs ({LIBM[name, mistake]})"
            graded, expected = to_digits(graded), to_digits(expected)
        assert graded == expected, other
    set_code(page, name, exercise.starter)


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", READ)
def test_an_exercise_reads_at_both_widths_in_both_schemes(chapter_page, name, width, scheme):
    """A mistake's message, the hints and the solution open; nothing wider than the window. The
    four views of one exercise read one Run (issue 43, item 3): the first types the mistake in
    and runs it, and leaves both in place; the others find them and read the same report at
    their width and scheme. A test run alone, or after anything else, runs it itself."""
    page = chapter_page(CHAPTER_OF[name])
    exercise = exercise_format.load(name)
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
    set_scheme(page, scheme)
    code = exercise.mistakes[0].apply(exercise.solution)
    try:
        ran = RAN.get(name)
        if not (ran and ran[0] is page and code_of(page, name) == code and report(page, name) == ran[1]):
            type_in(page, name, code)
            run(page, name)
            RAN[name] = (page, report(page, name))
        _, rows = report(page, name)
        assert any(exercise.mistakes[0].message in message for _, _, message in rows), rows
        box = block(page, name)
        while box.locator(".exercise-hint-next").is_visible():  # hints open one at a time (exercise-help.js)
            box.locator(".exercise-hint-next").click()
        if box.locator(".exercise-solution-panel").is_hidden():
            box.locator(".exercise-solution-button").click()
            if box.locator(".exercise-confirm").is_visible():  # asked for before two tries: confirmed
                box.locator(".exercise-confirm-yes").click()
        assert box.locator(".exercise-hint-list > li:not([hidden])").count() == len(exercise.hints)
        assert box.locator(".exercise-solution-panel").is_visible(), "the hints and the solution are open"
        widths = page.evaluate("""name => {
            const box = document.querySelector(`.exercise[data-exercise="${name}"]`);
            return [document.documentElement.scrollWidth, box.getBoundingClientRect().right,
                    box.querySelector('.exercise-controls').getBoundingClientRect().right,
                    box.querySelector('.cm-editor').getBoundingClientRect().right];
        }""", name)
        assert all(w <= width for w in widths), widths
        box.scroll_into_view_if_needed()
        report_shot(box, f"exercise-{name}-{width}-{scheme}.png")
        page.add_script_tag(content=AXE)  # inline: no request
        violations = page.evaluate("""async (name) => {
            const result = await axe.run({ include: [[`.exercise[data-exercise="${name}"]`]] },
                                         { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
            return result.violations.map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' '))}`);
        }""", name)
        assert violations == []
        if box.locator(".exercise-solution-panel").is_visible():
            box.locator(".exercise-solution-button").click()  # "Hide the solution"
    finally:
        set_scheme(page, "default")
        page.set_viewport_size({"width": 1280, "height": 800})


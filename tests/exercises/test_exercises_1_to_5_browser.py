"""The exercises of chapters 1, 2, 3 and 5 in the reader's browser (issue 47): on each chapter's
built page, every exercise graded by Pyodide as pytest's runner grades it in CPython. A reader's
first classic mistake is typed in with the keyboard and Run, and the page must show CPython's
rows, with the mistake's message; the solution, the starter and the other mistakes go through
the same grader in the worker's kept Python (tests/warm_python.py), to keep one Run per
exercise. A 390 px phone shows an exercise without sideways scrolling. Chapter 4's exercises
have their own file (tests/exercises/test_exercises_browser.py), and so do chapters 7 to 10's;
tests/exercises/test_exercises.py checks the same exercises in CPython."""

import re

import pytest

from scripts import ROOT
from scripts.reader import exercise_format
from tests.chapter_page import block, code_of, expected_rows, run, set_code, set_scheme
from tests.helpers import BOUND, foreign, report_shot

CHAPTERS = ["01-computational-graphs", "02-chain-rule", "03-backprop-by-hand", "05-neurons-layers-networks"]
CASES = [(chapter, name) for chapter in CHAPTERS
         for name in re.findall(r"^<!-- exercise: (\w+) -->$", (ROOT / "docs" / f"{chapter}.md").read_text(), re.M)]


@pytest.fixture(scope="module")
def chapters(browser, origin):
    """open(chapter) -> the chapter's page, opened once for the module (1280 x 800); at the end,
    nothing left the site and no page logged an error."""
    opened, errors, requests = {}, [], []

    def open_chapter(chapter):
        if chapter not in opened:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(f"{origin}/{chapter}/", wait_until="load")
            page.wait_for_function(BOUND)
            opened[chapter] = page
        return opened[chapter]

    yield open_chapter
    for page in opened.values():
        page.close()
    assert foreign(requests, origin) == [], foreign(requests, origin)
    assert errors == [], errors


def test_every_chapter_holds_three_exercises_or_more():
    for chapter in CHAPTERS:
        assert len([c for c, _ in CASES if c == chapter]) >= 3, chapter


@pytest.mark.parametrize("chapter, name", CASES, ids=[name for _, name in CASES])
def test_pyodide_grades_like_cpython(chapters, warm_python, chapter, name):
    page = chapters(chapter)
    exercise = exercise_format.load(name)
    box = block(page, name)
    box.scroll_into_view_if_needed()
    box.locator(".cm-editor").wait_for()
    first, *others = exercise.mistakes
    clicked = first.apply(exercise.solution)
    box.locator(".cm-content").click()  # typed in as a reader pastes it
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(clicked)
    assert code_of(page, name) == clicked
    _, rows, _ = run(page, name)
    assert rows == expected_rows(name, clicked)
    assert any(first.message in message for verdict, _, message in rows if verdict == "failed"), rows
    report_shot(box, f"exercise-{name}-1280-mistake.png")  # with BV_SHOTS: the mistake's message shown
    for code in [exercise.solution, exercise.starter, *(m.apply(exercise.solution) for m in others)]:
        report = warm_python.call("run_exercise", {"exercise": name, "code": code})
        graded = [("passed" if r["passed"] else "failed", r["name"], r["message"]) for r in report["results"]]
        assert graded == expected_rows(name, code), code
    set_code(page, name, exercise.starter)


def test_a_390px_phone_shows_an_exercise_without_sideways_scrolling(chapters):
    """Chapter 5's prediction exercise, whose program is the widest of the four chapters' (and
    screenshots, light and dark, when BV_SHOTS names a folder)."""
    page = chapters("05-neurons-layers-networks")
    name = "predict_network"
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        box = block(page, name)
        box.scroll_into_view_if_needed()
        box.locator(".cm-editor").wait_for()
        widths = page.evaluate("""name => {
            const box = document.querySelector(`.exercise[data-exercise="${name}"]`);
            return [document.documentElement.scrollWidth, box.getBoundingClientRect().right,
                    box.querySelector('.exercise-controls').getBoundingClientRect().right,
                    box.querySelector('.cm-editor').getBoundingClientRect().right];
        }""", name)
        for scheme in ("default", "slate"):
            set_scheme(page, scheme)
            report_shot(box, f"exercise-{name}-390-{scheme}.png")
    finally:
        set_scheme(page, "default")
        page.set_viewport_size({"width": 1280, "height": 800})
    assert all(w <= 390 for w in widths), widths

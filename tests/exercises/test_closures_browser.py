"""Chapter 11's closures exercise (issue 46) in Chromium, graded by Pyodide as a reader runs it:
the starter says where its blanks are, each classic mistake gets the rows pytest's runner gives
in CPython (its message among them), and the solution passes every test.
tests/exercises/test_exercises.py checks the same exercise in CPython."""

from scripts.reader import exercise_format
from tests.chapter_page import block, expected_rows, run, set_code

NAME = "closures"


def test_the_closures_exercise_grades_in_the_browser_as_in_cpython(browser, origin):
    page = browser.new_page()
    page.goto(f"{origin}/11-gates-and-granularity/")
    exercise = exercise_format.load(NAME)
    box = block(page, NAME)
    box.scroll_into_view_if_needed()
    box.locator(".exercise-run").wait_for(state="visible")
    summary, _, _ = run(page, NAME)
    assert "blanks" in summary or "blanks" in box.inner_text(), summary
    for mistake in exercise.mistakes:
        code = mistake.apply(exercise.solution)
        set_code(page, NAME, code)
        _, rows, _ = run(page, NAME)
        assert rows == expected_rows(NAME, code), mistake.name
        assert any(mistake.message in message for verdict, _, message in rows if verdict == "failed"), rows
    set_code(page, NAME, exercise.solution)
    summary, rows, _ = run(page, NAME)
    page.close()
    assert rows == expected_rows(NAME, exercise.solution)
    assert rows and all(verdict == "passed" for verdict, _, _ in rows), rows
    assert summary.startswith("All"), summary

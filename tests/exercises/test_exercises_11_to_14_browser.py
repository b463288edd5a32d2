"""The exercises of chapters 11 to 14 (issue 47) in the reader's browser, in Debian's Chromium,
on the built site: each one typed in as a reader types it, with a classic mistake, Run, and
graded by Pyodide as pytest's runner grades it in CPython (its mistake's message among the
failures); its solution and starter through the same function in the worker's kept Python.
Chapter 12 has no Run bars (its blocks need NumPy): its exercises run all the same, in plain
Python. One exercise is read at 1280 and 390 px, light and dark, its hints and solution open:
nothing scrolls sideways, axe finds no WCAG 2 A or AA problem (screenshots saved when BV_SHOTS
names a folder).
Chapter 11's closures exercise has a file of its own, tests/exercises/test_closures_browser.py."""

import re

import pytest

from scripts import ROOT
from scripts.reader import exercise_format
from tests.chapter_page import block, code_of, expected_rows, run, set_code, set_scheme
from tests.helpers import foreign, report_shot

PAGES = ["11-gates-and-granularity", "12-jacobians-and-vjps", "13-what-reverse-mode-costs", "14-deep-networks"]
# The exercises this file grades: a chapter's new exercise is added by its name, here.
EXERCISES = [
    "predict_max_gate", "silu_one_node",                        # chapter 11
    "vjp_on_lists", "predict_seed", "debug_vjp_transpose",      # chapter 12
    "predict_kept_graph", "fused_hinge", "checkpoint_segments",  # chapter 13
    "predict_saturated_chain", "scaled_tanh", "debug_fan_in",    # chapter 14
]
ELSEWHERE = {"closures"}  # graded in test_closures_browser.py
AXE = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
PLACED = {name: stem for stem in PAGES
          for name in re.findall(r"^<!-- exercise: (\w+) -->$", (ROOT / "docs" / f"{stem}.md").read_text(), re.M)}
ON_PAGE = {name: PLACED[name] for name in EXERCISES if name in PLACED}


@pytest.fixture(scope="module")
def pages(chromium, origin):
    """page_of(stem): the chapter, opened once for the module at 1280 × 800; at the end, nothing
    of the visit left the site and nothing logged an error."""
    opened, requests, errors = {}, [], []

    def page_of(stem):
        if stem not in opened:
            page = chromium.new_page(viewport={"width": 1280, "height": 800})
            page.on("request", lambda request: requests.append(request.url))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.goto(f"{origin}/{stem}/", wait_until="load")
            opened[stem] = page
        return opened[stem]

    yield page_of
    for page in opened.values():
        page.close()
    assert foreign(requests, origin) == [], foreign(requests, origin)
    assert errors == [], errors


def type_in(page, name, code):
    """Put `code` in the exercise's editor with the keyboard, as a reader pastes it."""
    exercise = block(page, name)
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-editor").wait_for()
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)
    assert code_of(page, name) == code


def test_every_exercise_of_chapters_11_to_14_is_graded_here_or_in_its_own_file():
    """A name in EXERCISES is placed on one of the chapters; an exercise placed on them is listed."""
    assert sorted(ON_PAGE) == sorted(EXERCISES), "listed but on none of chapters 11-14"
    assert sorted(set(PLACED) - ELSEWHERE) == sorted(EXERCISES), "on chapters 11-14 but not in EXERCISES"


@pytest.mark.parametrize("name", EXERCISES)
def test_a_classic_mistake_is_graded_in_the_browser_as_in_cpython(pages, warm_python, name):
    page = pages(ON_PAGE[name])
    exercise = exercise_format.load(name)
    mistake = exercise.mistakes[0]
    code = mistake.apply(exercise.solution)
    type_in(page, name, code)
    summary, rows, _ = run(page, name)
    assert rows == expected_rows(name, code), code
    assert re.fullmatch(r"\d+ of \d+ tests passed\.", summary), summary
    assert any(verdict == "failed" and mistake.message in message for verdict, _, message in rows), rows
    for other in [exercise.solution, exercise.starter]:
        report = warm_python.call("run_exercise", {"exercise": name, "code": other})
        graded = [("passed" if r["passed"] else "failed", r["name"], r["message"]) for r in report["results"]]
        assert graded == expected_rows(name, other), other
    set_code(page, name, exercise.starter)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_an_exercise_reads_at_both_widths_in_both_schemes(pages, width, scheme):
    """A debug exercise on chapter 12, whose messages print matrices as nested lists, with a
    mistake's message, its hints and its solution open."""
    name = "debug_vjp_transpose"
    page = pages(ON_PAGE[name])
    exercise = exercise_format.load(name)
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
    set_scheme(page, scheme)
    try:
        code = exercise.mistakes[0].apply(exercise.solution)
        type_in(page, name, code)
        _, rows, _ = run(page, name)
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
            return [document.documentElement.scrollWidth, box.getBoundingClientRect().right];
        }""", name)
        assert all(w <= width for w in widths), widths
        box.scroll_into_view_if_needed()
        report_shot(box, f"{name}-{width}-{scheme}.png")
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
        set_code(page, name, exercise.starter)

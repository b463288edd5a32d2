"""An exercise's hints and solution in the reader's browser (issue 47), clicked as a reader clicks:
the hints open one at a time, in order; the solution is offered after two tries of the reader's
own code, or earlier when asked for and confirmed, and is then shown beside the reader's code,
which stays as it was; by keyboard, to a screen reader (axe), light and dark, on a 390 px phone;
and without JavaScript, closed folds. Screenshots (BV_SHOTS) of a hint, a named mistake and a
revealed solution at 1280 and 390 px, light and dark."""

import re

import pytest

from scripts import ROOT
from scripts.reader import exercise_format
from tests.chapter_page import block, code_of, report, run, set_code, set_scheme
from tests.helpers import report_shot

SHOTS = [(1280, 800), (390, 844)]


def hints_shown(page, name):
    return page.evaluate("""name => [...document.querySelectorAll(
        `.exercise[data-exercise="${name}"] .exercise-hint-list > li`)].filter(li => !li.hidden && li.offsetParent)
        .map(li => li.innerText)""", name)


def shoot(page, locator, name):
    """Screenshots of `locator` at 1280 and 390 px, light and dark: BV_SHOTS/exercise-<name>-<w>-<scheme>.png."""
    try:
        for width, height in SHOTS:
            page.set_viewport_size({"width": width, "height": height})
            for scheme in ("default", "slate"):
                set_scheme(page, scheme)
                locator.scroll_into_view_if_needed()
                report_shot(locator, f"exercise-{name}-{width}-{scheme}.png")
    finally:
        set_scheme(page, "default")
        page.set_viewport_size({"width": 1280, "height": 800})


def test_the_hints_open_one_at_a_time_in_order(chapter):
    page = chapter.page
    exercise = exercise_format.load("local_pow_tanh_exp_relu")
    box = block(page, "local_pow_tanh_exp_relu")
    button = box.locator(".exercise-hint-next")
    assert hints_shown(page, exercise.name) == []
    assert box.locator(".exercise-hints details").count() == 0, "the fold became a list that grows"
    for n in range(1, len(exercise.hints) + 1):
        assert button.inner_text() == f"Show hint {n} of {len(exercise.hints)}"
        assert button.get_attribute("aria-controls") == box.locator(".exercise-hint-list").get_attribute("id")
        button.focus()
        page.keyboard.press("Enter")
        assert len(hints_shown(page, exercise.name)) == n
        if n == 1:
            shoot(page, box.locator(".exercise-hints"), "hint")  # one hint, and the button for the next
    shown = hints_shown(page, exercise.name)
    assert "how fast does its output change" in shown[0] and "power rule" in shown[1]
    assert "(1.0 - t * t,)" in shown[2]
    assert button.is_hidden() and page.evaluate("document.activeElement.innerText") == shown[-1]
    # The power rule as math, not as `x**n` that Markdown turned bold (issue 46).
    second = box.locator(".exercise-hint-list > li").nth(1)
    assert second.locator(".katex, math").count() >= 1 and second.locator("strong").count() == 0
    assert box.locator(".exercise-hint-list").get_attribute("aria-live") == "polite"


def test_the_solution_before_two_tries_is_asked_for_and_confirmed(chapter):
    page = chapter.page
    exercise = exercise_format.load("backward")
    box = block(page, "backward")
    set_code(page, "backward", "# my own try\n")
    button = box.locator(".exercise-solution-button")
    panel = box.locator(".exercise-solution-panel")
    assert button.inner_text() == "Solution…" and button.get_attribute("aria-expanded") == "false"
    assert panel.is_hidden()
    button.click()
    confirm = box.locator(".exercise-confirm")
    assert confirm.is_visible() and panel.is_hidden()
    assert box.locator(".exercise-confirm-text").inner_text() == (
        "You have not run code of your own yet; the solution is offered after 2 tries. Show it now?")
    assert page.evaluate("document.activeElement.textContent") == "Show it"
    page.keyboard.press("Escape")  # a reader who changes their mind
    assert confirm.is_hidden() and panel.is_hidden()
    assert page.evaluate("document.activeElement.textContent") == "Solution…"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # "Show it", focused
    assert panel.is_visible() and button.inner_text() == "Hide the solution"
    assert button.get_attribute("aria-expanded") == "true"
    assert panel.locator("code").inner_text().strip() == exercise.solution.strip()
    assert code_of(page, "backward") == "# my own try\n", "the solution is shown beside the reader's code"
    mine = box.locator(".cm-editor").bounding_box()
    theirs = panel.bounding_box()
    assert theirs["x"] >= mine["x"] + mine["width"] - 1 and abs(theirs["y"] - mine["y"]) < 40, (mine, theirs)
    assert box.locator(".exercise-status").inner_text() == \
        "The solution is shown with your code, which is as you left it."
    shoot(page, box.locator(".exercise-pair"), "solution")
    button.click()
    assert panel.is_hidden() and button.inner_text() == "Solution…"


def test_two_tries_of_the_readers_code_offer_the_solution_and_name_the_mistake(chapter):
    """The starter run does not count as a try; two Runs of the reader's code do. The Run's
    report names the mistake with the numbers (zero_grad returning 0, issue 47)."""
    page = chapter.page
    exercise = exercise_format.load("zero_grad")
    box = block(page, "zero_grad")
    button = box.locator(".exercise-solution-button")
    set_code(page, "zero_grad", exercise.starter)
    run(page, "zero_grad")
    assert button.inner_text() == "Solution…", "running the starter is not a try"
    (returns_0,) = [m for m in exercise.mistakes if m.name == "zero_grad returns 0"]
    set_code(page, "zero_grad", returns_0.apply(exercise.solution))
    _, rows, _ = run(page, "zero_grad")
    assert ("failed", "zero_grad sets every .grad to 0.0 and returns None",
            "zero_grad(params)'s return value is 0, expected None. To check: zero_grad changes the parameters "
            "and returns None, as its docstring says: it needs no return statement") in rows
    assert button.inner_text() == "Solution…" and box.locator(".exercise-offer").count() == 0
    summary, rows, _ = run(page, "zero_grad")
    assert not summary.startswith("All")
    assert button.inner_text() == "Show the solution"
    assert box.locator(".exercise-offer").inner_text() == (
        "After 2 tries, the solution is offered: Show the solution opens it next to your code, which stays as it is.")
    shoot(page, box.locator(".exercise-report"), "mistake")
    button.click()  # offered: no question asked
    assert box.locator(".exercise-confirm").is_hidden() and box.locator(".exercise-solution-panel").is_visible()
    assert code_of(page, "zero_grad") == returns_0.apply(exercise.solution)
    tries = page.evaluate("""name => Object.entries(localStorage).filter(([k]) =>
        k.startsWith(`bv-exercise-tries:${name}:`)).map(([, v]) => JSON.parse(v))""", "zero_grad")
    assert tries == [{"runs": 2, "hints": 0, "solution": True}]


def test_a_390px_phone_puts_the_solution_under_the_code_with_a_finger_sized_button(chapter):
    page = chapter.page
    box = block(page, "zero_grad")  # its solution is open (the test above)
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        box.locator(".exercise-pair").scroll_into_view_if_needed()
        mine = box.locator(".cm-editor").bounding_box()
        theirs = box.locator(".exercise-solution-panel").bounding_box()
        sizes = page.evaluate("""() => [...document.querySelectorAll(
            '.exercise[data-exercise="zero_grad"] :is(.exercise-controls, .exercise-hints) button')]
            .filter(b => b.offsetParent).map(b => [b.textContent, b.getBoundingClientRect().width,
                                                   b.getBoundingClientRect().height])""")
        wide = page.evaluate("document.documentElement.scrollWidth")
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})
    assert theirs["y"] >= mine["y"] + mine["height"] - 1, (mine, theirs)
    assert theirs["x"] + theirs["width"] <= 390 and wide <= 390
    assert sizes and all(w >= 44 and h >= 44 for _, w, h in sizes), sizes


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_problem_in_the_hints_the_question_and_the_solution(chapter, scheme):
    page = chapter.page
    box = block(page, "topological_sort")
    box.locator(".exercise-hint-next").click()
    if box.locator(".exercise-confirm").is_hidden():
        box.locator(".exercise-solution-button").click()  # the question, open
    set_scheme(page, scheme)
    page.add_script_tag(content=(ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    violations = page.evaluate("""async () => {
        const result = await axe.run({ include: [['.exercise[data-exercise="topological_sort"]'],
                                                 ['.exercise[data-exercise="zero_grad"]']] },
                                     { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
        return result.violations.map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
    }""")
    set_scheme(page, "default")
    assert violations == []


def test_without_javascript_the_hints_and_the_solution_are_closed_folds(chromium, origin):
    page = chromium.new_page(java_script_enabled=False)
    page.goto(f"{origin}/04-engine/")
    exercise = exercise_format.load("chain_rule")
    box = block(page, "chain_rule")
    hints = box.locator(".exercise-hints details")
    assert hints.get_attribute("open") is None
    assert box.locator(".exercise-solution details").get_attribute("open") is None
    items = hints.locator("li").all_text_contents()
    assert len(items) == len(exercise.hints) and "which two?" in items[0]
    code = box.locator(".exercise-solution details code").text_content()
    assert re.sub(r"\s+", " ", code).strip() == re.sub(r"\s+", " ", exercise.solution).strip()
    page.close()


def test_what_the_reader_opened_is_kept_across_a_reload(chapter):
    page = chapter.page
    page.reload(wait_until="load")
    for name in ("local_pow_tanh_exp_relu", "zero_grad"):
        block(page, name).scroll_into_view_if_needed()
        block(page, name).locator(".cm-editor").wait_for()
    assert len(hints_shown(page, "local_pow_tanh_exp_relu")) == 3
    zero = block(page, "zero_grad")
    assert zero.locator(".exercise-solution-panel").is_visible()
    assert zero.locator(".exercise-solution-button").inner_text() == "Hide the solution"
    assert report(page, "zero_grad")[1] == []  # the report is the Run's, not kept

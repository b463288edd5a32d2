"""Chapters 11 and 12 (issue 46) in Chromium, as a reader uses them: every quiz answered wrong,
then right, with the mouse or the keyboard, its explanation folded out once answered; every
figure drawn, its text 11 px or more at 1280 px and on a 390 px phone, or (one a page at most)
an overview that opens full screen. The quizzes' answers themselves are checked against the
page's code by pytest (scripts/pages/quizzes.py); here, what a reader sees and can do."""

import pytest

from scripts.pages.figures import READABLE_PX
from tests.helpers import settled

PAGES = ["11-gates-and-granularity", "12-jacobians-and-vjps"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def answer_fold(quiz):
    """The "Answer" fold that follows the quiz's "Check yourself"."""
    return quiz.locator("xpath=ancestor::div[contains(@class, 'admonition')]/following-sibling::details[1]")


def wrong_number(quiz):
    """A number that is not the quiz's answer, as a reader might type it: the answer plus 1."""
    return str(float(quiz.get_attribute("data-shown")) + 1)


@pytest.mark.parametrize("name", PAGES)
def test_every_quiz_says_wrong_then_right_and_opens_its_explanation(page, origin, name):
    """Numbers are typed and sent with Enter; a choice is clicked, then checked with its button."""
    page.goto(f"{origin}/{name}/")
    quizzes = page.locator(".bv-quiz")
    assert quizzes.count() >= 2, name
    for k in range(quizzes.count()):
        quiz = quizzes.nth(k)
        quiz.scroll_into_view_if_needed()
        quiz.wait_for(state="visible")
        assert answer_fold(quiz).get_attribute("open") is None
        if quiz.get_attribute("data-quiz") == "number":
            box = quiz.get_by_label("Your answer")
            box.fill(wrong_number(quiz))
            box.press("Enter")
            assert quiz.get_attribute("data-state") == "wrong", (name, k)
            box.fill(quiz.get_attribute("data-shown"))
            box.press("Enter")
        else:
            key = int(quiz.get_attribute("data-key"))
            options = quiz.locator("input[type=radio]")
            options.nth((key + 1) % options.count()).check()
            quiz.get_by_role("button", name="Check").click()
            assert quiz.get_attribute("data-state") == "wrong", (name, k)
            options.nth(key).check()
            quiz.get_by_role("button", name="Check").click()
        assert quiz.get_attribute("data-state") == "right", (name, k)
        assert quiz.locator(".bv-quiz__feedback").text_content().startswith("Right"), (name, k)
        assert answer_fold(quiz).get_attribute("open") is not None, (name, k)


def test_a_choice_is_answered_with_the_keyboard_alone(page, origin):
    """Chapter 12's first question, reached by Tab, picked with the arrow keys, sent with Enter."""
    page.goto(f"{origin}/12-jacobians-and-vjps/")
    quiz = page.locator('.bv-quiz[data-quiz="choice"]').first
    quiz.scroll_into_view_if_needed()
    key = int(quiz.get_attribute("data-key"))
    options = quiz.locator("input[type=radio]")
    options.first.focus()
    page.keyboard.press("Space")  # a radio group takes its first option with Space
    for _ in range(key):
        page.keyboard.press("ArrowDown")
    assert options.nth(key).is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Check"
    page.keyboard.press("Enter")
    assert quiz.get_attribute("data-state") == "right"


FIGURES = """() => [...document.querySelectorAll('figure.bv-figure img')].map(img => {
    const source = img.currentSrc;
    return { src: source, width: img.getBoundingClientRect().width, natural: img.naturalWidth,
             column: img.closest('article').getBoundingClientRect().width };
})"""


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_every_figure_reads_at_11_px_or_is_the_one_overview(browser, origin, name, viewport):
    """A figure's text reads at 11 pt (14.7 px) as drawn: shown at `width` of its natural width
    it reads at 14.7 * shown / natural px. At most one figure a page reads smaller (an overview,
    opened full screen by tests/figures/test_phone_figures.py); none makes the page scroll sideways."""
    page = browser.new_page(viewport=viewport)
    page.goto(f"{origin}/{name}/")
    for figure in page.locator("figure.bv-figure img").all():
        figure.scroll_into_view_if_needed()
        figure.evaluate("img => img.decode()")
    settled(page)
    figures = page.evaluate(FIGURES)
    page_width = page.evaluate("document.documentElement.scrollWidth")
    page.close()
    assert len(figures) >= 2, name
    small = [f for f in figures if 14.67 * f["width"] / f["natural"] < READABLE_PX]
    assert len(small) <= 1, small
    assert all(f["width"] <= f["column"] + 1 for f in figures), figures
    assert page_width <= viewport["width"]

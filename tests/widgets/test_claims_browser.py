"""A checked sentence in Chromium, as a reader meets it: a quiet mark after the sentence that a
click, a tap or the keyboard opens in place, showing the expression the page's code checked there,
its value and the values it read, with a link to the block that set them; Escape closes it. A
screen reader hears a button named for what it is. scripts/pages/claims.py builds the mark
(tests/pages/test_claims.py); docs/javascripts/widgets/claim.js opens it."""

import re

from tests.helpers import BOUND, report_shot, settled

CHAPTER = "/07-check-break-fix/"
# chapter 7's "Its best error is 1636 times smaller." and the claim after it
CLAIM = "round(min(forward_errors) / min(centered_errors)) == 1636"
SHOW, HIDE = "Checked sentence: show the check", "Checked sentence: hide the check"


def _mark(page):
    """The mark of CLAIM and its box, once the page's widgets are bound."""
    page.wait_for_function(BOUND)
    box = page.locator(".bv-claim__box", has=page.locator("code", has_text=CLAIM))
    mark = page.locator(f'button.bv-claim[aria-controls="{box.get_attribute("id")}"]')
    return mark, box


def test_a_click_opens_the_check_in_place_and_its_link_goes_to_the_block(page, origin):
    page.goto(origin + CHAPTER)
    mark, box = _mark(page)
    assert mark.is_visible() and box.is_hidden()
    assert mark.get_attribute("aria-expanded") == "false"
    before = mark.evaluate("""m => { const r = document.createRange();  // the text up to the mark
        r.setStart(m.parentElement, 0); r.setEndBefore(m); return r.toString(); }""")
    assert re.search(r"Its best error is 1636(Source:[^.]*\.)?.* times smaller\. $", before, re.S), before
    mark.click()
    assert box.is_visible() and mark.get_attribute("aria-expanded") == "true"
    text = box.text_content()
    assert f"Checked here by the page's code: {CLAIM} \u2192 True" in text
    assert re.search(r"It read forward_errors = \[0\.61\d*, .*…, ", text), text  # the values it read, clipped
    link = box.get_by_role("link", name=re.compile(r"Go to block \d+"))
    href = link.get_attribute("href")
    assert href.split("#")[0] in ("", origin + CHAPTER), href  # this page
    target = "#" + href.split("#")[1]
    assert page.locator(f"div.highlight{target}").count() == 1  # the block exists, with that id
    assert "forward_errors =" in page.locator(f"div.highlight{target}").text_content()  # and sets the name
    mark.click()  # a second click closes it
    assert box.is_hidden() and mark.get_attribute("aria-expanded") == "false"
    mark.click()
    link.click()
    page.wait_for_function("hash => location.hash === hash", arg=target)


def test_the_keyboard_opens_and_closes_it_and_a_screen_reader_hears_a_button(page, origin):
    page.goto(origin + CHAPTER)
    mark, box = _mark(page)
    # named for what it is, and expandable: the accessibility tree a screen reader reads
    assert mark.get_attribute("aria-label") == SHOW
    assert page.get_by_role("button", name=SHOW).count() >= 4  # chapter 7 checks many sentences
    mark.focus()
    page.keyboard.press("Enter")
    assert box.is_visible() and mark.get_attribute("aria-label") == HIDE
    page.keyboard.press("Escape")
    assert box.is_hidden() and mark.evaluate("m => m === document.activeElement")
    page.keyboard.press("Space")
    assert box.is_visible()
    page.keyboard.press("Tab")  # into the box: its link
    assert box.evaluate("b => b.contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert box.is_hidden() and mark.evaluate("m => m === document.activeElement")


def test_the_training_notebooks_page_marks_its_checked_sentences_too(page, origin):
    """Issue 45: the training notebook's claims were checked in its kernel and shown nowhere."""
    page.goto(origin + "/06-training/")
    page.wait_for_function(BOUND)
    marks = page.get_by_role("button", name=SHOW)
    assert marks.count() >= 5
    name = marks.nth(3).get_attribute("aria-controls")  # the mark's name changes once open: held by its box
    mark, box = page.locator(f'button.bv-claim[aria-controls="{name}"]'), page.locator(f"#{name}")
    mark.scroll_into_view_if_needed()
    assert mark.is_visible() and box.is_hidden()
    mark.click()
    assert box.is_visible() and mark.get_attribute("aria-expanded") == "true"
    assert re.match(r"Checked here by the page's code: .+ \u2192 True", box.text_content()), box.text_content()
    page.keyboard.press("Escape")
    assert box.is_hidden()


def test_no_mark_without_a_claim_and_none_shown_before_its_script(page, origin):
    """A page without claims has no mark; the built HTML keeps every mark hidden until bound."""
    page.goto(origin + "/playground/")
    page.wait_for_function(BOUND)
    assert page.locator(".bv-claim").count() == 0
    page.goto(origin + CHAPTER)
    page.wait_for_function(BOUND)
    built = page.request.get(origin + CHAPTER).text()
    marks = re.findall(r'<button type="button" class="bv-claim"[^>]*>', built)
    assert marks and all(m.endswith(" hidden>") for m in marks)


def test_on_a_phone_a_tap_opens_it_and_its_target_is_44px_without_moving_the_line(browser, origin):
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True, color_scheme=scheme)
        page = context.new_page()
        try:
            page.goto(origin + CHAPTER)
            mark, box = _mark(page)
            mark.scroll_into_view_if_needed()
            settled(page)
            size = mark.bounding_box()
            assert size["width"] >= 44 and size["height"] >= 44, size
            line = mark.evaluate("""m => { const p = m.parentElement, s = getComputedStyle(p);
                return [p.getClientRects().length, parseFloat(s.lineHeight)]; }""")
            paragraph = mark.locator("xpath=..")
            lines_before = paragraph.evaluate("p => Math.round(p.getBoundingClientRect().height)")
            mark.tap()
            assert box.is_visible()
            assert box.bounding_box()["width"] <= 390
            report_shot(paragraph, f"claim-390-{scheme}.png")
            mark.tap()
            assert box.is_hidden()
            assert paragraph.evaluate("p => Math.round(p.getBoundingClientRect().height)") == lines_before
            assert line[0] == 1
        finally:
            context.close()


def test_opened_at_1280px_in_light_and_dark(browser, origin):
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        try:
            page.goto(origin + CHAPTER)
            mark, box = _mark(page)
            mark.click()
            assert box.is_visible()
            colours = box.evaluate("""b => { const s = getComputedStyle(b);
                return [s.color, s.backgroundColor]; }""")
            assert colours[0] != colours[1]
            report_shot(box.locator("xpath=.."), f"claim-1280-{scheme}.png")
        finally:
            context.close()

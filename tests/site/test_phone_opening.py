"""A phone's opening screen is the chapter (issue 44, item 14): on a 390 × 844 phone, chapter 3's
first screen was its title, "Run on: micrograd | your engine" with its grey line, and the
progress box; the text started at 517 px (434-517 px on chapters 1-5 and 7-10). For a reader
with no engine of their own, the switch now waits at the end of the page, and the progress box
is one line; a reader with an engine finds the switch under the title, its place kept from the
first paint (scripts/overrides/main.html marks <html> before it)."""

import pytest

from tests.helpers import page_urls

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
LIMIT = 400  # px from the top of the page to the first paragraph's top

# The chapter at rest: the switch placed, the progress box in where the chapter has checks.
AT_REST = """() => document.querySelector('.bv-engine') &&
    (!document.querySelector('.bv-tools--checks') || document.querySelector('.bv-progress'))"""
FIRST_PARAGRAPH = """() => {
    const article = document.querySelector('article');
    const first = [...article.querySelectorAll('p')].find((p) => !p.closest('.bv-tools, .bv-tools--end')
        && p.textContent.trim());
    const top = (e) => e ? Math.round(e.getBoundingClientRect().top + scrollY) : null;
    return {paragraph: top(first), text: first?.textContent.slice(0, 60),
            engine: top(document.querySelector('.bv-engine'))};
}"""


def chapters(site):
    return [(path, url) for path, url in page_urls(site) if path[:2].isdigit()]


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(bind_at_once=False, **PHONE)  # a new reader, widgets bound as theirs are
    page = context.new_page()
    yield page
    context.close()


def test_every_chapters_text_starts_on_a_phones_opening_screen_for_a_reader_with_no_engine(phone, origin, site):
    found = {}
    for path, url in chapters(site):
        phone.goto(origin + url, wait_until="load")
        phone.wait_for_function(AT_REST, timeout=30_000)
        found[path] = phone.evaluate(FIRST_PARAGRAPH)
    assert len(found) >= 10, found  # chapters 1 to 10, the notebook chapter 6 among them
    late = {path: f["paragraph"] for path, f in found.items() if f["paragraph"] is None or f["paragraph"] > LIMIT}
    assert late == {}, found
    above = {path: f for path, f in found.items() if f["engine"] < f["paragraph"]}
    assert above == {}, "the switch stands above the text before the reader has an engine"


def test_a_reader_with_an_engine_has_the_switch_under_the_title_in_a_place_kept_for_it(phone, origin):
    phone.goto(origin + "/", wait_until="load")
    phone.evaluate("() => localStorage.setItem('bv-engine-source', JSON.stringify({ name: 'mine.py', "
                   "text: 'class Value: pass' }))")
    phone.goto(origin + "/03-backprop-by-hand/", wait_until="load")
    phone.wait_for_function(AT_REST, timeout=30_000)
    found = phone.evaluate(FIRST_PARAGRAPH)
    assert found["engine"] < found["paragraph"], found
    assert phone.evaluate("document.documentElement.classList.contains('bv-has-engine')")
    place = phone.evaluate("""() => { const place = document.querySelector('.bv-tools__engine');
        return [place.getBoundingClientRect().height, place.firstElementChild.getBoundingClientRect().height]; }""")
    assert place[0] >= place[1] > 0, place  # the box fits the place kept for it: nothing below it moved
    phone.evaluate("() => localStorage.clear()")

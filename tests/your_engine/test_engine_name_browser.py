"""A chosen file's name on the Your engine page and every page's switch (docs/javascripts/
engine-switch.js: readerEngine), in Debian's Chromium on the built site. Its own file:
test_your_engine_browser.py is at the 600-line limit (tests/tools/test_lint.py)."""

from tests import engines
from tests.your_engine.test_your_engine_browser import engine_page, switch


def test_a_chosen_files_name_shows_its_invisible_characters_and_is_cut(browser, origin):
    """A hostile audit: a file named "my_engine<U+202E>yp.xxx….py" (2,016 characters) read raw on
    every page's switch: the override reversed the page's words after it, and the switch was
    600 px tall. The name is shown as an engine's message is (<U+202E>) and cut."""
    page = engine_page(browser, origin)
    name = "my_engine\u202eyp." + "x" * 2000 + ".py"
    page.get_by_label("or choose a file:").set_input_files(files=[{
        "name": name, "mimeType": "text/x-python", "buffer": engines.source("book").encode()}])
    page.wait_for_function("() => /passed its check|did not pass/.test("
                           "document.querySelector('.bv-map__status').textContent)", timeout=120_000)
    shown = "my_engine<U+202E>yp." + "x" * 87 + "… (a name of 2,016 characters, cut here)"
    status = switch(page)["status"]
    assert status.startswith(f"Every Run on this site runs on your engine: {shown}, in this book's shape"), status
    assert page.locator(".bv-map__from").text_content().startswith(f"Your engine: {shown}, checked")
    assert "\u202e" not in page.locator("body").inner_text()
    height = page.locator(".bv-engine__status").bounding_box()["height"]
    assert height < 100, height  # a line or two at 1280 px, not 600 px
    page.context.close()

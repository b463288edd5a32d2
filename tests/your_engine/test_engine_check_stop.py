"""The check of a pasted engine has Stop (issue 44, item 13), as every other Run has: pressed,
the page says the check was stopped, not that the engine failed it, and Use this code checks it
again."""

from tests import engines
from tests.helpers import wait_for_text
from tests.your_engine.test_your_engine_browser import engine_page


def test_a_pasted_engines_check_has_stop_and_says_it_was_stopped(browser, origin):
    page = engine_page(browser, origin)  # a new reader: the check loads Python first
    page.get_by_label("Paste your engine").fill(engines.source("book"))
    use = page.get_by_role("button", name="Use this code")
    use.click()
    stop = page.get_by_role("button", name="Stop")
    stop.click(timeout=20_000)  # beside Use this code while the check runs
    status = wait_for_text(page, ".bv-map__status", r"not checked")
    assert status == ("Your engine is kept, not checked: you stopped its check before it ended. "
                      "Use this code checks it again."), status
    assert "did not pass" not in page.locator(".bv-engine__status").text_content()
    assert page.get_by_role("button", name="Stop").count() == 0
    use.click()
    wait_for_text(page, ".bv-map__status", r"passed its check|did not pass", timeout=120_000)
    assert page.locator(".bv-map__status").text_content().startswith("Your engine passed its check")
    page.close()

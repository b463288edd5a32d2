"""Dark mode, page by page, in Chromium: the rules whose outcome depends on the colour scheme
(contrast of text and of links in text) find nothing serious. Light mode gets every axe rule
in tests/test_browser.py; this is a module of its own so the two run side by side."""

import json

import pytest

from tests.test_browser import serious, visit_every_page


@pytest.fixture(scope="module")
def dark(browser, origin, site):
    return visit_every_page(browser, origin, site, "dark",
                            {"runOnly": ["color-contrast", "link-in-text-block"]})


def test_dark_mode_keeps_contrast_and_loads_cleanly(dark, origin):
    assert len(dark) >= 11
    found = serious(dark)
    assert not found, json.dumps(found, indent=1)
    for path, visit in dark.items():
        assert not visit["errors"], (path, visit["errors"])
        assert all(u.startswith((origin, "data:", "blob:")) for u in visit["requests"]), path

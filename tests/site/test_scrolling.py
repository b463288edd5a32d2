"""Nothing moves under a reader scrolling a chapter on a phone (390 x 844, touch): the layout
shifts Chromium reports while the page is scrolled from top to bottom, a screen at a time, add up
to less than 0.05 (Lighthouse's CLS limit of issue 27, item 6, which counts only the load).

Material adds a code block's copy button when the block first comes into view (mkdocs.yml:
content.lazy), and on a touch screen the code starts below the 44 px button
(docs/stylesheets/touch.css). The room was made only once the button came, so each block grew
by 38 px under the reader as it scrolled into view, and everything below it moved: 0.20 to 0.68
on chapters 1-10 at 600 px per 150 ms. The room is now kept from the first paint. The widgets,
bound as they come near the viewport (tests/widgets/test_bind_near.py), move nothing either."""

import json

import pytest

from tests.helpers import recorded

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
LIMIT = 0.05

# Every layout shift from the first byte on that no input caused (as CLS counts them; a wheel
# scroll is no input to it), with where the reader was and what moved.
RECORD = """
window.bvShifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.bvShifts.push({value: e.value,
    at: Math.round(scrollY), moved: e.sources.map((s) => s.node
      ? `${s.node.nodeName.toLowerCase()}.${s.node.className || ''} from y=${Math.round(s.previousRect.y)}`
        + ` to y=${Math.round(s.currentRect.y)}` : 'a removed node')});
}).observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("chapter", ["02-chain-rule", "03-backprop-by-hand", "04-engine"])
def test_nothing_moves_under_a_reader_scrolling_a_chapter_on_a_phone(browser, origin, chapter):
    context = browser.new_context(bind_at_once=False, **PHONE)  # widgets bound as a reader's are
    page = recorded(context.new_page())
    page.add_init_script(RECORD)
    page.goto(f"{origin}/{chapter}/")
    at_end = "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1"
    for _ in range(100):  # the page grows as widgets are bound on the way: 60 screens at most
        if page.evaluate(at_end):
            break
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(150)
    at_end = page.evaluate(at_end)
    shifts = page.evaluate("() => window.bvShifts")
    blocks = page.evaluate("""() => [...document.querySelectorAll('article div.highlight')]
      .filter((b) => b.checkVisibility()).map((b) => !!b.querySelector('.md-code__nav'))""")
    context.close()
    assert at_end, "the page was not scrolled to its end"
    assert all(blocks), f"{blocks.count(False)} shown code blocks were never mounted on the way"
    assert sum(s["value"] for s in shifts) < LIMIT, json.dumps(shifts, indent=1)[:3000]
    assert page.errors == [], page.errors

"""Node by node's graph is read where it is drawn (issue 44, item 7): on the Your engine page at
1280 px, the lit graph of chapter 8's block 23 was shrunk into the column with its text far under
a readable size. Every graph Node by node draws for chapter 8's failures, on an engine with a
classic bug, shows its smallest text at shared/figures.js's READABLE_PX or more, scrolling sideways
where it is then wider than the column."""

import re

from tests.your_engine.test_your_engine_browser import engine_page, give_engine, run_book

TEXT_PX = """svg => {
    const scale = /scale\\(([\\d.]+)/.exec(svg.querySelector('g.graph')?.getAttribute('transform') ?? '');
    const sizes = [...svg.querySelectorAll('text[font-size]')].map((t) => Number(t.getAttribute('font-size')));
    return Math.min(...sizes) * (scale ? Number(scale[1]) : 1) * svg.getBoundingClientRect().width
        / svg.viewBox.baseVal.width;
}"""


def test_node_by_nodes_graphs_of_chapter_8_are_drawn_at_a_readable_size_at_1280_px(browser, origin):
    page = engine_page(browser, origin, color_scheme="light")
    give_engine(page, "assign")
    run_book(page)
    readable = page.evaluate("async () => (await import('/javascripts/shared/figures.js')).READABLE_PX")
    failures = page.locator('.bv-map__failure[data-page^="08-"]')
    drawn = {}
    for i in range(failures.count()):
        failure = failures.nth(i)
        failure.get_by_role("button", name=re.compile("^Node by node")).click()
        node = failure.locator(".bv-map__node")
        page.wait_for_function("node => node.textContent && !/^Comparing/.test(node.textContent)",
                               arg=node.element_handle(), timeout=60_000)
        if not node.locator(".bv-map__cause").count():
            continue
        svg = node.locator("svg")
        svg.wait_for(timeout=60_000)
        block = failure.get_attribute("data-block")
        drawn[block] = (round(svg.evaluate(TEXT_PX), 1), svg.evaluate("s => s.getBoundingClientRect().width"),
                        node.evaluate("n => n.getBoundingClientRect().width"),
                        svg.evaluate("s => s.parentElement.scrollWidth > s.parentElement.clientWidth"))
        # the lit node (the record Python drew for the difference) is in view, scrolled to if need be
        assert svg.evaluate("""s => { const lit = [...s.querySelectorAll('g.node')].find((g) =>
                /your engine/.test(g.textContent));
            const box = s.parentElement.getBoundingClientRect(), node = lit.getBoundingClientRect();
            return node.left >= box.left - 1 && node.right <= box.right + 1; }"""), block
    page.close()
    assert "23" in drawn, drawn  # the block is among them
    assert all(px >= readable for px, *_ in drawn.values()), drawn
    # wider than its column, the figure scrolls: nothing of it is cut off
    assert all(scrolls for px, width, column, scrolls in drawn.values() if width > column + 1), drawn

"""Every figure whole on a phone (issue 27, item 1).

The build side (scripts/pages/figures.py, micrograd/draw.py): a draw_dot graph whose text would
read under 11 px in a phone's 358 px column is also laid out top to bottom, with the same node
and edge ids, byte-identical run to run; the phone gets that layout where its text reads larger.

The reader's side, in Debian's Chromium on the built site at 390 × 844 (touch, 2×): every
figure of chapters 1–5 and 7 lies wholly inside the column, its text at 11 px or more, or it
is an overview that opens full screen on a tap (GLightbox) and closes again; so is every
stepper's and the visit-order widget's graph, preset by preset; and nothing scrolls sideways
without a cue you can see (a shadow on the side with more, gone at the end).
"""

import html
import io
import re

import graphviz
import pytest

import scripts.pages.figures
from micrograd import Value, draw_dot
from micrograd.nn import MLP
from scripts import ROOT
from scripts.build.page_build import run
from scripts.pages.figures import PHONE_COLUMN, READABLE_PX, phone_layout, text_px, to_svg
from tests import helpers
from tests.helpers import MOUNT_CODE_BLOCKS, recorded, serve_site

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
CHAPTERS = ["01-computational-graphs", "02-chain-rule", "03-backprop-by-hand", "04-engine",
            "05-neurons-layers-networks", "07-check-break-fix", "11-gates-and-granularity",
            "12-jacobians-and-vjps"]
# Pages whose only sideways scrollers are code, math, a table or a notebook cell (no graph)
OTHER_PAGES = ["06-training", "08-pytorch", "09-tensors", "10-under-the-hood", "13-what-reverse-mode-costs",
               "14-deep-networks"]


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path, monkeypatch):
    """Graphviz runs for every figure of a test (no SVG from the shared cache)."""
    monkeypatch.setattr(scripts.pages.figures, "FIGURE_CACHE", tmp_path / "figures")


def chapter_3_L():
    """L = (a·b + c)·f of chapter 3 (tests/helpers.py), after backward: its wide layout is 584 pt."""
    L = helpers.chapter_3_L()
    L.backward()
    return L


def network():
    """Chapter 5's 2-2-1 network on one input: too big for a phone either way."""
    import random

    random.seed(1)
    return MLP(2, [2, 1])([2.0, -1.0])


def ids(svg):
    """The ids of every node and edge group of an SVG (draw_dot's n0, n2op, n0-n2-0, ...)."""
    return set(re.findall(r'<g id="([^"]+)" class="(?:node|edge)"', html.unescape(svg)))


def test_a_wide_graph_is_laid_out_top_to_bottom_with_the_same_ids():
    graph = draw_dot(chapter_3_L(), local_derivatives=True)
    wide = to_svg(graph)
    assert text_px(wide) < READABLE_PX  # scaled into 358 px its text read at 8 px: it was cut off
    narrow = phone_layout(graph, wide)
    assert narrow is not None and text_px(narrow) >= READABLE_PX, narrow and text_px(narrow)
    assert ids(narrow) == ids(wide) and {"n0", "n2op", "n0-n2-0", "n2op-n2"} <= ids(wide)
    assert narrow != wide and "data -6.0000" in html.unescape(narrow)  # the same numbers, laid out anew


def test_a_graph_that_fits_a_phone_gets_one_layout():
    a = Value(3.0, label="a")
    graph = draw_dot(a * a)
    wide = to_svg(graph)
    assert text_px(wide) >= READABLE_PX
    assert phone_layout(graph, wide) is None


def test_a_graph_too_big_either_way_gets_the_layout_whose_text_reads_larger():
    graph = draw_dot(network())
    wide = to_svg(graph)
    narrow = phone_layout(graph, wide)
    assert narrow is not None and text_px(wide) < text_px(narrow) < READABLE_PX, (text_px(wide), narrow)


def test_only_a_draw_dot_graph_is_laid_out_again():
    """A Digraph of the page's own making has no redraw: it keeps its one layout."""
    dot = graphviz.Digraph(graph_attr={"rankdir": "LR"})
    for k in range(12):
        dot.node(f"n{k}", f"a long node label number {k}")
        if k:
            dot.edge(f"n{k - 1}", f"n{k}")
    wide = to_svg(dot)
    assert text_px(wide) < READABLE_PX and phone_layout(dot, wide) is None


def test_redraw_is_draw_dot_in_the_other_direction():
    L = chapter_3_L()
    for local in (False, True):
        assert draw_dot(L, local_derivatives=local).redraw("TB").source == \
            draw_dot(L, rankdir="TB", local_derivatives=local).source
        assert draw_dot(L, rankdir="TB", local_derivatives=local).redraw("LR").source == \
            draw_dot(L, local_derivatives=local).source


@pytest.mark.parametrize("width, transform, column, expected", [
    ("716pt", "", PHONE_COLUMN, 11 * PHONE_COLUMN / 716),  # scaled down into the column
    ("200pt", "", PHONE_COLUMN, 11 * 4 / 3),  # narrower than the column: its own size, never blown up
    ("400pt", "scale(0.5 0.5) ", 800, 11 * 0.5 * 4 / 3),  # Graphviz's size= scaled the drawing
])
def test_text_px_is_the_text_as_shown_in_a_column(width, transform, column, expected):
    svg = (f'<svg width="{width}" height="100pt" viewBox="0.00 0.00 {width[:-2]} 100.00" '
           f'xmlns="http://www.w3.org/2000/svg"><g id="graph0" class="graph" transform="{transform}'
           'rotate(0) translate(4 96)"><text font-size="14.00">x</text><text font-size="11.00">y</text>'
           '</g></svg>')
    assert text_px(svg, column) == pytest.approx(expected)


def test_a_page_serves_both_layouts_byte_identical_run_to_run(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom micrograd import Value, draw_dot\na, b = Value(2.0, label='a'), Value(-3.0, label='b')\n"
        "e = a * b\ne.label = 'e'\nd = e + Value(10.0, label='c')\nd.label = 'd'\nL = d * Value(-2.0, label='f')\n"
        "L.label = 'L'\ndraw_dot(L)\n```\n<!-- figure: L = (a·b + c)·f -->\n")
    runs = []
    for attempt in ("one", "two"):
        monkeypatch.setattr(scripts.pages.figures, "FIGURE_CACHE", tmp_path / attempt)
        runs.append(run(page))
    first, second = runs
    svgs = {name: svg for name, svg in first.files.items() if name.endswith(".svg")}
    assert sorted(svgs) == ["page/figure-1-narrow.svg", "page/figure-1.svg"]
    assert all(second.files[name] == svg for name, svg in svgs.items())  # byte-identical
    assert ids(svgs["page/figure-1.svg"]) == ids(svgs["page/figure-1-narrow.svg"])
    markup = first.outputs[0].markdown
    assert '<source media="(max-width: 44.9375em)" srcset="figure-1-narrow.svg"' in markup
    assert '<img class="graph" src="figure-1.svg" alt="L = (a·b + c)·f"' in markup
    assert markup.count("<img") == 1  # one image in the accessibility tree, whichever layout shows


# --- in the browser ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(**PHONE)
    yield recorded(context.new_page())
    context.close()


def visit(page, url):
    """Open url on the phone, unless the phone shows it already with no full-screen view open: a
    chapter's figures are checked, then its scrollers, on one load (both tests parametrise their
    chapter per module, so pytest runs a chapter's two side by side). What the figures' test
    does to the page (its images loaded at once, the full-screen view opened and closed)
    touches no scroller."""
    if page.url != url or page.evaluate("() => Boolean(document.querySelector('.glightbox-container'))"):
        page.goto(url)


# Each figure of the page as shown: its source, whether it lies wholly inside the column, and
# for a Graphviz drawing the CSS px of its smallest text (null for a plot).
FIGURES = r"""async () => {
  const column = document.querySelector(".md-content .md-typeset").getBoundingClientRect();
  const out = [];
  for (const [k, img] of Array.from(document.querySelectorAll("figure.bv-figure img")).entries()) {
    img.loading = "eager";
    await img.decode().catch(() => {});
    const shown = img.getBoundingClientRect();
    const text = await (await fetch(img.currentSrc)).text();
    let px = null;
    if (text.includes("Generated by graphviz")) {
      const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
      const scale = /scale\(([\d.]+)/.exec(svg.querySelector("g.graph").getAttribute("transform"));
      const unit = shown.width / Number(svg.getAttribute("viewBox").split(/\s+/)[2]) * (scale ? Number(scale[1]) : 1);
      px = Math.min(...Array.from(svg.querySelectorAll("text"), (t) => Number(t.getAttribute("font-size")) * unit));
    }
    out.push({k, src: img.currentSrc.split("/").pop(), px, width: shown.width,
      inside: shown.width > 0 && shown.left >= column.left - 0.5 && shown.right <= column.right + 0.5});
  }
  return out;
}"""

# The lightbox's image, once it has opened and settled: its source and whether it lies whole
# inside the screen.
OPENED = """() => {
  const img = document.querySelector(".glightbox-container .gslide.current .gslide-image img");
  if (!img || !img.complete || !img.naturalWidth) return null;
  const r = img.getBoundingClientRect();
  return {src: img.currentSrc || img.src, whole: r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
    && r.bottom <= innerHeight + 0.5, width: r.width,
    buttons: [...document.querySelectorAll(".glightbox-container button")]
      .filter((b) => b.getClientRects().length).map((b) => b.getAttribute("aria-label"))};
}"""


# Resolves once the lightbox's animations (GLightbox's fade and zoom, 0.5 s; not its loader's
# endless spin) have finished and its image has kept its box over two frames.
SETTLED = """async () => {
  const frame = () => new Promise(requestAnimationFrame);
  const box = document.querySelector(".glightbox-container");
  await Promise.all(box.getAnimations({subtree: true}).filter((a) => a.effect?.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => {})));
  let last = null;
  for (;;) {
    await frame();
    const r = box.querySelector(".gslide.current .gslide-image img").getBoundingClientRect();
    const now = [r.x, r.y, r.width, r.height].join();
    if (now === last) return;
    last = now;
  }
}"""

# Two frames drawn: what a ResizeObserver decided after the last layout is on the page.
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def open_and_close(page, opener):
    """Tap `opener`, wait for the full-screen view, tap its close button: what it showed."""
    opener.tap()
    page.wait_for_function(f"({OPENED})() && ({OPENED})().width > 0")
    page.evaluate(SETTLED)  # GLightbox's opening animation
    shown = page.evaluate(OPENED)
    # one image: Close is its one control (GLightbox showed a disabled Previous and Next, which
    # a screen reader announced and a tab reached, and which did nothing)
    assert shown["buttons"] == ["Close"], shown["buttons"]
    page.locator(".glightbox-container .gclose").tap()
    page.wait_for_function("!document.querySelector('.glightbox-container')")
    assert not page.evaluate("document.documentElement.classList.contains('glightbox-open')")
    return shown


@pytest.mark.parametrize("name", CHAPTERS, scope="module")  # a chapter's two tests in a row: one load
def test_every_figure_is_whole_on_a_phone_or_opens_full_screen(phone, origin, name):
    """Before: 24 of 27 graphs cut off in boxes that scrolled sideways with no cue (chapter 1's
    first graph, 573 px, hid its root f). Now each lies inside the column; a graph whose text
    reads under 11 px there is an overview, opened full screen by a tap (the layout shown, whole
    on the screen) and closed again. The first figure of each page is opened too."""
    visit(phone, f"{origin}/{name}/")
    figures = phone.evaluate(FIGURES)
    assert figures, name
    cut = [f for f in figures if not f["inside"]]
    assert not cut, cut
    overviews = [f for f in figures if f["px"] is not None and f["px"] < READABLE_PX]
    for figure in [figures[0]] + [f for f in overviews if f["k"]]:
        link = phone.locator("figure.bv-figure a").nth(figure["k"])
        link.scroll_into_view_if_needed()
        shown = open_and_close(phone, link)
        assert shown["src"].endswith("/" + figure["src"]) and shown["whole"], (figure, shown)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.errors == []
    print(f"\n{name}: {len(figures)} figures, {len(overviews)} overviews "
          f"({', '.join(f['src'] for f in overviews)}), smallest text in a fitting graph "
          f"{min((f['px'] for f in figures if f['px'] and f['px'] >= READABLE_PX), default=0):.1f} px")


def test_a_full_screen_figure_zooms_with_two_fingers(phone, origin):
    """Chapter 5's network, 1,727 px wide, is an overview on a phone: opened full screen, two
    fingers moving apart zoom it (GLightbox's pinch)."""
    phone.goto(f"{origin}/05-neurons-layers-networks/")
    link = phone.locator("figure.bv-figure a").nth(1)
    link.scroll_into_view_if_needed()
    link.tap()
    phone.wait_for_function(f"({OPENED})() && ({OPENED})().width > 0")
    phone.evaluate(SETTLED)
    before = phone.evaluate(OPENED)["width"]
    box = phone.locator(".glightbox-container .gslide.current .gslide-image img").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = phone.context.new_cdp_session(phone)
    touch = lambda kind, points: cdp.send("Input.dispatchTouchEvent", {  # noqa: E731
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})
    touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 11):
        touch("touchMove", [(cx - 20 - 12 * step, cy), (cx + 20 + 12 * step, cy)])
    touch("touchEnd", [])
    phone.evaluate(SETTLED)
    after = phone.evaluate(OPENED)["width"]
    phone.keyboard.press("Escape")
    phone.wait_for_function("!document.querySelector('.glightbox-container')")
    assert after > 1.5 * before, (before, after)


def test_glightbox_loads_on_the_first_full_screen_view_under_the_documented_policy(browser, site):
    """No page loads GLightbox (mkdocs-glightbox put its script and stylesheet in every page's
    <head>, blocking its first paint): the first figure a reader opens fetches them, once,
    with MAINTAINERS.md's Content-Security-Policy sent, and the figure opens full screen."""
    with serve_site(site, csp=True) as origin:
        context = browser.new_context(**PHONE)
        page = recorded(context.new_page())
        try:
            page.goto(f"{origin}/01-computational-graphs/")
            assert not page.locator("script[src*=glightbox], link[href*=glightbox]").count()
            assert not [url for url in page.requests if "glightbox" in url]
            page.evaluate("() => { window.violations = []; document.addEventListener('securitypolicyviolation', "
                          "e => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`)); }")
            link = page.locator("figure.bv-figure a").first
            link.scroll_into_view_if_needed()
            for _ in range(2):
                shown = open_and_close(page, link)
                assert shown["whole"], shown
            fetched = sorted(url.rsplit("/", 1)[1] for url in page.requests if "glightbox" in url)
            assert fetched == ["glightbox.min.css", "glightbox.min.js"], fetched
            assert page.evaluate("window.violations") == [] and page.errors == [], page.errors
        finally:
            context.close()


# Each widget graph as shown: inside its box (and the box inside the column), the CSS px of its
# smallest text, and whether its Full screen button shows.
WIDGET_GRAPHS = """() => Array.from(document.querySelectorAll(".bv-widget__graph")).map((box) => {
  const svg = box.querySelector("svg");
  const r = svg.getBoundingClientRect(), b = box.getBoundingClientRect();
  const column = document.querySelector(".md-content .md-typeset").getBoundingClientRect();
  const px = Math.min(...Array.from(svg.querySelectorAll("text"),
    (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
  const zoom = box.querySelector(".bv-fullscreen");
  return {id: box.closest(".bv-widget").id, px, inside: r.left >= b.left - 0.5 && r.right <= b.right + 0.5
    && b.left >= column.left - 0.5 && b.right <= column.right + 0.5 && box.scrollWidth <= box.clientWidth,
    zoom: Boolean(zoom && zoom.getBoundingClientRect().width)};
})"""


def test_every_widget_graph_fits_a_phone_or_opens_full_screen(phone, origin):
    """Chapter 1's stepper hid c (369 px in 330), chapter 3's was 431 px, chapter 4's visit
    order 420. Each preset of each stepper and the visit order now lie inside their box; chapter
    1's and 3's neurons, too big for 330 px at 11 px, show a Full screen button that opens the
    graph as it stands at this step (its current node marked) and closes again."""
    seen, overviews = 0, 0
    for url in ["/01-computational-graphs/", "/03-backprop-by-hand/", "/04-engine/"]:
        phone.goto(origin + url)
        for widget in phone.locator(".bv-stepper, .bv-visit-order").all():
            presets = widget.locator(".bv-widget__presets button")
            for k in range(max(1, presets.count())):
                if presets.count():
                    presets.nth(k).tap()
                phone.evaluate(FRAMES)  # the ResizeObserver's verdict, after layout
                graph = next(g for g in phone.evaluate(WIDGET_GRAPHS) if g["id"] == widget.get_attribute("id"))
                seen += 1
                assert graph["inside"], (url, k, graph)
                assert graph["zoom"] == (graph["px"] < READABLE_PX), (url, k, graph)
                if graph["zoom"]:
                    overviews += 1
                    forward = widget.get_by_role("button", name="Next forward step")
                    forward.tap()
                    zoom = widget.locator(".bv-fullscreen")
                    zoom.scroll_into_view_if_needed()
                    shown = open_and_close(phone, zoom)
                    assert shown["src"].startswith("data:image/svg+xml") and shown["whole"], shown
                    assert phone.evaluate("document.activeElement.classList.contains('bv-fullscreen')")
    assert seen == 6 and overviews == 2, (seen, overviews)  # 2 + 2 presets, a·a, the visit order
    assert phone.errors == []


# Every element of the page that scrolls sideways (overflow-x auto or scroll) over more than
# its own padding: some of its content is out of sight.
SCROLLERS = """() => Array.from(document.querySelectorAll(".md-content *")).filter((el) => {
  const style = getComputedStyle(el);
  if (!/auto|scroll/.test(style.overflowX)) return false;
  if (el.scrollWidth - el.clientWidth <= parseFloat(style.paddingRight) + 1) return false;
  return el.checkVisibility() && !el.closest("[hidden], details:not([open])");
}).map((el, k) => { el.dataset.bvScroller = k; return el.tagName.toLowerCase() + "." + el.className; })"""

# Each exercise scrolled into view in turn, a frame drawn at each (its IntersectionObserver
# sees it), so that its editor replaces its starter code: the one thing of these pages that
# loads near the viewport (docs/javascripts/widgets/exercise.js).
NEAR_EACH_EXERCISE = """async () => {
  for (const exercise of document.querySelectorAll(".exercise[data-exercise]")) {
    exercise.scrollIntoView({block: "center", behavior: "instant"});
    for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
  }
  scrollTo(0, 0);
}"""

# Every scroller scrolled to its start (0) or its end, a frame drawn since (the scroll-state
# query that shows an editor's line numbers' shadow follows the scroll a frame late).
SCROLL_ALL = """async (left) => {
  for (const e of document.querySelectorAll("[data-bv-scroller]")) e.scrollLeft = left === "end" ? e.scrollWidth : 0;
  for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
}"""

# Scroller k centred in the window: its box, and the x of its left edge, right of an editor's
# line numbers (which stay put).
SHOW_SCROLLER = """(k) => {
  const e = document.querySelector(`[data-bv-scroller='${k}']`);
  e.scrollIntoView({block: "center", behavior: "instant"});
  const box = e.getBoundingClientRect();
  return {x: box.x, y: box.y, width: box.width, height: box.height,
    gutter: (e.querySelector(":scope > .cm-gutters")?.getBoundingClientRect().right ?? box.left) - box.left};
}"""


def edge_shade(page, k):
    """(left, right): how far the colour of each edge of scroller `k` on the screen strays from
    its middle's (0 to 255, the largest of the channels), over the lower 70 % of what shows of
    it, 1 to 2 CSS px in from the edge. An editor's left edge is where its code starts, right of
    its line numbers. The screenshot is in CSS px (scale="css"): a quarter of the device's pixels,
    the same columns, in a third of the time."""
    from PIL import Image

    box = page.evaluate(SHOW_SCROLLER, k)
    top, bottom = max(box["y"], 0), min(box["y"] + box["height"], page.viewport_size["height"])
    png = page.screenshot(clip={"x": box["x"], "y": top, "width": box["width"], "height": bottom - top},
                          scale="css", caret="initial")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    start = round(box["gutter"] * width / box["width"])
    rows = range(int(height * 0.3), int(height * 0.95))

    def mean(x):
        pixels = [image.getpixel((x, y)) for y in rows]
        return [sum(p[c] for p in pixels) / len(pixels) for c in range(3)]

    middle = mean(width // 2)
    return tuple(max(abs(a - b) for a, b in zip(mean(x), middle)) for x in (start + 1, width - 2))


@pytest.mark.parametrize("name", CHAPTERS + OTHER_PAGES, scope="module")  # a chapter's two tests in a row: one load
def test_nothing_scrolls_sideways_without_a_cue(phone, origin, name):
    """Code blocks and formulas wider than a phone's column scroll inside themselves (103 on
    these pages); nothing showed that they do. Now a shadow shows on the side with more: with
    the text made transparent, the right edge is darker than the middle at the start, the left
    edge at the end, and the other edge plain. A reader's audit found two more kinds on the
    other pages: chapter 8's table and chapter 6's notebook cells."""
    visit(phone, f"{origin}/{name}/")
    phone.evaluate(NEAR_EACH_EXERCISE)
    phone.wait_for_function("Array.from(document.querySelectorAll('.exercise[data-exercise]'))"
                            ".every((e) => e.classList.contains('has-editor'))")
    assert phone.evaluate(MOUNT_CODE_BLOCKS) == 0  # each block as a reader scrolled to it sees it
    phone.add_style_tag(content="[data-bv-scroller], [data-bv-scroller] * { color: transparent !important; "
                                "border-color: transparent !important; } .md-code__nav { visibility: hidden; }")
    scrollers = phone.evaluate(SCROLLERS)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shades = {}
    for left in (0, "end"):  # every scroller at its start, then every one at its end
        phone.evaluate(SCROLL_ALL, left)
        shades[left] = [edge_shade(phone, k) for k in range(len(scrollers))]
    silent = [f"{kind} #{k}: edges at start {start}, at end {end}"
              for k, (kind, start, end) in enumerate(zip(scrollers, shades[0], shades["end"]))
              if not (start[1] >= 8 > start[0] and end[0] >= 8 > end[1])]
    assert not silent, f"{len(silent)} of {len(scrollers)} scroll with no cue:\n" + "\n".join(silent)
    cues = [shade for start, end in zip(shades[0], shades["end"]) for shade in (start[1], end[0])]
    plain = [shade for start, end in zip(shades[0], shades["end"]) for shade in (start[0], end[1])]
    print(f"\n{name}: {len(scrollers)} scrollers, each with its cue (the faintest {min(cues):.0f}, "
          f"the strongest plain edge {max(plain):.0f}; the line is 8)")


def edited_figure(page, url, n):
    """Open url, edit block n (a comment line added) and Run it: what RUN_FIGURE reads of the
    figure the page draws for it, once laid out."""
    run = "document.querySelector('.bv-run').runState"
    page.goto(url)
    page.evaluate(f"n => {run}.blocks[n - 1].edit.click()", n)
    page.wait_for_function(f"n => {run}.blocks[n - 1].editor", arg=n)
    page.evaluate(f"n => {run}.blocks[n - 1].editor.setCode('# my edit\\n' + {run}.blocks[n - 1].source)", n)
    page.evaluate(f"n => {run}.blocks[n - 1].run.click()", n)
    page.wait_for_function(f"n => {run}.blocks[n - 1].output.querySelector('.bv-run-figure svg')", arg=n,
                           timeout=120_000)
    page.evaluate(FRAMES)  # the ResizeObserver's verdict, after layout
    return page.evaluate(RUN_FIGURE, n)


# A figure drawn in the page by a Run (docs/javascripts/live-figure.js), as shown: inside the
# column, the CSS px of its smallest text, its ids, and whether its Full screen button shows.
RUN_FIGURE = r"""(n) => {
  const block = document.querySelector('.bv-run').runState.blocks[n - 1];
  const svg = block.output.querySelector('.bv-run-figure svg');
  const r = svg.getBoundingClientRect();
  const column = document.querySelector(".md-content .md-typeset").getBoundingClientRect();
  const px = Math.min(...Array.from(svg.querySelectorAll("text"),
    (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
  const zoom = svg.parentElement.querySelector(".bv-fullscreen");
  return {px, inside: r.width > 0 && r.left >= column.left - 0.5 && r.right <= column.right + 0.5,
    ids: [...svg.querySelectorAll('g.node, g.edge')].map(g => g.dataset.id).sort(),
    width: Number(svg.getAttribute("viewBox").split(/\s+/)[2]),
    height: Number(svg.getAttribute("viewBox").split(/\s+/)[3]),
    zoom: Boolean(zoom && zoom.getBoundingClientRect().width)};
}"""


@pytest.mark.parametrize("name, n, figure, overview", [
    ("01-computational-graphs", 3, "figure-1", False),  # 573 px wide; top to bottom it reads at 11 px or more
    ("05-neurons-layers-networks", 27, "figure-2", True),  # the network: too big either way
])
def test_a_figure_a_run_draws_is_laid_out_for_the_phone_or_opens_full_screen(phone, origin, site, name, n,
                                                                               figure, overview):
    """A block's figure drawn again by Run after an edit (in the reader's Python, by Graphviz in
    the page) was scaled into the column with its text at 3.3 to 9.9 px and nothing to open it. Now
    it is laid out as the build lays out its figure for a phone: top to bottom where that reads
    at 11 px or more (the ids of the build's layout for a phone), else an overview whose Full screen button
    opens it whole on the screen."""
    drawn = edited_figure(phone, f"{origin}/{name}/", n)
    narrow = site / name / f"{figure}-narrow.svg"  # the phone's own layout, else the one file serves both
    shown = (narrow if narrow.exists() else site / name / f"{figure}.svg").read_text(encoding="utf-8")
    assert drawn["inside"] and drawn["ids"] == sorted(ids(shown)), drawn
    box = [float(x) for x in re.search(r'viewBox="([\d. ]+)"', shown)[1].split()]
    # top to bottom as the phone's figure (Graphviz in the page is not Debian's: the shape, not
    # the size: left to right these graphs are 2.3 and 2.6 times as wide as tall, top to bottom 0.7 and 0.6)
    assert box[3] > box[2] and 0.8 < (drawn["width"] / drawn["height"]) / (box[2] / box[3]) < 1.25, (drawn, box)
    assert drawn["zoom"] == overview == (drawn["px"] < READABLE_PX), drawn
    if overview:
        zoom = phone.locator(".bv-run-output:has(.bv-run-figure) .bv-fullscreen").first
        zoom.scroll_into_view_if_needed()
        shown = open_and_close(phone, zoom)
        assert shown["src"].startswith("data:image/svg+xml") and shown["whole"], shown
    assert phone.errors == []


def test_the_page_and_the_build_read_a_graph_as_readable_at_the_same_size():
    """figures.js decides in the page which graph drawn there is an overview; figures.py decides it
    for the build's figures: the one threshold is written twice, so a test ties them."""
    source = (ROOT / "docs" / "javascripts" / "shared" / "figures.js").read_text(encoding="utf-8")
    assert re.findall(r"^export const READABLE_PX = (\d+);", source, re.M) == [
        str(READABLE_PX)]

"""Figures read where they stand on a desktop too (issue 46).

Chapter 5's three network figures showed their text at 6.4 to 10.8 px in a 1280 px window's
688 px column, where the top-to-bottom layout the phone got reads larger. The build side
(scripts/pages/figures.py): a draw_dot graph whose text would read under 11 px in the desktop's
column gets its top-to-bottom layout there too where that reads at 11 px or more, the same
drawing with the same ids, byte-identical run to run, shown at most DESKTOP_HEIGHT tall; an
overview either way stays left to right. The reader's side,
in Debian's Chromium at 1280 x 800: the column and the window are as figures.py says, and chapter
5's neuron and hidden neuron read at 11 px or more, its network is the page's one overview and
opens whole on the screen.
"""

import html
import re

import pytest

import scripts.pages.figures
from micrograd import Value, draw_dot
from scripts import ROOT
from scripts.build.page_build import run
from scripts.pages.figures import (
    DESKTOP_COLUMN,
    DESKTOP_HEIGHT,
    PHONE_COLUMN,
    READABLE_PX,
    desktop_layout,
    desktop_size,
    figure_html,
    phone_layout,
    size_px,
    text_px,
    to_svg,
)
from tests import helpers
from tests.figures.test_phone_figures import (
    FIGURES,
    OPENED,
    SETTLED,
    edited_figure,
    ids,
    network,
)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
CHAPTER_5 = ROOT / "docs" / "05-neurons-layers-networks.md"


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path, monkeypatch):
    """Graphviz runs for every figure of a test (no SVG from the shared cache)."""
    monkeypatch.setattr(scripts.pages.figures, "FIGURE_CACHE", tmp_path / "figures")


def neuron():
    """Chapter 5's ReLU neuron, out = relu(w1·x1 + w2·x2 + b), after its backward pass."""
    x1, x2 = Value(2.0, label="x1"), Value(-1.0, label="x2")
    w1, w2, b = Value(0.6888, label="w1"), Value(0.5159, label="w2"), Value(0.0, label="b")
    out = (b + w1 * x1 + w2 * x2).relu()
    out.label = "out"
    out.backward()
    return out


def test_a_graph_too_small_on_a_desktop_is_laid_out_top_to_bottom_there():
    graph = draw_dot(neuron(), local_derivatives=True)
    wide = to_svg(graph)
    assert text_px(wide, DESKTOP_COLUMN, DESKTOP_HEIGHT) < READABLE_PX  # 8.8 px: chapter 5's first figure
    tall = desktop_layout(graph, wide)
    assert tall == to_svg(graph.redraw("TB")) and ids(tall) == ids(wide)  # the same drawing, laid out anew
    assert text_px(tall, DESKTOP_COLUMN, DESKTOP_HEIGHT) >= READABLE_PX, text_px(tall, DESKTOP_COLUMN, DESKTOP_HEIGHT)
    assert size_px(tall)[1] > DESKTOP_HEIGHT  # drawn taller than the window: shown scaled down (below)
    assert phone_layout(graph, wide) == tall  # one file serves both


def test_a_graph_that_reads_on_a_desktop_keeps_its_layout_there():
    """Chapter 3's L with its local derivatives reads at 14 px left to right in 688 px; only
    the phone, where it read at 7.3 px, gets it top to bottom."""
    L = helpers.chapter_3_L()
    L.backward()
    graph = draw_dot(L, local_derivatives=True)
    wide = to_svg(graph)
    assert text_px(wide, PHONE_COLUMN) < READABLE_PX <= text_px(wide, DESKTOP_COLUMN, DESKTOP_HEIGHT)
    assert desktop_layout(graph, wide) is None and phone_layout(graph, wide) is not None


def test_a_graph_too_big_either_way_stays_left_to_right_on_a_desktop():
    """Chapter 5's network reads at 6.4 px left to right in the column, 8.4 top to bottom: an
    overview either way, it keeps the layout that is shorter on the page and that reads larger
    full screen in a window wider than tall; the phone gets the top-to-bottom one."""
    graph = draw_dot(network())
    wide = to_svg(graph)
    tall = to_svg(graph.redraw("TB"))
    assert text_px(wide, DESKTOP_COLUMN, DESKTOP_HEIGHT) + 0.5 < text_px(tall, DESKTOP_COLUMN, DESKTOP_HEIGHT) \
        < READABLE_PX
    assert desktop_layout(graph, wide) is None and phone_layout(graph, wide) == tall


def test_only_a_draw_dot_graph_is_laid_out_again_on_a_desktop():
    import graphviz

    dot = graphviz.Digraph(graph_attr={"rankdir": "LR"})
    for k in range(20):
        dot.node(f"n{k}", f"a long node label number {k}")
        if k:
            dot.edge(f"n{k - 1}", f"n{k}")
    wide = to_svg(dot)
    assert text_px(wide, DESKTOP_COLUMN) < READABLE_PX and desktop_layout(dot, wide) is None


def svg_of(width, height):
    return (f'<svg width="{width * 0.75}pt" height="{height * 0.75}pt" viewBox="0.00 0.00 {width * 0.75} '
            f'{height * 0.75}" xmlns="http://www.w3.org/2000/svg"><g id="graph0" class="graph" '
            'transform="rotate(0) translate(4 96)"><text font-size="11.00">x</text></g></svg>')


@pytest.mark.parametrize("width, height, alone, shown", [
    (600, 300, True, (600, 300)),  # short: its own size
    (464, 851, True, (410, 752)),  # chapter 5's neuron top to bottom: scaled to the window's height
    (813, 1307, True, (467, 751)),  # chapter 5's network top to bottom
    (249, 757, True, (249, 757)),  # never narrower than a phone's column shows it, with no layout of its own
    (249, 757, False, (247, 751)),  # with one, the phone reads its own
])
def test_a_desktop_shows_a_figure_at_most_a_window_tall_its_shape_kept(width, height, alone, shown):
    assert desktop_size(svg_of(width, height), alone) == shown
    # the height the browser shows (it keeps the SVG's own shape): within the window, or as a phone shows it
    assert shown[0] * height / width <= DESKTOP_HEIGHT or shown[0] == min(width, PHONE_COLUMN)


def test_text_px_reads_the_text_at_the_height_shown():
    svg = svg_of(464, 851)
    assert text_px(svg, DESKTOP_COLUMN) == pytest.approx(11 * 4 / 3)  # 464 px fits the column
    assert text_px(svg, DESKTOP_COLUMN, DESKTOP_HEIGHT) == pytest.approx(11 * 4 / 3 * 752 / 851)
    assert text_px(svg, PHONE_COLUMN, DESKTOP_HEIGHT) == pytest.approx(11 * 4 / 3 * 358 / 464)  # the narrower bound


def test_the_html_says_the_size_a_desktop_shows_and_the_phone_its_own():
    tall, wide = svg_of(464, 851), svg_of(1149, 353)
    alone = figure_html({"figure-1.svg": tall}, "a neuron")
    assert '<img class="graph" src="figure-1.svg" alt="a neuron" width="410" height="752"' in alone
    assert "<source" not in alone
    both = figure_html({"figure-1.svg": wide, "figure-1-narrow.svg": tall}, "a neuron")
    assert 'srcset="figure-1-narrow.svg" width="464" height="851"' in both  # the phone scales it to its column
    assert 'src="figure-1.svg" alt="a neuron" width="1149" height="353"' in both


def test_chapter_5s_figures_read_on_a_desktop_but_its_network():
    """The page as the build runs it: the neuron (figure 1) and h1's part (figure 3) top to
    bottom, one file for desktop and phone, at 11 px or more as a 1280 px window shows them
    (the <img>'s size, in the 688 px column); the network (figure 2), the page's one overview,
    left to right, with the phone's top-to-bottom layout beside it."""
    result = run(CHAPTER_5)
    figures = [o for o in result.outputs if o.kind == "figure"]
    assert len(figures) == 3
    svgs = {name.split("/")[-1]: svg for name, svg in result.files.items() if name.endswith(".svg")}
    assert sorted(svgs) == ["figure-1.svg", "figure-2-narrow.svg", "figure-2.svg", "figure-3.svg"]
    px = []
    for k, figure in enumerate(figures, start=1):
        svg = svgs[f"figure-{k}.svg"]
        width, height = (int(v) for v in re.search(r'<img [^>]*width="(\d+)" height="(\d+)"', figure.markdown).groups())
        assert height <= DESKTOP_HEIGHT and width <= size_px(svg)[0]
        natural = size_px(svg)
        assert abs(width / height - natural[0] / natural[1]) < 0.01  # its shape kept
        assert (natural[1] > natural[0]) == (k != 2)  # top to bottom, but the network
        px.append(text_px(svg, min(width, DESKTOP_COLUMN)))  # as shown
    assert px[0] >= READABLE_PX and px[2] >= READABLE_PX and px[1] < READABLE_PX, px
    assert ids(svgs["figure-2-narrow.svg"]) == ids(svgs["figure-2.svg"])
    assert "data 0.8618" in html.unescape(svgs["figure-1.svg"])  # the numbers the number sources read, laid out anew


def test_a_page_whose_figure_a_desktop_gets_top_to_bottom_is_byte_identical_run_to_run(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom micrograd import Value, draw_dot\n"
        "x1, x2 = Value(2.0, label='x1'), Value(-1.0, label='x2')\n"
        "w1, w2, b = Value(0.6888, label='w1'), Value(0.5159, label='w2'), Value(0.0, label='b')\n"
        "out = (b + w1 * x1 + w2 * x2).relu()\nout.label = 'out'\nout.backward()\n"
        "draw_dot(out, local_derivatives=True)\n```\n<!-- figure: a neuron -->\n")
    runs = []
    for attempt in ("one", "two"):
        monkeypatch.setattr(scripts.pages.figures, "FIGURE_CACHE", tmp_path / attempt)
        runs.append(run(page))
    first, second = runs
    svgs = {name: svg for name, svg in first.files.items() if name.endswith(".svg")}
    assert sorted(svgs) == ["page/figure-1.svg"]  # no phone layout of its own: the desktop's serves
    assert all(second.files[name] == svg for name, svg in svgs.items())  # byte-identical
    assert first.outputs[0].markdown == second.outputs[0].markdown
    tall = first.files["page/figure-1.svg"]
    assert size_px(tall)[1] > size_px(tall)[0]  # top to bottom, for the desktop and the phone


# --- in the browser ------------------------------------------------------------------------

# The content column and the header of the page, in CSS px.
LAYOUT = """() => ({column: document.querySelector(".md-content__inner").getBoundingClientRect().width,
  typeset: document.querySelector(".md-content .md-typeset").getBoundingClientRect().width,
  header: document.querySelector(".md-header").getBoundingClientRect().height, window: innerHeight})"""


@pytest.fixture(scope="module")
def desktop(browser):
    context = browser.new_context(**DESKTOP)
    yield helpers.recorded(context.new_page())
    context.close()


def test_the_desktop_column_and_window_are_what_the_build_judges_figures_by(desktop, origin):
    """figures.py writes the 1280 px window's column and height down as constants; this reads
    them on the built site, so a theme or stylesheet change that moves them fails here."""
    desktop.goto(f"{origin}/05-neurons-layers-networks/")
    layout = desktop.evaluate(LAYOUT)
    assert layout["column"] == layout["typeset"] == DESKTOP_COLUMN, layout
    assert layout["window"] - layout["header"] == DESKTOP_HEIGHT, layout


def test_chapter_5s_figures_read_at_11_px_on_a_desktop_or_are_its_one_overview(desktop, origin):
    """In Chromium at 1280 x 800: the neuron and h1's part show their text at 11 px or more, the
    network under it (the page's one overview), each inside the column and no taller than the
    window under the header; a click opens the network full screen, whole, and Escape closes it."""
    desktop.goto(f"{origin}/05-neurons-layers-networks/")
    figures = desktop.evaluate(FIGURES)
    assert [f["src"] for f in figures] == ["figure-1.svg", "figure-2.svg", "figure-3.svg"], figures
    assert all(f["inside"] for f in figures), figures
    heights = desktop.evaluate("Array.from(document.querySelectorAll('figure.bv-figure img'), "
                               "(i) => i.getBoundingClientRect().height)")
    assert max(heights) <= DESKTOP_HEIGHT + 0.5, heights
    assert [f["px"] >= READABLE_PX for f in figures] == [True, False, True], figures
    assert figures[1]["width"] > 2 * heights[1]  # the network left to right
    link = desktop.locator("figure.bv-figure a").nth(1)
    link.scroll_into_view_if_needed()
    link.click()
    desktop.wait_for_function(f"({OPENED})() && ({OPENED})().width > 0")
    desktop.evaluate(SETTLED)
    shown = desktop.evaluate(OPENED)
    assert shown["src"].endswith("/figure-2.svg") and shown["whole"], shown
    desktop.keyboard.press("Escape")
    desktop.wait_for_function("!document.querySelector('.glightbox-container')")
    assert desktop.errors == []



@pytest.mark.parametrize("n, figure, tall", [
    (7, "figure-1", True),  # the neuron: top to bottom, where it reads at 11 px or more
    (27, "figure-2", False),  # the network: too big either way, the page's one overview
])
def test_a_figure_a_run_draws_on_a_desktop_is_laid_out_as_the_build_lays_out_its_own(desktop, origin, site, n,
                                                                                    figure, tall):
    """Issue 44: an edited figure drawn again in the page followed the phone's rule on a desktop
    too, with no height cap: chapter 5's neuron showed 880 px tall, and its network came out top to
    bottom (543 by 1,010 px as drawn). Now the page follows figures.py's desktop rule: the neuron
    top to bottom (the build's ids), read at 11 px or more; the network left to right, an overview
    with Full screen; both inside the column and no taller than the window under the header."""
    run = "document.querySelector('.bv-run').runState"
    drawn = edited_figure(desktop, f"{origin}/05-neurons-layers-networks/", n)
    height = desktop.evaluate(f"n => {run}.blocks[n - 1].output.querySelector('.bv-run-figure svg')"
                              ".getBoundingClientRect().height", n)
    shown = (site / "05-neurons-layers-networks" / f"{figure}.svg").read_text(encoding="utf-8")
    assert drawn["inside"] and drawn["ids"] == sorted(ids(shown)), drawn
    assert (drawn["height"] > drawn["width"]) == tall, drawn  # top to bottom as the build's, or left to right
    assert height <= DESKTOP_HEIGHT + 0.5, height
    assert drawn["zoom"] == (not tall) == (drawn["px"] < READABLE_PX), drawn
    assert desktop.errors == []


def test_the_page_and_the_build_cap_a_desktops_figure_at_the_same_height():
    """live-figure.js caps an edited figure at its DESKTOP_HEIGHT on a screen wider than its
    NARROW breakpoint; figures.py caps the build's: written twice, tied here."""
    source = (ROOT / "docs" / "javascripts" / "run" / "live-figure.js").read_text(encoding="utf-8")
    assert re.findall(r"^export const DESKTOP_HEIGHT = (\d+);", source, re.M) == [str(DESKTOP_HEIGHT)]
    assert re.findall(r'^export const NARROW = "([^"]+)";', source, re.M) == [scripts.pages.figures.NARROW]

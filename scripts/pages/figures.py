"""Figures: a python block that ends in an expression, followed by its alt text.

    ```python
    L.grad = 1.0
    draw_dot(L)
    ```
    <!-- figure: the graph of L = d·f after seeding: L.grad is 1, every other grad 0 -->

The page's code runs up to that block; the block's last expression (a
graphviz.Digraph from micrograd.draw_dot, or a matplotlib Figure) is drawn to
SVG, and the comment becomes the image, linked to itself at full size (on a
tap it opens full screen: docs/javascripts/shared/figures.js).

A figure is shown whole, scaled to its column, never cut off, and read where it
stands: its text at READABLE_PX or more, or it is an overview, opened full
screen to read. A draw_dot graph drawn left to right (its own layout) whose
text would read under READABLE_PX in a column is also laid out top to bottom
(its redraw("TB"): the same drawing, the same ids, byte-identical run to run),
and a column gets that layout where it serves the reader better: a phone
(PHONE_COLUMN, a <picture> source for narrow screens) where its text reads
larger, a desktop (DESKTOP_COLUMN, the <img> itself) where it reads at
READABLE_PX or more. One file serves both when they choose alike.

A very tall figure is a cost too: top to bottom, chapter 5's neuron is 851 px
tall, more than a 1280 x 800 window shows under Material's header, and a
reader who scrolls through a figure never sees it whole. So a desktop shows a
figure at most DESKTOP_HEIGHT tall, scaled down with its shape kept (the
<img>'s width and height say so), and its text is judged at that size: the
neuron still reads at 13 px, where left to right it read at 8.8. The scaling
never makes a figure narrower than a phone's column shows it, where the phone
has no layout of its own.

A graph too big for the desktop's column either way (chapter 5's 2-2-1
network: 6.4 px left to right, 8.4 top to bottom) is an overview there, read
full screen; a desktop keeps it left to right. Top to bottom it would fill the
window's height (752 px, against 267) with text that still does not read, and
full screen, in a window wider than tall, it reads smaller than left to right
(GLightbox fits it to 97 % of the window's height: 8.7 px, against 11.8 fitted
to its width). A phone keeps the rule it had: the layout that reads larger in
its column, an overview too (tests/pages/test_chapters.py holds it to a
screen's height).
"""

import ast
import hashlib
import html
import io
import math
import os
import re
import xml.etree.ElementTree as ET

from sybil import Region

from scripts import ROOT
from scripts.pages.directives import Directive, DirectiveError, Output, where
from scripts.pages.examples import python_fences
from scripts.reader.reader_code import is_doctest

FIGURE_CACHE = ROOT / ".cache" / "figures"
PHONE_COLUMN = 358  # CSS px of the text column on a 390 px phone (Material pads 16 px a side)
# CSS px of Material's content column (.md-content__inner) in a 1280 x 800 window, both sidebars
# shown: measured in Chromium on the built site, 2026-12-06 (1,220 px grid less two 242 px
# sidebars and 24 px margins). The text a desktop's figure is judged at.
DESKTOP_COLUMN = 688
# CSS px of a 1280 x 800 window below Material's 48 px header (measured with the column): the
# tallest a desktop shows a figure, so that it is seen whole.
DESKTOP_HEIGHT = 752
READABLE_PX = 11  # the smallest text a figure may show without opening it full screen
NARROW = "(max-width: 44.9375em)"  # Material's breakpoint for phones and small tablets


class FigureParser(Directive):
    """`<!-- figure: alt text -->` right after a python block ending in an expression.

    Raises DirectiveError, naming page and line, for a figure comment that
    does not directly follow such a block, and for a block ending in
    draw_dot(...) with no figure comment (a figure without alt text).
    """

    kind = "figure"

    def __call__(self, document):
        blocks = python_fences(document)
        followed = set()  # starts of the blocks that have a figure comment
        for region in self.lexer(document):
            at = where(document, region.start)
            before = [b for b in blocks if b.end <= region.start]
            block = before[-1] if before else None
            if block is None or document.text[block.end : region.start].strip():
                raise DirectiveError(f"{at}: a figure comment must directly follow a python block")
            followed.add(block.start)
            parsed = _last_expression(block.lexemes["source"], at), region.lexemes["arguments"].strip()
            yield Region(region.start, region.end, parsed, self.evaluate)
        for block in blocks:
            if block.start not in followed and _ends_in_draw_dot(block.lexemes["source"]):
                raise DirectiveError(f"{where(document, block.start)}: this block draws a figure; "
                                     "add <!-- figure: alt text --> after it")

    def build(self, example, at, page):
        expression, alt = example.parsed
        value = eval(compile(expression, example.path, "eval"), example.namespace)
        wide = to_svg(value)
        desktop = desktop_layout(value, wide) or wide
        phone = phone_layout(value, wide) or wide
        n = page.number(self.kind)
        files = {page.asset(f"figure-{n}.svg"): desktop}  # the first: what the number sources read
        if phone != desktop:
            files[page.asset(f"figure-{n}-narrow.svg")] = phone
        urls = {page.url(name): content for name, content in files.items()}
        return Output(self.kind, example.line, figure_html(urls, alt), files)


def phone_layout(value, svg):
    """The SVG (str) a phone shows instead of `svg`, or None: the top-to-bottom layout of a
    draw_dot graph (value.redraw) whose text reads larger than `svg`'s in a phone's column,
    when `svg`'s text would read under READABLE_PX there. Same node and edge ids as `svg`."""
    return _top_to_bottom(value, svg, PHONE_COLUMN)


def desktop_layout(value, svg):
    """The SVG (str) a desktop shows instead of `svg`, or None: the top-to-bottom layout of a
    draw_dot graph whose text reads at READABLE_PX or more in DESKTOP_COLUMN, at most
    DESKTOP_HEIGHT tall, where `svg`'s reads under it (an overview either way keeps `svg`:
    the module's docstring says why). Same node and edge ids as `svg`."""
    return _top_to_bottom(value, svg, DESKTOP_COLUMN, DESKTOP_HEIGHT, readable=True)


def _top_to_bottom(value, svg, column, height=None, readable=False):
    if not hasattr(value, "redraw") or text_px(svg, column, height) >= READABLE_PX:
        return None
    narrow = to_svg(value.redraw("TB"))
    px = text_px(narrow, column, height)
    # readable: only a layout that reads; else one that reads larger (by more than rounding)
    enough = px >= READABLE_PX if readable else px > text_px(svg, column, height) + 0.5
    return narrow if enough else None


def text_px(svg, column=PHONE_COLUMN, height=None):
    """CSS px of the smallest text of a Graphviz SVG shown `column` px wide at most and, if
    given, `height` px tall at most (scaled down to fit, never up; 1 pt is 4/3 px). Raises
    ValueError for an SVG without text."""
    root = ET.fromstring(svg)
    box = [float(x) for x in root.get("viewBox").split()]
    graph = root.find("{http://www.w3.org/2000/svg}g")
    scale = re.search(r"scale\(([\d.]+)", graph.get("transform", "")) if graph is not None else None
    sizes = [float(t.get("font-size")) for t in root.iter("{http://www.w3.org/2000/svg}text")
             if t.get("font-size")]
    if not sizes:
        raise ValueError("text_px: the SVG has no text with a font-size")
    width, tall = _size(svg)
    shown = min(width, column, width * height / tall if height else width)
    return min(sizes) * (float(scale[1]) if scale else 1) * shown / box[2]


def size_px(svg):
    """(width, height) in whole CSS px of an SVG whose size is given in pt or px."""
    return tuple(round(side) for side in _size(svg))


def _size(svg):
    root = ET.fromstring(svg)
    return tuple(_pt(root.get(side)) * (4 / 3 if root.get(side).endswith("pt") else 1)
                 for side in ("width", "height"))


def desktop_size(svg, alone=True):
    """(width, height), whole CSS px: the size a desktop shows `svg` at most (its column may
    scale it down further), its shape kept: its own size, scaled down to DESKTOP_HEIGHT tall.
    alone: no phone layout beside it, so a phone shows this size too, scaled into its column;
    then it is never made narrower than that column shows it."""
    width, height = _size(svg)
    shown = round(width) if height <= DESKTOP_HEIGHT else math.floor(width * DESKTOP_HEIGHT / height)
    if alone:
        shown = max(shown, min(round(width), PHONE_COLUMN))
    # the browser sizes it by the SVG's own shape, not by these whole pixels: floored, the
    # height it shows stays within DESKTOP_HEIGHT
    return shown, round(height * shown / width)


def figure_html(urls, alt):
    """A figure's HTML: {url: svg} (the desktop's first, then the phone's if any) and its alt
    text. The link opens the shown layout full screen (figures.js); without JavaScript it
    is a link to the SVG."""
    (wide, svg), *narrow = urls.items()
    width, height = desktop_size(svg, alone=not narrow)
    source = "".join(f'<source media="{NARROW}" srcset="{html.escape(url)}" width="{w}" height="{h}">'
                     for url, content in narrow for w, h in [size_px(content)])
    return (f'<figure class="bv-figure"><a class="bv-figure__open" href="{html.escape(wide)}">'
            f'<picture>{source}<img class="graph" src="{html.escape(wide)}" alt="{html.escape(alt)}" '
            f'width="{width}" height="{height}" loading="lazy"></picture></a></figure>')


def _pt(length):
    return float(re.match(r"[\d.]+", length)[0])


def to_svg(value):
    """SVG text (str) for a graphviz.Digraph or a matplotlib Figure.

    Graphviz output is cached by a hash of its DOT source; matplotlib output
    is made deterministic (no date, fixed id salt). Raises TypeError for
    anything else.
    """
    if hasattr(value, "pipe") and hasattr(value, "source"):  # graphviz.Digraph
        key = hashlib.sha256(value.source.encode()).hexdigest()
        cached = FIGURE_CACHE / f"{key}.svg"
        if cached.exists():
            return cached.read_text(encoding="utf-8")
        svg = value.pipe(format="svg", encoding="utf-8")
        FIGURE_CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(svg, encoding="utf-8")
        tmp.replace(cached)
        return svg
    if hasattr(value, "savefig"):  # matplotlib.figure.Figure
        import matplotlib
        import matplotlib.pyplot as plt

        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "backprop-verified", "svg.fonttype": "none"}):
            value.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(value)
        return buffer.getvalue()
    raise TypeError(
        f"a figure must be a graphviz.Digraph or a matplotlib Figure, not {type(value).__name__}"
    )


def _last_expression(source, at):
    """The text of the last expression of the block before a figure (at: "docs/<page>.md:<line>",
    the figure's comment). Raises DirectiveError, naming the page and line, for a doctest block,
    a block that does not parse (an audit: ast's bare SyntaxError named neither), or one that
    does not end in an expression."""
    if is_doctest(str(source)):
        raise DirectiveError(f"{at}: a figure must follow a code block that ends in an expression, "
                             "not a doctest")
    try:
        tree = ast.parse(str(source))
    except SyntaxError as error:
        raise DirectiveError(f"{at}: the block before this figure does not parse: {error.msg} "
                             f"(line {error.lineno} of the block)") from None
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise DirectiveError(f"{at}: the block before a figure must end in an expression")
    return ast.get_source_segment(str(source), tree.body[-1])


def _ends_in_draw_dot(source):
    text = str(source)
    if is_doctest(text):
        return False
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False  # pytest reports it where the block runs
    last = tree.body[-1] if tree.body else None
    return (
        isinstance(last, ast.Expr)
        and isinstance(last.value, ast.Call)
        and getattr(last.value.func, "id", None) == "draw_dot"
    )

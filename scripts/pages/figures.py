"""Figures: a python block that ends in an expression, followed by its alt text.

    ```python
    L.grad = 1.0
    draw_dot(L)
    ```
    <!-- figure: the graph of L = d·f after seeding: L.grad is 1, every other grad 0 -->

The page's code runs up to that block; the block's last expression (a
graphviz.Digraph from micrograd.draw_dot, or a matplotlib Figure) is drawn to
SVG, and the comment becomes the image, linked to itself at full size.
"""

import ast
import hashlib
import io
import os

from sybil import Region

from scripts import ROOT
from scripts.pages.directives import Directive, DirectiveError, Output, where
from scripts.pages.examples import python_fences

FIGURE_CACHE = ROOT / ".cache" / "figures"


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
        svg = to_svg(value)
        n = page.number(self.kind)
        asset = page.asset(f"figure-{n}.svg")
        url = page.link(asset)
        alt = alt.replace("[", "(").replace("]", ")")  # Markdown's image syntax
        markdown = f"[![{alt}]({url}){{ .graph loading=lazy }}]({url})"
        return Output(self.kind, example.line, markdown, {asset: svg})


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
    tree = ast.parse(str(source))
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise DirectiveError(f"{at}: the block before a figure must end in an expression")
    return ast.get_source_segment(str(source), tree.body[-1])


def _ends_in_draw_dot(source):
    text = str(source)
    if text.lstrip().startswith(">>>"):
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

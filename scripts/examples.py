"""How the chapters' examples are read: the Sybil parsers shared by pytest and the site build.

pytest (conftest.py) and the figure renderer (scripts/figures.py) both use
`parsers()`, so a page runs the same way in both: one namespace per page,
blocks in order, hidden setup in `<!-- invisible-code-block: python -->`.

A figure is referenced by an HTML comment right after a python block whose
last statement is an expression:

    ```python
    draw_dot(L)
    ```
    <!-- figure: L = d·f after the forward pass; every grad is still 0 -->

The comment's text is the figure's alt text. The expression must give a
graphviz.Digraph (from micrograd.draw_dot) or a matplotlib Figure.
"""

import ast
import dataclasses
import hashlib
import io
import os
import re
from pathlib import Path

from sybil import Region
from sybil.parsers.abstract.codeblock import PythonDocTestOrCodeBlockParser
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser
from sybil.parsers.markdown.codeblock import CodeBlockParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, FencedCodeBlockLexer

ROOT = Path(__file__).resolve().parent.parent
FIGURE_CACHE = ROOT / ".cache" / "figures"

# Info strings of fences that hold Python: python, py, pycon, python3, each
# optionally followed by attributes such as title="x.py" or { .python }.
PYTHON_INFO = re.compile(r"(?:python3?|py|pycon)(?:[ \t]+[^\n]*)?")


class _AnyPythonFence(CodeBlockParser):
    """Sybil's Markdown code block parser, but for every PYTHON_INFO fence.

    Sybil itself only collects fences whose info string is exactly `python`;
    ```py, ```pycon or ```python title="x" would silently not run.
    """

    def __call__(self, document):
        for region in self.lexers(document):
            if PYTHON_INFO.fullmatch(region.lexemes["arguments"].strip()):
                region.parsed = region.lexemes["source"]
                region.evaluator = self._evaluator
                yield region


class PythonFenceParser(PythonDocTestOrCodeBlockParser):
    """Runs plain python blocks with exec and `>>>` blocks as doctests."""

    codeblock_parser_class = _AnyPythonFence


def python_fences(document):
    """Every fenced block whose info string names Python, as Sybil regions."""
    lexer = FencedCodeBlockLexer(language=r".+", mapping={"language": "info", "source": "source"})
    return [r for r in lexer(document) if PYTHON_INFO.fullmatch(r.lexemes["info"].strip())]


@dataclasses.dataclass
class FigureRef:
    expression: str  # source of the block's last expression
    alt: str


@dataclasses.dataclass
class Figure:
    line: int  # line of the <!-- figure: --> comment in the page
    alt: str
    svg: str


class FigureParser:
    """Parses `<!-- figure: alt text -->` and draws the figure when evaluated.

    on_figure: called with each drawn Figure (the site build collects them);
    None just checks that the figure can be drawn (pytest).
    Raises ValueError, naming page and line, for a figure comment that does
    not follow a python block ending in an expression, and for a block ending
    in draw_dot(...) with no figure comment (no alt text).
    """

    lexer = DirectiveInHTMLCommentLexer(directive="figure", arguments=".+?")

    def __init__(self, on_figure=None):
        self.on_figure = on_figure

    def __call__(self, document):
        blocks = python_fences(document)
        comments = list(self.lexer(document))
        follows = {}  # block start -> figure comment right after it
        for comment in comments:
            where = _where(document, comment.start)
            before = [b for b in blocks if b.end <= comment.start]
            block = before[-1] if before else None
            if block is None or document.text[block.end : comment.start].strip():
                raise ValueError(f"{where}: a figure comment must directly follow a python block")
            expression = _last_expression(block.lexemes["source"], where)
            alt = comment.lexemes["arguments"].strip()
            follows[block.start] = comment
            yield Region(comment.start, comment.end, FigureRef(expression, alt), self.evaluate)
        for block in blocks:
            if block.start not in follows and _ends_in_draw_dot(block.lexemes["source"]):
                where = _where(document, block.start)
                raise ValueError(
                    f"{where}: this block draws a figure; add <!-- figure: alt text --> after it"
                )

    def evaluate(self, example):
        ref = example.parsed
        where = f"{_relative(example.path)}:{example.line}"
        try:
            value = eval(compile(ref.expression, example.path, "eval"), example.namespace)
            svg = to_svg(value)
        except Exception as error:
            raise RuntimeError(f"{where}: figure could not be drawn: {error!r}") from error
        if self.on_figure is not None:
            self.on_figure(Figure(example.line, ref.alt, svg))


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


def parsers(on_figure=None):
    """The Sybil parsers for a chapter, in the order they are applied."""
    return [
        PythonFenceParser(),
        SkipParser(),
        ClearNamespaceParser(),
        FigureParser(on_figure),
    ]


def _last_expression(source, where):
    tree = ast.parse(str(source))
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError(f"{where}: the block before a figure must end in an expression")
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


def _relative(path):
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _where(document, position):
    return f"{_relative(document.path)}:{document.text.count(chr(10), 0, position) + 1}"

"""Which fenced blocks of a page are Python examples, and how each one runs (Sybil); and
the text of a page out of Material's indented blocks (material_blocks).

Sybil itself collects only fences whose info string is exactly `python`; a
```py, ```pycon or ```python title="x.py" fence would silently not run. Here
every fence that names Python runs: plain blocks with exec, `>>>` blocks as
doctests.
"""

import re

from sybil.parsers.abstract.codeblock import PythonDocTestOrCodeBlockParser
from sybil.parsers.markdown.codeblock import CodeBlockParser
from sybil.parsers.markdown.lexers import FencedCodeBlockLexer

# Info strings of fences that hold Python: python, py, pycon, python3, each
# optionally followed by attributes such as title="x.py" or { .python }.
PYTHON_INFO = re.compile(r"(?:python3?|py|pycon)(?:[ \t]+[^\n]*)?")


class _AnyPythonFence(CodeBlockParser):
    """Sybil's Markdown code block parser, but for every PYTHON_INFO fence."""

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
    """Every fenced block whose info string names Python, as Sybil regions (not evaluated)."""
    lexer = FencedCodeBlockLexer(language=r".+", mapping={"language": "info", "source": "source"})
    return [r for r in lexer(document) if PYTHON_INFO.fullmatch(r.lexemes["info"].strip())]


def python_blocks(document):
    """Every Python block a page runs, fences and `invisible-code-block` comments, in page order.

    Sybil regions (not evaluated) whose lexemes hold the "source" (dedented);
    an invisible block's lexemes also hold "directive". Its region stops
    before the closing `-->`.
    """
    parser = _AnyPythonFence(language="python")
    return sorted((r for r in parser.lexers(document) if PYTHON_INFO.fullmatch(
        r.lexemes["arguments"].strip())), key=lambda r: r.start)


# !!! note "Title", ??? success "Answer", ???+ tip, === "Tab": Material's block syntax
BLOCK_TITLE = re.compile(r'^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?|===)\s*(?P<kind>[\w-]*)\s*(?:"(?P<title>[^"]*)")?\s*$')


def material_blocks(lines):
    """(line, title) for each of `lines` (str): the line dedented out of the Material blocks
    (admonitions, folds, tabs) it sits in, and BLOCK_TITLE's match if it opens one, else None.
    One pair per line, so callers keep line numbers."""
    open_blocks = []  # indents of the titles of the blocks we are inside
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while open_blocks and line.strip() and indent < open_blocks[-1] + 4:
            open_blocks.pop()
        depth = 4 * len(open_blocks)
        line = line[depth:] if line[:depth].strip() == "" else line.lstrip()
        title = BLOCK_TITLE.match(line)
        if title:
            open_blocks.append(indent)
        yield line, title

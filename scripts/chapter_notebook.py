"""A Markdown chapter as a Jupyter notebook: the page's download, made when the page runs.

chapter_notebook(document): its Python blocks as code cells in page order
(hidden setup included, doctests as the code they run), its prose as
Markdown cells; a block the page skips (`<!-- skip: ... -->`) is a `%%skip`
cell that skips as the page does. scripts/notebook_download.py makes it a
download that runs in any Jupyter.
"""

import doctest
import re

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from sybil.parsers.markdown import SkipParser

from scripts.examples import material_blocks, python_blocks

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}

_COMMENT = re.compile(r"[ \t]*<!--.*?-->[ \t]*\n?", re.DOTALL)
_PLACEHOLDER = re.compile(r"^[ \t]*\x00(\d+)\x00$")


def chapter_notebook(document):
    """A chapter page (a parsed sybil.Document) as notebook JSON text (nbformat 4).

    Admonitions and tabs become bold titles over their dedented text; HTML
    comments (figure alt text, skips, directives) are dropped; a block that
    only includes a file at build time (`--8<--`) becomes a note linking it.
    A block the page skips (`<!-- skip: start/next ARGUMENTS -->`) becomes
    cells that start `%%skip ARGUMENTS`, and SKIP_MAGIC's cells, which define
    that magic, come first.
    """
    text, codes = document.text, []
    skips = _skips(document)
    pieces, place = [], 0
    for block in python_blocks(document):
        first_line = text[block.start : text.find("\n", block.start)]
        indent = first_line[: len(first_line) - len(first_line.lstrip())]  # inside an admonition
        end = block.end
        if "directive" in block.lexemes:  # an invisible-code-block: the comment's --> too
            end = text.index("-->", end) + 3
        pieces += [text[place:block.start], f"{indent}\x00{len(codes)}\x00"]
        codes.append((str(block.lexemes["source"]), "directive" in block.lexemes, skips.get(block.start)))
        place = end
    pieces.append(text[place:])
    markdown = _COMMENT.sub("", "".join(pieces))
    cells = []
    prose = []
    for line in _dedent_blocks(markdown.splitlines()):
        placeholder = _PLACEHOLDER.match(line)
        if placeholder is None:
            prose.append(line)
            continue
        _flush(prose, cells)
        source, hidden, skip = codes[int(placeholder.group(1))]
        arguments, whole = skip or (None, True)
        made = _code_cells(source, hidden, first_alone=not whole)
        if arguments is not None:
            for cell in made if whole else made[:1]:
                if cell.cell_type == "code":
                    cell.source = f"%%skip {arguments}\n{cell.source}"
        cells += made
    _flush(prose, cells)
    if any(cell.source.startswith("%%skip") for cell in cells if cell.cell_type == "code"):
        cells[:0] = [new_markdown_cell(SKIP_MAGIC[0]), new_code_cell(SKIP_MAGIC[1])]
    number_cells(cells)
    notebook = new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})
    return nbformat.writes(notebook)


# The notebook's `%%skip ARGUMENTS`: what Sybil does with `<!-- skip: next ARGUMENTS -->`
# (sybil.evaluators.skip.Skipper.install), where Sybil is not installed.
SKIP_MAGIC = ("""Some of the page's blocks run only where an optional package is installed, and \
the page skips them, saying what to install, where it is not. The next cell defines `%%skip`, \
which does the same here: a cell that starts `%%skip if(CONDITION, reason="...")` prints the \
reason and runs nothing when CONDITION holds, and runs as any cell otherwise.""", '''\
from IPython import get_ipython
from IPython.core.magic import register_cell_magic


@register_cell_magic
def skip(arguments, cell):
    """%%skip if(CONDITION, reason="..."), as the page's <!-- skip: next ... -->."""
    namespace = {**get_ipython().user_ns, "if_": lambda condition, reason=None: (
        (reason or "skipped") if condition else None)}
    arguments = arguments.strip()
    if arguments.startswith("if"):
        arguments = "if_" + arguments[2:]
    reason = eval(arguments, namespace) if arguments else ""
    if reason is None:  # the condition does not hold: the cell runs
        get_ipython().run_cell(cell).raise_error()  # an error in it fails the notebook
    elif reason:
        print(reason)''')


def _skips(document):
    """{start of a Python block (python_blocks): (the arguments of the `<!-- skip: -->` that
    skips it, e.g. 'if(torch is None, reason="...")', whether it skips the whole block)},
    found by Sybil's own SkipParser.

    `skip: next` skips the next example, and a doctest block is one example per `>>>`:
    before a doctest of several examples it skips only the first (whole is False).
    """
    events = sorted([(r.start, r.parsed) for r in SkipParser()(document)]
                    + [(b.start, b) for b in python_blocks(document)], key=lambda e: e[0])
    skips, active, pending = {}, None, None
    for _, event in events:
        if isinstance(event, tuple):
            action, arguments = event
            if action == "start":
                active = arguments or ""
            elif action == "end":
                active = None
            elif action == "next":
                pending = arguments or ""
            continue
        source = str(event.lexemes["source"])
        if pending is not None:
            whole = len(doctest.DocTestParser().get_examples(source)) <= 1
            skips[event.start], pending = (pending, whole), None
        elif active is not None:
            skips[event.start] = (active, True)
    return skips


def number_cells(cells):
    """Ids cell-1, cell-2, ... in place: nbformat and jupytext draw random ones, and the same
    source must give the same bytes."""
    for number, cell in enumerate(cells, start=1):
        cell.id = f"cell-{number}"


def _dedent_blocks(lines):
    """Material admonitions and tabs as a bold title and their content dedented."""
    for line, title in material_blocks(lines):
        if title:
            name = title.group("title") or title.group("kind").capitalize()
            yield f"{title.group('indent')}**{name}**"
            yield ""
        else:
            yield line


def _flush(prose, cells):
    text = "\n".join(prose).strip("\n")
    if text.strip():
        cells.append(new_markdown_cell(text))
    prose.clear()


def _code_cells(source, hidden, first_alone=False):
    """The cells of one Python block: a doctest as one cell per shown result, with the
    statements before it; first_alone: its first example in a cell of its own."""
    if "--8<--" in source:  # the page includes a file here at build time
        included = re.findall(r'--8<--\s*"([^"]+)"', source)
        return [new_markdown_cell(f"The page shows `{', '.join(included)}` here: open it in the "
                                  "repository.")]
    if hidden:
        return [new_code_cell("# setup that the page runs without showing it\n" + source.rstrip())]
    if not source.lstrip().startswith(">>>"):
        return [new_code_cell(source.rstrip())]
    cells, group = [], []
    for example in doctest.DocTestParser().get_examples(source):
        group.append(example.source.rstrip())
        if example.want or example.exc_msg or (first_alone and not cells):
            cell = new_code_cell("\n".join(group))
            if example.exc_msg is not None:  # the page shows this error on purpose
                cell.metadata["tags"] = ["raises-exception"]  # Jupyter's tag: run on past it
            cells.append(cell)
            group = []
    if group:
        cells.append(new_code_cell("\n".join(group)))
    return cells

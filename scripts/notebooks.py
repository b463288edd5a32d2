"""Jupyter notebooks: every chapter as a download, and the training notebook, executed once.

chapter_notebook(document): a Markdown chapter as an .ipynb, its Python
blocks as code cells in page order (hidden setup included, doctests as the
code they run), its prose as Markdown cells; a block the page skips
(`<!-- skip: ... -->`) is a `%%skip` cell that skips as the page does.

for_download(notebook, page_url, wheel_url): a notebook as the site serves it,
with a first cell that installs what it needs (the engine from the site's
wheel, and the packages it imports), so it runs in any Jupyter.

executed(path): the training notebook (docs/06-training.py, jupytext percent
format) run cell by cell in a Jupyter kernel, cached on the notebook's text
and the source of micrograd/, so a build re-executes it
only when one of them changed; site_notebook(path) is that run prepared for
the site (math rendered by KaTeX, plots with alt text).
"""

import ast
import base64
import copy
import doctest
import fcntl
import hashlib
import json
import re
import sys
from pathlib import Path

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from sybil.parsers.markdown import SkipParser

from scripts import ROOT
from scripts.directives import relative
from scripts.examples import material_blocks, python_blocks

CACHE = ROOT / ".cache" / "notebooks"
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
    that magic, come first. Raises ValueError where the notebook could not
    skip as the page does (see _skips).
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
        made = _code_cells(source, hidden)
        if skip is not None:
            for cell in made:
                if cell.cell_type == "code":
                    cell.source = f"%%skip {skip}\n{cell.source}"
        cells += made
    _flush(prose, cells)
    if any(cell.source.startswith("%%skip") for cell in cells if cell.cell_type == "code"):
        cells[:0] = [new_markdown_cell(SKIP_MAGIC[0]), new_code_cell(SKIP_MAGIC[1])]
    _number_cells(cells)
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
    """{start of a Python block (python_blocks): the arguments of the `<!-- skip: -->` that
    skips it, e.g. 'if(torch is None, reason="...")'}, found by Sybil's own SkipParser.

    `skip: next` skips the next example, and a doctest block is one example per `>>>`:
    before a doctest of several examples it skips only the first, which a notebook cell
    cannot, so that raises ValueError naming the line (use skip: start ... skip: end).
    """
    events = sorted([(r.start, r.parsed) for r in SkipParser()(document)]
                    + [(b.start, b) for b in python_blocks(document)], key=lambda e: e[0])
    skips, active, pending = {}, None, None
    for start, event in events:
        if isinstance(event, tuple):
            action, arguments = event
            if action == "start":
                active = arguments or ""
            elif action == "end":
                active = None
            elif action == "next":
                pending = (arguments or "", start)
            continue
        source = str(event.lexemes["source"])
        if pending is not None:
            arguments, at = pending
            if len(doctest.DocTestParser().get_examples(source)) > 1:
                line = document.text.count("\n", 0, at) + 1
                raise ValueError(f"{relative(document.path)}:{line}: skip: next before a doctest of "
                                 "several examples skips only the first; use skip: start and skip: end")
            skips[event.start], pending = arguments, None
        elif active is not None:
            skips[event.start] = active
    return skips


def _number_cells(cells):
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


def _code_cells(source, hidden):
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
        if example.want or example.exc_msg:  # one cell per shown result, with the statements before it
            cell = new_code_cell("\n".join(group))
            if example.exc_msg is not None:  # the page shows this error on purpose
                cell.metadata["tags"] = ["raises-exception"]  # Jupyter's tag: run on past it
            cells.append(cell)
            group = []
    if group:
        cells.append(new_code_cell("\n".join(group)))
    return cells


# --- The training notebook ---------------------------------------------------------

def download_notebook(path):
    """The notebook chapter at `path` (jupytext percent format) as the page's download:
    notebook JSON text (nbformat 4) without outputs, the same bytes for the same source."""
    notebook = jupytext.read(path)
    _number_cells(notebook.cells)
    how_read = notebook.metadata.get("jupytext", {})
    if "cell_metadata_filter" in how_read:  # jupytext lists the keys in set order, which varies by process
        how_read["cell_metadata_filter"] = ",".join(sorted(how_read["cell_metadata_filter"].split(",")))
    return jupytext.writes(notebook, fmt="ipynb")


# --- Downloads: a notebook that runs in any Jupyter ---------------------------------

# Top-level modules a notebook may import -> what pip installs for them. The engine
# (micrograd) comes from the site's wheel; an import this table and the standard library
# do not know fails the build (for_download), so a new dependency is never left out.
PYPI = {"numpy": "numpy", "matplotlib": "matplotlib", "sklearn": "scikit-learn", "graphviz": "graphviz"}
JUPYTER = {"IPython", "ipykernel"}  # there in every Jupyter kernel


def imported_packages(cells):
    """The PyPI names (sorted) of what the code cells import, by PYPI, found with `ast`.

    cells: nbformat cells. IPython's magics (a `%%...` first line, `%` and `!` lines) are
    left out before parsing. Imports of the standard library, of micrograd and of JUPYTER
    need nothing; nor does an import inside a `try:` that catches ImportError (an optional
    package: the page says what to install, see SKIP_MAGIC). Raises ValueError naming the
    module for any other import, and SyntaxError for a cell that is not Python.
    """
    known = set(sys.stdlib_module_names) | JUPYTER | {"micrograd"}
    packages = set()
    for cell in cells:
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        if lines and lines[0].startswith("%%"):
            lines = lines[1:]
        tree = ast.parse("\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines))
        optional = set()  # ids of the nodes inside a try: ... except ImportError
        for node in ast.walk(tree):
            if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
                optional |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for top in (name.split(".")[0] for name in names):
                if top in PYPI:
                    packages.add(PYPI[top])
                elif top not in known:
                    raise ValueError(f"the notebook imports {top}: say in scripts/notebooks.py PYPI "
                                     "which PyPI package provides it")
    return sorted(packages)


def _catches_import_error(handler):
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError") for t in caught)


def install_cell(packages, wheel_url):
    """The source of the code cell that installs, with pip into the kernel's own Python,
    whichever of these the kernel cannot import: the engine (from `wheel_url`, with its
    `draw` extra, graphviz, for draw_dot) and `packages` (PyPI names, from PYPI)."""
    module_of = {package: module for module, package in PYPI.items()}
    needs = [("micrograd.trace", f"backprop-verified[draw] @ {wheel_url}"),  # trace: ours, not 0.1.0's
             *((module_of[package], package) for package in packages)]
    table = "\n".join(f"    {json.dumps(module)}: {json.dumps(package)}," for module, package in needs)
    return f"""\
import importlib.util
import subprocess
import sys


def missing(module):
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # its package is missing too
        return True


needs = {{  # module: what pip installs for it
{table}
}}
install = [package for module, package in needs.items() if missing(module)]
if install:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", *install])
    importlib.invalidate_caches()  # so the new packages are found without a restart"""


def for_download(notebook, page_url, wheel_url):
    """notebook (nbformat 4 JSON text: chapter_notebook's or download_notebook's) as the site
    serves it, JSON text: first a Markdown cell saying where it comes from (`page_url`, the
    page's address) and what the next cell does, then install_cell() for the engine's wheel
    at `wheel_url` and what the notebook imports (imported_packages), then its own cells.
    Ids are renumbered cell-1, cell-2, ... Raises what imported_packages raises."""
    notebook = nbformat.reads(notebook, as_version=4)
    packages = imported_packages(notebook.cells)
    what = ", ".join(["the engine (`micrograd`, from the site's wheel)", *packages])
    notebook.cells[:0] = [
        new_markdown_cell(f"*This notebook is the page <{page_url}> of Backprop, Verified, its code "
                          f"as cells. The first cell installs what it needs where it is missing: {what}.*"),
        new_code_cell(install_cell(packages, wheel_url)),
    ]
    _number_cells(notebook.cells)
    return nbformat.writes(notebook)


def cache_key(path):
    """sha256 of the notebook, every micrograd/*.py, the quiz code and this file (which builds
    the notebook it runs): what its outputs depend on."""
    from scripts import katex, quizzes

    digest = hashlib.sha256()
    for source in [path, __file__, quizzes.__file__, katex.__file__, *sorted((ROOT / "micrograd").rglob("*.py"))]:
        digest.update(str(relative(source)).encode())
        digest.update(open(source, "rb").read())
    return digest.hexdigest()


def cached(path):
    """True if the executed notebook for `path` is in the cache (as executed() would find it)."""
    return (CACHE / f"{cache_key(path)}.ipynb").exists()


def executed(path, timeout=600, kernel=None):
    """The notebook at `path` executed in a python3 kernel (cwd: the repository), as a NotebookNode.

    Cached in .cache/notebooks/ under cache_key(path); a file lock makes
    parallel builds and test workers run it once. kernel: a started
    jupyter_client KernelManager to run it in (its owner shuts it down), or
    None for a kernel of its own. Raises nbclient.exceptions.CellExecutionError
    (with the cell and traceback) if a cell fails.
    """
    import nbclient

    CACHE.mkdir(parents=True, exist_ok=True)
    key = cache_key(path)
    cached = CACHE / f"{key}.ipynb"
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not cached.exists():
            notebook = jupytext.read(path)
            notebook.cells = _with_quiz_cells(notebook.cells, path)
            _number_cells(notebook.cells)
            notebook.metadata["kernelspec"] = KERNELSPEC
            # "immediate": the kernel holds nothing to save, and a graceful shutdown waits 0.8 s
            nbclient.NotebookClient(notebook, km=kernel, timeout=timeout, kernel_name="python3",
                                    shutdown_kernel="immediate",
                                    resources={"metadata": {"path": str(ROOT)}}).execute()
            tmp = cached.with_suffix(".tmp")
            nbformat.write(notebook, tmp)
            tmp.replace(cached)
            for stale in CACHE.glob("*.ipynb"):
                if stale != cached:
                    stale.unlink()
            return notebook
    return nbformat.read(cached, as_version=4)


def site_notebook_path(path):
    """Where site_notebook(path) puts its result: known before the notebook has run.

    The key covers the run (cache_key) and the code that prepares it, so an
    unchanged page costs nothing; the file is named as the page, since
    mkdocs-jupyter matches names.
    """
    from scripts import katex

    key = hashlib.sha256(cache_key(path).encode())
    for source in (__file__, katex.__file__, katex.KATEX / "package.json"):
        key.update(open(source, "rb").read())
    return CACHE / f"site-{key.hexdigest()[:16]}" / f"{Path(path).stem}.ipynb"


def site_notebook(path, kernel=None):
    """The executed notebook prepared for the site: a path to an .ipynb in .cache/notebooks/.

    Markdown cells get their math rendered by KaTeX (scripts/katex.py); each
    PNG output becomes an <img> with the alt text from its cell's metadata
    ("alt" in the jupytext cell header, one entry per plot); each run of
    cells tagged "answer" (the explanation and the code that computes it)
    folds into one `<details>` below its question, as in the Markdown
    chapters. Raises ValueError naming the cell when a plot has no alt text
    or an answer cell holds anything but text output, and what executed()
    raises; kernel goes to executed().
    """
    from scripts.katex import render_markdown_math

    prepared = site_notebook_path(path)
    CACHE.mkdir(parents=True, exist_ok=True)
    # its own lock (executed() takes the other): the build's notebook process prepares the
    # page right after running it, and the build's on_pre_page waits here for its result
    with open(CACHE / ".site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not prepared.exists():
            notebook = copy.deepcopy(executed(path, kernel=kernel))
            notebook.cells = _fold_answers(_place_quizzes(notebook.cells, path), path)
            for number, cell in enumerate(notebook.cells, start=1):
                if cell.cell_type == "markdown":
                    cell.source = render_markdown_math(cell.source)
                elif cell.cell_type == "code":
                    cell.outputs = _plots_with_alt(cell, number, path)
            prepared.parent.mkdir(parents=True, exist_ok=True)
            tmp = prepared.with_suffix(".tmp")
            tmp.write_text(nbformat.writes(notebook), encoding="utf-8")
            tmp.replace(prepared)
        for stale in CACHE.glob(f"site-*/{Path(path).stem}.ipynb"):
            if stale != prepared:
                stale.unlink()
                stale.parent.rmdir()
    return prepared


_QUIZ = re.compile(r"<!--\s*quiz:\s*(.+?)\s*-->", re.DOTALL)


def _with_quiz_cells(cells, path):
    """After each Markdown cell with `<!-- quiz: ... -->`, a code cell (tagged "quiz") that
    evaluates its quizzes in the kernel, at that place, and prints their HTML."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    out, count = [], 0
    for cell in cells:
        out.append(cell)
        sources = _QUIZ.findall(cell.source) if cell.cell_type == "markdown" else []
        if sources:
            first = cell.source.splitlines()[0]
            line = next((i + 1 for i, text in enumerate(lines) if text == f"# {first}".rstrip()), 0)
            quiz = new_code_cell(
                "from scripts.quizzes import notebook_quizzes as _notebook_quizzes\n"
                f"_notebook_quizzes(globals(), {relative(path) + ':' + str(line)!r}, {count + 1}, "
                f"{sources!r})")
            quiz.metadata["tags"] = ["quiz"]
            quiz.id = f"quiz-{count + 1}"
            out.append(quiz)
            count += len(sources)
    return out


def _place_quizzes(cells, path):
    """Each quiz comment replaced by the HTML its quiz cell printed; the quiz cells dropped."""
    out = []
    for cell in cells:
        if "quiz" not in cell.metadata.get("tags", []):
            out.append(cell)
            continue
        built = iter(json.loads("".join(o.get("text", "") for o in cell.outputs)))
        question = out[-1]
        question.source = _QUIZ.sub(lambda m, built=built: next(built), question.source)
        if next(built, None) is not None:
            raise ValueError(f"{relative(path)}: more quizzes built than the cell asks")
    return out


def _fold_answers(cells, path):
    folded, answer = [], []
    for cell in [*cells, None]:
        if cell is not None and "answer" in cell.metadata.get("tags", []):
            answer.append(cell)
            continue
        if answer:
            fold = new_markdown_cell(_answer_markdown(answer, path))
            fold.id = answer[0].id  # a stable id, not nbformat's random one
            folded.append(fold)
            answer = []
        if cell is not None:
            folded.append(cell)
    return folded


def _answer_markdown(cells, path):
    parts = ['<details class="success">\n<summary>Answer</summary>\n']
    for cell in cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
            continue
        parts.append(f"```python\n{cell.source}\n```")
        for output in cell.outputs:
            text = output.get("text") or output.get("data", {}).get("text/plain")
            if output.output_type not in ("stream", "execute_result") or text is None:
                raise ValueError(f"{relative(path)}: an answer cell may only print text, "
                                 f"not {output.output_type}")
            parts.append(f"```text\n{text.rstrip()}\n```")
    return "\n\n".join(parts) + "\n\n</details>"


def _plots_with_alt(cell, number, path):
    alts = list(cell.metadata.get("alt", []))
    if isinstance(cell.metadata.get("alt"), str):
        alts = [cell.metadata["alt"]]
    outputs = []
    for output in cell.outputs:
        png = output.get("data", {}).get("image/png")
        if png is None:
            outputs.append(output)
            continue
        if not alts:
            raise ValueError(f"{relative(path)}: code cell {number} draws a plot without alt text: "
                             'give the cell header `alt="..."`')
        alt = alts.pop(0).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
        base64.b64decode(png, validate=True)
        html = f'<img class="plot" alt="{alt}" src="data:image/png;base64,{png.strip()}">'
        outputs.append(nbformat.v4.new_output("display_data", data={"text/html": html}))
    return outputs

"""Notebooks as the site serves them for download: they run in any Jupyter.

for_download(notebook, page_url, wheel_url): a notebook with a first cell that
installs what it needs (the engine from the site's wheel, scripts/notebooks/wheel.py, pinned
by its sha256, and the packages it imports), its links made addresses on the site;
served(notebook, site_url, page_url) gives it those addresses from the site's and the page's.
download_notebook(path): a notebook chapter (jupytext percent format) as its
download, before that.
"""

import ast
import json
import re
import sys
from urllib.parse import urljoin, urlsplit

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

from scripts.notebooks import wheel
from scripts.notebooks.chapter_notebook import (
    EXERCISE_MAGICS,
    FOLDED,
    answer_cell,
    claims_in,
    details_cell,
    number_cells,
    outside_code,
    quizzes_in,
)


def download_notebook(path):
    """The notebook chapter at `path` (jupytext percent format) as the page's download:
    notebook JSON text (nbformat 4) without outputs, the same bytes for the same source.

    As a chapter page's notebook (scripts/notebooks/chapter_notebook.py), each claim is an assert
    cell after its Markdown cell (claims_in), each quiz gets a cell to
    answer in after its question's cell (answer_cell), and the answer is folded: a Markdown
    cell tagged "answer" in <details>, a code cell tagged "answer" folded (FOLDED)."""
    notebook = jupytext.read(path)
    cells = []
    for cell in notebook.cells:
        cells.append(cell)
        answer = "answer" in cell.metadata.get("tags", [])
        if cell.cell_type == "code":
            if answer:
                cell.metadata.update(FOLDED)
            continue
        if answer:
            cell.source = details_cell("Answer", [cell.source]).source
        cell.source, claims = claims_in(cell.source)
        cell.source, quizzes = quizzes_in(cell.source)
        cells += claims + [answer_cell(source) for source in quizzes]
    notebook.cells = cells
    number_cells(notebook.cells)
    how_read = notebook.metadata.get("jupytext", {})
    if "cell_metadata_filter" in how_read:  # jupytext lists the keys in set order, which varies by process
        how_read["cell_metadata_filter"] = ",".join(sorted(how_read["cell_metadata_filter"].split(",")))
    return jupytext.writes(notebook, fmt="ipynb")


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
    package: the page says what to install, see chapter_notebook.SKIP_MAGIC). Raises ValueError naming the
    module for any other import, and SyntaxError for a cell that is not Python.
    """
    known = set(sys.stdlib_module_names) | JUPYTER | {"micrograd", EXERCISE_MAGICS}  # the wheel's
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
                    raise ValueError(f"the notebook imports {top}: say in scripts/notebooks/notebook_download.py PYPI "
                                     "which PyPI package provides it")
    return sorted(packages)


def _catches_import_error(handler):
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError") for t in caught)


def install_cell(packages, wheel_url, engine="micrograd.trace"):
    """The source of the code cell that installs, with pip into the kernel's own Python,
    whichever of these the kernel cannot import: the engine (from `wheel_url`, with its
    `draw` extra, graphviz, for draw_dot) and `packages` (PyPI names, from PYPI).
    engine: the module of the wheel whose absence means it is missing (micrograd.trace is
    ours, not micrograd 0.1.0's; EXERCISE_MAGICS for a notebook with exercises)."""
    module_of = {package: module for module, package in PYPI.items()}
    needs = [(engine, f"backprop-verified[draw] @ {wheel_url}"),
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
    at `wheel_url` (pinned: scripts.notebooks.wheel.url) and what the notebook imports
    (imported_packages), then its own cells, each link in their Markdown made an address on
    the site (absolute_links). Ids are renumbered cell-1, cell-2, ... Raises what
    imported_packages raises."""
    notebook = nbformat.reads(notebook, as_version=4)
    packages = imported_packages(notebook.cells)
    exercises = any(cell.cell_type == "code" and cell.source.startswith(f"%load_ext {EXERCISE_MAGICS}")
                    for cell in notebook.cells)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = absolute_links(cell.source, page_url)
    what = ", ".join(["the engine (`micrograd`, from the site's wheel)", *packages])
    notebook.cells[:0] = [
        new_markdown_cell(f"*This notebook is the page <{page_url}> of Backprop, Verified, its code "
                          f"as cells. The first cell installs what it needs where it is missing: {what}.*"),
        new_code_cell(install_cell(packages, wheel_url, EXERCISE_MAGICS if exercises else "micrograd.trace")),
    ]
    number_cells(notebook.cells)
    return nbformat.writes(notebook)


def served(notebook, site_url, page_url):
    """for_download(notebook, ...) for the page at `page_url` (relative to `site_url`, e.g.
    "04-engine/") of the site at `site_url` (e.g. "https://example.org/book/"): its address
    urljoin(site_url, page_url), and the engine's wheel at wheel.url(site_url). JSON text.
    Raises ValueError if site_url is empty (wheel.url), and what for_download raises."""
    return for_download(notebook, urljoin(site_url, page_url), wheel.url(site_url))


# An inline link or image, [text](target) or [text](target "title"), and an HTML href or src
_LINK = re.compile(r"""(\]\(\s*<?)([^()\s<>]+)|(\b(?:href|src)=")([^"]*)""")


def absolute_links(markdown, page_url):
    """`markdown` (str) with each link relative to the page (`../04-engine/#anchor`,
    `#anchor`) made absolute against `page_url`, the page's address, as a browser resolves it
    on the page: a notebook has no page beside it. Links with a scheme (https:, mailto:)
    and code (fences, spans) are left as they are."""
    def absolute(match):
        opening, target = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
        if urlsplit(target).scheme:
            return match.group(0)
        return opening + urljoin(page_url, target)

    return outside_code(markdown, lambda text: _LINK.sub(absolute, text))

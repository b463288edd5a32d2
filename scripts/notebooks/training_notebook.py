"""The training notebook (docs/06-training.py, jupytext percent format), executed behind a
content-keyed cache.

executed(path): the notebook run cell by cell in a Jupyter kernel, cached in
.cache/notebooks/ on the notebook, micrograd/ and the code that builds and
prepares it (cache_key), so a build re-executes it only when one of them
changed. site_notebook(path): that run prepared for the site (math rendered
by KaTeX, plots with alt text, quizzes, answers folded, cells numbered as shown), the .ipynb that
mkdocs-jupyter turns into the page. Plain functions: the notebook hook calls
them; `python -m scripts.notebooks.training_notebook docs/06-training.py` fills the cache.
"""

import base64
import contextlib
import copy
import fcntl
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

from scripts import ROOT
from scripts.notebooks import notebook_numbers
from scripts.notebooks.chapter_notebook import KERNELSPEC, number_cells
from scripts.pages.claims import CLAIM, claim_regions
from scripts.pages.directives import relative
from scripts.pages.quizzes import comment_end, new_quiz_id, quiz_regions

CACHE = ROOT / ".cache" / "notebooks"


@contextlib.contextmanager
def kernel_config():
    """A traitlets Config for nbclient.NotebookClient(config=...): the kernel talks over Unix
    sockets in a temporary folder of its own (removed after), not over TCP ports. A port
    jupyter_client finds free can be taken by another process before the kernel binds it: in
    a CI run, with the build's kernel, the tests' and the notebooks' starting side by side, a
    kernel died of "Address already in use" and the build waited 60 s for it."""
    from traitlets.config import Config

    with tempfile.TemporaryDirectory(prefix="kernel-") as folder:
        yield Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(folder, "k")}})


def notebook_chapters(docs_dir):
    """The notebook chapters in `docs_dir`: docs/NN-*.py (jupytext percent format), sorted Paths."""
    return sorted(Path(docs_dir).glob("[0-9][0-9]-*.py"))


def cache_key(path):
    """sha256 of the notebook, every micrograd/*.py, the quiz code and this file (which builds
    the notebook it runs): what its outputs depend on."""
    from scripts.notebooks import chapter_notebook
    from scripts.pages import claims, katex, quizzes

    digest = hashlib.sha256()
    for source in [path, __file__, chapter_notebook.__file__, quizzes.__file__, claims.__file__, katex.__file__,
                   *sorted((ROOT / "micrograd").rglob("*.py"))]:
        digest.update(str(relative(source)).encode())
        digest.update(open(source, "rb").read())
    return digest.hexdigest()


def executed(path, timeout=600):
    """The notebook at `path` executed in a python3 kernel (cwd: the repository), as a NotebookNode.

    Cached in .cache/notebooks/ under cache_key(path); a file lock makes
    parallel builds and test workers run it once. Raises
    nbclient.exceptions.CellExecutionError (with the cell and traceback) if a cell fails.
    """
    import nbclient

    CACHE.mkdir(parents=True, exist_ok=True)
    key = cache_key(path)
    stem = Path(path).stem
    cached = CACHE / f"{stem}-{key}.ipynb"
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not cached.exists():
            notebook = jupytext.read(path)
            notebook.cells = _with_claim_cells(_with_quiz_cells(notebook.cells, path), path)
            number_cells(notebook.cells)
            notebook.metadata["kernelspec"] = KERNELSPEC
            # "immediate": the kernel holds nothing to save, and a graceful shutdown waits 0.8 s
            with kernel_config() as config:
                nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                        shutdown_kernel="immediate", config=config,
                                        resources={"metadata": {"path": str(ROOT)}}).execute()
            tmp = cached.with_suffix(".tmp")
            nbformat.write(notebook, tmp)
            tmp.replace(cached)
            for stale in CACHE.glob(f"{stem}-*.ipynb"):
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
    from scripts.pages import katex, number_sources, prose

    key = hashlib.sha256(cache_key(path).encode())
    linker = (notebook_numbers.__file__, number_sources.__file__, prose.__file__)  # the number links
    for source in (__file__, katex.__file__, katex.KATEX / "package.json", *linker):
        key.update(open(source, "rb").read())
    return CACHE / f"site-{key.hexdigest()[:16]}" / f"{Path(path).stem}.ipynb"


def site_notebook(path):
    """The executed notebook prepared for the site: a path to an .ipynb in .cache/notebooks/.

    Markdown cells get their math rendered by KaTeX (scripts/pages/katex.py); each
    PNG output becomes an <img> with the alt text from its cell's metadata
    ("alt" in the jupytext cell header, one entry per plot); each run of
    cells tagged "answer" (the explanation and the code that computes it)
    folds into one `<details>` below its question, as in the Markdown
    chapters. Raises ValueError naming the cell when a plot has no alt text
    or an answer cell holds anything but text output, and what executed()
    raises.
    """
    from scripts.pages.katex import render_markdown_math

    prepared = site_notebook_path(path)
    CACHE.mkdir(parents=True, exist_ok=True)
    # its own lock (executed() takes the other): the build's notebook process prepares the
    # page right after running it, and the build's on_pre_page waits here for its result
    with open(CACHE / ".site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not prepared.exists():
            notebook = copy.deepcopy(executed(path))
            # the quizzes' places were read from the cells as written, claims included: placed first
            marks = _claim_marks(notebook.cells)
            notebook_numbers.link(notebook.cells, path)  # in the prose as written: numbers, then quizzes
            cells = _place_quizzes([c for c in notebook.cells if CLAIM_CHECK not in c.metadata.get("tags", [])], path)
            notebook.cells = _fold_answers(_with_claim_marks(cells, marks, path), path)
            _number_executions(notebook.cells)
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


def _with_quiz_cells(cells, path):
    """After each Markdown cell with `<!-- quiz: ... -->`, a code cell (tagged "quiz") that
    evaluates its quizzes in the kernel, at that place, through the same Sybil directive as a
    page's (scripts.pages.quizzes.notebook_quizzes), and prints their HTML with their places."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    out, count = [], 0
    for cell in cells:
        out.append(cell)
        found = len(quiz_regions(cell.source, path)) if cell.cell_type == "markdown" else 0
        if found:
            first = cell.source.splitlines()[0]
            line = next((i + 1 for i, text in enumerate(lines) if text == f"# {first}".rstrip()), 0)
            quiz = new_code_cell(
                "from scripts.pages.quizzes import notebook_quizzes as _notebook_quizzes\n"
                f"_notebook_quizzes(globals(), {cell.source!r}, {relative(path)!r}, {line})")
            quiz.metadata["tags"] = ["quiz"]
            quiz.id = f"quiz-{count + 1}"
            out.append(quiz)
            count += found
    return out


CLAIM_CHECK = "claim-check"  # the tag of the build's cell that checks a Markdown cell's claims


def _with_claim_cells(cells, path):
    """After each Markdown cell with `<!-- claim: ... -->` (and its quiz cell, if any), a code
    cell (tagged CLAIM_CHECK) that evaluates its claims in the kernel, at that place, through
    the same Sybil directive as a page's (scripts.pages.claims.notebook_claims): a claim that
    is not exactly True fails the run at the claim's line of the notebook."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    out, checks = [], 0
    for cell in cells:
        if "quiz" in cell.metadata.get("tags", []) and out and CLAIM_CHECK in out[-1].metadata.get("tags", []):
            out.insert(len(out) - 1, cell)  # the quiz cell stays right after its question's cell
            continue
        out.append(cell)
        if cell.cell_type == "markdown" and claim_regions(cell.source, path):
            first = cell.source.splitlines()[0]
            line = next((i + 1 for i, text in enumerate(lines) if text == f"# {first}".rstrip()), 0)
            check = new_code_cell(
                "from scripts.pages.claims import notebook_claims as _notebook_claims\n"
                f"_notebook_claims(globals(), {cell.source!r}, {relative(path)!r}, {line})")
            check.metadata["tags"] = [CLAIM_CHECK]
            checks += 1
            check.id = f"claims-{checks}"
            out.append(check)
    return out


def _claim_marks(cells):
    """{id(Markdown cell): [the HTML of each of its claims' marks]}, from what each claim cell
    printed (scripts.pages.claims.notebook_claims) after the cell it checks (a quiz cell may
    stand between them)."""
    marks, text = {}, None
    for cell in cells:
        if cell.cell_type == "markdown":
            text = cell
        elif CLAIM_CHECK in cell.metadata.get("tags", []):
            marks[id(text)] = json.loads("".join(o.get("text", "") for o in cell.outputs))
    return marks


def _with_claim_marks(cells, marks, path):
    """Each claim comment replaced by its mark (marks: _claim_marks), as a page's claim is:
    a checked sentence is marked on the notebook's page too. Raises ValueError naming the
    notebook when a cell's claims and the marks made for it differ in number."""
    for cell in cells:
        if cell.cell_type == "markdown" and CLAIM.search(cell.source):
            shown = marks.get(id(cell), [])
            if len(shown) != len(CLAIM.findall(cell.source)):
                raise ValueError(f"{relative(path)}: {len(shown)} claim marks made for a cell with "
                                 f"{len(CLAIM.findall(cell.source))} claims: {cell.source[:60]!r}")
            pieces = CLAIM.split(cell.source)[::2]  # the text around the comments (one group each)
            cell.source = "".join(piece + mark for piece, mark in zip(pieces, [*shown, ""]))
    return cells


def _place_quizzes(cells, path):
    """Each quiz comment replaced by the HTML its quiz cell printed; the quiz cells dropped."""
    out = []
    for cell in cells:
        if "quiz" not in cell.metadata.get("tags", []):
            out.append(cell)
            continue
        question = out[-1]
        built = json.loads("".join(o.get("text", "") for o in cell.outputs))
        if len(built) != len(quiz_regions(question.source, path)):
            raise ValueError(f"{relative(path)}: {len(built)} quizzes built where the cell has "
                             f"{len(quiz_regions(question.source, path))}")
        # the quizzes' places, found again: the number links moved them from where they ran
        places = [(r.start, comment_end(question.source, r.end)) for r in quiz_regions(question.source, path)]
        for (start, end), (_, _, html) in reversed(list(zip(places, built))):  # from the end: earlier places hold
            question.source = question.source[:start] + html + question.source[end:]
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


def _number_executions(cells):
    """In [1], In [2], ... over the code cells the page shows, in place: the kernel counted the
    quiz cells and the answers' code cells too, which the page does not show as cells (the
    reader saw In [8] followed by In [11])."""
    shown = (cell for cell in cells if cell.cell_type == "code" and cell.get("execution_count") is not None)
    for number, cell in enumerate(shown, start=1):
        cell.execution_count = number
        for output in cell.outputs:
            if "execution_count" in output:
                output["execution_count"] = number


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



def quiz_ids(path):
    """The ids (scripts.pages.quizzes.quiz_id) of the notebook's quizzes at `path`, in order: the
    quiz directives of its Markdown cells, found by the same lexer that finds them to evaluate
    them (_with_quiz_cells). Raises DirectiveError (path) for a quiz the same as an earlier
    one: a reader's answer to one would come back on both."""
    seen = set()
    return [new_quiz_id(region.parsed, seen, relative(path)) for cell in jupytext.read(path).cells
            for region in (quiz_regions(cell.source, path) if cell.cell_type == "markdown" else [])]


if __name__ == "__main__":
    print(site_notebook(sys.argv[1]))

"""How a page runs: the same Sybil parsers under pytest (conftest.py) and in the site build.

One namespace per page, blocks in page order, hidden setup in
`<!-- invisible-code-block: python -->`, and directives (`<!-- figure: -->`
and the others in `parsers()`) evaluated at their place in the page.

    python -m scripts.build.page_build docs/03-backprop-by-hand.md 03-backprop-by-hand.md

runs one page and prints JSON: {"outputs": [{kind, line, markdown}], "files":
{path: text}}; every directive's output in page order, and the generated files
(figures, the page as a Jupyter notebook, and on a chapter its blocks as they
ran, for Run in the browser: scripts/pages/blocks.py). Exits 1 with "docs/<page>.md:<line>:
reason" on stderr when an example fails or a directive cannot be built. The site
build (scripts/build/hooks/pages.py) calls build_run() in a fresh process forked from a
server that has the heavy libraries loaded (PRELOAD), so `mkdocs serve` always
runs the current micrograd and scripts, without paying for those imports.
"""

import contextlib
import dataclasses
import gc
import io
import json
import os
import sys
import unittest
from pathlib import Path

from sybil import Document
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser

from scripts import ROOT
from scripts.pages import blocks
from scripts.pages.claims import ClaimParser
from scripts.pages.directives import Collector, relative
from scripts.pages.examples import PythonFenceParser
from scripts.pages.exercise_directive import ExerciseParser
from scripts.pages.figures import FigureParser
from scripts.pages.quizzes import QuizParser
from scripts.pages.widgets import StepperParser, VisitOrderParser


def parsers(collector=None):
    """The Sybil parsers for a page, in the order they apply.

    collector: a scripts.pages.directives.Collector that gathers each directive's
    output (the site build), or None (pytest only checks they build).
    """
    return [
        PythonFenceParser(),
        SkipParser(),
        ClearNamespaceParser(),
        FigureParser(collector),
        QuizParser(collector),
        StepperParser(collector),
        VisitOrderParser(collector),
        ExerciseParser(collector),
        ClaimParser(collector),
    ]


@dataclasses.dataclass
class PageRun:
    outputs: list  # scripts.pages.directives.Output, in page order
    files: dict  # path relative to docs/ -> str
    printed: str = ""  # what the page's code printed (tests/pages/test_prose_numbers.py reads it)
    blocks: str = ""  # every block as it ran (scripts.pages.blocks.export's JSON), on any page; the
    # site serves it only for a page that gets Run (tests/run/test_copy.py reads every page's)
    printed_at: dict = dataclasses.field(default_factory=dict)  # page line of an example ->
    # what it printed to stdout (a code block's print(); a doctest's output is its `want`)


@contextlib.contextmanager
def _fresh_matplotlib():
    """matplotlib's settings as a fresh process has them, for one page's run, and put back after:
    a page's figures never depend on what ran before in the process. Chapter 6's notebook sets
    rcParams for its plots; run as a doctest in the same pytest worker, it made chapter 2's,
    7's and 10's figures 2 to 8 % smaller than the built site's (test_site). No-op without
    matplotlib."""
    try:
        import matplotlib
    except ImportError:
        yield
        return
    with matplotlib.rc_context():
        matplotlib.rc_file_defaults()
        yield


def run(path, src_uri=None):
    """Evaluate every example and directive of the page at `path`; return a PageRun.

    src_uri: the page's path relative to docs/ (names its generated files);
    defaults to the file name. Raises the first failure; a skip with a
    stated reason (e.g. PyTorch not installed) is honoured as in pytest.
    """
    from scripts.notebooks.chapter_notebook import chapter_notebook

    collector = Collector(src_uri or Path(path).name)
    document = Document.parse(str(path), *parsers(collector))
    outcomes = blocks.Outcomes(document)  # which examples ran and which the page skipped
    printed = io.StringIO()
    printed_at = {}
    with contextlib.redirect_stdout(printed), _fresh_matplotlib():
        for example in document:
            before = printed.tell()
            try:
                example.evaluate()
            except unittest.SkipTest as skip:
                outcomes.skipped(example, skip)
                continue
            finally:
                if printed.tell() > before:
                    printed_at[example.line] = printed.getvalue()[before:]
    files = {}
    for output in collector.outputs:
        files.update(output.files)
    files[collector.asset(f"{collector.src_uri.stem}.ipynb")] = chapter_notebook(document)
    export = blocks.export(document, outcomes)
    if blocks.runnable(collector.src_uri):
        files[collector.asset(blocks.EXPORT)] = export
    return PageRun(collector.outputs, files, printed.getvalue(), export, printed_at)


# Imported once by the build's fork server (scripts/build/hooks/pages.py), so a page's process
# starts with them loaded. Never micrograd or the rest of scripts: a page always runs
# their current code.
PRELOAD = ["sybil", "graphviz", "markdown", "markdown_it", "pymdownx.arithmatex", "nbformat", "jupytext", "numpy",
           "matplotlib.pyplot"]


def build_run(path, src_uri):
    """Run a page for the site build: {"outputs": [{kind, line, markdown}], "files", "numbers"}
    or {"error"}. numbers: where each number of its prose came from (scripts/pages/number_sources.py).

    The error is a line "docs/<page>.md:<line>: reason" (one per number without a source). Meant for a fresh
    process (a child of the build's fork server, or `python -m scripts.build.page_build`):
    it changes to the repository folder (run() keeps the page's print() off stdout).
    """
    os.environ.setdefault("MPLBACKEND", "Agg")  # figures are drawn to files, never to a screen
    os.chdir(ROOT)
    # What the process holds so far (PRELOAD's libraries) goes to the collector's permanent
    # generation, which collections skip: chapter 10 alone runs 13 full ones (1.4 s less CPU).
    gc.freeze()
    try:
        result = run(path, src_uri)
    except Exception as error:  # report page:line, then fail
        message = str(error)
        where = relative(path)
        if not message.startswith(where):  # directives name page:line themselves
            message = f"{where}{_failing_line(error)}: {message}"
        return {"error": message}
    outputs = [{k: v for k, v in dataclasses.asdict(o).items() if k != "files"}
               for o in result.outputs]
    found = number_sources(path, result)
    if found.problems:  # every number of the prose links to its source, or the build fails
        return {"error": "\n".join(found.problems)}
    return {"outputs": outputs, "files": result.files, "numbers": found.as_json()}


def number_sources(path, result):
    """The sources of the numbers of the prose of the page at `path`, which ran as `result` (a
    PageRun): a scripts.pages.number_sources.Found."""
    from scripts.pages.number_sources import sources

    figures = [(output.line, next(iter(output.files.values()))) for output in result.outputs
               if output.kind == "figure"]  # its first file: a phone's layout of it is the same figure
    return sources(Path(path).read_text(encoding="utf-8"), relative(path), result.printed_at, figures)


def main(argv):
    path, src_uri = argv
    result = build_run(path, src_uri)
    if "error" in result:
        print(result["error"], file=sys.stderr)
        return 1
    json.dump(result, sys.stdout)
    return 0


def _failing_line(error):
    example = getattr(error, "example", None)  # sybil.example.SybilFailure
    if example is not None:
        return f":{example.line}"
    tb = error.__traceback__
    line = ""
    while tb is not None:  # deepest frame that ran page code
        if tb.tb_frame.f_code.co_filename.endswith(".md"):
            line = f":{tb.tb_lineno}"
        tb = tb.tb_next
    return line


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

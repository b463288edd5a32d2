"""Run any example: which pages get Run, and each one's Python blocks, exported for the browser.

A chapter page (RUNNABLE) gets a Run button on every Python block. What the
reader's browser runs must be exactly what pytest runs, so the site build
exports, while it runs the page (scripts/build/page_build.py), every block Sybil runs,
in page order, as blocks.json next to the page:

    {"page": "docs/01-computational-graphs.md", "python": "3.11.2", "bits": 64,
     "blocks": [{"line": 21, "kind": "code", "hidden": false,
                 "source": "from micrograd import Value, draw_dot\\n...",
                 "skip": null, "figure": false}, ...]}

python, bits: the version of the Python that ran the page (the outputs the page
shows are its outputs) and its pointer size (64; the browser's WebAssembly is 32-bit).
line: the page line of the block's opening fence (of the
`<!-- invisible-code-block: python -->` comment for a hidden one).
kind: "code" (run with exec), "doctest" (a block starting with `>>>`, run
example by example by the doctest machinery) or "clear-namespace" (Sybil's
`<!-- clear-namespace -->`: no source). hidden: not rendered on the page.
skip: null, or {"reason": text or null, "examples": [i, ...]}, the block's
examples (0 for a code block; one per `>>>` for a doctest) the page skipped
when it ran, as recorded by Outcomes: a `<!-- skip: ... -->` whose condition
was false skips nothing, and `skip: next` before a doctest block skips only
its first example, exactly as in pytest. when: null, or {"condition": text,
"examples": [i, ...]}: the examples a conditional skip (`<!-- skip: next
if(torch is None, reason="...") -->`, or a start ... end around it) governs,
with its `if(...)` text, for the browser to decide as pytest would decide there:
scripts/reader/run_blocks.py evaluates it in the reader's namespace (a page built with
PyTorch runs its PyTorch blocks; the browser, which has none, skips them with the
page's reason). figure: a `<!-- figure: -->` follows the block (the build drew
it; the browser draws it again from an edit: scripts/reader/run_blocks.py gives
draw_dot's DOT source, docs/javascripts/shared/viz.js draws it).

The visible blocks, in order, are the page's rendered Python code blocks, in
order: docs/javascripts/run/run-blocks.js binds one Run button to each and checks
the count (python_runtime.py puts their lines on the page). Directives
(figures, quizzes, widgets) only read the namespace, so the browser does not
run them. scripts/reader/run_blocks.py runs an export, in CPython and in Pyodide.
"""

import hashlib
import html
import json
import platform
import re
import struct
from pathlib import PurePosixPath

from mkdocs.utils import get_relative_url
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.evaluators.skip import Skipper
from sybil.parsers.abstract.clear import AbstractClearNamespaceParser

from scripts.pages.directives import relative
from scripts.pages.examples import python_blocks
from scripts.pages.figures import FigureParser
from scripts.pages.number_sources import ANCHOR_PREFIX
from scripts.reader.reader_code import is_doctest

# The pages that get Run on every Python block, by file name: the chapters whose code runs in
# the reader's Python (the standard library and micrograd). Their blocks that need what the
# browser lacks say why in one line: matplotlib figures keep the build's figure, PyTorch
# blocks are skipped with the page's reason (scripts/reader/run_blocks.py), and so are chapter 10's
# graphs deeper than the browser's stack lets Pyodide free (`skip: start if(sys.platform ==
# "emscripten", ...)` on the page). Not chapter 9: numpy is in every one of its blocks, and
# the browser has no numpy. The training notebook (06-training.py) is a notebook page, not
# Markdown; it is not matched.
RUNNABLE = re.compile(r"(0[1-578]|1[01])-[^/]+\.md")
EXPORT = "blocks.json"  # next to the page's other generated files: docs/<page>/blocks.json


def runnable(src_uri):
    """True for a page (its path relative to docs/, e.g. "04-engine.md") that gets Run."""
    return bool(RUNNABLE.fullmatch(str(src_uri)))


class Outcomes:
    """What happened to each Python example and clear-namespace of a document while it ran.

    Made before the document is evaluated: it wraps those regions' evaluators
    (the wrapper calls the original, so nothing else changes) and notes each
    one that really ran. An example that never reached its evaluator was
    skipped by a `<!-- skip -->`; skipped(example, error) records the reason of
    a SkipTest (a skip with no reason skips silently).
    """

    def __init__(self, document):
        self.ran = set()  # region starts
        self.reasons = {}  # region start -> reason of its SkipTest
        for _, region in document.regions:
            if _is_python(region) or _is_clear(region):
                region.evaluator = self._wrap(region.start, region.evaluator)

    def _wrap(self, start, evaluator):
        def evaluate(example):
            self.ran.add(start)
            return evaluator(example)

        evaluate.original = evaluator
        return evaluate

    def skipped(self, example, error):
        self.reasons[example.start] = str(error) or None

    def skip_reason(self, start):
        return self.reasons.get(start)


def export(document, outcomes):
    """The page's blocks as blocks.json text (see the module docstring), in page order."""
    regions = [region for _, region in document.regions]
    examples = [r for r in regions if _is_python(r)]
    conditions = _conditions(regions)
    figures = [r.start for r in regions if isinstance(getattr(_evaluator(r), "__self__", None), FigureParser)]
    entries = []
    for block in python_blocks(document):
        source = str(block.lexemes["source"])
        inside = [r for r in examples if block.start <= r.start < block.end]
        skipped = [i for i, r in enumerate(inside) if r.start not in outcomes.ran]
        entries.append({
            "line": _line(document, block.start),
            "kind": "doctest" if is_doctest(source) else "code",
            "hidden": "directive" in block.lexemes,
            "source": source,
            "skip": {"reason": next((outcomes.skip_reason(inside[i].start) for i in skipped
                                     if outcomes.skip_reason(inside[i].start)), None),
                     "examples": skipped} if skipped else None,
            "when": _when(inside, conditions),
            "figure": any(start >= block.end and not document.text[block.end:start].strip()
                          for start in figures),
        })
    for region in regions:
        if _is_clear(region):
            entries.append({"line": _line(document, region.start), "kind": "clear-namespace",
                            "hidden": True, "source": "",
                            "skip": None if region.start in outcomes.ran else
                            {"reason": outcomes.skip_reason(region.start), "examples": [0]},
                            "when": None, "figure": False})
    entries.sort(key=lambda entry: entry["line"])
    return json.dumps({"page": relative(document.path), "python": platform.python_version(),
                       "bits": struct.calcsize("P") * 8, "blocks": entries},
                      ensure_ascii=False, indent=1)


def visible_lines(exported):
    """The page lines of the visible blocks of an export (blocks.json text or dict), in order."""
    data = json.loads(exported) if isinstance(exported, str) else exported
    return [block["line"] for block in data["blocks"] if not block["hidden"]]


def run_markup(src_uri, page_url, files):
    """The HTML that gives each Python block of the chapter `src_uri` its Run: a hidden
    element naming its blocks.json (exported when the page ran; loaded on the first Run or
    Edit, not with the page) and the page lines of its visible blocks, so run-blocks.js can
    check, at load, that it binds as many buttons as the export has blocks. widgets.js (on
    every page) loads run-blocks.js where it finds this element.

    page_url: the page's URL; files: MkDocs' Files of the build. "" for a page with no
    visible block. Raises LookupError if the page's export is not among the files.
    """
    path = str(PurePosixPath(src_uri).with_suffix("") / EXPORT)
    export_file = files.get_file_from_path(path)
    if export_file is None:
        raise LookupError(f"docs/{src_uri}: no {EXPORT} was exported for this page "
                          "(scripts/build/page_build.py exports it when the page runs)")
    content = export_file.content_bytes
    lines = visible_lines(content.decode("utf-8"))
    if not lines:
        return ""
    url = get_relative_url(export_file.dest_uri, page_url) + f"?v={hashlib.sha256(content).hexdigest()[:12]}"
    return (f'<div class="bv-run" hidden data-blocks="{html.escape(url)}" '
            f'data-lines="{" ".join(map(str, lines))}"></div>\n')


# A visible Python block as pymdownx.highlight writes it, with the id number_sources.anchor gave
# its fence: `<div id="block-3" class="language-python highlight" ...><pre>...</pre></div>`.
_RUN_BLOCK = re.compile(rf'<div id="{re.escape(ANCHOR_PREFIX)}\d+" class="[^"]*\bhighlight\b[^"]*"[^>]*>'
                        r'<pre\b.*?</pre></div>', re.DOTALL)
RUN_SLOT = '<div class="bv-run-slot"></div>'


def run_slots(content):
    """`content` (str, a chapter's HTML) with an empty `<div class="bv-run-slot">` after each
    visible Python block: run-blocks.js puts the block's editor, Run bar, progress and output in
    it. Added beside the block instead, as children of the article, they made Chromium style the
    article's later children again once the page had loaded (as for a table: scripts/pages/
    tables.py): 24 to 28 ms of one task on chapter 4, unthrottled, and the same on every chapter
    with Run (issue 27, item 6). Filled, the box restyles only itself. Returns a str."""
    return _RUN_BLOCK.sub(lambda m: m[0] + RUN_SLOT, content)


def _conditions(regions):
    """{start of a Python example: the `if(...)` text of the conditional skip that governs it}.

    As Sybil's Skipper reads them: `skip: start if(...)` governs every example up to
    `skip: end`; `skip: next if(...)` the next example only.
    """
    governed, current, pending = {}, None, None
    for region in regions:
        if isinstance(_evaluator(region), Skipper):
            action, reason = region.parsed
            condition = reason.strip() if reason and reason.strip().startswith("if") else None
            if action == "start":
                current = condition
            elif action == "end":
                current = None
            elif action == "next":
                pending = condition
        elif _is_python(region):
            condition = pending or current
            pending = None
            if condition:
                governed[region.start] = condition
    return governed


def _when(inside, conditions):
    governed = [(i, conditions[r.start]) for i, r in enumerate(inside) if r.start in conditions]
    if not governed:
        return None
    return {"condition": governed[0][1], "examples": [i for i, _ in governed]}


def _evaluator(region):
    return getattr(region.evaluator, "original", region.evaluator)


def _is_python(region):
    return isinstance(_evaluator(region), (PythonEvaluator, DocTestEvaluator))


def _is_clear(region):
    return _evaluator(region) is AbstractClearNamespaceParser.evaluate  # a staticmethod


def _line(document, position):
    return document.text.count("\n", 0, position) + 1

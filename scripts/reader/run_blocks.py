"""Run a chapter's blocks as pytest runs them: for Run in the reader's browser (Pyodide).

The site build exports a chapter's blocks (scripts/pages/blocks.py, blocks.json);
docs/javascripts/run/run-blocks.js sends them to the Python worker with the
index of the block the reader ran and the text of every block the reader
edited, and the worker calls report (through scripts/reader/calls.py). Blocks 0 to `upto` run in page order
in one fresh namespace, each the way Sybil runs it under pytest:

- a code block with exec (no __name__ in the namespace, __builtins__ removed
  after a block that ran through, as Sybil's PythonEvaluator does);
- a block starting with `>>>` example by example, each as its own doctest of
  one example in the shared namespace (`__name__` is "__test__" while it
  runs), compared as Sybil compares (trailing whitespace ignored);
- a skip the page recorded is honoured; a conditional skip (the export's
  "when") is decided here, in the reader's namespace, as pytest would decide it
  in this Python (no PyTorch in the browser: the page's PyTorch blocks are
  skipped with the page's reason); a clear-namespace empties it;
- a code block that imports a package this Python lacks (matplotlib, numpy,
  torch) is "unavailable", with one line that says why (UNAVAILABLE), not a
  traceback;
- a code block whose last statement is an expression giving a Graphviz graph
  (draw_dot(...)) returns its DOT source, which the page draws with Graphviz as
  WebAssembly (docs/javascripts/shared/viz.js): the same ids as the build's figure;
- an error does not stop the run: the next block runs, as the next example
  runs under pytest.

The reader's edited text replaces the page's; what runs is decided from that
text (a block that starts with `>>>` is a doctest), as pytest would decide.

Stdlib only: this module runs in CPython (tests/run/test_blocks.py checks
that every chapter's export, run through it, gives the page's outputs) and
in Pyodide, where the site's Python zip holds it (scripts/build/hooks/python_runtime.py).
"""

import ast
import contextlib
import doctest
import io
import linecache
import platform
import re
import struct
import time
import traceback

from scripts.reader.engine_swap import applies_in_order, installed, load, same_output
from scripts.reader.reader_code import (
    clip,
    describe,
    exception_only,
    is_doctest,
    no_input,
    take_graphs_apart,
)

_TRAILING_WHITESPACE = re.compile(r"[ \t]+$", re.MULTILINE)
# doctest compiles example k of a test named N as "<doctest N[k]>"; each example here is a test
# of its own named "block 3, example 2", so k is always 0 and the label drops it.
_DOCTEST_FILE = re.compile(r"<doctest (.+?)\[0\]>")
# Why a block that imports one of these cannot run in the reader's Python: one line each.
# Said to a learner: what the browser's Python lacks and where the block does run. (Why: the
# site serves Pyodide's core runtime from npm, and nothing it may reach serves these packages
# built for the browser.)
UNAVAILABLE = {
    "matplotlib": "Python in your browser has no matplotlib, so this block runs in full only on your "
                  "own machine (pytest, or the page's notebook).",
    "numpy": "Python in your browser has no NumPy, so this block runs in full only on your own "
             "machine (pytest, or the page's notebook).",
    "torch": "PyTorch does not run in your browser's Python: there is no PyTorch for WebAssembly.",
}
MAX_DOT = 200_000  # characters of DOT source the page will draw (a graph of about 1,000 nodes)


def run(blocks, upto, edits=None, on_block=None, engine=None):
    """Run blocks[0..upto] (the export's "blocks") in one namespace; return a list of results.

    edits: {index: text} of the blocks the reader edited. on_block(index):
    called before each block runs (the browser worker reports it). One result
    (a dict, see _result) per block run, in order.
    engine: None, or the source of the reader's engine (scripts/reader/your_engine.py): its Value
    is installed as micrograd's while the blocks run, a doctest's outputs are compared as
    numbers (your_engine.same_output: `1` is `1.0`), and each result has "applies": the
    reasons the block does not apply to a reader's engine (your_engine.applies), [] if it
    does. Raises your_engine.EngineError (a ValueError) for a source without a usable Value.
    """
    edits = {int(k): v for k, v in (edits or {}).items()}
    namespace = {}
    results = []
    value = None if engine is None else load(engine)
    reasons = [] if engine is None else applies_in_order([edits.get(i, b["source"]) for i, b in
                                                          enumerate(blocks[: upto + 1])], value)
    try:
        with no_input(), (contextlib.nullcontext() if value is None else installed(value)):
            for index, block in enumerate(blocks[: upto + 1]):
                if on_block is not None:
                    on_block(index)
                result = _run_block(block, index, edits.get(index), namespace, _name(blocks, index),
                                    numbers=value is not None)
                if value is not None:
                    result["applies"] = reasons[index]
                results.append(result)
    finally:
        take_graphs_apart(namespace.values())
        namespace.clear()
    return results


def report(blocks, upto, edits=None, on_block=None, engine=None):
    """run() as the page reads it (scripts/reader/calls.py: run_blocks): {"results": [...], "seconds",
    "python", "bits"}. python: this Python's version and bits its pointer size; the page's
    outputs are those of the export's "python" and "bits" (a message may read differently in
    another version, and an object's size in bytes differs at 32 bits). engine: see run().
    """
    start = time.perf_counter()
    results = run(blocks, int(upto), edits, on_block, engine)
    return {"results": results, "seconds": round(time.perf_counter() - start, 4),
            "python": platform.python_version(), "bits": struct.calcsize("P") * 8}


def _name(blocks, index):
    """How messages name a block: "block 3" (the third visible one), or the hidden one after it."""
    visible = sum(1 for block in blocks[: index + 1] if not block["hidden"])
    if not blocks[index]["hidden"]:
        return f"block {visible}"
    return f"hidden block after block {visible}" if visible else "hidden block before block 1"


def _result(block, index, name, text, **fields):
    """One block's result: index, line, name, kind, edited, figure, status and what it showed.

    kind: how the block's text ran, "doctest" (it starts with `>>>`, as Sybil decides) or
    "code"; an edit's own, which may not be the page's block's; "clear-namespace" for that
    marker.

    status: "ran" (a code block that ran through, or a doctest all of whose
    examples gave the page's output), "differs" (a doctest with an example
    whose output is not the page's), "error" (an exception), "skipped" (the
    page skips it), "unavailable" (a figure block that needs a module Python
    in the browser does not have; "why" says so in one line, "module" names it).
    output: what a code block printed. dot: the DOT source of the graph a code
    block's last expression gave (draw_dot), or null; dot_narrow: the same graph laid
    out top to bottom (draw_dot's redraw("TB"), the same ids), for a phone, or null;
    dot_too_big: {"chars", "limit"} when that graph's DOT is too long to draw, else null.
    transcript: a doctest block's text, each example's output replaced by
    the actual one, as segments {"text", "output": bool, "same": bool}, with
    "page" (the page's output) where not same, "exception" for an exception
    the page does not expect, "skipped" for an example the page skips. In an
    edited block, an example whose input or expected output the page does not
    have is the reader's: its output segment has "edit": true, and where not
    same, "expected" (what the edit expects) instead of "page".
    """
    result = {"index": index, "line": block["line"], "name": name, "hidden": block["hidden"],
              "kind": block["kind"], "edited": text != block["source"], "figure": block["figure"],
              "status": "ran", "output": "", "error": "", "transcript": [], "skip": None,
              "dot": None, "dot_narrow": None, "dot_too_big": None, "seconds": 0.0}
    result.update(fields)
    return result


def _run_block(block, index, edited, namespace, name, numbers=False):
    text = block["source"] if edited is None else edited
    start = time.perf_counter()
    if block["kind"] == "clear-namespace":
        if block["skip"] is None:
            take_graphs_apart(namespace.values())
            namespace.clear()
        return _result(block, index, name, text, status="skipped" if block["skip"] else "ran")
    skipped = set(block["skip"]["examples"]) if block["skip"] else set()
    reason = block["skip"]["reason"] if block["skip"] else None
    decided = _decide(block.get("when"), namespace)
    if decided is not None:
        skipped |= set(block["when"]["examples"])
        reason = reason or decided
    filename = f"<{name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    if is_doctest(text):  # as Sybil decides: the block's first characters
        fields = _run_doctest(text, namespace, name, skipped, numbers, page_text=block["source"])
    elif 0 in skipped:
        fields = {"status": "skipped"}
    else:
        fields = _run_code(text, namespace, filename)
    if skipped:
        fields["skip"] = {"reason": reason, "examples": sorted(skipped)}
    # How the text ran: an edit that no longer starts with `>>>` ran as code, one that now does as
    # a doctest (a doctest edited to code showed "every result is the one the page shows" over
    # nothing, its SyntaxError unshown; a new reader's audit)
    fields["kind"] = "doctest" if is_doctest(text) else "code"
    fields["seconds"] = round(time.perf_counter() - start, 4)
    return _result(block, index, name, text, **fields)


def _decide(when, namespace):
    """The reason of a conditional skip that holds in this namespace, as Sybil's Skipper
    decides it (`if(condition, reason=...)`), or None: none, false, or it cannot be decided
    (an edit removed a name it reads), so the block runs and says what is wrong."""
    if not when:
        return None
    condition = when["condition"][2:]
    try:
        reason = eval("if_" + condition, {**namespace, "if_": _If(condition)})
    except Exception:  # the reader's edits may leave anything in the namespace
        return None
    return str(reason) if reason else None


class _If:
    """Sybil's `if(condition, reason=None)` of a skip directive."""

    def __init__(self, text):
        self.text = text

    def __call__(self, condition, reason=None):
        return (reason or self.text) if condition else None


def _run_code(text, namespace, filename):
    """exec, as Sybil's PythonEvaluator; what it printed (stdout and stderr), any error, and the
    DOT source of a graph its last expression gives (evaluated apart, so its value is kept)."""
    output = io.StringIO()
    try:
        tree = ast.parse(text, filename)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        code = compile(tree, filename, "exec", dont_inherit=True)
        tail = compile(ast.Expression(last.value), filename, "eval", dont_inherit=True) if last else None
    except SyntaxError as error:
        return {"status": "error", "error": _format_exception(error)}
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            exec(code, namespace)
            value = eval(tail, namespace) if tail else None
            namespace.pop("__builtins__", None)
        except (Exception, SystemExit) as error:  # the reader's code may raise anything
            if isinstance(error, ModuleNotFoundError):
                module = clip(str(error.name or "").split(".")[0], "name")  # the reader may raise it
                return {"status": "unavailable", "output": clip(output.getvalue()), "module": module,
                        "why": UNAVAILABLE.get(module, f"Python in your browser has the standard library and "
                                                       f"micrograd, not {module}."),
                        "error": describe(error), "stopped": _stopped(error, text, filename, tree)}
            return {"status": "error", "output": clip(output.getvalue()), "error": _format_exception(error)}
    try:  # the last value may be the reader's object, whose source or redraw may raise
        source = _graph_source(value)
        dot = source if source is not None and len(source) <= MAX_DOT else None
        narrow = _dot(value.redraw("TB")) if dot and callable(getattr(value, "redraw", None)) else None
        # a graph over the limit says its size (a new reader's audit: it was said to be an edit that
        # "no longer ends in draw_dot(...)")
        too_big = {"chars": len(source), "limit": MAX_DOT} if source is not None and dot is None else None
    except Exception as error:
        return {"status": "error", "output": clip(output.getvalue()), "error": _format_exception(error)}
    return {"status": "ran", "output": clip(output.getvalue()), "dot": dot, "dot_narrow": narrow,
            "dot_too_big": too_big}


def _stopped(error, text, filename, tree):
    """Where a block stopped, when lines of it ran before: {"line": the line of the block (from
    1) whose statement raised, "code": that line}; None when it stopped at its first statement."""
    # walk_tb, not extract_tb: no frame's source file is read (a code object may name any file)
    lines = [line for frame, line in traceback.walk_tb(error.__traceback__) if frame.f_code.co_filename == filename]
    first = min((node.lineno for node in ast.walk(tree) if isinstance(node, ast.stmt)), default=None)
    if not lines or first is None or lines[0] <= first:
        return None
    return {"line": lines[0], "code": clip(text.splitlines()[lines[0] - 1].strip(), "code")}


def _graph_source(value):
    """The DOT source (str) of a Graphviz graph (what draw_dot returns), read once; else None."""
    if type(value).__module__.split(".")[0] != "graphviz":
        return None
    source = value.source
    return source if isinstance(source, str) else None


def _dot(value):
    """The DOT source of a Graphviz graph, if not too big to draw (MAX_DOT); else None."""
    source = _graph_source(value)
    return source if source is not None and len(source) <= MAX_DOT else None


class _Checker(doctest.OutputChecker):
    """Compares like Sybil's OutputChecker: trailing whitespace on a line does not count.
    numbers: compare numbers as numbers (a reader's engine: your_engine.same_output)."""

    def __init__(self, numbers=False):
        super().__init__()
        self.numbers = numbers

    def check_output(self, want, got, optionflags):
        if self.numbers and same_output(want, got):
            return True
        return super().check_output(_TRAILING_WHITESPACE.sub("", want), _TRAILING_WHITESPACE.sub("", got),
                                    optionflags)


class _Runner(doctest.DocTestRunner):
    """A doctest runner that keeps, for each example, what it printed and whether that matched."""

    def __init__(self, numbers=False):
        super().__init__(verbose=False, optionflags=0, checker=_Checker(numbers))
        self.outcome = None

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.outcome = {"same": True, "got": got, "exception": False}

    def report_failure(self, out, test, example, got):
        self.outcome = {"same": False, "got": got, "exception": False}

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.outcome = {"same": False, "got": _format_exception(exc_info[1]), "exception": True}


class _DocTest(doctest.DocTest):
    def __init__(self, examples, globs, name, lineno):
        super().__init__(examples, globs, name, None, lineno, None)
        self.globs = globs  # the page's namespace itself, not a copy (as Sybil does)


def _run_doctest(text, namespace, name, skipped, numbers=False, page_text=None):
    """Each `>>>` example as Sybil runs it; the block's text with the actual outputs in it.
    page_text: the page's own text of the block; an example of `text` that it does not have
    (its input and expected output) is the reader's edit."""
    parser = doctest.DocTestParser()
    try:
        examples = parser.get_examples(text, name)
    except ValueError as error:  # e.g. a `>>>` line without a space after it
        return {"status": "error", "error": clip(f"ValueError: {error}", "error")}
    pages = None  # the page's examples, (input, expected output), when the reader edited the block
    if page_text is not None and page_text != text:
        try:
            pages = {(e.source, e.want) for e in parser.get_examples(page_text)}
        except ValueError:  # the page's block is code whose text only looks like a doctest
            pages = set()
    runner = _Runner(numbers)
    lines = text.splitlines(keepends=True)
    segments, at = [], 0
    status = "ran"
    for number, example in enumerate(examples):
        source_end = example.lineno + example.source.count("\n")
        want_end = source_end + example.want.count("\n")
        if example.lineno > at:
            segments.append(_segment("".join(lines[at:example.lineno])))
        segments.append(_segment("".join(lines[example.lineno:source_end])))
        page = "".join(lines[source_end:want_end])
        at = want_end
        if number in skipped:
            segments.append(_segment(page, output=True, same=True, skipped=True))
            continue
        remove_name = "__name__" not in namespace
        if remove_name:
            namespace["__name__"] = "__test__"
        label = f"{name}, example {number + 1}"  # as the reader counts the block's examples
        filename = f"<doctest {label}[0]>"  # what doctest compiles it as
        linecache.cache[filename] = (len(example.source), None, example.source.splitlines(keepends=True),
                                     filename)  # its lines in a traceback, from a later example too
        try:
            runner.outcome = None
            runner.run(_DocTest([example], namespace, label, example.lineno), clear_globs=False,
                       out=lambda _text: None)
        finally:
            if remove_name:
                namespace.pop("__name__", None)
        outcome = runner.outcome or {"same": True, "got": "", "exception": False}
        if outcome["same"] and example.exc_msg is not None:
            shown = page  # the expected exception was raised; doctest compares only its last line
        else:  # an unexpected exception's text is clipped already (_format_exception)
            shown = _indent(outcome["got"] if outcome["exception"] else clip(outcome["got"]), example.indent)
        segments.append(_segment(shown, output=True, same=outcome["same"], page=page,
                                 exception=outcome["exception"],
                                 edit=pages is not None and (example.source, example.want) not in pages))
        if outcome["exception"]:
            status = "error"
        elif not outcome["same"] and status == "ran":
            status = "differs"
    if at < len(lines):
        segments.append(_segment("".join(lines[at:])))
    if skipped and len(skipped) >= len(examples):
        status = "skipped"
    return {"status": status, "transcript": segments}


def _segment(text, output=False, same=True, page="", skipped=False, exception=False, edit=False):
    segment = {"text": text, "output": output, "same": same}
    if edit:  # the expected output is the reader's edit's, not the page's
        segment["edit"] = True
    if output and not same:
        segment["expected" if edit else "page"] = page
    if skipped:
        segment["skipped"] = True
    if exception:
        segment["exception"] = True  # an exception the page does not expect
    return segment


def _indent(text, indent):
    if not indent:
        return text
    return "".join(" " * indent + line if line.strip() else line for line in text.splitlines(keepends=True))


def _format_exception(error):
    """The traceback a reader needs: the page's blocks and micrograd, not this runner or doctest;
    as the page shows it: its frames and its last line each clipped (reader_code.clip)."""
    if isinstance(error, SyntaxError) and error.filename and error.filename.startswith("<"):
        return _DOCTEST_FILE.sub(r"<\1>", exception_only(error))
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.endswith(("run_blocks.py", "doctest.py", "reader_code.py"))]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    text = clip(_DOCTEST_FILE.sub(r"<\1>", "".join(lines)), "traceback")
    text += _DOCTEST_FILE.sub(r"<\1>", exception_only(error))
    if isinstance(error, ModuleNotFoundError):
        text += ("\n(Python in your browser has the standard library and micrograd, "
                 "not other packages: run this page with pytest to use them.)")
    return text

"""The one door from the page into the reader's Python: a call names a function and carries
JSON arguments; the answer is JSON.

    call_json("playground", '{"expression": "a * b", "values": "a = 2, b = 3"}')
    -> '{"ok": true, "value": {"ok": true, "dot": "digraph {...", ...}}'
    call_json("no_such", "{}")
    -> '{"ok": false, "error": "no function named \'no_such\': the page calls run_blocks, ..."}'

docs/javascripts/python/python.js `call(fn, args, options)` sends a call; python-worker.js hands it
here and posts the answer back. The shapes of both sides are written once, as JSDoc types, in
docs/javascripts/python/calls.js (checked by TypeScript's checker, tests/tools/test_lint.py). Every Run
comes through here: a chapter's blocks, an exercise's tests, a stepper's trace with the
reader's leaf values, the playground. No Python source is composed in JavaScript, and no
answer is cut into prints.

An answer {"ok": false, "error"} is the page's mistake (a function that does not exist,
arguments it does not take), never the reader's: what the reader's code does, errors
included, is in the value each function returns. An error raised while the function ran that
its runners did not catch (the reader's engine, which passed its check, failing when it runs)
is neither: {"ok": false, "raised": true, "error"}, the error as the page shows it. Stdlib and
micrograd only: this module runs in Pyodide and in CPython (tests/python/test_calls.py).
"""

import inspect
import json

from scripts.reader.reader_code import describe

# Each function imports what it runs when it is first called, not this module: a page's first Run
# after a full load waits for Python's start, and the imports of the playground, the steppers,
# the exercises and the engine diagnosis were about a third of this module's import time, paid
# by a Run that uses none of them (issue 44: the first Run's speed).


def _run_blocks(blocks, upto, edits=None, engine=None, on_block=None):
    """A chapter's blocks 0 to `upto` (blocks: its blocks.json's "blocks"), as pytest runs them.
    engine: None, or the reader's engine source: its Value runs them, and each result has
    "applies" (scripts/reader/your_engine.py). A source without a usable Value raises EngineError
    (the page asks check_engine first; an engine can still change its mind)."""
    from scripts.reader.run_blocks import report

    if engine is None:
        return report(blocks, int(upto), edits or {}, on_block)
    return report(blocks, int(upto), edits or {}, on_block, engine)


def _check_engine(source):
    """Whether the reader's engine source has a usable Value: {"ok": true, "shape": "book" |
    "lecture"} or {"ok": false, "message"} (scripts/reader/your_engine.py: load)."""
    from scripts.reader.your_engine import EngineError, load, shape

    try:
        return {"ok": True, "shape": shape(load(source))}
    except EngineError as error:
        return {"ok": False, "message": str(error)}


def _diagnose(blocks, upto, edits, source):
    """Blocks 0..upto on micrograd and on the reader's engine: the first node whose grad differs
    (scripts/reader/your_engine.py: diagnose)."""
    from scripts.reader.your_engine import diagnose

    return diagnose(blocks, int(upto), edits or {}, source)


def _varies(blocks, source, statuses):
    """The blocks run once more on the reader's engine, for an engine whose _prev is a set: which went
    otherwise than in the run the map made (statuses: each block's status there, None for one that
    did not apply) (scripts/reader/your_engine.py: varies)."""
    from scripts.reader.your_engine import varies

    return varies(blocks, source, first=statuses)


def _run_exercise(exercise, code, engine=None):
    """An exercise's tests on the reader's code: {results, output, note, tests_ran, code_ran, summary,
    engine}. engine: None, or the reader's engine source: an exercise that touches only the engine's
    public interface is graded with its Value (exercise_runner.not_on_engine); EngineError for a
    source without a usable Value, as run_blocks."""
    from scripts.reader.exercise_runner import run_dict

    if engine is None:
        return run_dict(exercise, code, None)
    from scripts.reader.your_engine import load

    return run_dict(exercise, code, load(engine))


def _trace_stepper(graph, values, engine=None):
    """A stepper's graph (the build's export) replayed with the reader's leaf values ({id: text}),
    on micrograd or, with engine (the reader's engine source), on the reader's Value:
    {"ok": true, "preset": the replay, "dot": draw_dot's DOT, "engine": which one ran it} or
    {"ok": false, "message"} (scripts/reader/stepper_trace.py: live)."""
    from scripts.reader.stepper_trace import live

    return live(graph, values, engine)


def _playground(expression, values, engine=None, against="differences"):
    """The playground's answer for an expression and its leaf values, on micrograd or the reader's
    engine, checked against finite differences or micrograd (scripts/reader/playground.py: run)."""
    from scripts.reader.playground import run as run_playground

    return run_playground(expression, values, engine, against)


FUNCTIONS = {"run_blocks": _run_blocks, "run_exercise": _run_exercise, "trace_stepper": _trace_stepper,
             "playground": _playground, "check_engine": _check_engine, "diagnose": _diagnose,
             "varies": _varies}


def request(fn, args, on_block=None):
    """The function a call names and the arguments it gets: (function, {name: value}).

    on_block(index), for run_blocks: called before each block runs (the worker reports it).
    Raises LookupError for a function that does not exist, TypeError for arguments it does
    not take: the page's mistakes, found before anything runs.
    """
    if fn not in FUNCTIONS:
        raise LookupError(f"no function named {fn!r}: the page calls {', '.join(FUNCTIONS)}")
    if not isinstance(args, dict):
        raise TypeError(f"{fn}: the arguments are a JSON object, not {type(args).__name__}")
    if fn == "run_blocks":
        args = {**args, "on_block": on_block}
    inspect.signature(FUNCTIONS[fn]).bind(**args)  # TypeError: an argument it does not take, or lacks
    return FUNCTIONS[fn], args


def call(fn, args, on_block=None):
    """FUNCTIONS[fn](**args): the value, a dict that json.dumps takes. Raises as request() does,
    and whatever the function raises."""
    function, arguments = request(fn, args, on_block)
    return function(**arguments)


def call_json(fn, args_json, on_block=None):
    """call() with JSON in and out: '{"ok": true, "value": ...}'; '{"ok": false, "error": "..."}'
    for a request the page should not have made; '{"ok": false, "raised": true, "error": "..."}'
    for an error raised while the function ran (the reader's code, not the request)."""
    try:
        function, arguments = request(fn, json.loads(args_json), on_block)
    except (LookupError, TypeError, ValueError) as error:  # the page's request, not the reader's code
        return json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"})
    try:
        value = function(**arguments)
    except (Exception, KeyboardInterrupt, SystemExit) as error:  # what the runners did not catch: the reader's engine
        return json.dumps({"ok": False, "raised": True, "error": describe(error)}, ensure_ascii=False)
    return json.dumps({"ok": True, "value": value}, ensure_ascii=False)

"""Run a reader's code for an exercise and grade it with the exercise's tests.

run(exercise, code, engine=None) -> Report: the code in a fresh namespace, then every
test_* function of the exercise's tests section, each given the reader's
names; nothing the reader's code does escapes as an exception. With `engine`, a
reader's Value (scripts/reader/your_engine.py: load), an exercise that touches only
the engine's public interface is graded with that Value as micrograd.engine.Value
(not_on_engine says which do). The browser's
Python worker (docs/javascripts/python/python-worker.js) calls run_dict through scripts/reader/calls.py. Stdlib
only: it runs under pytest (CPython) and in Pyodide.
"""

import ast
import contextlib
import dataclasses
import io
import re
import traceback

from scripts.reader.engine_swap import applies, installed
from scripts.reader.exercise_checks import INTERNAL, Fail, release_deep_graphs
from scripts.reader.exercise_format import ExerciseFormatError, load
from scripts.reader.reader_code import clip, describe, no_input, text_of

READER_FILE = "<your code>"  # the file name the reader's code is compiled under


@dataclasses.dataclass
class Result:
    """One test's outcome: its name (the test's docstring), passed, and the message."""

    name: str
    passed: bool
    message: str = ""


@dataclasses.dataclass
class Report:
    """Everything one Run shows: the results, the reader's print() output, a note, and whether
    the exercise's tests ran (False when the reader's code did not run through: its one result
    is then "your code runs", which is not one of the tests) and the reader's code ran at all
    (False when it did not compile: a syntax error, and nothing of it ran)."""

    results: list
    output: str = ""
    note: str = ""  # e.g. blanks still to fill in
    tests_ran: bool = True
    code_ran: bool = True
    engine: str = "micrograd"  # the engine the tests ran on: "micrograd", or "yours" (the reader's)

    @property
    def passed(self):
        return bool(self.results) and all(r.passed for r in self.results)

    @property
    def summary(self):
        """The Run's first line, on the page (exercise.js) and in a notebook (notebook_exercises):
        "All 6 tests passed.", "2 of 6 tests passed.", or that no test ran."""
        if not self.tests_ran:
            return "No test ran: your code has to run without an error first."
        passed = sum(r.passed for r in self.results)
        return f"All {passed} tests passed." if self.passed else f"{passed} of {len(self.results)} tests passed."


class ReaderNames:
    """Attribute access to the names the reader's code defined; Fail names a missing one."""

    def __init__(self, namespace):
        self._namespace = namespace

    def __getattr__(self, name):
        try:
            return self._namespace[name]
        except KeyError:
            raise Fail(f"your code defines no `{name}`: keep the name from the starter code") from None


def not_on_engine(exercise, Value=None):
    """Why `exercise` is not graded on a reader's engine `Value`: a list[str], empty when it is.

    It is when its tests and its solution touch only the engine's public interface
    (scripts/reader/engine_swap.py: applies), its tests use none of the helpers that read
    micrograd's internals (exercise_checks.INTERNAL), and it is no prediction (what this book's
    engine prints): a training step, a gradient check. An exercise that builds the engine
    itself (chapter 4's, but zero_grad) reads its internals. run() checks one thing more,
    at the Run: that the exercise's own solution passes on the reader's engine."""
    reasons = ["a prediction is of what this book's engine prints"] if exercise.kind == "predict" else []
    reasons += [*applies(exercise.tests, Value), *applies(exercise.solution, Value)]
    reasons += [f"its tests use {name} (this engine's internals)" for name in INTERNAL
                if re.search(rf"\b{name}\b", exercise.tests)]
    return list(dict.fromkeys(reasons))


def run(exercise, code, engine=None):
    """Run the reader's `code` (str) for `exercise` (an Exercise or its name); return a Report.

    The code runs in a fresh namespace, then every test_* function of the
    exercise's tests, in file order, each given the reader's names. Never
    raises for anything the reader's code does: a syntax error, an exception
    or a missing name becomes a failed Result with a message. engine: None, or a
    reader's Value class: when not_on_engine gives no reason and the exercise's own
    solution passes on it (an engine can differ where its tests look: micrograd 0.1.0
    has no tanh), the code and the tests run with it installed as micrograd.engine.Value,
    and Report.engine is "yours"; otherwise on micrograd, and the note says why.
    """
    if isinstance(exercise, str):
        exercise = load(exercise)
    if engine is not None and not not_on_engine(exercise, engine):
        with installed(engine):
            if run(exercise, exercise.solution).passed:
                report = run(exercise, code)
                report.engine = "yours"
                return report
        report = run(exercise, code)
        report.note = " ".join(filter(None, [report.note, "Graded on micrograd, not on your engine: this "
                                             "exercise's own solution does not pass on your engine."]))
        return report
    output = io.StringIO()
    note = _blanks_note(code)
    try:
        compiled = compile(code, READER_FILE, "exec")
    except SyntaxError as error:
        where = f"line {error.lineno} of your code" if error.lineno else "your code"
        text = (error.text or "").strip()
        return Report([Result("your code runs", False,
                              clip(f"{type(error).__name__} on {where}: {error.msg}"
                                   + (f"\n    {text}" if text else ""), "message"))], note=note, tests_ran=False,
                      code_ran=False)
    namespace = {"__name__": "exercise"}
    with contextlib.redirect_stdout(output), no_input():
        try:
            exec(compiled, namespace)
        except (Exception, SystemExit) as error:  # the reader's code may raise anything
            return Report([Result("your code runs", False, _reader_error(error))],
                          clip(output.getvalue()), note, tests_ran=False)
        results = []
        for test in _tests(exercise):
            results.append(_run_test(test, ReaderNames(namespace)))
            release_deep_graphs()
    return Report(results, clip(output.getvalue()), note)


def run_dict(name, code, engine=None):
    """run(name, code, engine) as the page reads it (scripts/reader/calls.py: run_exercise): {"results":
    [{name, passed, message}], "output", "note", "tests_ran", "code_ran", "summary", "engine"}."""
    report = run(name, code, engine)
    return {"results": [dataclasses.asdict(r) for r in report.results], "output": report.output,
            "note": report.note, "tests_ran": report.tests_ran, "code_ran": report.code_ran,
            "summary": report.summary, "engine": report.engine}


def _tests(exercise):
    """The exercise's test functions, in file order (fresh objects for each run)."""
    padded = "\n" * (exercise.tests_line - 1) + exercise.tests  # tracebacks give file lines
    namespace = {"__name__": f"exercises.{exercise.name}"}
    exec(compile(padded, exercise.path, "exec"), namespace)
    tests = [f for key, f in namespace.items() if key.startswith("test_") and callable(f)]
    if not tests:
        raise ExerciseFormatError(f"{exercise.path}: the tests section defines no test_ function")
    return tests


def _run_test(test, user):
    name = clip((test.__doc__ or test.__name__).strip().splitlines()[0], "name")
    try:
        test(user)
    except Fail as failure:  # its message holds the reader's values: clipped too
        return Result(name, False, clip(text_of(failure), "message"))
    except RecursionError as error:
        return Result(name, False, _reader_error(error) if _reader_line(error) else describe(error))
    except (Exception, SystemExit) as error:  # reported, never raised, so every test runs
        if _reader_line(error):
            return Result(name, False, _reader_error(error))
        text = f"could not check this: {describe(error)}"
        if "NoneType" in text:
            text += " (a method of yours returned None: does each one `return` its result?)"
        return Result(name, False, text)
    return Result(name, True)


def _reader_line(error):
    """The line of the reader's code where `error` was raised (innermost), or None."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == READER_FILE:
            line = frame.lineno
    return line


def _reader_error(error):
    if isinstance(error, RecursionError):  # which line is deepest, and the wording, vary by Python version
        return ("RecursionError in your code: the calls nested deeper than Python allows (about 1,000); "
                "a long chain of operations needs a loop with your own stack, not recursion")
    line = _reader_line(error)
    where = f" on line {line} of your code" if line else ""
    text = describe(error, where)
    if "ellipsis" in text.lower():
        text += " (a blank, ..., is still in your code)"
    elif isinstance(error, NameError):
        text += " (a typo, or a name used before it is defined?)"
    return text


def _blanks_note(code):
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ""
    lines = sorted({node.lineno for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and node.value is Ellipsis})
    if not lines:
        return ""
    where = ", ".join(str(n) for n in lines)
    return f"Your code still has blanks (...) to fill in, on line{'s' if len(lines) > 1 else ''} {where}."

"""Exercises: one readable file each, and the runner that grades a reader's code.

An exercise lives in docs/exercises/<name>.py and a page includes it with the
comment `<!-- exercise: <name> -->` (scripts/hooks/python_runtime.py). The
file opens with a docstring, whose first line is the title and the rest the
instructions (Markdown), followed by sections, each opened by a marker line:

    # ---- starter ----              code the reader starts from; `...` marks a blank
    # ---- solution ----             a correct answer, shown in a fold on the page
    # ---- tests ----                functions test_<what>(user), run in file order
    # ---- hints ----                "# - " starts a hint (Markdown); "#   " continues it
    # ---- mistake: <name> ----      a classic mistake, written as an edit of the solution:
    # message: <text that one failing test's message must contain>
    # replace: <line(s) of the solution>
    # with: <line(s) that replace them; nothing deletes them>

A test receives `user`, the names the reader's code defined (user.Value,
user.backward...), and raises Fail (usually through `expect`) with a message
a learner can act on: which value, what it was, what it should be, and the
likely cause. Expected values come from the real micrograd, imported in the
same interpreter.

Stdlib only: this module runs under pytest (CPython) and in the reader's
browser (Pyodide), where the site's Python zip holds it next to micrograd/
and docs/exercises/, at the same relative paths as in the repository.
"""

import ast
import contextlib
import dataclasses
import io
import json
import math
import re
import traceback
from pathlib import Path

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "docs" / "exercises"
READER_FILE = "<your code>"  # the file name the reader's code is compiled under
MAX_OUTPUT = 10_000          # characters of print() output kept per run

_MARKER = re.compile(r"^# ---- (starter|solution|tests|hints|mistake)(?:: (.+?))? ----\s*$")
_KEY = re.compile(r"^(message|replace|with):(?: (.*))?$")


class ExerciseFormatError(ValueError):
    """An exercise file that does not follow the format above (names file and line)."""


class Fail(Exception):
    """Raised by a test: the message is shown to the reader as is."""


@dataclasses.dataclass
class Mistake:
    """A classic mistake: edits of the solution, and what its message must contain."""

    name: str
    message: str
    edits: list  # [(old lines, new lines)], each a str of one or more lines
    line: int    # line of the marker in the exercise file

    def apply(self, solution):
        """The solution with the edits applied, as a str.

        Each `old` block must match exactly one run of consecutive solution
        lines (compared without their indentation); the `new` lines take the
        matched lines' indentation. Raises ExerciseFormatError otherwise.
        """
        lines = solution.splitlines()
        for old, new in self.edits:
            old_lines = _trim_blank(old.splitlines())
            new_lines = _trim_blank(new.splitlines())
            if not old_lines:
                raise ExerciseFormatError(f"mistake {self.name!r} (line {self.line}): `replace:` is empty")
            wanted = [line.strip() for line in old_lines]
            starts = [i for i in range(len(lines) - len(wanted) + 1)
                      if [line.strip() for line in lines[i : i + len(wanted)]] == wanted]
            if len(starts) != 1:
                raise ExerciseFormatError(
                    f"mistake {self.name!r} (line {self.line}): the lines to replace occur "
                    f"{len(starts)} times in the solution, not once: {old_lines[0].strip()!r}")
            start = starts[0]
            shift = _indent(lines[start]) - _indent(old_lines[0])
            moved = [" " * max(0, _indent(line) + shift) + line.strip() if line.strip() else ""
                     for line in new_lines]
            lines[start : start + len(old_lines)] = moved
        return "\n".join(lines) + "\n"


@dataclasses.dataclass
class Exercise:
    """One exercise file, parsed. All code fields are str; hints a list[str] of Markdown."""

    name: str
    title: str
    instructions: str
    starter: str
    solution: str
    tests: str
    tests_line: int  # line of the first tests line in the file, for tracebacks
    hints: list
    mistakes: list
    path: str


@dataclasses.dataclass
class Result:
    """One test's outcome: its name (the test's docstring), passed, and the message."""

    name: str
    passed: bool
    message: str = ""


@dataclasses.dataclass
class Report:
    """Everything one Run shows: the results, the reader's print() output, and a note."""

    results: list
    output: str = ""
    note: str = ""  # e.g. blanks still to fill in

    @property
    def passed(self):
        return bool(self.results) and all(r.passed for r in self.results)


def names():
    """The name of every exercise in docs/exercises/, sorted, as a list[str]."""
    return sorted(p.stem for p in EXERCISES_DIR.glob("*.py") if not p.name.startswith("_"))


def load(name):
    """The Exercise docs/exercises/<name>.py. FileNotFoundError names the known exercises."""
    path = EXERCISES_DIR / f"{name}.py"
    if not re.fullmatch(r"[a-z0-9_]+", name) or not path.is_file():
        raise FileNotFoundError(f"no exercise {name!r}; the exercises are: {', '.join(names())}")
    return parse(path.read_text(encoding="utf-8"), name, f"docs/exercises/{name}.py")


def parse(text, name, path="<exercise>"):
    """Parse an exercise file's text into an Exercise; ExerciseFormatError names path and line."""
    lines = text.splitlines()
    marks = [(i, m) for i, m in ((i, _MARKER.match(line)) for i, line in enumerate(lines)) if m]
    if not marks:
        raise ExerciseFormatError(f"{path}:1: no `# ---- starter ----` section")
    try:
        docstring = ast.get_docstring(ast.parse("\n".join(lines[: marks[0][0]])))
    except SyntaxError as error:
        raise ExerciseFormatError(f"{path}:{error.lineno}: {error.msg}") from None
    if not docstring:
        raise ExerciseFormatError(f"{path}:1: the file must open with a docstring: title, then instructions")
    title, _, instructions = docstring.partition("\n")
    sections, mistakes, hints = {}, [], []
    tests_line = 0
    for n, (start, mark) in enumerate(marks):
        end = marks[n + 1][0] if n + 1 < len(marks) else len(lines)
        kind, arg = mark.group(1), mark.group(2)
        body = lines[start + 1 : end]
        where = f"{path}:{start + 1}"
        if kind == "mistake":
            if not arg:
                raise ExerciseFormatError(f"{where}: a mistake needs a name: # ---- mistake: <name> ----")
            mistakes.append(_parse_mistake(arg, body, start + 1, where))
            continue
        if arg or kind in sections:
            raise ExerciseFormatError(f"{where}: unexpected {mark.group(0).strip()!r}")
        if kind == "hints":
            hints = _parse_hints(body, where)
            sections[kind] = ""
            continue
        sections[kind] = "\n".join(_trim_blank(body)) + "\n"
        if kind == "tests":
            tests_line = start + 2 + next((i for i, line in enumerate(body) if line.strip()), 0)
    for required in ("starter", "solution", "tests"):
        if required not in sections:
            raise ExerciseFormatError(f"{path}: no `# ---- {required} ----` section")
    for kind in ("starter", "solution", "tests"):
        try:
            ast.parse(sections[kind])
        except SyntaxError as error:
            raise ExerciseFormatError(f"{path}: the {kind} is not valid Python: {error}") from None
    exercise = Exercise(name, title.strip(), instructions.strip(), sections["starter"],
                        sections["solution"], sections["tests"], tests_line, hints, mistakes, path)
    for mistake in mistakes:
        mistake.apply(exercise.solution)  # raises early if an edit does not match
    return exercise


def _parse_mistake(name, body, line, where):
    message, edits, key, old = None, [], None, []
    for raw in body:
        if not raw.strip():
            continue
        if not raw.startswith("#"):
            raise ExerciseFormatError(f"{where}: a mistake section holds only comment lines")
        text = raw[2:] if raw.startswith("# ") else raw[1:]
        match = _KEY.match(text)
        if match:
            key, value = match.group(1), match.group(2)
            if key == "message":
                message = value
            elif key == "replace":
                old = [value] if value else []
                edits.append((old, []))
            else:
                if not edits or edits[-1][1]:
                    raise ExerciseFormatError(f"{where}: `with:` must follow a `replace:`")
                edits[-1] = (edits[-1][0], [value] if value else [])
        elif key in ("replace", "with"):
            edits[-1][0 if key == "replace" else 1].append(text)
        else:
            raise ExerciseFormatError(f"{where}: expected `message:`, `replace:` or `with:`, not {text!r}")
    if not message:
        raise ExerciseFormatError(f"{where}: mistake {name!r} has no `# message:`")
    if not edits:
        raise ExerciseFormatError(f"{where}: mistake {name!r} has no `# replace:`")
    return Mistake(name.strip(), message.strip(), [("\n".join(o), "\n".join(w)) for o, w in edits], line)


def _parse_hints(body, where):
    hints = []
    for raw in body:
        if not raw.strip():
            continue
        if raw.startswith("# - "):
            hints.append(raw[4:].strip())
        elif raw.startswith("#   ") and hints:
            hints[-1] += " " + raw[4:].strip()
        else:
            raise ExerciseFormatError(f"{where}: a hint line starts with '# - ' (or '#   ' to continue)")
    return hints


def _trim_blank(lines):
    lines = list(lines)
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _indent(line):
    return len(line) - len(line.lstrip(" "))


# --- Running a reader's code -------------------------------------------------


class ReaderNames:
    """Attribute access to the names the reader's code defined; Fail names a missing one."""

    def __init__(self, namespace):
        self._namespace = namespace

    def __getattr__(self, name):
        try:
            return self._namespace[name]
        except KeyError:
            raise Fail(f"your code defines no `{name}`: keep the name from the starter code") from None


def run(exercise, code):
    """Run the reader's `code` (str) for `exercise` (an Exercise or its name); return a Report.

    The code runs in a fresh namespace, then every test_* function of the
    exercise's tests, in file order, each given the reader's names. Never
    raises for anything the reader's code does: a syntax error, an exception
    or a missing name becomes a failed Result with a message.
    """
    if isinstance(exercise, str):
        exercise = load(exercise)
    output = io.StringIO()
    note = _blanks_note(code)
    try:
        compiled = compile(code, READER_FILE, "exec")
    except SyntaxError as error:
        where = f"line {error.lineno} of your code" if error.lineno else "your code"
        text = (error.text or "").strip()
        return Report([Result("your code runs", False,
                              f"{type(error).__name__} on {where}: {error.msg}"
                              + (f"\n    {text}" if text else ""))], note=note)
    namespace = {"__name__": "exercise"}
    with contextlib.redirect_stdout(output):
        try:
            exec(compiled, namespace)
        except (Exception, SystemExit) as error:  # the reader's code may raise anything
            return Report([Result("your code runs", False, _reader_error(error))],
                          _clip(output.getvalue()), note)
        results = []
        for test in _tests(exercise):
            results.append(_run_test(test, ReaderNames(namespace)))
            _release_deep_graphs()
    return Report(results, _clip(output.getvalue()), note)


def run_json(name, code):
    """run(name, code) as a JSON str, for the browser worker: {results, output, note}."""
    report = run(name, code)
    return json.dumps({"results": [dataclasses.asdict(r) for r in report.results],
                       "output": report.output, "note": report.note})


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
    name = (test.__doc__ or test.__name__).strip().splitlines()[0]
    try:
        test(user)
    except Fail as failure:
        return Result(name, False, str(failure))
    except RecursionError as error:
        return Result(name, False, _reader_error(error) if _reader_line(error) else
                      f"RecursionError: {error}")
    except (Exception, SystemExit) as error:  # reported, never raised, so every test runs
        if _reader_line(error):
            return Result(name, False, _reader_error(error))
        text = f"could not check this: {type(error).__name__}: {error}"
        if "NoneType" in str(error):
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
    text = f"{type(error).__name__}{where}: {error}"
    if "ellipsis" in str(error).lower():
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


def _clip(text):
    return text if len(text) <= MAX_OUTPUT else text[:MAX_OUTPUT] + "\n... (output cut)"


# --- Helpers for the tests sections -------------------------------------------


def fmt(x):
    """A short, readable form of a value for messages: 0.786448, (1.0, 1.0), Value(data=2.0)."""
    if isinstance(x, float):
        text = repr(x)
        return text if len(text) <= 10 else f"{x:.6g}"
    if isinstance(x, tuple):
        inner = ", ".join(fmt(v) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(fmt(v) for v in x) + "]"
    if x is Ellipsis:
        return "... (a blank)"
    if hasattr(x, "data") and hasattr(x, "grad"):
        return f"a Value with data {fmt(x.data)}"
    return repr(x)


def same(actual, expected, tol=1e-9):
    """True if two numbers, or tuples/lists of numbers, agree within a relative `tol`."""
    if isinstance(expected, (tuple, list)):
        return (isinstance(actual, (tuple, list)) and len(actual) == len(expected)
                and all(same(a, e, tol) for a, e in zip(actual, expected)))
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        if isinstance(actual, bool) or not isinstance(actual, (int, float)):
            return False
        return math.isclose(actual, expected, rel_tol=tol, abs_tol=1e-12)
    return actual == expected


def _has_blank(x):
    return x is Ellipsis or (isinstance(x, (tuple, list)) and any(_has_blank(v) for v in x))


def expect(what, actual, expected, likely=(), cause=""):
    """Fail unless `actual` equals `expected` (numbers within 1e-9, relative).

    what: how the reader names the value ("a.grad"); likely: (wrong value,
    cause) pairs: the first whose value equals `actual` gives the message's
    cause; cause: the cause to give when none of them matches. Message:
    "a.grad is 3.0, expected 6.0: a value used twice needs +=, not =".
    """
    if same(actual, expected):
        return
    message = f"{what} is {fmt(actual)}, expected {fmt(expected)}"
    if _has_blank(actual):
        raise Fail(message + ": fill in the blank (...)")
    for wrong, why in likely:
        if same(actual, wrong):
            raise Fail(f"{message}: {why}")
    raise Fail(f"{message}: {cause}" if cause else message)


def expect_value(what, x, cls):
    """Return x if it is an instance of the reader's class `cls`, else Fail saying what it is."""
    if isinstance(x, cls):
        return x
    if x is None:
        raise Fail(f"{what} is None, expected a new {cls.__name__}: does the method `return` it?")
    raise Fail(f"{what} is {fmt(x)} ({type(x).__name__}), expected a {cls.__name__}")


def topological(order):
    """True if every node in `order` (a list of Values) comes after each of its parents in it."""
    position = {id(node): i for i, node in enumerate(order)}
    return all(id(p) in position and position[id(p)] < position[id(n)] for n in order for p in n._prev)


def grads_by_rule(root, nodes, accumulate=True, order="reverse topological", seed=1.0):
    """The grads of `nodes` that a backward pass over `root`'s graph would give, as a list[float].

    Runs on a graph of micrograd Values (any objects with .grad, ._prev,
    ._local), starting from zero grads, and is how a test computes the wrong
    number a classic mistake produces, from the real engine's graph:
    accumulate=False assigns (=) instead of adding (+=); order "topological"
    forgets to reverse the order, "depth first" walks from the root without
    sorting (each node passes its gradient on as soon as it is reached).
    Leaves every grad as the rule left it.
    """
    from micrograd.engine import topological_order

    everything = topological_order(root)
    for node in everything:
        node.grad = 0.0
    root.grad = seed
    if order == "reverse topological":
        visits = list(reversed(everything))
    elif order == "topological":
        visits = everything
    elif order == "depth first":
        visits, seen, stack = [], {id(root)}, [root]
        while stack:
            node = stack.pop()
            visits.append(node)
            for parent in node._prev:
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append(parent)
    else:
        raise ValueError(f"unknown order {order!r}")
    for node in visits:
        for parent, local in zip(node._prev, node._local):
            parent.grad = parent.grad + local * node.grad if accumulate else local * node.grad
    return [node.grad for node in nodes]


def zero_grads(root):
    """Set the .grad of every node of root's graph (micrograd Values) to 0.0; returns None."""
    from micrograd.engine import topological_order

    for node in topological_order(root):
        node.grad = 0.0


def diamond(cls):
    """a = 2, b = a + 1, c = 3 * a, d = b * c, built with `cls`; returns (a, b, c, d)."""
    a = cls(2.0)
    b = a + 1
    c = a * 3
    d = b * c
    return a, b, c, d


def kite(cls):
    """x = 3, e = x * 2, f = e + x, g = f * e: depth-first from g reaches e too early.

    Returns (x, e, f, g). A walk that passes e's gradient on before f has
    sent its share loses a contribution, unlike on the diamond.
    """
    x = cls(3.0)
    e = x * 2
    f = e + x
    g = f * e
    return x, e, f, g


def neuron(cls):
    """o = tanh(x1*w1 + x2*w2 + b), chapter 3's neuron; returns ([x1, w1, x2, w2, b], o)."""
    x1, w1 = cls(2.0), cls(-3.0)
    x2, w2 = cls(0.0), cls(1.0)
    b = cls(6.8813735870195432)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    return [x1, w1, x2, w2, b], o


def chain(cls, n):
    """x0 = 0 followed by n additions of 1: a graph n operations deep; returns (x0, x_n).

    The runner takes the chain apart after the test (see _release_deep_graphs).
    """
    x0 = cls(0.0)
    x = x0
    for _ in range(n):
        x = x + 1
    _deep_graphs.append(x)
    return x0, x


# Deep graphs built by chain(), kept alive until the test is over. Freeing a
# chain node by node is a recursion in C (each node frees its _prev tuple,
# which frees the parent...). CPython's guard against it counts the C stack,
# but in Pyodide WebAssembly frames also fill the browser's own, smaller
# stack: in Chromium's worker, freeing a 2,000-node micrograd chain at once is
# a fatal "Maximum call stack size exceeded" (1,000 is fine). Unlinking each
# node's parents first, in a loop, keeps every free shallow.
_deep_graphs = []


def _release_deep_graphs():
    while _deep_graphs:
        root = _deep_graphs.pop()
        stack = [root]
        while stack:
            node = stack.pop()
            parents = getattr(node, "_prev", ())
            try:
                node._prev = ()
            except AttributeError:  # the reader's class may not allow it; nothing more to do
                continue
            stack.extend(p for p in parents if getattr(p, "_prev", ()))

"""The exercise file format: one readable file per exercise, parsed into an Exercise.

An exercise lives in docs/exercises/<name>.py and a page includes it with the
comment `<!-- exercise: <name> -->` (scripts/build/hooks/python_runtime.py). The
file opens with a docstring, whose first line is the title and the rest the
instructions (Markdown), followed by sections, each opened by a marker line:

    # ---- kind: <kind> ----         what the reader does: derive, build, debug or predict
    # ---- starter ----              code the reader starts from; `...` marks a blank
    # ---- solution ----             a correct answer, offered on the page after two tries
    # ---- tests ----                functions test_<what>(user), run in file order
    # ---- hints ----                "# - " starts a hint (Markdown); "#   " continues it; three or
                                     more: a question, the approach, then the code (the first two
                                     hold none: tests/exercises/test_exercise_rules.py)
    # ---- mistake: <name> ----      a classic mistake, written as an edit of the solution:
    # message: <text that one failing test's message must contain>
    # replace: <line(s) of the solution>
    # with: <line(s) that replace them; nothing deletes them>

The tests section uses scripts/reader/exercise_checks.py; scripts/reader/exercise_runner.py
runs a reader's code against it. Stdlib only: this module runs under pytest
(CPython) and in the reader's browser (Pyodide), where the site's Python zip
holds it next to micrograd/ and docs/exercises/, at their repository paths.
"""

import ast
import dataclasses
import re
from pathlib import Path

EXERCISES_DIR = Path(__file__).resolve().parents[2] / "docs" / "exercises"

# `# --8<-- [start:engine]` ... `# --8<-- [end:engine]`: a part a page includes with
# pymdownx.snippets (chapter 4 shows the whole_engine solution so); not part of the code.
_SNIPPET_MARK = re.compile(r"^\s*# --8<-- \[(start|end):[\w-]+\]\s*$")
_MARKER = re.compile(r"^# ---- (kind|starter|solution|tests|hints|mistake)(?:: (.+?))? ----\s*$")
# derive: a local derivative the book has not shown; build: a piece of an engine or its tools;
# debug: code with one planted bug to find and fix; predict: what a program prints, as a value.
KINDS = ("derive", "build", "debug", "predict")
_KEY = re.compile(r"^(message|replace|with):(?: (.*))?$")


class ExerciseFormatError(ValueError):
    """An exercise file that does not follow the format above (names file and line)."""


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
    kind: str = ""  # one of KINDS; "" for an exercise that names none


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
        if kind == "kind":
            if arg not in KINDS or "kind" in sections or any(line.strip() for line in body):
                raise ExerciseFormatError(f"{where}: write `# ---- kind: <kind> ----` once, on a line of its "
                                          f"own, with one of {', '.join(KINDS)}")
            sections[kind] = arg
            continue
        if arg or kind in sections:
            raise ExerciseFormatError(f"{where}: unexpected {mark.group(0).strip()!r}")
        if kind == "hints":
            hints = _parse_hints(body, where)
            sections[kind] = ""
            continue
        if kind != "tests":  # a page may include the solution by pymdownx.snippets' section markers
            body = [line for line in body if not _SNIPPET_MARK.match(line)]
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
                        sections["solution"], sections["tests"], tests_line, hints, mistakes, path,
                        sections.get("kind", ""))
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

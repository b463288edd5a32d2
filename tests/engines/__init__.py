"""Engines written for the tests (issue 28, item 5): `book.py`, this book's solution of the
whole-engine exercise, and `lecture.py`, micrograd 0.1.0's and the lecture's closure shape, as
files a reader would save. Each classic bug is the book's engine with one change, and only
that change is written here: three are the whole-engine exercise's own mistakes
(docs/exercises/whole_engine.py, `# ---- mistake: ... ----`), applied as the exercise applies
them; the upstream factor left out, which the exercise does not list, is one edit below.

    source(name) -> str          the engine's code
    write(name, directory) -> Path   source(name) saved as directory/<name>.py (for `--engine`)
"""

from pathlib import Path

from scripts.reader.exercise_format import load

HERE = Path(__file__).parent
FILES = ("book", "lecture")
# name: the whole-engine exercise's mistake that is this bug
FROM_THE_EXERCISE = {"assign": "= instead of +=", "reversed_order": "no reverse order",
                     "tanh_from_input": "tanh's derivative from the input"}
# name: (the book's line, the bug's line), for a bug the exercise does not list
EDITS = {"no_upstream": ("parent.grad += local * node.grad", "parent.grad += local")}
BUGS = (*FROM_THE_EXERCISE, *EDITS)


def source(name):
    """The code of the engine `name` (FILES or BUGS). Raises KeyError for another name, and
    ValueError if a bug's change no longer matches exactly one place of the book's engine."""
    if name in FILES:
        return (HERE / f"{name}.py").read_text(encoding="utf-8")
    book = source("book")
    if name in FROM_THE_EXERCISE:
        mistake = {m.name: m for m in load("whole_engine").mistakes}[FROM_THE_EXERCISE[name]]
        return f"# tests/engines/book.py with the whole-engine exercise's mistake {mistake.name!r}\n" + \
            mistake.apply(book)
    old, new = EDITS[name]
    if book.count(old) != 1:
        raise ValueError(f"{name}: {old!r} occurs {book.count(old)} times in book.py, not once")
    return f"# tests/engines/book.py with {old!r} as {new!r}\n" + book.replace(old, new)


def write(name, directory):
    """source(name) saved as directory/<name>.py; returns its path."""
    path = Path(directory) / f"{name}.py"
    path.write_text(source(name), encoding="utf-8")
    return path

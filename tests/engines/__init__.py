"""Engines written for the tests (issue 28, item 5; issue 44): `book.py`, this book's solution of
the whole-engine exercise, `lecture.py`, micrograd 0.1.0's and the lecture's closure shape, as
files a reader would save, and `micrograd_0_1_0.py`, karpathy/micrograd's own
`micrograd/engine.py` at 0.1.0 (MIT; copied unchanged from github.com/karpathy/micrograd, 94
lines: no label, no tanh, no exp), a correct engine for what it has. Each classic bug is one of
these engines with one change, and only that change is written here: three are the
whole-engine exercise's own mistakes (docs/exercises/whole_engine.py, `# ---- mistake: ... ----`),
applied as the exercise applies them; the others are one edit below, each in one operation or
one operand (issue 44: a mistake in one place must be named there), in both shapes.

    source(name) -> str          the engine's code
    write(name, directory) -> Path   source(name) saved as directory/<name>.py (for `--engine`)
"""

from pathlib import Path

from scripts.reader.exercise_format import load

HERE = Path(__file__).parent
FILES = ("book", "lecture", "micrograd_0_1_0")
# name: the whole-engine exercise's mistake that is this bug
FROM_THE_EXERCISE = {"assign": "= instead of +=", "reversed_order": "no reverse order",
                     "tanh_from_input": "tanh's derivative from the input"}
# name: (the engine it changes, its line, the bug's line), for a bug the exercise does not list.
# The book's shape has one backward loop for every operation, so a bug in one operation is a
# condition on node._op there; the lecture's has one closure per operation.
_BOOK_LOOP = "parent.grad += local * node.grad"
EDITS = {
    "no_upstream": ("book", _BOOK_LOOP, "parent.grad += local"),
    "assign_add": ("book", _BOOK_LOOP, "parent.grad = local * node.grad if node._op == '+' else "
                   "parent.grad + local * node.grad"),
    "assign_mul": ("book", _BOOK_LOOP, "parent.grad = local * node.grad if node._op == '*' else "
                   "parent.grad + local * node.grad"),
    "assign_mul_right": ("book", _BOOK_LOOP, "parent.grad = local * node.grad if node._op == '*' and parent is "
                         "node._prev[1] else parent.grad + local * node.grad"),
    "no_upstream_tanh": ("book", _BOOK_LOOP, "parent.grad += local if node._op == 'tanh' else local * node.grad"),
    "pow_exponent": ("book", "(n * self.data ** (n - 1),)", "(n * self.data ** n,)"),
    "lecture_assign_add": ("lecture", "            self.grad += out.grad\n            other.grad += out.grad",
                           "            self.grad = out.grad\n            other.grad = out.grad"),
    "lecture_assign_mul": ("lecture", "            self.grad += other.data * out.grad\n"
                           "            other.grad += self.data * out.grad",
                           "            self.grad = other.data * out.grad\n"
                           "            other.grad = self.data * out.grad"),
    "lecture_assign_mul_right": ("lecture", "other.grad += self.data * out.grad", "other.grad = self.data * out.grad"),
    "lecture_no_upstream_tanh": ("lecture", "self.grad += (1 - t**2) * out.grad", "self.grad += (1 - t**2)"),
    "lecture_pow_exponent": ("lecture", "(other * self.data**(other-1))", "(other * self.data**other)"),
    "lecture_reversed_order": ("lecture", "for v in reversed(topo):", "for v in topo:"),
}
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
    start, old, new = EDITS[name]
    text = source(start)
    if text.count(old) != 1:
        raise ValueError(f"{name}: {old!r} occurs {text.count(old)} times in {start}.py, not once")
    return f"# tests/engines/{start}.py with {old!r} as {new!r}\n" + text.replace(old, new)


def base(name):
    """The engine a bug changes: "book" or "lecture" (the name itself for FILES)."""
    return name if name in FILES else EDITS[name][0] if name in EDITS else "book"


def write(name, directory):
    """source(name) saved as directory/<name>.py; returns its path."""
    path = Path(directory) / f"{name}.py"
    path.write_text(source(name), encoding="utf-8")
    return path

"""The rules every exercise in docs/exercises/ is held to (issue 47), whoever wrote it.

Each file names its kind; its hints teach before they tell (a question that points at the
idea, then the approach in words or math, then the code: the first two hold no code); it has
at least two classic mistakes, each of which fails with its message, and every failure
names what the code computed and what was expected, with the numbers; its starter fails and
its solution passes (tests/exercises/test_exercises.py runs those two). The counts per chapter
and per kind are scripts/tools/exercise_census.py's; the issue's minimums are one test, a
strict xfail while a chapter is short of them, so it turns red the moment none is."""

import re

import pytest

from scripts.reader import exercise_format, exercise_runner
from scripts.tools import exercise_census

NAMES = exercise_format.names()
MISTAKES = [(name, m.name) for name in NAMES for m in exercise_format.load(name).mistakes]

# Code in a hint's Markdown: a code span or a fenced or indented block...
_CODE_MARKUP = re.compile(r"`|^\s*(```|~~~)|^ {4,}\S", re.MULTILINE)
# ...or Python written as prose: operators prose and math do not use, an attribute or method
# (node.grad, model.parameters), a call of a snake_case name, a statement's keyword.
_PYTHON = re.compile(r"\*\*|\+=|-=|\*=|/=|==|!=|->|\b[A-Za-z_]\w+\.[A-Za-z_]\w*|\b[a-z]+_\w*\s*\("
                     r"|\b(def|return|lambda|import|elif|None|True|False)\b|\bfor \w+ in\b|\[\s*\]|\w\[\w")
# Math is not code: $...$ and $$...$$ are read as math (KaTeX on the page).
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
_CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
# Code left bare in any hint: operators and names Markdown mangles or prose never writes (a
# keyword such as "return" is an English word there too).
_BARE = re.compile(r"\*\*|\+=|-=|\*=|/=|==|!=|\b[A-Za-z_]\w+\.[A-Za-z_]\w*|\b[a-z]+_\w*\s*\(|\w\[\w")


def code_in(text):
    """The code a hint's Markdown holds outside its math, as a list[str] (empty: none)."""
    prose = _MATH.sub(" ", text)
    return [m.group(0) for m in _CODE_MARKUP.finditer(prose)] + [m.group(0) for m in _PYTHON.finditer(prose)]


def test_code_in_finds_code_and_lets_prose_and_math_be():
    for code in ["write `1.0 - t * t`", "x**n is n * x**(n - 1)", "parent.grad grows", "call zero_grad(ps)",
                 "return the loss", "use +=", "order[0]", "    t = 1"]:
        assert code_in(code), code
    assert not _BARE.search(_CODE_SPAN.sub(" ", "write `x**n` and `node.grad`, and return it"))
    assert _BARE.search("x**n is n * x**(n - 1)") and _BARE.search("then node.grad grows")
    for prose in ["What does a nudge of $x$ by $h$ do to $x^n$?", "The slope is $n x^{n-1}$, e.g. 12 at 2.",
                  "Add each edge's share, do not overwrite it.", "$$\\frac{d}{dx}\\tanh x = 1 - t^2$$"]:
        assert not code_in(prose), prose


@pytest.mark.parametrize("name", NAMES)
def test_the_exercise_names_its_kind(name):
    assert exercise_format.load(name).kind in exercise_format.KINDS, \
        f"docs/exercises/{name}.py: add `# ---- kind: <kind> ----`, one of {', '.join(exercise_format.KINDS)}"


@pytest.mark.parametrize("name", NAMES)
def test_the_hints_teach_before_they_tell(name):
    hints = exercise_format.load(name).hints
    where = f"docs/exercises/{name}.py"
    assert len(hints) >= 3, f"{where}: {len(hints)} hints, expected 3 or more: a question, the approach, the code"
    assert "?" in hints[0], f"{where}: the first hint asks a question that points at the idea: {hints[0]!r}"
    for n, hint in enumerate(hints[:2], 1):
        assert not code_in(hint), f"{where}: hint {n} holds code {code_in(hint)}; the first two hold none: {hint!r}"
    assert any(code_in(hint) for hint in hints[2:]), f"{where}: no hint after the second gives the code"


@pytest.mark.parametrize("name", NAMES)
def test_code_in_a_hint_is_in_a_code_span(name):
    """Issue 46: a hint rendered `x**n is n * x**(n - 1)` with its middle in bold and no
    exponents. Python outside a code span or math is read as Markdown; so none is left there."""
    for n, hint in enumerate(exercise_format.load(name).hints, 1):
        bare = _CODE_SPAN.sub(" ", _MATH.sub(" ", hint))
        assert not _BARE.search(bare), f"docs/exercises/{name}.py: hint {n} has code outside `...`: {hint!r}"


@pytest.mark.parametrize("name", NAMES)
def test_the_exercise_has_two_named_mistakes_or_more(name):
    mistakes = [m.name for m in exercise_format.load(name).mistakes]
    assert len(mistakes) >= 2 and len(set(mistakes)) == len(mistakes), mistakes


@pytest.mark.parametrize("name, mistake", MISTAKES, ids=[f"{n}: {m}" for n, m in MISTAKES])
def test_every_failure_of_a_mistake_names_what_was_computed_and_expected(name, mistake):
    """Each failed test of a classic mistake says the value the code computed and the value
    expected, with numbers: "a.grad ... is 3.0, expected 6.0: ..."."""
    exercise = exercise_format.load(name)
    (wrong,) = [m for m in exercise.mistakes if m.name == mistake]
    failed = [r.message for r in exercise_runner.run(exercise, wrong.apply(exercise.solution)).results if not r.passed]
    assert failed
    for message in failed:
        assert re.search(r"\bexpected\b", message) and re.search(r"\d", message), message


def test_the_census_counts_every_exercise_once_by_chapter_and_kind():
    """scripts/tools/exercise_census.py: its rows add up to the exercise files, and the table
    it prints names every chapter page (run it to read the numbers)."""
    counts = exercise_census.census()
    assert counts["total"] == len(NAMES) == sum(counts["kinds"].values())
    assert sum(sum(row.values()) for row in counts["chapters"].values()) == len(NAMES)
    text = exercise_census.table(counts)
    for page in exercise_census.chapters():
        assert page.stem in text
    print(text)  # pytest -s shows it


def test_the_issues_minimums_per_chapter_in_all_and_per_kind():
    """Issue 47: three exercises or more in every chapter page (a new chapter too), thirty in all,
    five of each kind. `python -m scripts.tools.exercise_census` prints the counts."""
    assert exercise_census.shortfalls(exercise_census.census()) == []

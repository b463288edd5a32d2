"""A chapter notebook's exercises: the IPython extension its exercise cells use.

The engine's wheel (scripts/notebooks/wheel.py) ships this file as the package
backprop_verified_exercises, with the site's grader beside it at its repository
paths (scripts/reader/exercise_runner.py and what it imports, docs/exercises/), the same
code that grades an exercise on the page. A notebook loads it with

    %load_ext backprop_verified_exercises

and then has two magics (scripts/notebooks/chapter_notebook.py writes the cells):

    %%exercise NAME        on a cell's first line: keeps the cell's code as the reader's
                           answer to docs/exercises/NAME.py (it does not run it in the
                           notebook's namespace, where it would replace the chapter's Value)
    %check_exercise NAME   runs the exercise's tests on the kept code, as the page's Run
                           does, and prints what the page shows: how many tests passed,
                           each test's verdict and message, and what the code printed.
    %exercise_solution NAME [--now]
                           prints the solution once the reader has checked two tries (code
                           of their own, not the starter), as the page offers it; before
                           that, how many tries were checked, and that --now shows it at once.

A failing test, an error in the reader's code or code not yet kept is printed,
never raised, so the notebook runs top to bottom. Stdlib (and IPython) only.
"""

import sys
from pathlib import Path

_kept = {}  # exercise name -> the code of its %%exercise cell, as last run
_tries = {}  # exercise name -> checks of kept code other than its starter
# The page offers the solution after this many tries (docs/javascripts/widgets/exercise-help.js,
# TRIES_BEFORE_SOLUTION): the notebook holds it back the same way.
TRIES_BEFORE_SOLUTION = 2


def _grader():
    """scripts.reader.exercise_runner.run, from beside this file when installed from the wheel
    (backprop_verified_exercises/scripts/reader/), else from the repository (already importable)."""
    _beside()
    from scripts.reader.exercise_runner import run

    return run


def _exercise(name):
    """The parsed exercise `name` (scripts.reader.exercise_format.load), from the same place."""
    _beside()
    from scripts.reader.exercise_format import load

    return load(name)


def _beside():
    here = Path(__file__).resolve().parent
    if (here / "scripts" / "reader" / "exercise_runner.py").is_file() and str(here) not in sys.path:
        sys.path.insert(0, str(here))


def keep(name, code):
    """Keep `code` (str) as the answer to the exercise `name`; return the line that says so."""
    _kept[name] = code
    lines = len(code.strip("\n").splitlines())
    return (f"Kept your code for the exercise {name} ({lines} line{'s' if lines != 1 else ''}); "
            f"the cell with %check_exercise {name} runs its tests.")


def feedback(report):
    """What the page shows after a Run (docs/javascripts/widgets/exercise.js: show), as text: the
    summary ("All 6 tests passed." or "2 of 6 tests passed.", or "No test ran: ..." when the
    code ended in an error), the note on blanks left, one line per test ("passed  NAME" or
    "failed  NAME: MESSAGE") and what the code printed.
    report: a scripts.reader.exercise_runner.Report."""
    lines = [report.summary]
    if report.note:
        lines.append(report.note)
    for result in report.results:
        lines.append(f"  passed  {result.name}" if result.passed
                     else f"  failed  {result.name}: {result.message}")
    if report.output:
        lines += ["Your code printed:", report.output.rstrip("\n")]
    return "\n".join(lines)


def check(name):
    """The feedback (str) of the exercise `name`'s tests on the code kept for it, or a line
    that says no code is kept yet. Never raises for anything the reader's code does."""
    if name not in _kept:
        return (f"No code to check yet: run the cell that starts with %%exercise {name} first "
                "(it keeps your code), then this one.")
    if _kept[name].strip() != _exercise(name).starter.strip():
        _tries[name] = _tries.get(name, 0) + 1
    return feedback(_grader()(name, _kept[name]))


def solution(name, now=False):
    """The exercise `name`'s solution (str) with a line over it, once the reader has checked
    TRIES_BEFORE_SOLUTION tries or asks for it `now`; else a line that says how many tries were
    checked and how to see it at once. FileNotFoundError names the known exercises."""
    exercise, tries = _exercise(name), _tries.get(name, 0)
    if tries >= TRIES_BEFORE_SOLUTION or now:
        return (f"A solution to {name} (your own code stays in its %%exercise cell):\n\n"
                f"{exercise.solution.rstrip()}")
    said = "You have not checked code of your own yet" if tries == 0 else "You have checked your code once"
    return (f"{said}; the solution is shown after {TRIES_BEFORE_SOLUTION} tries. "
            f"To see it now: %exercise_solution {name} --now")


def load_ipython_extension(ipython):
    """Register %%exercise, %check_exercise and %exercise_solution (IPython calls this for
    %load_ext)."""

    def exercise(line, cell):
        print(keep(line.strip(), cell))

    def check_exercise(line):
        print(check(line.strip()))

    def exercise_solution(line):
        words = line.split()
        name = next((w for w in words if w != "--now"), "")
        try:
            print(solution(name, now="--now" in words))
        except FileNotFoundError as error:
            print(error)

    ipython.register_magic_function(exercise, "cell", "exercise")
    ipython.register_magic_function(check_exercise, "line", "check_exercise")
    ipython.register_magic_function(exercise_solution, "line", "exercise_solution")

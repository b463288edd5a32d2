"""The exercise directive: `<!-- exercise: name -->` on a line of its own becomes the
exercise of docs/exercises/<name>.py (scripts/reader/exercise_format.py reads it).

On the page: a heading one level below the `##` section it is in, the
instructions, the starter code as a plain code block (readable without
JavaScript), a fold of numbered hints (`.exercise-hints`) and a solution fold
(`.exercise-solution`). docs/javascripts/widgets.js finds it and loads
exercise.js: the editor, Run and Reset, the hints one at a time, the solution
offered after two tries and shown beside the reader's code.
Evaluated as the other directives are (scripts/pages/directives.py): by pytest and
by the build, at its place in the page. An unknown exercise, or one whose file
breaks the format, fails with page and line.
"""

import hashlib
import re

from scripts.pages.directives import Directive, DirectiveError, Output
from scripts.reader import exercise_format

HEADING = re.compile(r"^(#{1,6})[ \t]")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
NAME = re.compile(r"[a-z0-9_]+")


class ExerciseParser(Directive):
    """`<!-- exercise: name -->`: see the module docstring."""

    kind = "exercise"

    def parse(self, document, region, at):
        name = region.lexemes["arguments"].strip()
        if not NAME.fullmatch(name):
            raise DirectiveError(f"{at}: an exercise is named in lower case, digits and _: <!-- exercise: name -->")
        line_start = document.text.rfind("\n", 0, region.start) + 1
        line_end = document.text.find("\n", region.end)
        after = document.text[region.end:line_end].strip().removeprefix("-->")  # the lexer stops before -->
        if document.text[line_start:region.start].strip() or after.strip():
            raise DirectiveError(f"{at}: write an exercise as a line of its own: <!-- exercise: name -->")
        return name, _section_level(document.text, region.start) + 1

    def build(self, example, at, page):
        name, level = example.parsed
        try:
            exercise = exercise_format.load(name)
        except (FileNotFoundError, exercise_format.ExerciseFormatError) as error:
            raise DirectiveError(f"{at}: {error}") from None
        number = page.number(self.kind)
        text = exercise_markdown(exercise, number, min(level, 6))
        return Output(self.kind, example.line, text)


def exercise_markdown(exercise, number, level):
    """The Markdown (with md_in_html blocks) that stands for one exercise on a page.

    exercise: a scripts.reader.exercise_format.Exercise; number: its place on the page;
    level: its heading level. The page's Python runtime is named once per page, by
    scripts/build/hooks/python_runtime.py, not here.
    """
    hints = "\n".join(f"    {n}. {hint}" for n, hint in enumerate(exercise.hints, 1))
    parts = [
        (f'<div class="exercise" data-exercise="{exercise.name}" '
         f'data-starter-hash="{starter_hash(exercise)}" data-version="{version(exercise)}" markdown>'),
        "",
        f"{'#' * level} Exercise {number}: {exercise.title} {{ #exercise-{exercise.name.replace('_', '-')} }}",
        "",
        exercise.instructions,
        "",
        '<div class="exercise-starter" markdown>',
        "",
        _fence(exercise.starter),
        "",
        "</div>",
        "",
    ]
    # Without JavaScript there is no Run, so no try can be counted: the hints and the solution
    # are closed folds the reader opens, all of them, when they choose (hiding the solution
    # until two Runs would hide it for good). With JavaScript, exercise.js turns the hints into
    # one-at-a-time reveals and offers the solution after two tries, or on a confirmed ask,
    # beside the reader's code; the wrappers below are what it finds.
    if exercise.hints:
        parts += ['<div class="exercise-hints" markdown>', "", '??? tip "Hints"', "", hints, "", "</div>", ""]
    parts += ['<div class="exercise-solution" markdown>', "", '??? success "Solution"', "",
              _fence(exercise.solution, indent="    "), "", "</div>", "", "</div>", ""]
    return "\n".join(parts)


def version(exercise):
    """A short hash of what the reader's code is checked against: the exercise's starter and its
    tests. A pass is counted for this version only (docs/javascripts/progress.js, through
    scripts/build/progress.py), so a pass of an exercise since changed is not counted as a pass
    of the exercise the page has now (a third read-only audit; as a quiz's id, quizzes.quiz_id)."""
    text = f"{exercise.starter}\0{exercise.tests}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def starter_hash(exercise):
    """A short hash of the exercise's starter code: the browser keeps the reader's code under it
    (exercise.js), so an exercise whose starter changed never shows code kept for the old one."""
    return hashlib.sha256(exercise.starter.encode()).hexdigest()[:16]


def _fence(code, indent=""):
    lines = ["```python", *code.rstrip("\n").split("\n"), "```"]
    return "\n".join(indent + line if line else "" for line in lines)


def _section_level(markdown, position):
    """The level (1 or 2) of the last `#` or `##` heading before `position`, outside code fences.

    An exercise is a subsection of the chapter section it is in: an h3 after
    an h2, whatever h3 came between, so the exercises of a page line up in its
    table of contents.
    """
    level, fence = 1, None
    for line in markdown[:position].split("\n"):
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
        elif opening:
            fence = opening.group(1)
        elif (match := HEADING.match(line)) and len(match.group(1)) <= 2:
            level = len(match.group(1))
    return level

"""Every exercise goes everywhere its chapter goes (issue 47, item 4), whichever page includes
it, not only chapter 4's seven: the chapter's downloaded notebook (`%%exercise`,
`%check_exercise`, graded by the wheel's grader as the page grades it), the chapter's
progress (the build's record of the page's checks), the site's Python zip and the engine's
wheel. tests/exercises/test_exercises_browser.py grades them in the browser; the page's
own Run is the same call for any page (every page names the runtime: python_runtime.py). With
"Run on: your engine", an exercise that touches only the engine's public interface is graded on
the reader's engine (scripts/reader/exercise_runner.py: not_on_engine)."""

import io
import json
import re
import zipfile

import nbformat
import pytest
from sybil import Document

from scripts import ROOT
from scripts.build import progress, site_python
from scripts.notebooks import notebook_exercises, wheel
from scripts.notebooks.chapter_notebook import EXERCISE_MAGICS, chapter_notebook
from scripts.pages import exercise_directive
from scripts.pages.directives import Collector
from scripts.pages.exercise_directive import ExerciseParser
from scripts.reader import calls, exercise_format, exercise_runner, your_engine
from tests import engines

_INCLUDE = re.compile(r"^<!-- exercise: ([a-z0-9_]+) -->[ \t]*$", re.MULTILINE)
PAGES = {page: _INCLUDE.findall(page.read_text(encoding="utf-8")) for page in sorted((ROOT / "docs").rglob("*.md"))}
PAGES = {page: names for page, names in PAGES.items() if names}
PLACED = [(page, name) for page, names in PAGES.items() for name in names]
IDS = [f"{page.relative_to(ROOT)}: {name}" for page, name in PLACED]


def test_exercises_are_placed_on_pages():
    """The tests below run for every include; chapter 4's seven are among them."""
    assert {name for _, name in PLACED} == set(exercise_format.names())


@pytest.mark.parametrize("page", list(PAGES), ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_the_chapters_notebook_has_cells_to_write_and_check_each_of_its_exercises(page):
    text = page.read_text(encoding="utf-8")
    cells = nbformat.reads(chapter_notebook(Document(text, str(page))), as_version=4).cells
    code = [c.source for c in cells if c.cell_type == "code"]
    load = code.index(f"%load_ext {EXERCISE_MAGICS}")
    for name in PAGES[page]:
        write = next(i for i, s in enumerate(code) if s.startswith(f"%%exercise {name}\n"))
        assert load < write and code[write + 1] == f"%check_exercise {name}", name
        assert code[write] == f"%%exercise {name}\n{exercise_format.load(name).starter.rstrip()}"


@pytest.mark.parametrize("page, name", PLACED, ids=IDS)
def test_the_notebooks_magics_grade_the_exercise_as_the_page_does(page, name):
    exercise = exercise_format.load(name)
    notebook_exercises.keep(name, exercise.starter)
    assert not notebook_exercises.check(name).startswith("All ")
    notebook_exercises.keep(name, exercise.solution)
    assert re.match(r"All \d+ tests passed\.\n", notebook_exercises.check(name))


@pytest.mark.parametrize("page", list(PAGES), ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_the_chapters_progress_counts_each_of_its_exercises_at_its_version(page):
    """What the build records for the page's progress (scripts/build/progress.py: checks_of_run),
    from the page's directives as the build evaluates them."""
    collector = Collector(str(page.relative_to(ROOT / "docs")))
    for example in Document.parse(str(page), ExerciseParser(collector)):
        example.evaluate()
    outputs = [{"kind": o.kind, "line": o.line, "markdown": o.markdown} for o in collector.outputs]
    checks = progress.checks_of_run(outputs)
    assert checks["exercises"] == PAGES[page]
    assert checks["versions"] == {name: exercise_directive.version(exercise_format.load(name))
                                  for name in PAGES[page]}


def test_every_exercise_is_in_the_sites_python_and_the_engines_wheel():
    with zipfile.ZipFile(io.BytesIO(site_python.python_zip())) as archive:
        in_zip = set(archive.namelist())
    in_wheel = set(wheel.layout())
    for name in exercise_format.names():
        assert f"docs/exercises/{name}.py" in in_zip, name
        assert f"{wheel.GRADER}/docs/exercises/{name}.py" in in_wheel, name


# --- On the reader's own engine, where it applies ---------------------------------------

ON_ENGINE = [name for name in exercise_format.names()
             if not exercise_runner.not_on_engine(exercise_format.load(name))]


def test_an_exercise_that_builds_the_engine_is_graded_on_micrograd_and_one_that_uses_it_on_yours():
    """Chapter 4's engine-building exercises read the engine's internals (`_local`, `_prev`, the
    helpers that walk them); the training step uses only its public interface."""
    assert "zero_grad" in ON_ENGINE
    whole = exercise_runner.not_on_engine(exercise_format.load("whole_engine"))
    assert "reads _local (this engine's internals)" in whole
    assert "its tests use grads_by_rule (this engine's internals)" in exercise_runner.not_on_engine(
        exercise_format.load("backward"))
    lecture = your_engine.load(engines.source("lecture"))
    report = exercise_runner.run("chain_rule", exercise_format.load("chain_rule").solution, lecture)
    assert report.passed and report.engine == "micrograd"


@pytest.mark.parametrize("engine", engines.FILES)
@pytest.mark.parametrize("name", ON_ENGINE)
def test_on_a_readers_engine_the_solution_passes_and_every_mistake_fails_with_its_message(name, engine):
    """The book's engine, the lecture's closures and micrograd 0.1.0's own, each as a reader's
    engine file (tests/engines/), in place of micrograd's, through the page's call (calls.py).
    Where the exercise's own solution does not pass on an engine (micrograd 0.1.0 has no tanh),
    it is graded on micrograd and says so; on the book's engine every one is graded on it."""
    exercise = exercise_format.load(name)
    source = engines.source(engine)
    args = {"exercise": name, "code": exercise.solution, "engine": source}
    report = json.loads(calls.call_json("run_exercise", json.dumps(args)))["value"]
    assert all(r["passed"] for r in report["results"]), report
    if report["engine"] == "micrograd":
        assert engine != "book" and report["note"].endswith("does not pass on your engine."), report
        return
    assert report["engine"] == "yours"
    for mistake in exercise.mistakes:
        report = exercise_runner.run(exercise, mistake.apply(exercise.solution), your_engine.load(source))
        assert report.engine == "yours" and not report.passed
        assert any(mistake.message in r.message for r in report.results if not r.passed), mistake.name

"""A chapter's notebook holds the chapter (issue 24, item 2) and installs a pinned wheel (issue
25, item 7): exercises as cells to write and check the answer in, quizzes with a cell to
answer in and the answer folded, the listings the page includes, links to the published
pages, and the engine's wheel named with its sha256. Fast: pages made here, no site build;
tests/notebooks/test_notebooks_anywhere.py runs the real downloads in a Jupyter that has nothing else.
"""

import hashlib
import re
import zipfile

import nbclient
import nbformat
import pytest
from sybil import Document

from scripts import ROOT
from scripts.notebooks import notebook_exercises, wheel
from scripts.notebooks.chapter_notebook import ANSWER_TAG, EXERCISE_MAGICS, QUIET, chapter_notebook
from scripts.notebooks.notebook_download import (
    download_notebook,
    for_download,
    install_cell,
    served,
)
from scripts.notebooks.training_notebook import kernel_config
from scripts.reader import exercise_runner
from scripts.reader.exercise_format import load

PAGE_URL = "https://example.org/book/04-engine/"
WHEEL_URL = "https://example.org/book/downloads/backprop_verified-0.1.0-py3-none-any.whl#sha256=" + "0" * 64


def _notebook(tmp_path, text, name="04-engine.md"):
    page = tmp_path / name
    page.write_text(text, encoding="utf-8")
    return nbformat.reads(chapter_notebook(Document(text, str(page))), as_version=4)


def test_an_exercise_is_its_text_a_cell_to_write_in_a_cell_that_checks_it_and_its_folds(tmp_path):
    """Chapter 4's notebook had none of its seven exercises: the directive is an HTML comment,
    and the notebook dropped every comment."""
    exercise = load("chain_rule")
    cells = _notebook(tmp_path, "# Title\n\n## The rule\n\nProse.\n\n<!-- exercise: chain_rule -->\n\nAfter.\n").cells
    assert [(c.cell_type, c.source.split("\n")[0]) for c in cells] == [
        ("markdown", "# Title"),
        ("markdown", "The exercises run the page's own tests on your code, with the engine's wheel's "
                     f"`{EXERCISE_MAGICS}`, which the next cell loads. A cell that starts "
                     "`%%exercise NAME` keeps its code as your answer (it does not run it here, so the "
                     "chapter's own `Value` stays as it is); a cell `%check_exercise NAME` runs the "
                     "exercise's tests on the code you kept last and prints which passed, and why one "
                     "failed; a cell `%exercise_solution NAME` shows a solution once you have checked "
                     "two tries of your own."),
        ("code", f"%load_ext {EXERCISE_MAGICS}"),
        ("markdown", f"### Exercise 1: {exercise.title}"),  # one level below its section, as on the page
        ("code", "%%exercise chain_rule"),
        ("code", "%check_exercise chain_rule"),
        *[("markdown", "<details>")] * len(exercise.hints),
        ("code", "%exercise_solution chain_rule"),
        ("markdown", "After."),
    ]
    text, starter, check, *hints = cells[3:6 + len(exercise.hints)]
    assert exercise.instructions in text.source
    assert text.source.endswith("the cell after it runs the page's 5 tests on it.*")
    assert starter.source == f"%%exercise chain_rule\n{exercise.starter.rstrip()}"
    # one hint a fold, opened one at a time as on the page; the solution is not in the notebook's text
    assert [h.source for h in hints] == [
        f"<details>\n<summary>Hint {n} of {len(hints)}</summary>\n\n{hint}\n\n</details>"
        for n, hint in enumerate(exercise.hints, 1)]
    assert not any(exercise.solution.strip() in c.source for c in cells)


def test_the_exercise_cells_check_the_kept_code_in_a_kernel_and_print_a_failure_without_raising():
    """What the cells do in a real kernel: before the code is kept, the check says so; the
    starter fails with the page's messages, printed; the solution passes. The grader is the
    wheel's copy of scripts/notebooks/notebook_exercises.py: here, the repository's."""
    exercise = load("chain_rule")
    sources = [f"import sys\nsys.path.insert(0, {str(ROOT)!r})", "%load_ext scripts.notebooks.notebook_exercises",
               "Value = 'the chapter keeps its own names'", "%check_exercise chain_rule",
               f"%%exercise chain_rule\n{exercise.starter}", "%check_exercise chain_rule",
               f"%%exercise chain_rule\n{exercise.solution}", "%check_exercise chain_rule", "Value",
               "%exercise_solution chain_rule"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    with kernel_config() as config:
        nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3", config=config).execute()
    printed = ["".join(o.get("text", "") for o in c.outputs if o.output_type == "stream") for c in notebook.cells]
    assert not any(o.output_type == "error" for c in notebook.cells for o in c.outputs)
    assert printed[3] == ("No code to check yet: run the cell that starts with %%exercise chain_rule first "
                          "(it keeps your code), then this one.\n")
    lines = len(exercise.starter.strip("\n").splitlines())
    assert printed[4] == (f"Kept your code for the exercise chain_rule ({lines} lines); "
                          "the cell with %check_exercise chain_rule runs its tests.\n")
    failing = printed[5].splitlines()
    assert re.fullmatch(r"[0-4] of 5 tests passed\.", failing[0]), printed[5]
    assert "  failed  y = a * b: a gets b's value and b gets a's value: a.grad is " in printed[5]
    assert printed[7].splitlines()[0] == "All 5 tests passed."
    assert [line.split("  ")[1] for line in printed[7].splitlines()[1:]] == ["passed"] * 5
    assert notebook.cells[8].outputs[0].data["text/plain"] == "'the chapter keeps its own names'"
    # the starter's check is no try; the solution's is one: the solution is still held back
    assert printed[9] == ("You have checked your code once; the solution is shown after 2 tries. "
                          "To see it now: %exercise_solution chain_rule --now\n")


def test_the_solution_is_shown_after_two_tries_or_at_once_when_asked():
    """Issue 47: the solution is offered only after two tries of the reader's own code, or when
    asked for (the page asks to confirm; the notebook's --now is that confirmation)."""
    exercise = load("chain_rule")
    notebook_exercises._tries.pop("chain_rule", None)
    assert notebook_exercises.solution("chain_rule").startswith("You have not checked code of your own yet")
    assert notebook_exercises.solution("chain_rule", now=True).endswith(exercise.solution.rstrip())
    notebook_exercises.keep("chain_rule", exercise.starter)
    notebook_exercises.check("chain_rule")  # the starter as given: no try
    mistake = exercise.mistakes[0].apply(exercise.solution)
    for said in ("You have not checked code of your own yet", "You have checked your code once"):
        assert notebook_exercises.solution("chain_rule").startswith(said)
        notebook_exercises.keep("chain_rule", mistake)
        notebook_exercises.check("chain_rule")
    shown = notebook_exercises.solution("chain_rule")
    assert shown.startswith("A solution to chain_rule") and shown.endswith(exercise.solution.rstrip())


def test_code_that_ends_in_an_error_is_told_no_test_ran_not_0_of_1_tests_passed():
    """A new reader's audit: the one result of code that raised, "your code runs", was counted
    as a test ("0 of 1 tests passed."), and the exercise has 5."""
    text = notebook_exercises.feedback(exercise_runner.run("chain_rule", "1 / 0\n"))
    assert text.splitlines() == ["No test ran: your code has to run without an error first.",
                                 "  failed  your code runs: ZeroDivisionError on line 1 of your code: division by zero"]


def test_a_quiz_leaves_a_cell_to_answer_in_and_its_answer_is_folded_not_in_the_next_cell(tmp_path):
    page = ('# T\n\n```python\nx = 3\n```\n\n!!! question "Check yourself"\n    What is x?\n\n'
            '    <!-- quiz: number(x, answer=3, label="x") -->\n\n'
            '    <!-- quiz: choice("yes", options=["yes", "no"]) -->\n\n'
            '??? success "Answer"\n    It is 3, as the page set it.\n\n'
            '    ```python\n    >>> x\n    3\n    ```\n\nNext.\n')
    cells = _notebook(tmp_path, page).cells
    assert [(c.cell_type, c.source) for c in cells[2:6]] == [
        ("markdown", "**Check yourself**\n\nWhat is x?"),
        ("code", "# x (a number; the answer is folded below):"),
        ("code", "# Pick one, of: yes; no\n# (the answer is folded below)"),
        ("markdown", "<details>\n<summary>Answer</summary>\n\nIt is 3, as the page set it.\n\n\n"
                     "```python\n>>> x\n3\n```\n\n</details>"),
    ]
    assert [c.metadata.get("tags") for c in cells[3:5]] == [[ANSWER_TAG], [ANSWER_TAG]]
    # the fold's code runs after it (later cells may use it), folded, and prints nothing: it would print the answer
    assert cells[6].source == f"{QUIET}\nx" and cells[6].metadata["jupyter"]["source_hidden"]
    shown = [c.source for c in cells if c.cell_type == "markdown" and not c.source.startswith("<details>")]
    assert not any("It is 3" in source for source in shown)


def test_the_training_notebooks_quizzes_get_answer_cells_and_folded_answers():
    cells = nbformat.reads(download_notebook(ROOT / "docs" / "06-training.py"), as_version=4).cells
    answers = [i for i, c in enumerate(cells) if ANSWER_TAG in c.metadata.get("tags", [])]
    assert len(answers) == 3 == (ROOT / "docs" / "06-training.py").read_text().count("<!-- quiz:")
    assert not any("<!-- quiz:" in c.source for c in cells)
    for i in answers:
        after = next(c for c in cells[i:] if ANSWER_TAG not in c.metadata.get("tags", []))
        assert after.source.startswith("<details>\n<summary>Answer</summary>"), after.source
    folded = [c for c in cells if "answer" in c.metadata.get("tags", [])]
    assert all(c.source.startswith("<details>") if c.cell_type == "markdown" else c.metadata["jupyter"]
               for c in folded) and folded


def test_a_listing_the_page_includes_is_in_the_notebook(tmp_path):
    """Chapter 4's notebook said "The page shows `docs/exercises/whole_engine.py:engine` here:
    open it in the repository"."""
    page = ('# T\n\n<!-- skip: next "shown, not run" -->\n```python\n--8<-- "docs/exercises/whole_engine.py:engine"\n'
            '```\n\n??? note "`micrograd/nn.py`"\n    ```python\n    --8<-- "micrograd/nn.py"\n    ```\n')
    cells = _notebook(tmp_path, page).cells
    assert [c.cell_type for c in cells] == ["markdown"] * 3
    assert cells[1].source == f"```python\n{load('whole_engine').solution.strip()}\n```"
    nn = (ROOT / "micrograd" / "nn.py").read_text().strip("\n")
    assert cells[2].source == (f"<details>\n<summary><code>micrograd/nn.py</code></summary>\n\n```python\n{nn}\n"
                               "```\n\n</details>")
    assert not any("open it in the repository" in c.source for c in cells)


def test_links_go_to_the_published_pages_with_their_anchors_never_to_md_files(tmp_path):
    page = ("# T\n\nSee [chapter 3](03-backprop-by-hand.md), [the fix](04-engine.md#zero_grad-and-forgetting-it),"
            " [home](index.md), [training](06-training.ipynb), [Wikipedia](https://en.wikipedia.org/wiki/X),"
            " [below](#recap) and `[code](not-a-link.md)`.\n")
    cells = _notebook(tmp_path, page).cells
    assert cells[0].source == ("# T\n\nSee [chapter 3](../03-backprop-by-hand/),"
                               " [the fix](./#zero_grad-and-forgetting-it), [home](../), [training](../06-training/), [Wikipedia](https://en.wikipedia.org/wiki/X),"
                               " [below](#recap) and `[code](not-a-link.md)`.")
    download = nbformat.reads(for_download(nbformat.writes(nbformat.v4.new_notebook(cells=cells)), PAGE_URL,
                                           WHEEL_URL), as_version=4)
    assert download.cells[2].source == (
        "# T\n\nSee [chapter 3](https://example.org/book/03-backprop-by-hand/), "
        "[the fix](https://example.org/book/04-engine/#zero_grad-and-forgetting-it), "
        "[home](https://example.org/book/), "
        "[training](https://example.org/book/06-training/), [Wikipedia](https://en.wikipedia.org/wiki/X), "
        "[below](https://example.org/book/04-engine/#recap) and `[code](not-a-link.md)`.")


def test_a_link_from_the_home_page_is_to_the_pages_beside_it(tmp_path):
    cells = _notebook(tmp_path, "# Home\n\nStart with [chapter 1](01-computational-graphs.md).\n", "index.md").cells
    download = for_download(nbformat.writes(nbformat.v4.new_notebook(cells=cells)), "https://example.org/book/",
                            WHEEL_URL)
    assert "[chapter 1](https://example.org/book/01-computational-graphs/)" in download


def test_the_wheels_address_names_its_sha256_which_pip_checks():
    """The install cell named the wheel over plain HTTP with no hash (issue 25, item 7)."""
    address = wheel.url("https://example.org/book")
    built = wheel.wheel()
    assert address == (f"https://example.org/book/downloads/{built.name}"
                       f"#sha256={hashlib.sha256(built.read_bytes()).hexdigest()}")
    assert f'"backprop-verified[draw] @ {address}"' in install_cell([], address)


def test_a_served_notebook_is_at_its_pages_address_and_installs_the_sites_pinned_wheel():
    """served(): what the build serves for a page (scripts/build/hooks/pages.py, notebook.py)."""
    body = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("[home](../)")]))
    download = served(body, "https://example.org/book/", "04-engine/")
    assert download == for_download(body, PAGE_URL, wheel.url("https://example.org/book/"))
    assert "[home](https://example.org/book/)" in download
    with pytest.raises(ValueError, match="site_url is not set"):
        served(body, "", "04-engine/")


def test_the_wheel_holds_the_exercise_grader_at_its_repository_paths():
    """What a notebook's %check_exercise runs: the page's grader and tests, byte for byte."""
    with zipfile.ZipFile(wheel.wheel()) as archive:
        held = {name: archive.read(name) for name in archive.namelist() if name.startswith(f"{EXERCISE_MAGICS}/")}
    assert held[f"{EXERCISE_MAGICS}/__init__.py"] == \
        (ROOT / "scripts" / "notebooks" / "notebook_exercises.py").read_bytes()
    for name in ["exercise_runner", "exercise_checks", "exercise_format", "reader_code"]:
        assert held[f"{EXERCISE_MAGICS}/scripts/reader/{name}.py"] == \
            (ROOT / "scripts" / "reader" / f"{name}.py").read_bytes()
    exercises = sorted((ROOT / "docs" / "exercises").glob("*.py"))
    included = [name for page in (ROOT / "docs").glob("*.md")
                for name in re.findall(r"^<!-- exercise: (\w+) -->$", page.read_text(encoding="utf-8"), re.M)]
    assert len(exercises) == len(included) > 0  # every exercise a page includes, and no other
    for path in exercises:
        assert held[f"{EXERCISE_MAGICS}/docs/exercises/{path.name}"] == path.read_bytes()


def test_a_notebook_with_exercises_installs_the_wheel_where_the_grader_is_missing():
    body = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"%load_ext {EXERCISE_MAGICS}")])
    download = nbformat.reads(for_download(nbformat.writes(body), PAGE_URL, WHEEL_URL), as_version=4)
    assert f'"{EXERCISE_MAGICS}": "backprop-verified[draw] @ {WHEEL_URL}",' in download.cells[1].source


@pytest.mark.parametrize("page", ["index.md", "04-engine.md", "10-under-the-hood.md", "playground.md"])
def test_no_page_notebook_links_an_md_file(page):
    """The pages the issue found: their notebooks linked `04-engine.md`, which is no file
    beside a notebook. Made from the page's text alone (not run)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    cells = nbformat.reads(chapter_notebook(Document(text, str(ROOT / "docs" / page))), as_version=4).cells
    markdown = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    assert re.findall(r"\]\(\s*<?[^)\s]*\.md\b", markdown) == []
    assert re.search(r"\]\((\.\./)?[0-9a-z-]+/", markdown), "the page's links are gone"

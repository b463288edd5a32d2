"""Claims in notebooks: a chapter's download carries each claim as an `assert` cell after its
prose, and the training notebook's Markdown cells are checked in its kernel as a page's are,
failing the run at the claim's line (scripts/pages/claims.py, scripts/notebooks/)."""

import json
import re

import nbclient
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError
from sybil import Document

from scripts import ROOT
from scripts.notebooks.chapter_notebook import chapter_notebook, claims_in
from scripts.notebooks.notebook_download import download_notebook
from scripts.notebooks.training_notebook import executed, kernel_config
from scripts.pages.claims import CLAIM

ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks

PAGE = """# T

```python
x = 3
```

The value is 3. It is odd. <!-- claim: x % 2 == 1 -->
A second line of the paragraph.
<!-- claim: x == 3 -->

!!! note "Inside"
    A note says x is small.
    <!-- claim: x < 10 -->

```python
x = 4
```

Now x is even. <!-- claim: x % 2 == 0 -->
"""


def _cells(tmp_path, text):
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return nbformat.reads(chapter_notebook(Document(text, str(page))), as_version=4).cells


def _run(cells):
    notebook = nbformat.v4.new_notebook(cells=cells)
    with kernel_config() as config:
        nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3", config=config,
                                shutdown_kernel="immediate").execute()
    return notebook


def test_a_chapter_notebook_checks_each_claim_in_an_assert_cell_after_its_paragraph(tmp_path):
    cells = _cells(tmp_path, PAGE)
    shown = [(c.cell_type, c.source.splitlines()[-1]) for c in cells]
    assert shown == [
        ("markdown", "# T"),
        ("code", "x = 3"),
        ("markdown", "A second line of the paragraph."),
        ("code", "assert (x % 2 == 1) is True, 'It is odd.'"),
        ("code", "assert (x == 3) is True, 'A second line of the paragraph.'"),
        ("markdown", "A note says x is small."),
        ("code", "assert (x < 10) is True, 'A note says x is small.'"),
        ("code", "x = 4"),
        ("markdown", "Now x is even."),
        ("code", "assert (x % 2 == 0) is True, 'Now x is even.'"),
    ]
    assert cells[2].source == "The value is 3. It is odd.\nA second line of the paragraph."
    assert not any(CLAIM.search(c.source) for c in cells)
    assert [c.metadata.get("tags") for c in cells if "assert" in c.source] == [["claim"]] * 4


def test_the_assert_cells_pass_in_a_kernel_and_a_false_claim_stops_the_notebook_with_its_sentence(tmp_path):
    _run(_cells(tmp_path, PAGE))  # every claim holds where it stands
    wrong = PAGE.replace("claim: x % 2 == 0", "claim: x % 2 == 1")
    with pytest.raises(CellExecutionError) as failure:
        _run(_cells(tmp_path, wrong))
    assert "AssertionError: Now x is even." in ANSI_COLOUR.sub("", str(failure.value))


NOTEBOOK = """# %%
x = 3

# %% [markdown]
# Three is odd.
# <!-- claim: x % 2 == 1 -->
# It is also less than four. <!-- claim: x {op} 4 -->
"""


def test_the_training_notebook_kind_checks_its_claims_in_its_kernel_at_their_line(tmp_path):
    path = tmp_path / "06-tiny.py"
    path.write_text(NOTEBOOK.format(op="<"), encoding="utf-8")
    ran = executed(path)
    checks = [c for c in ran.cells if "claim-check" in c.metadata.get("tags", [])]
    assert len(checks) == 1  # it ran, and printed the HTML of its two marks for the site's page
    marks = json.loads("".join(o["text"] for o in checks[0].outputs))
    assert [re.search(r'aria-controls="([^"]+)"', m)[1] for m in marks] == ["bv-claim-1", "bv-claim-2"]
    assert "<code>x % 2 == 1</code>" in marks[0] and "It read <code>x = 3</code>" in marks[1]
    path.write_text(NOTEBOOK.format(op=">"), encoding="utf-8")
    with pytest.raises(CellExecutionError) as failure:
        executed(path)
    message = ANSI_COLOUR.sub("", str(failure.value))
    assert f"{path}:7: the claim `x > 4` gives False, not True" in message
    assert "sentence: It is also less than four." in message and "x = 3" in message


def test_a_notebook_s_download_carries_its_claims_as_assert_cells_after_the_prose(tmp_path):
    path = tmp_path / "06-tiny.py"
    path.write_text(NOTEBOOK.format(op="<") + '# <!-- quiz: number(x, answer=3) -->\n', encoding="utf-8")
    cells = nbformat.reads(download_notebook(path), as_version=4).cells
    assert [c.source.splitlines()[-1] for c in cells] == [
        "x = 3", "It is also less than four.", "assert (x % 2 == 1) is True, 'Three is odd.'",
        "assert (x < 4) is True, 'It is also less than four.'", "# Your answer (a number; the answer is folded below):"]


def test_the_training_page_s_download_checks_every_claim_it_makes():
    path = ROOT / "docs" / "06-training.py"
    cells = nbformat.reads(download_notebook(path), as_version=4).cells
    claims = [c for c in cells if "claim" in c.metadata.get("tags", [])]
    assert len(claims) == len(CLAIM.findall(path.read_text(encoding="utf-8")))
    assert not any(CLAIM.search(c.source) for c in cells)


def test_claims_in_leaves_a_cell_without_claims_as_it_was():
    assert claims_in("No claim here.\n\nNor here.") == ("No claim here.\n\nNor here.", [])


def test_the_training_page_places_a_cells_quiz_whole_when_the_cell_also_has_a_claim(tmp_path):
    """The quiz's place in its cell is read with the claim's comment still in it: the comment goes
    after the quiz is placed (it went first, and the quiz's HTML landed cut, mid-tag)."""
    from scripts.notebooks.training_notebook import site_notebook

    path = tmp_path / "06-tiny.py"
    path.write_text("# %%\nx = 3\n\n# %% [markdown]\n# Three is odd. <!-- claim: x % 2 == 1 -->\n#\n"
                    "# <!-- quiz: number(x, answer=3) -->\n#\n# After the quiz.\n", encoding="utf-8")
    cells = nbformat.read(site_notebook(path), as_version=4).cells
    (prose,) = [c for c in cells if c.cell_type == "markdown" and "Three is odd." in c.source]
    assert "<!--" not in prose.source
    assert re.search(r'Three is odd\. <button type="button" class="bv-claim"[^>]*aria-controls="bv-claim-1"',
                     prose.source), prose.source
    quiz = re.search(r'<div class="bv-quiz" id="quiz-\w+-box" data-quiz="number".*?</div>', prose.source)
    assert quiz and prose.source.index("Three is odd.") < quiz.start() < prose.source.index("After the quiz.")
    assert not [c for c in cells if "claim-check" in c.metadata.get("tags", [])]


def test_the_training_page_marks_every_claim_as_a_chapter_does():
    """Issue 45: the training notebook's claims were checked and shown nowhere on its page; each
    is now a mark after its sentence (scripts/pages/claims.py: claim_html), ids unique."""
    from scripts.notebooks.training_notebook import site_notebook

    path = ROOT / "docs" / "06-training.py"
    text = "".join(c.source for c in nbformat.read(site_notebook(path), as_version=4).cells
                   if c.cell_type == "markdown")
    made = re.findall(r'<button type="button" class="bv-claim"[^>]*aria-controls="([^"]+)"', text)
    assert len(made) == len(CLAIM.findall(path.read_text(encoding="utf-8"))) == len(set(made)) > 0
    assert not CLAIM.search(text)
    assert all(f'<span class="bv-claim__box" id="{name}" hidden>' in text for name in made)

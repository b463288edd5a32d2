"""Issue 45 item 4 on the training notebook's page: its prose numbers link to the cell that
printed or set them (scripts/notebooks/notebook_numbers.py), at least 10 of them, as a chapter's
do to its blocks; a click opens the source in place, and its link goes on to the cell."""

import copy
import json
import re

import nbformat
import pytest

from scripts import ROOT
from scripts.notebooks import notebook_numbers
from scripts.pages.number_sources import NumberSourceError
from tests.helpers import foreign, recorded
from tests.pages.test_number_sources import DESKTOP, PHONE

NOTEBOOK = ROOT / "docs" / "06-training.py"


def test_the_training_notebook_links_at_least_10_of_its_prose_numbers(executed_notebook):
    cells = copy.deepcopy(executed_notebook.cells)
    found = notebook_numbers.found(cells, NOTEBOOK)
    assert not found.problems, found.problems
    linked = {(n.text, s.code or s.text) for n, s in found.numbers}
    assert len(found.numbers) >= 10, linked
    # chosen inputs link to where they are set; a result to the cell that printed it
    assert {("100", "N = 100"), ("16", "model = MLP(2, [16, 16, 1])"),
            ("337", "total parameters: 337"), ("146.8", linked and next(
                t for n, t in linked if n == "146.8"))} <= linked
    assert all(s.block is not None for _, s in found.numbers)  # a shown cell, never a hidden one


def test_every_link_goes_to_a_cell_the_page_shows_and_names_it_a_cell(executed_notebook):
    cells = copy.deepcopy(executed_notebook.cells)
    notebook_numbers.link(cells, NOTEBOOK)
    shown = notebook_numbers.shown_cells(cells)
    ids = {cell.id for cell in shown}
    assert [cell.id for cell in shown] == [f"block-{k}" for k in range(1, len(shown) + 1)]
    prose = "".join(c.source for c in cells if c.cell_type == "markdown")
    sources = [json.loads(re.sub(r"&#(\d+);", lambda m: chr(int(m[1])), raw).replace("&quot;", '"'))
               for raw in re.findall(r'data-bv-source="([^"]*)"', prose)]
    assert len(sources) >= 10
    for source in (s for group in sources for s in group):
        assert source["href"].removeprefix("#cell-id=") in ids, source
        assert "block" not in source["label"].lower() and "cell " in source["label"].lower(), source


def test_a_number_the_notebook_cannot_link_fails_with_the_notebook_s_line(executed_notebook, tmp_path):
    """A number in a displayed formula cannot hold a link: the build fails at its line of the .py."""
    cells = copy.deepcopy(executed_notebook.cells)
    (cell,) = [c for c in cells if c.cell_type == "markdown" and c.source.startswith("## The data")]
    cell.source += "\n\n$$y = 7$$"
    path = tmp_path / "06-training.py"
    text = NOTEBOOK.read_text(encoding="utf-8")
    path.write_text(text.replace("# map $t \\mapsto 2t - 1$.", "# map $t \\mapsto 2t - 1$.\n#\n# $$y = 7$$"),
                    encoding="utf-8")
    line = path.read_text(encoding="utf-8").split("\n").index("# $$y = 7$$") + 1
    with pytest.raises(NumberSourceError, match=rf"06-training\.py:{line}: 7: is in a displayed formula"):
        notebook_numbers.link(cells, path)


def test_the_page_s_cells_hold_the_links_after_quizzes_and_claims_are_placed():
    from scripts.notebooks.training_notebook import site_notebook

    cells = nbformat.read(site_notebook(NOTEBOOK), as_version=4).cells
    prose = "".join(c.source for c in cells if c.cell_type == "markdown")
    assert len(re.findall(r'<a class="bv-number', prose)) >= 10
    assert "<!-- quiz:" not in prose and prose.count('class="bv-quiz"') == 3
    code = [c for c in cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == [int(c.id.removeprefix("block-")) for c in code]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_notebook_number_opens_its_cell_in_place_and_goes_on_to_it(browser, origin, scheme):
    """On the built page: the N = 100 of the data section says it is set in cell 2, in place, at
    1280 px by click and at 390 px by tap; its link goes to that cell, which is on the page."""
    for viewport, touch in ((DESKTOP, False), (PHONE, True)):
        context = browser.new_context(viewport=viewport, color_scheme=scheme, has_touch=touch, is_mobile=touch)
        page = recorded(context.new_page())
        page.goto(f"{origin}/06-training/")
        link = page.locator("a.bv-number").first
        assert json.loads(link.get_attribute("data-bv-source"))[0]["code"] == "N = 100"
        link.scroll_into_view_if_needed()
        link.tap() if touch else link.click()
        box = page.locator(".bv-number-pop")
        box.wait_for(state="visible")
        assert page.url.endswith("/06-training/")  # in place
        text = " ".join(box.inner_text().split())
        assert text.startswith("Set here, in cell 2 (a chosen input): N = 100"), text
        go = box.get_by_role("link", name="Go to cell 2")
        go.click()
        page.wait_for_url("**/06-training/#cell-id=block-2")
        cell = page.locator('[id="cell-id=block-2"]')
        prompt = cell.text_content().replace("\xa0", " ")  # In [2]: (a phone hides it)
        assert "N = 100" in cell.inner_text() and "In [2]" in prompt
        assert not page.errors and not foreign(page.requests, origin), (page.errors, page.requests)
        context.close()

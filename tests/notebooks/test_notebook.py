"""The notebook page docs/06-training.py: it runs cell by cell in a Jupyter
kernel, as mkdocs-jupyter runs it, and its outputs show what the page says.

A failing cell fails the test with that cell's error. The assertions read the
executed notebook's own outputs: nothing here is a copy of a result.
"""

import json
import os
import re
import subprocess
import sys
import time

import nbclient
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from scripts import ROOT
from scripts.notebooks.chapter_notebook import ANSWER_TAG, claims_in, quizzes_in
from scripts.notebooks.notebook_download import absolute_links, install_cell
from scripts.notebooks.training_notebook import executed as execute
from scripts.notebooks.training_notebook import kernel_config

NOTEBOOK = ROOT / "docs" / "06-training.py"
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks


@pytest.fixture(scope="module")
def executed():
    """The notebook as the site build executes it (cached on the notebook and micrograd/)."""
    try:
        return execute(NOTEBOOK)
    except CellExecutionError as error:  # holds the cell's source and its traceback
        traceback = ANSI_COLOUR.sub("", str(error))
        pytest.fail(f"{NOTEBOOK}: a cell failed\n{traceback}", pytrace=False)


def outputs(nb):
    for cell in nb.cells:
        if cell.cell_type == "code":
            yield from cell.get("outputs", [])


def printed_text(nb):
    return "".join(out.get("text", "") for out in outputs(nb) if out.output_type == "stream")


def test_no_cell_writes_an_error_or_to_stderr(executed):
    kinds = [out.output_type for out in outputs(executed)]
    assert "error" not in kinds
    stderr = [out.text for out in outputs(executed)
              if out.output_type == "stream" and out.name == "stderr"]
    assert stderr == []


def test_training_reaches_100_percent(executed):
    text = printed_text(executed)
    final = re.findall(r"^final training accuracy: (\d+)%$", text, re.MULTILINE)
    assert final == ["100"], text
    # the loop's progress lines end at the last step, and that step is at 100% too
    progress = re.findall(r"^step +(\d+) +loss [\d.]+ +accuracy (\d+)%$", text, re.MULTILINE)
    assert progress, text
    assert progress[-1] == ("99", "100")


def test_the_executed_notebook_numbers_its_cells_so_its_page_is_the_same_bytes_each_run(executed):
    assert [cell.id for cell in executed.cells] == [f"cell-{n}" for n in range(1, len(executed.cells) + 1)]


def test_exactly_three_plots(executed):
    images = [out for out in outputs(executed)
              if out.output_type in ("display_data", "execute_result")
              and "image/png" in out.get("data", {})]
    assert len(images) == 3  # loss curve, accuracy curve, decision boundary
    for image in images:
        assert len(image.data["image/png"]) > 1000  # base64 PNG, not an empty figure


def test_the_training_page_downloads_as_the_notebook_that_ran(site_build, site, executed):
    """Its download holds exactly the cells the build executed (so it needs no third run),
    after the two that for_download puts first: where it comes from, and the install cell."""
    from scripts.notebooks import wheel

    download = nbformat.reads((site / "06-training" / "06-training.ipynb").read_text(encoding="utf-8"),
                              as_version=4)
    ran = [c for c in executed.cells  # not the build's quiz and claim-checking cells
           if not {"quiz", "claim-check"} & set(c.metadata.get("tags", []))]
    header, install, *cells = download.cells
    code = [c.source for c in cells
            if c.cell_type == "code" and not {ANSWER_TAG, "claim"} & set(c.metadata.get("tags", []))]
    assert code == [c.source for c in ran if c.cell_type == "code"]
    prose = [c for c in ran if c.cell_type == "markdown"]
    assert [c.source for c in cells if c.cell_type == "markdown" and not c.source.startswith("<details>")] == [
        absolute_links(quizzes_in(claims_in(c.source)[0])[0], f"{site_build['site_url']}06-training/") for c in prose
        if "answer" not in c.metadata.get("tags", [])]
    folded = [c.source for c in cells if c.source.startswith("<details>\n<summary>Answer</summary>")]
    assert len(folded) == len([c for c in prose if "answer" in c.metadata.get("tags", [])]) == 3
    assert f"<{site_build['site_url']}06-training/>" in header.source
    assert install.source == install_cell(["matplotlib", "numpy", "scikit-learn"], wheel.url(site_build["site_url"]))
    assert not any(c.get("outputs") for c in download.cells)  # the reader runs it


def test_a_chapter_notebook_keeps_the_page_order_and_its_hidden_setup(tmp_path):
    from sybil import Document

    from scripts.notebooks.chapter_notebook import QUIET, chapter_notebook
    FOLDED = {"source_hidden": True, "outputs_hidden": True}
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\nProse $x$.\n\n<!-- invisible-code-block: python\nsecret = 2\n-->\n\n"
        "```python\ny = secret + 1\n```\n<!-- figure: alt -->\n\n"
        "!!! question \"Check yourself\"\n    What is y?\n\n"
        "??? success \"Answer\"\n    Three.\n\n    ```python\n    >>> y\n    3\n    >>> y * 2\n    6\n    ```\n\n"
        "    Still the answer.\n\nAfter.\n")
    cells = json.loads(chapter_notebook(Document(page.read_text(), str(page))))["cells"]
    sources = ["".join(c["source"]) for c in cells]
    kinds = [c["cell_type"] for c in cells]
    assert kinds == ["markdown", "code", "code", "markdown", "markdown", "code", "code", "markdown"]
    assert sources[0] == "# Title\n\nProse $x$."
    assert sources[1].endswith("secret = 2") and sources[2] == "y = secret + 1"
    assert sources[3] == "**Check yourself**\n\nWhat is y?"
    # the fold: its text and its block as the page shows them, folded; then the block runs, folded
    assert sources[4] == ("<details>\n<summary>Answer</summary>\n\nThree.\n\n\n```python\n>>> y\n3\n"
                          ">>> y * 2\n6\n```\n\n\nStill the answer.\n\n</details>")
    assert sources[5:7] == [f"{QUIET}\ny", f"{QUIET}\ny * 2"]  # what they print is the answer
    assert [cells[i]["metadata"]["jupyter"] for i in (5, 6)] == [FOLDED, FOLDED]
    assert sources[7] == "After."
    assert [c["id"] for c in cells] == [f"cell-{i}" for i in range(1, 9)]


SKIPPING_PAGE = """# Title

```python
try:
    import torch
except ImportError:
    torch = None
```

<!-- skip: start if(torch is None, reason="PyTorch is not installed: pip install torch") -->
```python
>>> t = torch.tensor(2.0)
>>> t.item()
2.0
```
<!-- skip: end -->

<!-- skip: next if(torch is None, reason="PyTorch is not installed: pip install torch") -->
```python
u = torch.ones(2)
```

```python
v = 3
```
"""


def test_a_block_the_page_skips_is_a_cell_that_skips_as_the_page_does(tmp_path):
    from sybil import Document

    from scripts.notebooks.chapter_notebook import SKIP_MAGIC, chapter_notebook
    page = tmp_path / "page.md"
    page.write_text(SKIPPING_PAGE)
    cells = json.loads(chapter_notebook(Document(page.read_text(), str(page))))["cells"]
    skip = '%%skip if(torch is None, reason="PyTorch is not installed: pip install torch")\n'
    assert [(c["cell_type"], "".join(c["source"])) for c in cells] == [
        ("markdown", SKIP_MAGIC[0]),
        ("code", SKIP_MAGIC[1]),
        ("markdown", "# Title"),
        ("code", "try:\n    import torch\nexcept ImportError:\n    torch = None"),
        ("code", skip + "t = torch.tensor(2.0)\nt.item()"),
        ("code", skip + "u = torch.ones(2)"),
        ("code", "v = 3"),
    ]


def test_skip_next_before_a_doctest_of_several_examples_skips_its_first_example_only(tmp_path):
    """As Sybil does: `skip: next` skips the next example, the doctest's first `>>>`; the
    notebook gives that example a %%skip cell of its own and runs the rest."""
    from sybil import Document

    from scripts.notebooks.chapter_notebook import chapter_notebook
    page = tmp_path / "page.md"
    page.write_text(SKIPPING_PAGE.replace("<!-- skip: end -->\n", "").replace(
        "<!-- skip: start", "<!-- skip: next"))
    notebook = nbformat.reads(chapter_notebook(Document(page.read_text(), str(page))), as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"][1:]  # after the magic
    assert code[1:3] == [
        '%%skip if(torch is None, reason="PyTorch is not installed: pip install torch")\n'
        "t = torch.tensor(2.0)",
        "t.item()",
    ]


def test_the_skip_magic_prints_the_reason_or_runs_the_cell_whose_errors_still_fail():
    """SKIP_MAGIC in a real kernel: a skip whose condition holds prints its reason and runs
    nothing; one whose condition does not runs the cell, which shows its result; an error
    in such a cell fails the notebook, as it would without the magic."""
    from scripts.notebooks.chapter_notebook import SKIP_MAGIC

    reason = 'reason="PyTorch is not installed: pip install torch"'
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in [
        SKIP_MAGIC[1],
        "torch = None",
        f"%%skip if(torch is None, {reason})\n1 / 0",
        f"%%skip if(torch is not None, {reason})\nvalue = 41\nvalue + 1",
        '%%skip "the page never runs this"\n1 / 0',
        f"%%skip if(False, {reason})\n1 / 0",
        "print('not reached')",
    ]])
    with kernel_config() as config, pytest.raises(CellExecutionError, match="ZeroDivisionError"):
        nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3", config=config).execute()
    skipped, ran, never, failed, after = notebook.cells[2:]
    assert [o.text for o in skipped.outputs] == ["PyTorch is not installed: pip install torch\n"]
    assert [o.data["text/plain"] for o in ran.outputs if o.output_type == "execute_result"] == ["42"]
    assert [o.text for o in never.outputs] == ["the page never runs this\n"]
    assert any(o.output_type == "error" for o in failed.outputs)
    assert after.outputs == [] and after.execution_count is None


def test_imported_packages_are_the_pypi_names_of_what_the_cells_import():
    from nbformat.v4 import new_code_cell, new_markdown_cell

    from scripts.notebooks.notebook_download import imported_packages
    cells = [new_markdown_cell("import pandas  # prose, not code"),
             new_code_cell("%matplotlib inline\nimport math\nimport matplotlib.pyplot as plt\n"
                           "from micrograd import Value"),
             new_code_cell("from sklearn.datasets import make_moons\nimport numpy as np"),
             new_code_cell("%%time\ntry:\n    import torch\nexcept ImportError:\n    torch = None"),
             new_code_cell("!pip list\nfrom IPython.display import HTML")]
    assert imported_packages(cells) == ["matplotlib", "numpy", "scikit-learn"]
    assert imported_packages(cells[:1]) == []
    with pytest.raises(ValueError, match="the notebook imports pandas"):
        imported_packages([new_code_cell("import pandas as pd")])
    with pytest.raises(ValueError, match="imports torch"):  # optional only where ImportError is caught
        imported_packages([new_code_cell("try:\n    import torch\nexcept KeyError:\n    pass")])


WHEEL = "http://127.0.0.1:8000/downloads/backprop_verified-0.1.0-py3-none-any.whl"
INSTALL_WITH_NUMPY = """\
import importlib.util
import subprocess
import sys


def missing(module):
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # its package is missing too
        return True


needs = {  # module: what pip installs for it
    "micrograd.trace": "backprop-verified[draw] @ http://127.0.0.1:8000/downloads/backprop_verified-0.1.0-py3-none-any.whl",
    "numpy": "numpy",
}
install = [package for module, package in needs.items() if missing(module)]
if install:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", *install])
    importlib.invalidate_caches()  # so the new packages are found without a restart"""


def test_the_install_cell_of_a_notebook_with_and_without_numpy():
    assert install_cell(["numpy"], WHEEL) == INSTALL_WITH_NUMPY
    assert install_cell([], WHEEL) == INSTALL_WITH_NUMPY.replace('    "numpy": "numpy",\n', "")
    assert '"sklearn": "scikit-learn",' in install_cell(["scikit-learn"], WHEEL)


@pytest.mark.parametrize("missing", [set(), {"numpy"}, {"micrograd"}])
def test_the_install_cell_installs_with_the_kernels_pip_only_what_is_missing(monkeypatch, missing):
    """Run here, where everything is importable unless this test hides it (find_spec)."""
    import importlib.util

    find_spec, calls = importlib.util.find_spec, []

    def hiding(name, *args):
        if name.split(".")[0] in missing:
            if "." in name:
                raise ModuleNotFoundError(name)  # as find_spec does when the package is missing
            return None
        return find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", hiding)
    monkeypatch.setattr(subprocess, "check_call", lambda command: calls.append(command))
    exec(install_cell(["numpy"], WHEEL), {})
    wanted = {"numpy": ["numpy"], "micrograd": [f"backprop-verified[draw] @ {WHEEL}"]}
    expected = [[sys.executable, "-m", "pip", "install", "--quiet", *wanted[m]] for m in missing]
    assert calls == expected


def test_a_download_says_where_it_comes_from_then_installs_what_it_needs():
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    from scripts.notebooks.notebook_download import for_download
    body = new_notebook(cells=[new_markdown_cell("# Page"), new_code_cell("import numpy as np")])
    page = "http://127.0.0.1:8000/09-tensors/"
    download = nbformat.reads(for_download(nbformat.writes(body), page, WHEEL), as_version=4)
    assert [(c.cell_type, c.source) for c in download.cells] == [
        ("markdown", "*This notebook is the page <http://127.0.0.1:8000/09-tensors/> of Backprop, "
                     "Verified, its code as cells. The first cell installs what it needs where it is "
                     "missing: the engine (`micrograd`, from the site's wheel), numpy.*"),
        ("code", INSTALL_WITH_NUMPY),
        ("markdown", "# Page"),
        ("code", "import numpy as np"),
    ]
    assert [c.id for c in download.cells] == ["cell-1", "cell-2", "cell-3", "cell-4"]


def _tiny_site(tmp_path, cells):
    """A site in tmp_path of one notebook chapter, 01-tiny.py in its docs/ (jupytext percent format)
    with `cells`, built by the notebook hook and mkdocs-jupyter as the real site is: (mkdocs.yml, site/)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "01-tiny.py").write_text("# %% [markdown]\n# # Tiny\n\n" + "".join(
        f"# %%\n{cell}\n\n" for cell in cells), encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(json.dumps({  # YAML is a superset of JSON
        "site_name": "tiny", "site_url": "http://127.0.0.1:8000/", "docs_dir": str(docs),
        "nav": [{"Home": "index.md"}, {"Tiny": "01-tiny.ipynb"}],
        "hooks": [str(ROOT / "scripts" / "build" / "hooks" / "notebook.py")],
        "plugins": [{"mkdocs-jupyter": {"include": ["01-tiny.ipynb"], "execute": False}}],
    }), encoding="utf-8")
    return config, tmp_path / "site"


def test_a_notebook_chapter_is_run_and_built_with_its_outputs_and_its_download(tmp_path):
    """The hook's whole job, as a build shows it: the notebook runs (a fresh cache key: its
    text is new), the page holds what its cells printed, the download installs the engine."""
    from tests.helpers import mkdocs_build

    marker = f"printed by a tiny notebook {os.getpid()} {time.time()}"
    config, site = _tiny_site(tmp_path, [f"print({marker!r})"])
    result = mkdocs_build(config, site)
    assert result.returncode == 0, result.stdout + result.stderr
    assert marker in (site / "01-tiny" / "index.html").read_text(encoding="utf-8")
    download = nbformat.reads((site / "01-tiny" / "01-tiny.ipynb").read_text(encoding="utf-8"), as_version=4)
    assert "http://127.0.0.1:8000/01-tiny/" in download.cells[0].source
    assert download.cells[-1].source == f"print({marker!r})" and not download.cells[-1].get("outputs")


def test_a_failing_notebook_fails_the_build_naming_the_page_and_the_error(tmp_path):
    from tests.helpers import mkdocs_build

    config, site = _tiny_site(tmp_path, ["x = 1", f"raise ValueError('tiny failure {time.time()}')"])
    result = mkdocs_build(config, site)
    output = ANSI_COLOUR.sub("", result.stdout + result.stderr)
    assert result.returncode != 0
    assert "docs/01-tiny.py: the notebook failed" in output and "ValueError: tiny failure" in output, output


def test_the_training_page_download_is_the_same_bytes_in_every_process():
    """Python's hash seed changes per process, and with it the order of a set: a download
    made in four processes is one file."""
    import os
    import subprocess
    import sys

    make = ("from scripts.notebooks.notebook_download import download_notebook; "
            f"print(download_notebook({str(NOTEBOOK)!r}), end='')")
    downloads = {subprocess.run([sys.executable, "-c", make], cwd=ROOT, check=True, capture_output=True, text=True,
                                env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(4)}
    assert len(downloads) == 1
    assert json.loads(downloads.pop())["cells"][0]["id"] == "cell-1"


# --- What the reader sees on the training page (issue 16), in Debian's Chromium ------------


@pytest.fixture(scope="module")
def training_page(browser, origin):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{origin}/06-training/", wait_until="load")
    yield page
    page.close()


def test_the_training_pages_cells_are_numbered_as_the_reader_sees_them(training_page):
    """Issue 16: the cells went from In [8] to In [11]: the hidden quiz cells and the answers'
    code took numbers in the kernel."""
    prompts = training_page.evaluate("""() => [...document.querySelectorAll('.jp-InputPrompt')]
        .map(p => p.textContent.replace(/\\s+/g, ' ').trim()).filter(Boolean)""")
    numbers = [int(n) for n in re.findall(r"In \[(\d+)\]:", " ".join(prompts))]
    assert numbers and numbers == list(range(1, len(numbers) + 1)), prompts


def test_the_last_quizs_answer_is_not_shown_before_its_answer_fold_is_opened(training_page):
    """Issue 16: "In this run the data loss is exactly 0" stood visible under the folded Answer
    of the last quiz, which asks whether the data loss or the penalty is left."""
    text = training_page.get_by_text("In this run the data loss is exactly 0")
    assert text.count() == 1 and not text.is_visible()
    fold = text.locator("xpath=ancestor::details[1]")
    fold.locator("summary").click()
    assert text.is_visible()


def test_a_quiz_on_the_training_page_leaves_no_comment_text_and_its_answer_opens_the_fold(training_page):
    """A learner clicking through: each quiz box had a stray "-->" after it (the quiz's comment
    replaced up to, not through, its close), and an answer never opened the Answer fold,
    which in a notebook is the next cell's, not the quiz box's sibling."""
    page = training_page
    stray = page.evaluate("""() => [...document.querySelectorAll('.jp-MarkdownOutput')]
        .filter(cell => cell.textContent.includes('-->')).length""")
    assert stray == 0
    quiz = page.locator('.bv-quiz[data-quiz="number"]').first
    quiz.scroll_into_view_if_needed()
    cell = "div[contains(concat(' ', @class, ' '), ' jp-Cell ')]"
    fold = page.locator(f"#{quiz.get_attribute('id')} >> xpath=ancestor::{cell}[1]/following-sibling::{cell}[1]"
                        "//details").first
    assert fold.get_attribute("open") is None
    quiz.get_by_label("Its learning rate").fill(quiz.get_attribute("data-shown"))
    quiz.get_by_label("Its learning rate").press("Enter")
    assert quiz.get_attribute("data-state") == "right"
    assert fold.get_attribute("open") is not None
    assert quiz.locator(".bv-quiz__feedback").text_content().endswith("The explanation is open below.")


PHONE_COLUMN_PX = 320  # the narrowest column a phone gives a plot (a 360 px screen); 358 at 390 px


def test_a_plots_text_is_11px_or_more_on_a_phone(executed_notebook):
    """Issue 27, item 5: chapter 6's plot labels were 9–10 px on a phone. A plot is shown as
    wide as the column (extra.css: img.plot), so its text's size on screen is its size in the
    PNG (font.size in points at figure.dpi) scaled by the column over the PNG's width. Every
    text of the plots is font.size: no cell sets a size of its own."""
    import ast
    import base64
    import struct

    source = NOTEBOOK.read_text(encoding="utf-8")
    call = next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
                and ast.unparse(node.func) == "plt.rcParams.update")
    settings = ast.literal_eval(call.args[0])
    assert not re.search(r"fontsize|labelsize", source), "a text of its own size: check it here too"
    em_in_png = settings["font.size"] * settings["figure.dpi"] / 72
    widths = [struct.unpack(">I", base64.b64decode(output["data"]["image/png"])[16:20])[0]
              for cell in executed_notebook.cells if cell.cell_type == "code"
              for output in cell.get("outputs", []) if "image/png" in output.get("data", {})]
    assert len(widths) == 3, widths
    smallest = {width: round(em_in_png * min(1, PHONE_COLUMN_PX / width), 1) for width in widths}
    assert all(px >= 11 for px in smallest.values()), smallest

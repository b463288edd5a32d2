"""The notebook page docs/06-training.py: it runs cell by cell in a Jupyter
kernel, as mkdocs-jupyter runs it, and its outputs show what the page says.

A failing cell fails the test with that cell's error. The assertions read the
executed notebook's own outputs: nothing here is a copy of a result.
"""

import os
import re
import subprocess
import sys

import jupytext
import nbclient
import pytest
from nbclient.exceptions import CellExecutionError

from scripts.examples import ROOT

NOTEBOOK = ROOT / "docs" / "06-training.py"
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks


@pytest.fixture(scope="module")
def executed():
    nb = jupytext.read(NOTEBOOK)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3",
        resources={"metadata": {"path": str(ROOT)}},  # cwd = repo root, as under mkdocs
    )
    try:
        client.execute()
    except CellExecutionError as error:  # holds the cell's source and its traceback
        traceback = ANSI_COLOUR.sub("", str(error))
        pytest.fail(f"{NOTEBOOK}: a cell failed\n{traceback}", pytrace=False)
    return nb


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


def test_exactly_three_plots(executed):
    images = [out for out in outputs(executed)
              if out.output_type in ("display_data", "execute_result")
              and "image/png" in out.get("data", {})]
    assert len(images) == 3  # loss curve, accuracy curve, decision boundary
    for image in images:
        assert len(image.data["image/png"]) > 1000  # base64 PNG, not an empty figure


def test_same_numbers_as_a_plain_python_run(executed):
    """Deterministic: the notebook kernel and a plain `python` run print the same."""
    result = subprocess.run(
        [sys.executable, str(NOTEBOOK)], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "MPLBACKEND": "Agg"}, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == printed_text(executed)

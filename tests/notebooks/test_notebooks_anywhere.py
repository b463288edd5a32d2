"""Every downloaded notebook runs anywhere, as a reader runs it: downloaded over HTTP from
the built site, in a fresh virtual environment that has only Jupyter in it (on a machine
with Graphviz, as Colab is), in a folder outside the repository. Its first cell installs
what it needs: the engine from the wheel the site serves, and numpy, matplotlib,
scikit-learn where it imports them. Chapter 8's PyTorch cells print what to install.
Each notebook holds its page: a cell to answer each quiz in, the answer folded in
<details>, every exercise, links only to addresses (none to a .md file). Chapter 4 runs
twice: as downloaded, each exercise's check prints failures (it never raises), and with
each solution pasted in, each passes. The install cell pins the wheel by its sha256: served
with other bytes, pip refuses it.

Slow (uv installs Jupyter, then the notebooks' pip installs numpy, matplotlib and
scikit-learn; pip's own cache helps), and it needs PyPI: measured times are in the test's
printed summary (-rP).
"""

import ast
import copy
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest

from scripts import ROOT
from scripts.notebooks.chapter_notebook import ANSWER_TAG
from scripts.reader.exercise_format import load
from tests.helpers import page_urls, serve_site

pytestmark = pytest.mark.network  # uv and the notebooks' pip install from PyPI

JUPYTER = ["ipykernel", "nbclient"]  # all the fresh environment has, besides pip
TORCH_REASON = "PyTorch is not installed: pip install torch"

# Run by the fresh environment's Python: each notebook in argv top to bottom, in a kernel
# of that environment, its working directory the notebook's folder; writes the executed
# notebook as <stem>.ran.ipynb and prints {notebook: error or None} as JSON. The kernel
# talks over Unix sockets, not TCP ports another process may take first (scripts/
# training_notebook.py: kernel_config; the fresh environment has none of our code).
RUNNER = """\
import json, pathlib, re, sys, tempfile
import nbclient, nbformat
from nbclient.exceptions import CellExecutionError
from traitlets.config import Config
failures = {}
for path in map(pathlib.Path, sys.argv[1:]):
    notebook = nbformat.read(path, as_version=4)
    try:
        with tempfile.TemporaryDirectory(prefix="kernel-") as folder:
            nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                    config=Config({"KernelManager": {"transport": "ipc", "ip": folder + "/k"}}),
                                    resources={"metadata": {"path": str(path.parent)}}).execute()
        failures[path.name] = None
    except CellExecutionError as error:
        failures[path.name] = re.sub(r"\\x1b\\[[0-9;]*m", "", str(error))
    nbformat.write(notebook, path.with_suffix(".ran.ipynb"))
print(json.dumps(failures))
"""

# What the fresh environment must not inherit from this test run: the repository's venv,
# its import path, pytest's matplotlib backend, the build's "no bytecode". pip's settings
# (PIP_*, proxies) stay.
NOT_INHERITED = {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "MPLBACKEND",
                 "PYTHONDONTWRITEBYTECODE"}


def _environment():
    """The environment of the fresh Jupyter and its kernels. pip does not compile what it
    installs (PIP_NO_COMPILE): numpy, matplotlib, scipy and scikit-learn hold thousands of
    modules, and Python compiles the few a notebook imports when it first imports them."""
    inherited = {k: v for k, v in os.environ.items()
                 if k not in NOT_INHERITED and not k.startswith(("JUPYTER", "PYTEST", "IPYTHON"))}
    return {**inherited, "PIP_NO_COMPILE": "1"}


@pytest.fixture(scope="session")
def jupyter_only(tmp_path_factory):
    """(python, seconds): a new virtual environment with only JUPYTER installed (and pip, which
    the notebooks' install cells call), its Python's path, and how long making it took. Made by
    uv (the test extra's, pyproject.toml): 2 s here, where venv and pip took 13 s; what the
    notebooks then install, they install with pip, as on a reader's machine. Session-scoped and
    requested before the site, so under pytest-xdist it is made while another worker builds it."""
    start = time.perf_counter()
    folder = tmp_path_factory.mktemp("jupyter-only")
    uv = Path(sys.executable).with_name("uv")
    made = subprocess.run([uv, "--no-config", "venv", "--quiet", "--seed", "--python", sys.executable, folder],
                          capture_output=True, text=True, env=_environment())  # no --system-site-packages
    assert made.returncode == 0, f"uv venv:\n{made.stderr}"
    python = folder / "bin" / "python"
    installed = subprocess.run([uv, "--no-config", "pip", "install", "--quiet", "--python", python, *JUPYTER],
                               capture_output=True, text=True, env=_environment())
    assert installed.returncode == 0, f"uv pip install {' '.join(JUPYTER)}:\n{installed.stderr}"
    return python, time.perf_counter() - start


def test_every_downloaded_notebook_runs_in_a_fresh_jupyter_that_installs_what_it_needs(
        jupyter_only, served_site, site, tmp_path):
    python, made_in = jupyter_only
    start = time.perf_counter()
    work = tmp_path / "reader"  # outside the repository: its micrograd cannot be imported
    work.mkdir()
    stems = ["index" if path == "." else path for path, _ in page_urls(site)]
    for stem in stems:
        with urllib.request.urlopen(f"{served_site}{stem}/{stem}.ipynb") as response:
            (work / f"{stem}.ipynb").write_bytes(response.read())
    # chapter 4 once more, each exercise's solution pasted into its cell, as a reader would
    solved = _with_solutions_pasted(nbformat.read(work / "04-engine.ipynb", as_version=4))
    nbformat.write(solved, work / f"{SOLVED}.ipynb")
    ran = subprocess.run([python, "-c", RUNNER, *(f"{stem}.ipynb" for stem in [*stems, SOLVED])],
                         cwd=work, capture_output=True, text=True, env=_environment())
    assert ran.returncode == 0, ran.stderr
    failures = {name: error for name, error in json.loads(ran.stdout).items() if error}
    assert not failures, "\n\n".join(f"{name}: {error}" for name, error in failures.items())

    notebooks = {stem: nbformat.read(work / f"{stem}.ran.ipynb", as_version=4) for stem in [*stems, SOLVED]}
    for stem in stems:
        _holds_the_page(stem, notebooks[stem], served_site)
    # each exercise's check: the starter fails (printed, not raised); the solution passes
    for stem in ["04-engine", SOLVED]:
        checks = [c for c in notebooks[stem].cells if c.source.startswith("%check_exercise ")]
        assert len(checks) == EXERCISES_IN_CHAPTER_4, stem
        for cell in checks:
            tests = _test_count(cell.source.split()[1])
            first = _printed(cell).split("\n")[0]
            passed = re.fullmatch(r"All (\d+) tests passed\.|(\d+) of (\d+) tests passed\.", first)
            assert passed, (stem, cell.source, _printed(cell))
            if stem == SOLVED:
                assert passed.group(1) == str(tests), (cell.source, _printed(cell))
            else:
                assert passed.group(3) == str(tests) and int(passed.group(2)) < tests, (cell.source, _printed(cell))
                assert "  failed  " in _printed(cell)
    for stem, notebook in notebooks.items():
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        assert code and all(cell.execution_count for cell in code), stem
        raised = [c for c in code if any(o.output_type == "error" for o in c.outputs)]
        assert all("raises-exception" in c.metadata.get("tags", []) for c in raised), stem  # as the page
    skipped = [cell for cell in notebooks["08-pytorch"].cells if cell.source.startswith("%%skip")]
    assert skipped and all(_printed(cell) == f"{TORCH_REASON}\n" for cell in skipped)

    # the kernel was the fresh environment's, and its engine came from the site's wheel
    direct_url = subprocess.run(
        [python, "-c", "from importlib.metadata import distribution as d; "
                       "print(d('backprop-verified').read_text('direct_url.json'))"],
        cwd=work, capture_output=True, text=True, check=True).stdout
    assert json.loads(direct_url)["url"].startswith(f"{served_site}downloads/backprop_verified-")

    installing = sum(_seconds(notebook.cells[1]) for notebook in notebooks.values())
    print(f"notebooks anywhere: Jupyter's environment {made_in:.1f} s (uv), {len(stems)} notebooks "
          f"{time.perf_counter() - start:.1f} s, of which their install cells (pip) {installing:.1f} s")


SOLVED = "04-engine-solved"  # chapter 4's notebook with each exercise's solution pasted in
EXERCISES_IN_CHAPTER_4 = 7
# An inline link's target, [text](target), or an HTML href
LINK = re.compile(r'\]\(\s*<?([^()\s<>]+)|\bhref="([^"]*)"')


def _with_solutions_pasted(notebook):
    """A copy of `notebook` with each %%exercise cell's code replaced by its exercise's
    solution (docs/exercises/), which its %exercise_solution cell shows after two tries."""
    notebook = copy.deepcopy(notebook)
    for i, cell in enumerate(notebook.cells):
        if cell.source.startswith("%%exercise "):
            name = cell.source.split("\n")[0].split()[1]
            solution = load(name).solution
            assert any(c.source == f"%exercise_solution {name}" for c in notebook.cells[i:]), name
            cell.source = f"%%exercise {name}\n{solution}"
    return notebook


def _test_count(name):
    return sum(isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
               for node in ast.parse(load(name).tests).body)


def _holds_the_page(stem, notebook, site_url):
    """The notebook of page `stem` holds the page (docs/<stem>.md or .py): a cell to answer
    each quiz in, each followed by the answer folded in <details>; each exercise; links only
    to addresses, none to a .md file."""
    source = next(p for p in (ROOT / "docs").glob(f"{stem}.*") if p.suffix in (".md", ".py")).read_text()
    cells = notebook.cells
    answers = [i for i, c in enumerate(cells) if ANSWER_TAG in c.metadata.get("tags", [])]
    assert len(answers) == source.count("<!-- quiz:"), stem
    for i in answers:
        after = next(c for c in cells[i:] if ANSWER_TAG not in c.metadata.get("tags", []))
        assert after.source.startswith("<details>\n<summary>Answer</summary>"), (stem, after.source)
    folds = [c for c in cells if c.source.startswith("<details>\n<summary>Answer</summary>")]
    # a chapter's answer folds; the training notebook's Markdown answer cells
    assert len(folds) == source.count('??? success "Answer"') + source.count('# %% [markdown] tags=["answer"]'), stem
    assert sum(c.source.startswith("%%exercise ") for c in cells) == source.count("<!-- exercise:"), stem
    markdown = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    targets = [a or b for a, b in LINK.findall(markdown)]
    assert targets or stem in ("09-tensors",), stem
    assert [t for t in targets if not t.startswith(("https://", "http://", "mailto:"))] == [], stem
    assert [t for t in targets if urllib.parse.urlsplit(t).path.endswith(".md")] == [], stem
    assert not re.search(r"open it in the\s+repository", markdown), stem


def _printed(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def _seconds(cell):
    """How long nbclient saw the cell run (its timing metadata), in seconds."""
    from datetime import datetime

    timing = cell.metadata["execution"]
    start, end = (datetime.fromisoformat(timing[k].replace("Z", "+00:00"))
                  for k in ("iopub.execute_input", "shell.execute_reply"))
    return (end - start).total_seconds()



def test_the_engines_wheel_is_the_same_bytes_in_every_build(tmp_path):
    """Two builds (and the build's cached one) are one file: SOURCE_DATE_EPOCH fixes every
    entry's time, which would otherwise be the build's. It holds the engine's modules."""
    import zipfile

    from scripts import ROOT
    from scripts.notebooks import wheel

    first, second = wheel.build(tmp_path / "first"), wheel.build(tmp_path / "second")
    assert first.read_bytes() == second.read_bytes() == wheel.wheel().read_bytes()
    assert first.name.startswith("backprop_verified-") and first.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(first) as archive:
        entries = archive.infolist()
    assert {e.date_time for e in entries} == {(1980, 1, 1, 0, 0, 0)}
    modules = sorted(e.filename for e in entries if e.filename.startswith("micrograd/"))
    assert modules == sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "micrograd").glob("*.py"))


def test_a_changed_wheel_is_refused_by_the_install_cells_hash(served_site, tmp_path):
    """Issue 25, item 7: the install cell named the wheel over plain HTTP with no hash, so
    whoever served other bytes at that address had them installed and run. Chapter 4's own
    install cell, downloaded from the site, runs in a fresh Python (pip, no engine) against a
    server that serves the wheel's file name with other bytes (the site's wheel plus one
    module): pip refuses it, naming the hash the site computed, and installs nothing."""
    import hashlib
    import zipfile

    with urllib.request.urlopen(f"{served_site}04-engine/04-engine.ipynb") as response:
        install = nbformat.reads(response.read().decode(), as_version=4).cells[1].source
    pinned = re.search(r'@ (\S+)#sha256=([0-9a-f]{64})",', install)
    assert pinned, f"the install cell names the wheel without its #sha256=:\n{install}"
    address, digest = pinned.groups()
    with urllib.request.urlopen(address) as response:
        served = response.read()
    assert hashlib.sha256(served).hexdigest() == digest  # the hash is the served wheel's

    changed = tmp_path / "changed" / "downloads" / address.rsplit("/", 1)[1]
    changed.parent.mkdir(parents=True)
    changed.write_bytes(served)
    with zipfile.ZipFile(changed, "a") as archive:
        archive.writestr("micrograd/changed.py", "print('not the engine the site built')\n")
    python = _fresh_python(tmp_path / "fresh")
    with serve_site(changed.parents[1]) as elsewhere:
        ran = subprocess.run([python, "-c", install.replace(served_site, f"{elsewhere}/")],
                             cwd=tmp_path, capture_output=True, text=True, env=_environment())
    assert ran.returncode != 0, ran.stdout + ran.stderr
    assert "THESE PACKAGES DO NOT MATCH THE HASHES" in ran.stderr, ran.stderr
    assert f"Expected sha256 {digest}" in ran.stderr, ran.stderr
    listed = subprocess.run([python, "-m", "pip", "list"], capture_output=True, text=True, check=True).stdout
    assert "backprop-verified" not in listed and "backprop_verified" not in listed


def _fresh_python(folder):
    """A new virtual environment's Python, with pip and nothing else (uv, as jupyter_only)."""
    uv = Path(sys.executable).with_name("uv")
    subprocess.run([uv, "--no-config", "venv", "--quiet", "--seed", "--python", sys.executable, folder],
                   check=True, capture_output=True, env=_environment())
    return folder / "bin" / "python"

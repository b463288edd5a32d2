"""The notebook chapters' runs in one build (docs/NN-*.py, jupytext percent format).

Each chapter runs in a Jupyter kernel behind a content-keyed cache and is prepared for the site
(scripts/notebooks/training_notebook.py: site_notebook), in a process of its own: a fresh
process always runs the current code, where `mkdocs serve` keeps the modules it first imported.
start_uncached() starts the chapters whose prepared notebook is not cached when the build starts,
so they run beside the Markdown pages' runs; prepared() waits for one, and starts it then if
its notebook or micrograd/ changed since.

The runs are jobs of the build's SiteBuild (scripts/build/site_build.py: start, started), which
the hooks pass in: this module does not import it (.importlinter: only the hooks do).
"""

import subprocess
import sys

from scripts import ROOT
from scripts.notebooks.training_notebook import notebook_chapters, site_notebook_path

STDERR_SHOWN = 5000  # characters of a failed run's stderr in its error: the failing cell, its traceback


class NotebookFailed(Exception):
    """A notebook chapter's run failed: the message ends with its stderr (the last STDERR_SHOWN
    characters: the failing cell and its traceback)."""


def start_uncached(build, docs_dir):
    """Start the run of each notebook chapter in `docs_dir` whose prepared notebook is not in
    the cache (site_notebook_path), as a job of `build` (a SiteBuild): one process each, at most
    one per chapter and build. Returns None; a failure is raised by prepared()."""
    for path in notebook_chapters(docs_dir):
        if not site_notebook_path(path).exists():
            _start(build, path)


def prepared(build, path):
    """The Path of the notebook chapter at `path` (a str or Path) prepared for the site, once the
    process that runs it has ended: the one start_uncached() started in `build`, or one started
    now if the prepared notebook is not cached (the chapter or micrograd/ changed since). Returns
    at once if it is cached and no run was started. Raises NotebookFailed if the run failed."""
    run = None
    if build.started(_job(path)) or not site_notebook_path(path).exists():
        run = _start(build, path)
    if run is not None and (result := run.result()).returncode != 0:
        raise NotebookFailed(f"the notebook failed\n{result.stderr[-STDERR_SHOWN:]}")
    return site_notebook_path(path)


def _start(build, path):
    """The Future of the process that runs and prepares the notebook at `path`: one per build."""
    command = [sys.executable, "-m", "scripts.notebooks.training_notebook", str(path)]
    return build.start(_job(path), subprocess.run, command, cwd=ROOT, capture_output=True, text=True)


def _job(path):
    return f"notebook {path}"

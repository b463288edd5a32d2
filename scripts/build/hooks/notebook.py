"""MkDocs hook: the notebook chapters (docs/NN-*.py, jupytext percent format) as pages.

Each runs in a Jupyter kernel behind a content-keyed cache and is prepared for
the site (scripts/notebooks/training_notebook.py: site_notebook); mkdocs-jupyter turns
the prepared .ipynb into the page without executing anything. A notebook whose
run is not cached starts, in a process of its own, when the build starts
(on_pre_build), so it runs beside the Markdown pages' runs; on_files waits for
it. The page's download is the notebook without outputs, with a first cell
that installs what it needs (scripts/notebooks/notebook_download.py). The page's plots are
files beside it, not data inside it (scripts/pages/notebook_plots.py), and it keeps only the
rules of mkdocs-jupyter's stylesheet it uses (scripts/pages/notebook_css.py).
"""

import posixpath
import subprocess
import sys

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from scripts import ROOT
from scripts.build.site_build import SiteBuild
from scripts.notebooks.notebook_download import download_notebook, served
from scripts.notebooks.training_notebook import notebook_chapters, site_notebook_path
from scripts.pages import notebook_css, notebook_plots


def on_pre_build(config):
    build = SiteBuild.of(config)
    for path in notebook_chapters(config["docs_dir"]):
        if not site_notebook_path(path).exists():  # a fresh process: always the current code
            _run(build, path)


@event_priority(40)  # the contract with mkdocs-jupyter: it wraps .ipynb pages in its on_files (0)
def on_files(files, config):
    build = SiteBuild.of(config)
    for source in [f for f in files if f.src_uri in {p.name for p in notebook_chapters(config["docs_dir"])}]:
        files.remove(source)
        prepared = _prepared(build, source)
        files.append(File(prepared.name, str(prepared.parent), config["site_dir"], config["use_directory_urls"]))
        stem = prepared.stem
        url = File(f"{stem}.md", config["docs_dir"], config["site_dir"], config["use_directory_urls"]).url
        download = served(download_notebook(source.abs_src_path), config["site_url"], url)
        files.append(File.generated(config, f"{stem}/{stem}.ipynb", content=download))
    return files


def on_page_content(html, page, config, files):
    if not page.file.src_uri.endswith(".ipynb"):  # a notebook chapter's page (mkdocs-jupyter)
        return html
    try:
        html, plots = notebook_plots.extract(html)
    except notebook_plots.NotebookPlotError as error:
        raise PluginError(f"docs/{page.file.src_uri}: {error}") from None
    folder = posixpath.dirname(page.file.dest_uri)  # the page's folder: its src names are relative
    for name, png in plots:
        files.append(File.generated(config, posixpath.join(folder, name), content=png))
    return html


@event_priority(-100)  # last: after the math hook has put KaTeX's HTML into the page
def on_post_page(output, page, config):
    if not page.file.src_uri.endswith(".ipynb"):  # a notebook chapter's page (mkdocs-jupyter)
        return output
    try:
        return notebook_css.purge(output)
    except notebook_css.NotebookCssError as error:
        raise PluginError(f"docs/{page.file.src_uri}: {error}") from None


def _prepared(build, source):
    """The prepared notebook's path, once the process that runs it has ended (the one
    on_pre_build started, or one started now if the notebook or micrograd/ changed since).
    PluginError with the failing cell and its traceback if it failed."""
    path = source.abs_src_path
    run = None
    if build.started(_job(path)) or not site_notebook_path(path).exists():
        run = _run(build, path)
    if run is not None and (result := run.result()).returncode != 0:
        raise PluginError(f"docs/{source.src_uri}: the notebook failed\n{result.stderr[-5000:]}")
    return site_notebook_path(path)


def _run(build, path):
    """The Future of the process that runs and prepares the notebook at `path`: one per build."""
    command = [sys.executable, "-m", "scripts.notebooks.training_notebook", str(path)]
    return build.start(_job(path), subprocess.run, command, cwd=ROOT, capture_output=True, text=True)


def _job(path):
    return f"notebook {path}"

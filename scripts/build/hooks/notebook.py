"""MkDocs hook: the notebook chapters (docs/NN-*.py, jupytext percent format) as pages.

Each runs behind a content-keyed cache in a process of its own (scripts/build/notebook_runs.py),
started when the build starts (on_pre_build) if not cached, and waited for in on_files;
mkdocs-jupyter turns the prepared .ipynb into the page without executing anything. The page's
download is the notebook without outputs, with a first cell that installs what it needs
(scripts/notebooks/notebook_download.py). The page's plots are files beside it, not data inside
it (scripts/pages/notebook_plots.py), it loads no MathJax (scripts/pages/notebook_mathjax.py), and
it keeps only the rules of mkdocs-jupyter's stylesheet it uses (scripts/pages/notebook_css.py).
"""

import posixpath

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from scripts.build import notebook_runs
from scripts.build.site_build import SiteBuild
from scripts.notebooks.notebook_download import download_notebook, served
from scripts.notebooks.training_notebook import notebook_chapters
from scripts.pages import notebook_css, notebook_mathjax, notebook_plots


def on_pre_build(config):
    notebook_runs.start_uncached(SiteBuild.of(config), config["docs_dir"])


@event_priority(40)  # the contract with mkdocs-jupyter: it wraps .ipynb pages in its on_files (0)
def on_files(files, config):
    chapters = {path.name for path in notebook_chapters(config["docs_dir"])}
    for source in [f for f in files if f.src_uri in chapters]:
        files.remove(source)
        try:
            prepared = notebook_runs.prepared(SiteBuild.of(config), source.abs_src_path)
        except notebook_runs.NotebookFailed as error:
            raise PluginError(f"docs/{source.src_uri}: {error}") from None
        files.append(File(prepared.name, str(prepared.parent), config["site_dir"], config["use_directory_urls"]))
        url = File(f"{prepared.stem}.md", config["docs_dir"], config["site_dir"], config["use_directory_urls"]).url
        download = served(download_notebook(source.abs_src_path), config["site_url"], url)
        files.append(File.generated(config, f"{prepared.stem}/{prepared.stem}.ipynb", content=download))
    return files


def on_page_content(html, page, config, files):
    if not page.file.src_uri.endswith(".ipynb"):  # a notebook chapter's page (mkdocs-jupyter)
        return html
    try:
        html, plots = notebook_plots.extract(notebook_mathjax.without_mathjax(html))
    except (notebook_plots.NotebookPlotError, notebook_mathjax.NotebookMathjaxError) as error:
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

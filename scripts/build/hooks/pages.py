"""MkDocs hook: run every Markdown page at build time and put what its directives built in place.

The runs (scripts/build/page_runs.py: each page in a fresh process, cached on its text and the
code it runs) start as a future when the build starts, beside the training notebook's, and are
collected in on_files: the build's one computation of them (scripts/build/site_build.py), which
progress.json reads too. Their files (figures, traces, the page as a notebook, with
the install cell of scripts.notebooks.notebook_download.served, which the cached run leaves
out: it does not depend on site_url) enter the build through File.generated, never
written into docs/. A failing example or directive fails the build with
docs/<page>.md:<line>, and so does a number in the prose without an exact source: each one
becomes a link to the code that printed it (scripts/pages/number_sources.py). Under `serve --dirty`,
the built file of a page that had to run again (micrograd/ or scripts/ changed) is removed, so
MkDocs renders it again.
"""

import multiprocessing.forkserver
import os

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts.build.page_runs import PageError, fork_server, place_outputs
from scripts.build.site_build import SiteBuild
from scripts.notebooks.notebook_download import served
from scripts.pages.number_sources import NumberSourceError, link_numbers

os.environ.setdefault("MPLBACKEND", "Agg")  # the pages' and the notebooks' processes draw to files


def on_startup(command, dirty):
    """`mkdocs serve`: the fork server starts now and imports its libraries while the first
    build runs, so the first edit's page does not wait for them (about 1.3 s)."""
    if command == "serve":
        fork_server()
        multiprocessing.forkserver.ensure_running()


def on_pre_build(config):
    SiteBuild.of(config).page_runs()  # started now, beside the training notebook's run


def on_files(files, config):
    pages = [f for f in files.documentation_pages() if f.src_uri.endswith(".md")]
    try:
        found = SiteBuild.of(config).page_runs().result()
    except PageError as error:
        raise PluginError(str(error)) from None
    for page in pages:
        run = found[page.src_uri]
        if run.ran and os.path.exists(page.abs_dest_path):  # stale: serve --dirty renders it again
            os.remove(page.abs_dest_path)
        for uri, content in sorted(run.result["files"].items()):
            if uri.endswith(".ipynb"):  # the page as a notebook: with its install cell
                content = served(content, config["site_url"], page.url)
            files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    run = SiteBuild.of(config).page_runs().result().get(page.file.src_uri)
    if run is None:
        return markdown
    where = f"docs/{page.file.src_uri}"
    try:  # each number of the prose a link to its source, then the directives' outputs
        markdown = link_numbers(markdown, run.result["numbers"], where)
        return place_outputs(markdown, run.result["outputs"], where)
    except (PageError, NumberSourceError) as error:
        raise PluginError(str(error)) from None

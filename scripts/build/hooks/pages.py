"""MkDocs hook: run every Markdown page at build time and put what its directives built in place.

The runs (scripts/build/page_runs.py: each page in a fresh process, cached on its text and the
code it runs) start as a future when the build starts, beside the training notebook's,
and are collected in on_files. Their files (figures, traces, the page as a notebook, with
the install cell of scripts.notebooks.notebook_download.for_download, which the cached run leaves
out: it does not depend on site_url) enter the build through File.generated, never
written into docs/. A failing example or directive fails the build with
docs/<page>.md:<line>, and so does a number in the prose without an exact source: each one
becomes a link to the code that printed it (scripts/pages/number_sources.py). Under `serve --dirty`,
the built file of a page that had to run again (micrograd/ or scripts/ changed) is removed, so
MkDocs renders it again.
"""

import multiprocessing.forkserver
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # ... nor in the processes that run pages
os.environ.setdefault("MPLBACKEND", "Agg")

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts.build.page_runs import Page, PageError, fork_server, place_outputs, runs
from scripts.notebooks import wheel
from scripts.notebooks.notebook_download import for_download
from scripts.pages.number_sources import NumberSourceError, link_numbers

_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pages")
_started = {}  # "runs": the Future of every docs/**/*.md page's run, from on_pre_build
_runs = {}  # page src_uri -> scripts.build.page_runs.Run, for on_page_markdown


def on_startup(command, dirty):
    """`mkdocs serve`: the fork server starts now and imports its libraries while the first
    build runs, so the first edit's page does not wait for them (about 1.3 s)."""
    if command == "serve":
        fork_server()
        multiprocessing.forkserver.ensure_running()


def on_pre_build(config):
    docs = Path(config["docs_dir"])
    pages = [Page(path.relative_to(docs).as_posix(), path) for path in sorted(docs.rglob("*.md"))]
    _started["runs"] = _pool.submit(runs, pages)


def on_files(files, config):
    pages = [f for f in files.documentation_pages() if f.src_uri.endswith(".md")]
    try:
        found = _started.pop("runs").result()
    except PageError as error:
        raise PluginError(str(error)) from None
    _runs.clear()
    _runs.update(found)
    for page in pages:
        run = found[page.src_uri]
        if run.ran and os.path.exists(page.abs_dest_path):  # stale: serve --dirty renders it again
            os.remove(page.abs_dest_path)
        for uri, content in sorted(run.result["files"].items()):
            if uri.endswith(".ipynb"):  # the page as a notebook: with its install cell
                content = for_download(content, urljoin(config["site_url"], page.url),
                                       wheel.url(config["site_url"]))
            files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    run = _runs.get(page.file.src_uri)
    if run is None:
        return markdown
    where = f"docs/{page.file.src_uri}"
    try:  # each number of the prose a link to its source, then the directives' outputs
        markdown = link_numbers(markdown, run.result["numbers"], where)
        return place_outputs(markdown, run.result["outputs"], where)
    except (PageError, NumberSourceError) as error:
        raise PluginError(str(error)) from None

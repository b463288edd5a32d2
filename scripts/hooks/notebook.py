"""MkDocs hook: the notebook chapters (docs/NN-*.py, jupytext percent format).

Each one is executed once per change of itself or of micrograd/ (cached,
scripts/notebooks.py), prepared for the site (math rendered by KaTeX, plots
with alt text), and handed to mkdocs-jupyter as NN-*.ipynb, which turns it
into the page without executing anything. The page's download is the same
notebook without outputs, NN-*/NN-*.ipynb, with a first cell that installs what
it needs (scripts.notebooks.for_download: the engine from the site's wheel).

The execution starts in its own process (scripts/run_notebook.py) before the
build reads any file (on_pre_build), so it runs while the pages hook runs the
Markdown pages, on every CPU but one, which its kernel gets to itself
(_leave_a_cpu_to). That process also prepares the page (math, plots, folds).
MkDocs reads every page before it builds any; while the notebook runs, its
page sits out that reading (on_nav) and is read when its turn to be built
comes, last (on_page_context), so every other page is built meanwhile. Only
then does the build wait for the notebook (on_pre_page), doing ahead what it
can of the work that follows (_warm_up).
"""

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again

import jupytext
import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs_jupyter import convert
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from scripts import ROOT, wheel
from scripts.katex import render_markdown_math
from scripts.notebooks import (
    cached,
    download_notebook,
    for_download,
    site_notebook,
    site_notebook_path,
)

_started = []  # processes executing notebooks, started by on_pre_build
_giving_back = []  # threads that give the build every CPU back when those end (_leave_a_cpu_to)
_sources = {}  # the notebook page's src_uri -> the File of its docs/NN-*.py
_unread = {}  # the src_uri of a notebook page read at its build (on_nav) -> the build's Files


def on_pre_build(config):
    started = [subprocess.Popen([sys.executable, "-m", "scripts.run_notebook", str(path)],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for path in sorted(Path(config["docs_dir"]).glob("[0-9][0-9]-*.py")) if not cached(path)]
    if started:
        _started.extend(started)
        if waiter := _leave_a_cpu_to(started):
            _giving_back.append(waiter)


@event_priority(40)  # before mkdocs-jupyter wraps the notebook files
def on_files(files, config):
    _sources.clear()
    for source in [f for f in files if _is_notebook_chapter(f)]:
        files.remove(source)
        stem = Path(source.src_uri).stem
        prepared = site_notebook_path(source.abs_src_path)  # made by on_pre_page
        # a File in the cache folder, not File.generated: mkdocs-jupyter reads abs_src_path,
        # which it derives from src_dir
        page = File(f"{stem}.ipynb", str(prepared.parent), config["site_dir"],
                    config["use_directory_urls"])
        page.source_path = source.abs_src_path  # for scripts/hooks/sources.py
        _sources[page.src_uri] = source
        files.append(page)
        # the page's address: MkDocs' URL of a page of that name (the File above is not one yet)
        url = File(f"{stem}.md", config["docs_dir"], config["site_dir"], config["use_directory_urls"]).url
        download = for_download(download_notebook(source.abs_src_path),
                                urljoin(config["site_url"], url), wheel.url(config["site_url"]))
        files.append(File.generated(config, f"{stem}/{stem}.ipynb", content=download))
    return files


def on_nav(nav, config, files):
    """A notebook page whose notebook still runs (it or micrograd/ changed) is read at its
    build, not with the other pages: MkDocs reads every page before it builds any, so a
    wait in the reading would hold back every page's build. Until on_env it is no
    documentation page, and MkDocs' reading passes it by; on_page_context reads it.

    Also for `serve --dirty`: such a page is a changed page. By now mkdocs-jupyter has
    wrapped its File in a NotebookFile, which MkDocs asks before the file exists
    (File.is_modified() reads the file's mtime: a crash on a missing file)."""
    _unread.clear()
    for file in files:  # a notebook page's File lives where the notebook process will write it
        if file.src_uri in _sources and not Path(file.abs_src_path).exists():
            file.is_modified = lambda: True
            file.is_documentation_page = lambda: False
            _unread[file.src_uri] = files
    return nav


@event_priority(100)  # first: no other hook should see it as anything but a page
def on_env(env, config, files):
    for file in files:
        if file.src_uri in _unread:
            del file.is_documentation_page  # a page again; on_files put it last, so it is built last
    return env


@event_priority(100)  # before the search plugin and the other hooks read the page's content
def on_page_context(context, page, config, nav):
    files = _unread.pop(page.file.src_uri, None)
    if files is not None:  # what MkDocs does as it reads a page (mkdocs.commands.build._populate_page)
        page = config.plugins.on_pre_page(page, config=config, files=files)  # waits for the notebook
        page.read_source(config)
        page.markdown = config.plugins.on_page_markdown(page.markdown, page=page, config=config, files=files)
        page.render(config, files)
        page.content = config.plugins.on_page_content(page.content, page=page, config=config, files=files)
    return context


@event_priority(10)  # before mkdocs-jupyter reads the notebook
def on_pre_page(page, config, files):
    source = _sources.get(page.file.src_uri)
    if source is not None:
        try:
            if not Path(page.file.abs_src_path).exists():  # still running: nothing else to do meanwhile
                _warm_up(source.abs_src_path)
            # waits for the process on_pre_build started; runs the notebook itself if that failed
            site_notebook(source.abs_src_path)
        except Exception as error:  # a failing cell: its source and traceback
            message = str(error)
            raise PluginError(message if message.startswith("docs/") else
                              f"docs/{source.src_uri}: {message}") from error
    return page


def on_post_build(config):
    while _started:
        _started.pop().wait()
    while _giving_back:  # every CPU is the build's again before it goes on (serve's threads)
        _giving_back.pop().join()


def _leave_a_cpu_to(processes):
    """Keep the build off one CPU while `processes` (list[subprocess.Popen], the notebook
    processes, started just before) run, so their Jupyter kernel has that CPU to itself:
    the kernel's cells are a cold build's critical path. The thread that calls this (the
    build's) runs on the other CPUs, and so do the processes it starts meanwhile (the page
    processes of `mkdocs build`, KaTeX's Node.js); a thread waiting for `processes` gives
    the build every CPU back when they end. Returns that thread (None: nothing to do, on
    one CPU or where os.sched_setaffinity does not exist, as on macOS).

    Measured on this 2-CPU machine, 6 cold builds each, alternating: the kernel got 94-97 %
    of a CPU over its life, against 92-94 % when it shared them, and a build took 0.7 s less
    besides the kernel's own CPU time (median 3.2 s, was 3.9 s), which drifts with the
    machine's speed (12.6-17.2 s in those builds).
    """
    if not hasattr(os, "sched_setaffinity") or len(every := os.sched_getaffinity(0)) < 2:
        return None
    build = threading.get_native_id()  # an affinity is a thread's (serve builds in a thread)
    os.sched_setaffinity(build, every - {max(every)})

    def give_back():
        for process in processes:
            process.wait()
        with contextlib.suppress(ProcessLookupError):  # that thread has ended
            os.sched_setaffinity(build, every)

    waiter = threading.Thread(target=give_back, name="notebook-cpu", daemon=True)
    waiter.start()
    return waiter


def _warm_up(path):
    """What the build does once the notebook is ready, done while it runs: KaTeX renders its
    Markdown cells' formulas (render() keeps them for the math hook's on_post_page), and
    mkdocs-jupyter converts a two-cell notebook: a process's first conversion costs 0.3-0.4 s
    more than the next (what nbconvert sets up once per process; its templates it compiles
    on every conversion, and that stays)."""
    for cell in jupytext.read(path).cells:
        if cell.cell_type == "markdown":
            render_markdown_math(cell.source)
    notebook = new_notebook(cells=[new_markdown_cell("# A title\n\nSome *text*, `code`."),
                                   new_code_cell("print(1)", outputs=[new_output(
                                       "stream", name="stdout", text="1\n")])])
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm-up.ipynb"
        warm.write_text(nbformat.writes(notebook), encoding="utf-8")
        convert.nb2html(str(warm))


def _is_notebook_chapter(file):
    name = Path(file.src_uri)
    return name.parent == Path(".") and name.suffix == ".py" and name.stem[:2].isdigit()

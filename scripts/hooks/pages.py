"""MkDocs hook: run every Markdown page at build time and put what its directives built in place.

For each page, scripts.pages.build_run runs the page's examples in a fresh
process (so `mkdocs serve` runs the current micrograd), forked from a
multiprocessing fork server that has the heavy libraries already imported
(scripts.pages.PRELOAD; it lives as long as `mkdocs serve`), and returns, for each
`<!-- kind: ... -->` directive in page order, the Markdown that replaces it,
plus the generated files (figures, the page as a notebook), which enter the
build through File.generated (never written into docs/, so serve does not
loop). The page's notebook is served as scripts.notebooks.for_download makes
it: first a cell that installs the engine from the site's wheel (at
site_url, scripts/wheel.py), so it runs in any Jupyter; that is done here,
outside the cached run, which therefore does not depend on site_url.
A run is cached on the page's text and the source of everything it runs
(micrograd/, scripts/, docs/exercises/), so a prose edit re-runs one page.
A failing example or directive fails the build with docs/<page>.md:<line>.

Under `mkdocs serve --dirty` (scripts/dev.sh serve), MkDocs re-renders only
the pages whose source changed; a page that had to run again (its text, or
micrograd/ or scripts/, changed) counts as changed too, so what its code
computes is never stale.
"""

import hashlib
import importlib.util
import json
import multiprocessing
import multiprocessing.forkserver
import os
import re
import sys
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # ... nor in the processes that run pages
os.environ.setdefault("MPLBACKEND", "Agg")

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from scripts import ROOT, wheel
from scripts.notebooks import for_download
from scripts.pages import PRELOAD, build_run

CACHE = ROOT / ".cache" / "pages"
DEPENDENCIES = ["micrograd/**/*.py", "scripts/**/*.py", "docs/exercises/**/*"]
PAGE_TIMEOUT = 900  # seconds for all the pages that must run, at most
DIRECTIVE = re.compile(r"<!--\s*(?P<kind>[\w-]+):.*?-->", re.DOTALL)

_runs = {}  # page src_uri -> {"outputs": [...], "files": {...}}


def on_startup(command, dirty):
    """`mkdocs serve`: the fork server starts now, in the background, and imports PRELOAD
    while the first build runs (when every page's run is cached, that build needs no page
    process). The first edit's page then does not wait for those imports, about 1.3 s."""
    if command == "serve":
        _fork_server()
        multiprocessing.forkserver.ensure_running()


def on_config(config):
    _importable()
    return config


@event_priority(50)  # before mkdocs-jupyter and the other hooks see the files
def on_files(files, config):
    pages = [f for f in files.documentation_pages() if f.src_uri.endswith(".md")]
    shared = _dependencies_digest()
    runs = [_cached(page, shared) for page in pages]
    missing = [page for page, run in zip(pages, runs) if run is None]
    if missing:
        with _fork_server().Pool(min(len(missing), os.cpu_count() or 2), maxtasksperchild=1) as pool:
            work = pool.starmap_async(build_run, [(_path(page), page.src_uri) for page in missing])
            fresh = work.get(timeout=PAGE_TIMEOUT)  # a crashed page process would leave it waiting
        for page, result in zip(missing, fresh):
            if "error" in result:
                raise PluginError(result["error"])
            _store(page, shared, result)
        fresh = iter(fresh)
        runs = [(next(fresh), True) if run is None else run for run in runs]
    _runs.clear()
    wheel_url = wheel.url(config["site_url"]) if pages else None
    for page, (result, ran) in zip(pages, runs):
        _runs[page.src_uri] = result
        if ran:  # for dirty builds: re-render the page, not only when its file is newer
            page.is_modified = lambda: True
        for uri, content in sorted(result["files"].items()):
            if uri.endswith(".ipynb"):  # the page as a notebook: with its install cell
                content = for_download(content, urljoin(config["site_url"], page.url), wheel_url)
            files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    result = _runs.get(page.file.src_uri)
    if result is None:
        return markdown
    outputs = iter(result["outputs"])

    def replace(match):
        line = markdown.count("\n", 0, match.start()) + 1
        output = next(outputs, None)
        if output is None or (output["kind"], output["line"]) != (match["kind"], line):
            raise PluginError(f"docs/{page.file.src_uri}:{line}: the page changed while it was "
                              f"built ({match['kind']} here, {output and output['kind']} built)")
        return output["markdown"]

    known = {o["kind"] for o in result["outputs"]}
    text = DIRECTIVE.sub(lambda m: replace(m) if m["kind"] in known else m[0], markdown)
    if next(outputs, None) is not None:
        raise PluginError(f"docs/{page.file.src_uri}: fewer directives on the page than were built")
    return text


def _dependencies_digest():
    # the interpreter, whether PyTorch's examples run or skip, and every file a page's run reads
    torch = importlib.util.find_spec("torch") is not None
    digest = hashlib.sha256(f"{sys.version} torch={torch}".encode())
    for pattern in DEPENDENCIES:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _cache_path(page_file, shared):
    source = Path(page_file.abs_src_path)
    key = hashlib.sha256(shared.encode() + page_file.src_uri.encode() + source.read_bytes())
    stem = page_file.src_uri.replace("/", "_").removesuffix(".md")
    return CACHE / f"{stem}-{key.hexdigest()[:24]}.json", stem


def _cached(page_file, shared):
    """(the page run's JSON, False) from the cache, or None if the page must run."""
    cached, _ = _cache_path(page_file, shared)
    if cached.exists():
        return json.loads(cached.read_text(encoding="utf-8")), False
    return None


def _store(page_file, shared, result):
    cached, stem = _cache_path(page_file, shared)
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{stem}-*.json"):
        stale.unlink()
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(result), encoding="utf-8")
    tmp.replace(cached)


def _path(page_file):
    return os.path.relpath(page_file.abs_src_path, ROOT)  # "docs/<page>.md" in messages


def _fork_server():
    """The multiprocessing context whose processes run pages: forked from one server that
    has PRELOAD imported (set here; it takes effect when the server first starts)."""
    _importable()  # the server starts with this sys.path, and imports scripts.low_priority
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _importable():
    # MkDocs restores sys.path after loading each hook; the build's later imports (and the
    # processes that run pages, which start with this sys.path) need `scripts` importable.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))

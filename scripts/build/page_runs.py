"""Every Markdown page's run for the site build, behind a content-keyed cache.

runs(pages) runs the pages whose run is not cached, each in a fresh process
(scripts.build.page_build.build_run; so `mkdocs serve` always runs the current
micrograd/ and scripts/), forked from a multiprocessing fork server that has
the heavy libraries already imported (scripts.build.page_build.PRELOAD; it lives as long
as `mkdocs serve`). A run is cached in .cache/pages/ on the page's text and
the source of everything a run reads (micrograd/, scripts/, docs/exercises/,
the interpreter, whether PyTorch is installed), so a prose edit runs one page.

place_outputs(markdown, outputs, where) puts what a run's directives built in
place of their `<!-- kind: ... -->` comments.
"""

import dataclasses
import hashlib
import importlib.util
import json
import multiprocessing
import os
import re
import sys
from pathlib import Path

from scripts import ROOT
from scripts.build.page_build import PRELOAD, build_run

CACHE = ROOT / ".cache" / "pages"
DEPENDENCIES = ["micrograd/**/*.py", "scripts/**/*.py", "docs/exercises/**/*"]
PAGE_TIMEOUT = 900  # seconds for all the pages that must run, at most
DIRECTIVE = re.compile(r"<!--\s*(?P<kind>[\w-]+):.*?-->", re.DOTALL)


class PageError(Exception):
    """A page whose example or directive failed: the message is docs/<page>.md:<line>: reason."""


@dataclasses.dataclass
class Page:
    """A Markdown page to run: its path relative to docs/ (src_uri) and its file (path)."""

    src_uri: str
    path: Path


@dataclasses.dataclass
class Run:
    """A page's run: {"outputs": [{kind, line, markdown}], "files": {path: str}}, and whether it
    ran now (False: it came from the cache)."""

    result: dict
    ran: bool


def runs(pages):
    """{src_uri: Run} for `pages` (a list of Page): from the cache, or run now in parallel.
    Raises PageError for the first page that failed (every page runs first)."""
    shared = _dependencies_digest()
    found = {page.src_uri: _cached(page, shared) for page in pages}
    missing = [page for page in pages if found[page.src_uri] is None]
    if missing:
        with fork_server().Pool(min(len(missing), os.cpu_count() or 2), maxtasksperchild=1) as pool:
            work = pool.starmap_async(build_run, [(os.path.relpath(page.path, ROOT), page.src_uri)
                                                  for page in missing])
            fresh = work.get(timeout=PAGE_TIMEOUT)  # a crashed page process would leave it waiting
        for page, result in zip(missing, fresh):
            if "error" in result:
                raise PageError(result["error"])
            _store(page, shared, result)
            found[page.src_uri] = Run(result, ran=True)
    return found


def place_outputs(markdown, outputs, where):
    """`markdown` with each directive comment a run built replaced by its output's Markdown.

    outputs: the run's {"kind", "line", "markdown"} in page order; comments of other kinds
    stay. where: the page's name in errors. Raises PageError naming the line if the page
    and the run disagree (the page changed while it was built)."""
    outputs = list(outputs)
    known = {output["kind"] for output in outputs}
    pending = iter(outputs)

    def replace(match):
        if match["kind"] not in known:
            return match[0]
        line = markdown.count("\n", 0, match.start()) + 1
        output = next(pending, None)
        if output is None or (output["kind"], output["line"]) != (match["kind"], line):
            raise PageError(f"{where}:{line}: the page changed while it was built "
                            f"({match['kind']} here, {output and output['kind']} built)")
        return output["markdown"]

    text = DIRECTIVE.sub(replace, markdown)
    if next(pending, None) is not None:
        raise PageError(f"{where}: fewer directives on the page than were built")
    return text


def fork_server():
    """The multiprocessing context whose processes run pages: forked from one server that has
    PRELOAD imported (it takes effect when the server first starts)."""
    if str(ROOT) not in sys.path:  # the server starts with this sys.path
        sys.path.insert(0, str(ROOT))
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _dependencies_digest():
    # the interpreter, whether PyTorch's examples run or skip, and every file a page's run reads
    torch = importlib.util.find_spec("torch") is not None
    digest = hashlib.sha256(f"{sys.version} torch={torch}".encode())
    for pattern in DEPENDENCIES:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _cache_path(page, shared):
    key = hashlib.sha256(shared.encode() + page.src_uri.encode() + Path(page.path).read_bytes())
    stem = page.src_uri.replace("/", "_").removesuffix(".md")
    return CACHE / f"{stem}-{key.hexdigest()[:24]}.json", stem


def _cached(page, shared):
    cached, _ = _cache_path(page, shared)
    if cached.exists():
        return Run(json.loads(cached.read_text(encoding="utf-8")), ran=False)
    return None


def _store(page, shared, result):
    cached, stem = _cache_path(page, shared)
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{stem}-*.json"):
        stale.unlink()
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(result), encoding="utf-8")
    tmp.replace(cached)

"""MkDocs hooks: draw every chapter's figures at build time; serve KaTeX locally.

Figures: for each Markdown page, scripts/figures.py runs the page's examples
in a fresh process (so `mkdocs serve` picks up edits to micrograd/) and
returns one SVG per `<!-- figure: alt -->` comment. The SVGs enter the build
as generated files (never written into docs/, so serve does not loop) and
each comment becomes an image. A page whose code fails, or whose figure
cannot be drawn, fails the build with page and line.

Page sources: each page's source file is served as _sources/<page>.txt, and
Material's "view source" button (content.action.view) links to it, so the
link works on any host and needs no repository URL.

KaTeX: the files of the `katex` npm package (package.json, installed into
node_modules/) are added to the build under assets/katex/, so math needs no
third-party host.
"""

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # MkDocs loads this file by path; make `scripts` importable

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url
from sybil import Document

from scripts.examples import FigureParser

KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
KATEX_FILES = ["katex.min.js", "katex.min.css", "contrib/auto-render.min.js"]

_COMMENT_CLOSE = re.compile(r"-+>")
_INDENT = re.compile(r"[ \t]*")
_figures = {}  # page src_uri -> list of figure dicts, in page order


def on_files(files, config):
    pages = [f for f in files.documentation_pages() if f.src_uri.endswith(".md")]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(_render, pages))
    _figures.clear()
    for page, figures in zip(pages, results):
        _figures[page.src_uri] = figures
        for n, figure in enumerate(figures, start=1):
            files.append(File.generated(config, str(_figure_uri(page, n)), content=figure["svg"]))
    for page in files.documentation_pages():
        files.append(File.generated(config, _source_uri(page), abs_src_path=page.abs_src_path))
    _add_katex(files, config)
    return files


def on_page_context(context, page, config, nav):
    page.edit_url = get_relative_url(_source_uri(page.file), page.file.url)
    return context


def _source_uri(page_file):
    return f"_sources/{page_file.src_uri}.txt"


def on_page_markdown(markdown, page, config, files):
    figures = _figures.get(page.file.src_uri, [])
    comments = list(FigureParser.lexer(Document(markdown, page.file.src_uri)))
    if len(comments) != len(figures):
        raise PluginError(f"{page.file.src_uri}: {len(comments)} figure comments, "
                          f"{len(figures)} figures drawn")
    out, place = [], 0
    for n, (comment, figure) in enumerate(zip(comments, figures), start=1):
        alt = figure["alt"].replace("[", "(").replace("]", ")")
        # The comment's region starts at its line's indentation (inside an admonition or a tab),
        # so the image keeps it and stays in the same block.
        indent = _INDENT.match(markdown, comment.start).group()
        url = _figure_uri(page.file, n).relative_to(PurePosixPath(page.file.src_uri).parent)
        out += [markdown[place : comment.start],  # the image links to itself: click for full size
                f"{indent}[![{alt}]({url}){{ .graph loading=lazy }}]({url})"]
        place = _COMMENT_CLOSE.match(markdown, comment.end).end()  # Sybil's region stops before -->
    out.append(markdown[place:])
    return "".join(out)


def _figure_uri(page_file, n):
    """docs/a/b.md's n-th figure is a/b/figure-n.svg in the build."""
    return PurePosixPath(page_file.src_uri).with_suffix("") / f"figure-{n}.svg"


def _render(page_file):
    path = os.path.relpath(page_file.abs_src_path, ROOT)  # "docs/<page>.md" in messages
    result = subprocess.run(
        [sys.executable, "-m", "scripts.figures", path],
        cwd=ROOT, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise PluginError(result.stderr.strip() or f"{path}: figure renderer failed")
    return json.loads(result.stdout)


def _add_katex(files, config):
    if not KATEX_DIST.is_dir():
        raise PluginError("KaTeX is missing: run `npm ci` (the README's commands do it)")
    names = KATEX_FILES + [f"fonts/{p.name}" for p in sorted((KATEX_DIST / "fonts").glob("*.woff2"))]
    for name in names:
        files.append(File(name, str(KATEX_DIST), config["site_dir"], config["use_directory_urls"],
                          dest_uri=f"assets/katex/{name}"))

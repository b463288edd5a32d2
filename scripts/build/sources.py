"""A page's source as an HTML page that any host serves with the right characters.

A plain `.txt` copy is served as text/plain, usually without a charset, and
browsers then decode UTF-8 (`a·b`, `−3`) as windows-1252 (`aÂ·b`, `âˆ’3`). An
HTML page declares its encoding itself (<meta charset="utf-8">), so it reads
right from any host.

page_sources(): for each page built from docs/<page>, the site serves _sources/<page>.html
(source_page) and _sources/<page>.txt (the raw file, downloaded under its own name), and the
page links to the first and to itself as a notebook, <page>/<page>.ipynb, which the build makes
for every page (scripts/build/hooks/pages.py for a Markdown page, scripts/build/hooks/notebook.py
for a notebook chapter). A notebook page's source is its jupytext file (source_of).
"""

import html
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mkdocs.utils import get_relative_url

STYLE = """
body { margin: 0 auto; max-width: 60rem; padding: 1rem; font: 16px/1.5 system-ui, sans-serif;
       color: #1a1a1a; background: #fff; }
a { color: #4527a0; }
pre { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap;
      overflow-wrap: anywhere; background: #f5f5f5; padding: 1rem; border-radius: 4px; }
@media (prefers-color-scheme: dark) {
  body { color: #e6e6e6; background: #1e2129; }
  a { color: #b39ddb; }
  pre { background: #2b2f3a; }
}
"""


def source_page(source, path, page_url, raw_url, filename, policy=None):
    """The HTML page (str) showing `source` (the file's text) verbatim.

    path: the file's path in the repository, e.g. "docs/04-engine.md", shown as
    the title. page_url, raw_url: links (relative to this page) back to the
    rendered page and to the raw file, downloaded as `filename`. policy: the site's
    Content-Security-Policy (str), put in a <meta> as every page has it, or None.
    """
    meta = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">\n' if policy else ""
    return f"""<!doctype html>
<html lang="en">
<head>
{meta}<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{html.escape(path)} · source · Backprop, Verified</title>
<style>{STYLE}</style>
</head>
<body>
<header><nav aria-label="Source">
<a href="{html.escape(page_url)}">Back to the page</a> ·
<a href="{html.escape(raw_url)}" download="{html.escape(filename)}">Download {html.escape(filename)}</a>
</nav></header>
<main>
<h1>{html.escape(path)}</h1>
<pre>{html.escape(source)}</pre>
</main>
</body>
</html>
"""


def source_of(src_uri, docs_dir):
    """The file the page `src_uri` is built from, a Path: docs_dir/src_uri, or for a notebook
    page NN-name.ipynb made from a jupytext file (scripts/build/hooks/notebook.py), docs_dir/NN-name.py."""
    page = Path(docs_dir) / src_uri
    jupytext_file = page.with_suffix(".py")
    return jupytext_file if page.suffix == ".ipynb" and jupytext_file.is_file() else page


@dataclass(frozen=True)
class PageSource:
    """What the site serves for one page's source, and the page's links to it.

    src_uri: the page's. path: the file it is built from (source_of). raw_uri, html_uri: where
    the site serves that file as it is (_sources/<name>.txt: not a page) and as source_page's
    HTML (_sources/<name>.html). html: that HTML. links: {"page_source_url",
    "page_notebook_url"}, relative to the page (partials/actions.html reads them).
    """

    src_uri: str
    path: Path
    raw_uri: str
    html_uri: str
    html: str
    links: dict


def page_sources(pages, docs_dir, config_file_path, policy=None):
    """A PageSource (list, in order) for each (src_uri, url) in `pages`, the site's pages.

    docs_dir: the build's docs folder; each page's file is read from it (UTF-8). config_file_path:
    the build's mkdocs.yml, whose folder the source's path is shown relative to ("docs/04-engine.md");
    if empty, the path is shown under "docs". Raises OSError if a page's file cannot be read,
    UnicodeDecodeError if it is not UTF-8, and ValueError if docs_dir is not under
    config_file_path's folder. policy: the site's Content-Security-Policy, for each page's <meta>.
    """
    docs = Path(docs_dir)
    shown = (PurePosixPath(docs.resolve().relative_to(Path(config_file_path).resolve().parent))
             if config_file_path else PurePosixPath("docs"))
    found = []
    for src_uri, url in pages:
        path = source_of(src_uri, docs)
        name = path.relative_to(docs).as_posix()
        raw, page_html = f"_sources/{name}.txt", f"_sources/{name}.html"  # .txt: not a page
        text = source_page(path.read_text(encoding="utf-8"), str(shown / name),
                           get_relative_url(url or ".", page_html), get_relative_url(raw, page_html),
                           name.rsplit("/", 1)[-1], policy)
        notebook = f"{PurePosixPath(src_uri).with_suffix('')}/{PurePosixPath(name).stem}.ipynb"
        links = {"page_source_url": get_relative_url(page_html, url),
                 "page_notebook_url": get_relative_url(notebook, url)}
        found.append(PageSource(src_uri, path, raw, page_html, text, links))
    return found

"""A page's source as an HTML page that any host serves with the right characters.

A plain `.txt` copy is served as text/plain, usually without a charset, and
browsers then decode UTF-8 (`a·b`, `−3`) as windows-1252 (`aÂ·b`, `âˆ’3`). An
HTML page declares its encoding itself (<meta charset="utf-8">), so it reads
right from any host.
"""

import html
from pathlib import Path

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


def source_page(source, path, page_url, raw_url, filename):
    """The HTML page (str) showing `source` (the file's text) verbatim.

    path: the file's path in the repository, e.g. "docs/04-engine.md", shown as
    the title. page_url, raw_url: links (relative to this page) back to the
    rendered page and to the raw file, downloaded as `filename`.
    """
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
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

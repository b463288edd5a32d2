"""The notebook page's stylesheet cut to the rules it uses, by PurgeCSS (the npm package pinned
in package.json), run at build time.

mkdocs-jupyter writes its whole stylesheet into the page: JupyterLab's CSS and Material's
palette again as variables, 575 KB inline in `<style type="text/css">` blocks. Chapter 6 was
980 KB of HTML, and its every style recalculation matched its elements against those rules
and carried hundreds of custom properties down the tree (its main thread's style and layout:
429 ms on this machine, 198 ms with the sheet left out; issue 27, item 6).

    from scripts.pages.notebook_css import purge
    purge(page_html)  # -> the same page, each of those <style> blocks with only the rules it uses

PurgeCSS keeps a rule when its selectors' classes, ids, tags and attributes occur in the
page, and a custom property or @keyframes when a kept rule uses it. Nothing else of the page
changes. The answer is cached by the input's SHA-256 in .cache/notebook-css/ (the build is a
cache: an edit to a chapter rebuilds this page, not its stylesheet).

Raises NotebookCssError (a ValueError) if Node.js or the package is missing, or PurgeCSS fails.
"""

import hashlib
import json
import re
import shutil
import subprocess

from scripts import ROOT

PURGECSS = ROOT / "node_modules" / "purgecss"
CACHE = ROOT / ".cache" / "notebook-css"

# mkdocs-jupyter's blocks (its template, notebook.html.j2); the site's own styles are files
_STYLE = re.compile(r'(<style type="text/css">)(.*?)(</style>)', re.DOTALL)

# Reads {"html", "css": [...]} on stdin, writes the purged sheets as a JSON list on stdout.
_PURGE = """
const { PurgeCSS } = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const { html, css } = JSON.parse(input);
  const result = await new PurgeCSS().purge({
    content: [{ raw: html, extension: "html" }],
    css: css.map((raw) => ({ raw })),
    variables: true, keyframes: true, fontFace: true,
  });
  process.stdout.write(JSON.stringify(result.map((sheet) => sheet.css)));
});
"""


class NotebookCssError(ValueError):
    """PurgeCSS could not run (no Node.js, no package) or failed; the message says which."""


def purge(html):
    """`html` (str, a page mkdocs-jupyter wrote) with each of its `<style type="text/css">`
    blocks holding only the rules, custom properties and keyframes the page uses. Returns a
    str; a page without such blocks comes back unchanged."""
    sheets = [m[2] for m in _STYLE.finditer(html)]
    if not sheets:
        return html
    version = json.loads((PURGECSS / "package.json").read_text(encoding="utf-8"))["version"] \
        if (PURGECSS / "package.json").exists() else None
    # the page without the sheets themselves, whose text names every class they style
    request = json.dumps({"html": _STYLE.sub("", html), "css": sheets})
    key = hashlib.sha256(f"{version}\n{request}".encode()).hexdigest()[:24]
    cached = CACHE / f"{key}.json"
    if cached.exists():
        purged = json.loads(cached.read_text(encoding="utf-8"))
    else:
        purged = _run(request, version)
        CACHE.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(purged), encoding="utf-8")
    it = iter(purged)
    return _STYLE.sub(lambda m: m[1] + next(it) + m[3], html)


def _run(request, version):
    node = shutil.which("node")
    if node is None or version is None:
        raise NotebookCssError("PurgeCSS needs Node.js and node_modules/purgecss: run `npm ci`")
    result = subprocess.run([node, "-e", _PURGE, str(PURGECSS)], input=request, capture_output=True,
                            text=True, encoding="utf-8", timeout=120)
    if result.returncode != 0:
        raise NotebookCssError(f"PurgeCSS failed on the notebook page: {result.stderr[-2000:]}")
    return json.loads(result.stdout)

"""Front-end files from node_modules/ that the site serves itself (no CDN): KaTeX's stylesheet
and fonts (the math is rendered at build time), the minimal Pyodide runtime the reader's
Python starts from on the first Run (no micropip, no packages), and Graphviz as WebAssembly
(@viz-js/viz: one ES module with the wasm inside, 1.2 MB raw, 0.47 MB gzipped), which
draws in the page what draw_dot gives in the reader's Python, and DOMPurify (dompurify's ES
module, 82 KB raw, 21 KB gzipped), which cleans that drawing before it reaches the page
(docs/javascripts/shared/viz.js loads both on the first redraw, never with the page).

The packages are pinned exactly in package.json and package-lock.json. Each is served under
assets/<name>/<version>/, so a new pin is a new URL and no browser keeps a stale copy.
"""

import json

from scripts import ROOT

NODE_MODULES = ROOT / "node_modules"
# (folder under node_modules/, files or globs inside it, where the site serves them)
ASSETS = [
    ("katex/dist", ["katex.min.css", "fonts/*.woff2"], "assets/katex"),
    ("pyodide", ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"],
     "assets/pyodide/{version}"),
    ("@viz-js/viz", ["dist/viz.js"], "assets/viz/{version}"),
    ("dompurify", ["dist/purify.es.mjs"], "assets/dompurify/{version}"),
]


class MissingAsset(FileNotFoundError):
    """A package or file of ASSETS is not in node_modules/ (the message says to run npm ci)."""


def asset_files():
    """Every served file, as (folder under node_modules/ (Path), name inside it, dest_uri).
    Raises MissingAsset for a missing package or pattern."""
    served = []
    for package, patterns, target in ASSETS:
        folder = NODE_MODULES / package
        if not folder.is_dir():
            raise MissingAsset(f"node_modules/{package} is missing: run `npm ci` (the README's commands do it)")
        target = target.format(version=package_version(package))
        for pattern in patterns:
            matches = sorted(folder.glob(pattern))
            if not matches:
                raise MissingAsset(f"node_modules/{package}/{pattern} is missing: run `npm ci`")
            served += [(folder, path.relative_to(folder).as_posix(),
                        f"{target}/{path.relative_to(folder).as_posix()}") for path in matches]
    return served


def pyodide_folder():
    """Where the site serves Pyodide, relative to the site's root: "assets/pyodide/<version>/"."""
    return f"assets/pyodide/{package_version('pyodide')}/"


def viz_module():
    """Where the site serves Viz's module, relative to the site's root: "assets/viz/<version>/dist/viz.js"."""
    return f"assets/viz/{package_version('@viz-js/viz')}/dist/viz.js"


def sanitizer_module():
    """Where the site serves DOMPurify's ES module, relative to the site's root:
    "assets/dompurify/<version>/dist/purify.es.mjs"."""
    return f"assets/dompurify/{package_version('dompurify')}/dist/purify.es.mjs"


def pyodide_bytes():
    """The size in bytes of the Pyodide files the site serves (what a first Run downloads)."""
    folder = pyodide_folder()
    return sum((source / name).stat().st_size for source, name, dest in asset_files() if dest.startswith(folder))


def package_version(folder):
    """The installed version of the npm package that holds node_modules/<folder> (str)."""
    parts = folder.split("/")
    root = NODE_MODULES.joinpath(*parts[: 2 if parts[0].startswith("@") else 1])
    return json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]

"""MkDocs hook: front-end files from node_modules/, served by the site itself (no CDN).

KaTeX's stylesheet and fonts (the math itself is rendered at build time), and
the minimal Pyodide runtime the reader's Python starts from on the first Run
(docs/javascripts/python-worker.js; no micropip, no packages). The packages
are pinned exactly in package.json and package-lock.json; a missing one fails
the build with the command that installs it. A target may hold {version}, the
installed package's version: Pyodide is served under assets/pyodide/<version>/,
so a new pin is a new URL and no browser keeps a stale runtime.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts import ROOT

NODE_MODULES = ROOT / "node_modules"
# (folder under node_modules/, files or globs inside it, where the site serves them)
ASSETS = [
    ("katex/dist", ["katex.min.css", "fonts/*.woff2"], "assets/katex"),
    ("pyodide", ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"],
     "assets/pyodide/{version}"),
]


def on_files(files, config):
    for package, patterns, target in ASSETS:
        folder = NODE_MODULES / package
        if not folder.is_dir():
            raise PluginError(f"node_modules/{package} is missing: run `npm ci` "
                              "(the README's commands do it)")
        target = target.format(version=package_version(package)) if "{version}" in target else target
        for pattern in patterns:
            matches = sorted(folder.glob(pattern))
            if not matches:
                raise PluginError(f"node_modules/{package}/{pattern} is missing: run `npm ci`")
            for path in matches:
                name = path.relative_to(folder).as_posix()
                files.append(File(name, str(folder), config["site_dir"], config["use_directory_urls"],
                                  dest_uri=f"{target}/{name}"))
    return files


def package_version(folder):
    """The installed version of the npm package that holds node_modules/<folder>."""
    parts = folder.split("/")
    root = NODE_MODULES.joinpath(*parts[: 2 if parts[0].startswith("@") else 1])
    return json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]

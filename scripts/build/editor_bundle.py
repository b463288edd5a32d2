"""The exercise editor: docs/javascripts/editor/editor.js bundled with CodeMirror 6 by esbuild, at
build time, cached in .cache/editor/ on a hash of its inputs."""

import hashlib
import json
import os
import subprocess

from scripts import ROOT

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
EDITOR_SOURCE = "javascripts/editor/editor.js"  # under docs/; replaced in the build by its bundle
EDITOR_CACHE = ROOT / ".cache" / "editor"


class BundleError(RuntimeError):
    """esbuild is missing or could not bundle the editor (the message says which)."""


def editor_bundle(source):
    """docs/javascripts/editor/editor.js bundled with CodeMirror by esbuild, as str.

    Cached in .cache/editor/ on a hash of the source, package-lock.json and
    esbuild's version. BundleError if esbuild is missing or fails.
    """
    if not ESBUILD.exists():
        raise BundleError("esbuild is missing: run `npm ci` (the README's commands do it)")
    lock = ROOT / "package-lock.json"
    key = hashlib.sha256(source.read_bytes() + (lock.read_bytes() if lock.exists() else b"")
                         + _esbuild_version().encode()).hexdigest()[:16]
    cached = EDITOR_CACHE / f"editor-{key}.js"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    banner = ("/* The exercise editor: CodeMirror 6 (MIT License, Marijn Haverbeke and others), "
              "bundled by esbuild from docs/javascripts/editor/editor.js. */")
    result = subprocess.run(
        [str(ESBUILD), str(source), "--bundle", "--format=esm", "--minify", "--target=es2020",
         "--log-level=error", f"--banner:js={banner}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise BundleError(f"esbuild could not bundle {source.relative_to(ROOT)}:\n{result.stderr}")
    EDITOR_CACHE.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(result.stdout, encoding="utf-8")
    tmp.replace(cached)  # atomic: two builds at once (pytest -n 2) never read half a file
    return result.stdout


def _esbuild_version():
    package = ROOT / "node_modules" / "esbuild" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else "?"

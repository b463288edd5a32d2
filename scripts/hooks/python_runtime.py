"""MkDocs hook: Python in the reader's browser: the site's Python, the exercises, and Run.

Build side of docs/javascripts/{exercise,run-blocks,editor,python,python-worker}.js.
The Pyodide runtime itself is served by scripts/hooks/assets.py (listed before
this hook in mkdocs.yml); this hook finds where, and adds:

- The site's Python: micrograd/, scripts/ (what runs a reader's code: PYTHON_SCRIPTS)
  and docs/exercises/ are packed into assets/python/site-python.zip, at their
  repository paths, with the `graphviz` package (pure Python: draw_dot builds
  its graph in the browser too; no Graphviz program draws it there). Byte for
  byte the same on every build (sorted, fixed timestamps). The worker unpacks
  it into Pyodide's file system.
- The editor: docs/javascripts/editor.js is bundled with CodeMirror 6 by
  esbuild into one file served under the same name; the bundle is cached in
  .cache/editor/ on a hash of its inputs.
- Exercises: each `<!-- exercise: <name> -->` line becomes the exercise of
  docs/exercises/<name>.py (scripts/exercise_format.py reads it): a heading one
  level below the `##` section it is in, the instructions, the starter code as a
  plain code block (readable without JavaScript), a hints fold and a
  solution fold. A page with exercises also gets exercise.js, which adds the
  editor, Run and Reset. An unknown exercise fails the build with page and line.
- Run on a chapter's blocks (scripts/blocks.py decides which pages): the
  page gets run-blocks.js and a hidden element that names its blocks.json
  (exported when the page ran), the page lines of its visible blocks (the
  script binds one Run button to each rendered Python block, in order, and
  checks the count), the runtime and the zip.

Generated files enter the build with File.generated, never written into docs/.
"""

import hashlib
import html
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from scripts import ROOT, blocks, exercise_format

PYODIDE = re.compile(r"assets/pyodide/[^/]+/pyodide\.mjs")  # where scripts/hooks/assets.py serves it
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
EDITOR_SOURCE = "javascripts/editor.js"  # under docs/; replaced in the build by its bundle
EDITOR_CACHE = ROOT / ".cache" / "editor"
PYTHON_ZIP = "assets/python/site-python.zip"
# What of scripts/ runs in the reader's Python (stdlib only), with scripts/__init__.py
PYTHON_SCRIPTS = ["__init__", "exercise_format", "exercise_checks", "exercise_runner", "reader_code",
                  "run_blocks"]
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold: every build, the same bytes

# A whole line `<!-- exercise: name -->`; anything else starting `<!-- exercise` is an error.
EXERCISE = re.compile(r"^<!--[ \t]*exercise:[ \t]*([a-z0-9_]+)[ \t]*-->[ \t]*$", re.MULTILINE)
EXERCISE_LIKE = re.compile(r"<!--[ \t]*exercise\b")
HEADING = re.compile(r"^(#{1,6})[ \t]")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")

_runtime = {}  # filled by on_files: "pyodide" (the served pyodide.mjs), "zip_hash", "bytes"


def on_files(files, config):
    """Add the site's Python zip and the editor bundle; keep exercise sources out."""
    served = [file.dest_uri for file in files if PYODIDE.fullmatch(file.dest_uri)]
    if len(served) != 1:
        raise PluginError(f"the site serves {len(served)} copies of pyodide.mjs, not 1: scripts/hooks/"
                          "assets.py serves Pyodide; list it before python_runtime.py in mkdocs.yml")
    packed = python_zip()
    files.append(File.generated(config, PYTHON_ZIP, content=packed))
    folder = served[0].rsplit("/", 1)[0] + "/"
    runtime = sum(Path(file.abs_src_path).stat().st_size if file.abs_src_path else len(file.content_bytes)
                  for file in files if file.dest_uri.startswith(folder))
    _runtime.update(pyodide=served[0], zip_hash=hashlib.sha256(packed).hexdigest()[:12], bytes=runtime)
    for file in list(files):
        if file.src_uri.startswith("exercises/") or file.src_uri == EDITOR_SOURCE:
            files.remove(file)  # the zip holds the exercises; the bundle replaces the editor source
    source = Path(config["docs_dir"]) / EDITOR_SOURCE
    if source.is_file():
        files.append(File.generated(config, EDITOR_SOURCE, content=editor_bundle(source)))
    return files


def on_page_markdown(markdown, page, config, files):
    """Exercises in place of their comments; on a chapter, Run for every Python block."""
    markdown = exercises_markdown(markdown, page)
    run = run_blocks_markdown(page, files) if blocks.runnable(page.file.src_uri) else ""
    return markdown.rstrip("\n") + "\n\n" + run if run else markdown


def run_blocks_markdown(page, files):
    """The hidden element and the script that give each Python block of a chapter its Run.

    The element names the page's blocks.json (exported when the page ran,
    scripts/blocks.py; loaded on the first Run or Edit, not with the page) and
    carries the page lines of its visible blocks, so run-blocks.js can check,
    at load, that it binds as many buttons as the export has blocks.
    """
    export = files.get_file_from_path(str(PurePosixPath(page.file.src_uri).with_suffix("") / blocks.EXPORT))
    if export is None:
        raise PluginError(f"docs/{page.file.src_uri}: no {blocks.EXPORT} was exported for this page "
                          "(scripts/pages.py exports it when the page runs)")
    content = export.content_bytes
    lines = blocks.visible_lines(content.decode("utf-8"))
    if not lines:
        return ""
    url = get_relative_url(export.dest_uri, page.url) + f"?v={hashlib.sha256(content).hexdigest()[:12]}"
    script = get_relative_url("javascripts/run-blocks.js", page.url)
    return (f'<div class="bv-run" hidden data-blocks="{html.escape(url)}" '
            f'data-lines="{" ".join(map(str, lines))}" {_runtime_attributes(page.url)}></div>\n'
            f'<script type="module" src="{script}"></script>\n')


def _runtime_attributes(page_url):
    """data-runtime (Pyodide's folder), data-runtime-bytes (the size of the files in it, for
    the first Run's progress line) and data-python (the zip), relative to the page."""
    runtime = get_relative_url(_runtime["pyodide"], page_url).rsplit("/", 1)[0] + "/"
    python = get_relative_url(PYTHON_ZIP, page_url) + f"?v={_runtime['zip_hash']}"
    return (f'data-runtime="{html.escape(runtime)}" data-runtime-bytes="{_runtime["bytes"]}" '
            f'data-python="{html.escape(python)}"')


def exercises_markdown(markdown, page):
    """Replace each `<!-- exercise: name -->` line with the exercise (Markdown with HTML)."""
    if not EXERCISE_LIKE.search(markdown):
        return markdown
    where = page.file.src_uri
    for match in EXERCISE_LIKE.finditer(markdown):
        line_start = markdown.rfind("\n", 0, match.start()) + 1
        if not EXERCISE.match(markdown, line_start):
            line = markdown.count("\n", 0, match.start()) + 1
            raise PluginError(f"docs/{where}:{line}: write an exercise as a line of its own: "
                              "<!-- exercise: name -->")
    count = 0

    def substitute(match):
        nonlocal count
        count += 1
        line = markdown.count("\n", 0, match.start()) + 1
        try:
            exercise = exercise_format.load(match.group(1))
        except (FileNotFoundError, exercise_format.ExerciseFormatError) as error:
            raise PluginError(f"docs/{where}:{line}: {error}") from None
        level = min(_section_level(markdown, match.start()) + 1, 6)
        text = exercise_markdown(exercise, count, level, page.url)
        if count == 1:  # the page's first exercise brings the script; modules run after parsing
            script = get_relative_url("javascripts/exercise.js", page.url)
            text = f'<script type="module" src="{script}"></script>\n\n' + text
        return text

    return EXERCISE.sub(substitute, markdown)


def exercise_markdown(exercise, number, level, page_url):
    """The Markdown (with md_in_html blocks) that stands for one exercise on a page.

    exercise: a scripts.exercise_format.Exercise; number: its place on the page;
    level: its heading level; page_url: the page's URL, for relative links.
    """
    hints = "\n".join(f"    - {hint}" for hint in exercise.hints)
    parts = [
        f'<div class="exercise" data-exercise="{exercise.name}" {_runtime_attributes(page_url)} markdown>',
        "",
        f"{'#' * level} Exercise {number}: {exercise.title} {{ #exercise-{exercise.name.replace('_', '-')} }}",
        "",
        exercise.instructions,
        "",
        '<div class="exercise-starter" markdown>',
        "",
        _fence(exercise.starter),
        "",
        "</div>",
        "",
    ]
    if exercise.hints:
        parts += ['??? tip "Hints"', "", hints, ""]
    parts += ['??? success "Solution"', "", _fence(exercise.solution, indent="    "), "", "</div>", ""]
    return "\n".join(parts)


def _fence(code, indent=""):
    lines = ["```python", *code.rstrip("\n").split("\n"), "```"]
    return "\n".join(indent + line if line else "" for line in lines)


def _section_level(markdown, position):
    """The level (1 or 2) of the last `#` or `##` heading before `position`, outside code fences.

    An exercise is a subsection of the chapter section it is in: an h3 after
    an h2, whatever h3 came between, so the exercises of a page line up in its
    table of contents.
    """
    level, fence = 1, None
    for line in markdown[:position].split("\n"):
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
        elif opening:
            fence = opening.group(1)
        elif (match := HEADING.match(line)) and len(match.group(1)) <= 2:
            level = len(match.group(1))
    return level


def python_zip():
    """The site's Python as zip bytes: micrograd/, PYTHON_SCRIPTS, docs/exercises/, and the
    graphviz package (with its licence) at the top.

    Paths inside are the repository's, so `from scripts.exercise_runner import run`
    and its EXERCISES_DIR work in Pyodide as in the repository. Sorted names,
    fixed timestamps and permissions: the same sources give the same bytes.
    """
    import graphviz  # the docs extra installs it; micrograd.draw imports it

    package = Path(graphviz.__file__).parent
    entries = [(p.relative_to(ROOT).as_posix(), p) for p in
               [*(ROOT / "micrograd").glob("*.py"),
                *(ROOT / "scripts" / f"{name}.py" for name in PYTHON_SCRIPTS),
                *(ROOT / "docs" / "exercises").glob("*.py")]]
    entries += [(p.relative_to(package.parent).as_posix(), p) for p in package.rglob("*.py")]
    entries += [(f"graphviz/{p.name}", p) for p in _graphviz_licence()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, path in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def editor_bundle(source):
    """docs/javascripts/editor.js bundled with CodeMirror by esbuild, as str.

    Cached in .cache/editor/ on a hash of the source, package-lock.json and
    esbuild's version. PluginError if esbuild is missing or fails.
    """
    if not ESBUILD.exists():
        raise PluginError("esbuild is missing: run `npm ci` (the README's commands do it)")
    lock = ROOT / "package-lock.json"
    key = hashlib.sha256(source.read_bytes() + (lock.read_bytes() if lock.exists() else b"")
                         + _esbuild_version().encode()).hexdigest()[:16]
    cached = EDITOR_CACHE / f"editor-{key}.js"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    banner = ("/* The exercise editor: CodeMirror 6 (MIT License, Marijn Haverbeke and others), "
              "bundled by esbuild from docs/javascripts/editor.js. */")
    result = subprocess.run(
        [str(ESBUILD), str(source), "--bundle", "--format=esm", "--minify", "--target=es2020",
         "--log-level=error", f"--banner:js={banner}"],
        cwd=ROOT, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise PluginError(f"esbuild could not bundle {source.relative_to(ROOT)}:\n{result.stderr}")
    EDITOR_CACHE.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(result.stdout, encoding="utf-8")
    tmp.replace(cached)  # atomic: two builds at once (pytest -n 2) never read half a file
    return result.stdout


def _esbuild_version():
    package = ROOT / "node_modules" / "esbuild" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else "?"


def _graphviz_licence():
    """The graphviz package's licence file(s) (MIT), from its installed metadata."""
    from importlib.metadata import distribution

    files = distribution("graphviz").files or []
    # in the .dist-info folder only: the package itself has a module named copying.py
    return [Path(f.locate()) for f in files if Path(str(f)).parts[0].endswith(".dist-info")
            and Path(str(f)).name.upper().startswith(("LICENSE", "COPYING"))]

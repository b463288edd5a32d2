"""MkDocs hook: Python in the reader's browser, the build side of docs/javascripts/
{exercise,run-blocks,editor,python,python-worker}.js.

- The site's Python zip (scripts/build/site_python.py) and the editor bundled with
  CodeMirror (scripts/build/editor_bundle.py) enter the build; the exercise sources
  and the unbundled editor stay out.
- Every page names where the runtime is, once (`.bv-python`, read by
  exercise.js and run-blocks.js); the exercises themselves are a directive
  (scripts/pages/exercise_directive.py).
- On a chapter with Run (scripts/pages/blocks.py says which), a hidden element names
  the page's blocks.json, exported when the page ran, and the page lines of its
  visible blocks (run-blocks.js binds one Run button to each rendered Python
  block, in order, and checks the count), and brings run-blocks.js.
  Each visible block is followed by an empty box that run-blocks.js fills with its Run
  bar, editor and output (blocks.run_slots).
- The chapters' checks (quizzes, exercises) as progress.json (scripts/build/progress.py), for
  the reader's progress (progress.js); made once every page's run is known, from the runs the
  pages hook put on the page (the same Future: scripts/build/site_build.py).
"""

from pathlib import Path

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts.build import progress
from scripts.build.editor_bundle import EDITOR_SOURCE, BundleError, editor_bundle
from scripts.build.page_runs import PageError
from scripts.build.site_build import SiteBuild
from scripts.build.site_python import PYTHON_ZIP, python_zip, runtime_attributes
from scripts.pages import blocks


def on_files(files, config):
    build = SiteBuild.of(config)
    build.python_zip = python_zip()
    files.append(File.generated(config, PYTHON_ZIP, content=build.python_zip))
    for file in list(files):
        if file.src_uri.startswith("exercises/") or file.src_uri == EDITOR_SOURCE:
            files.remove(file)  # the zip holds the exercises; the bundle replaces the editor source
    source = Path(config["docs_dir"]) / EDITOR_SOURCE
    if source.is_file():
        try:
            files.append(File.generated(config, EDITOR_SOURCE, content=editor_bundle(source)))
        except BundleError as error:
            raise PluginError(str(error)) from None
    return files


def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.endswith(".md"):
        return markdown
    python_zip = SiteBuild.of(config).python_zip
    runtime = f'<div class="bv-python" hidden {runtime_attributes(page.url, python_zip)}></div>\n'
    try:
        run = blocks.run_markup(page.file.src_uri, page.url, files) if blocks.runnable(page.file.src_uri) else ""
    except LookupError as error:
        raise PluginError(str(error)) from None
    return markdown.rstrip("\n") + "\n\n" + runtime + run


def on_page_content(html, page, config, files):
    if not blocks.runnable(page.file.src_uri):
        return html
    return blocks.run_slots(html)  # the boxes run-blocks.js fills: it adds nothing beside a block


def on_env(env, config, files):
    try:  # the build's one computation of the pages' runs (scripts/build/site_build.py)
        found = SiteBuild.of(config).page_runs().result()
    except PageError as error:
        raise PluginError(str(error)) from None
    files.append(File.generated(config, progress.TOTALS, content=progress.totals(files, config["docs_dir"], found)))
    return env

"""The site's Python: what the reader's browser unpacks into Pyodide on the first Run.

python_zip() packs micrograd/, the reader's package scripts/reader/ whole (and
scripts/__init__.py), docs/exercises/ and the pure-Python `graphviz`
package (draw_dot builds its graph in the browser too) into one zip, at their
repository paths, byte for byte the same on every build (sorted, fixed
timestamps). runtime_attributes() tells a page where it and Pyodide are.
"""

import hashlib
import html
import io
import zipfile
from pathlib import Path

from mkdocs.utils import get_relative_url

from scripts import ROOT
from scripts.build import site_assets

PYTHON_ZIP = "assets/python/site-python.zip"
READER = "scripts/reader"  # the reader's Python, zipped whole: no list to keep
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold: every build, the same bytes


def runtime_attributes(page_url, packed):
    """The attributes of a page's `.bv-python` element (HTML text), relative to the page at
    `page_url`: data-runtime (Pyodide's folder), data-runtime-bytes (the size of the files
    in it, for the first Run's progress line), data-python (the zip `packed`, bytes, with
    its hash in the URL so no browser keeps a stale one), data-viz (Graphviz's module,
    which draws what draw_dot gives in the reader's Python: docs/javascripts/shared/viz.js) and
    data-sanitizer (DOMPurify's module, which cleans that drawing)."""
    runtime = get_relative_url(site_assets.pyodide_folder() + "pyodide.mjs", page_url).rsplit("/", 1)[0] + "/"
    python = get_relative_url(PYTHON_ZIP, page_url) + f"?v={hashlib.sha256(packed).hexdigest()[:12]}"
    return (f'data-runtime="{html.escape(runtime)}" data-runtime-bytes="{site_assets.pyodide_bytes()}" '
            f'data-python="{html.escape(python)}" '
            f'data-viz="{html.escape(get_relative_url(site_assets.viz_module(), page_url))}" '
            f'data-sanitizer="{html.escape(get_relative_url(site_assets.sanitizer_module(), page_url))}"')


def python_zip():
    """The site's Python as zip bytes: micrograd/, scripts/reader/, docs/exercises/, and the
    graphviz package (with its licence) at the top.

    Paths inside are the repository's, so `from scripts.reader.exercise_runner import run`
    and its EXERCISES_DIR work in Pyodide as in the repository. Sorted names,
    fixed timestamps and permissions: the same sources give the same bytes.
    """
    import graphviz  # the docs extra installs it; micrograd.draw imports it

    package = Path(graphviz.__file__).parent
    entries = [(p.relative_to(ROOT).as_posix(), p) for p in
               [*(ROOT / "micrograd").glob("*.py"),
                ROOT / "scripts" / "__init__.py", *(ROOT / READER).glob("*.py"),
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


def _graphviz_licence():
    """The graphviz package's licence file(s) (MIT), from its installed metadata."""
    from importlib.metadata import distribution

    files = distribution("graphviz").files or []
    # in the .dist-info folder only: the package itself has a module named copying.py
    return [Path(f.locate()) for f in files if Path(str(f)).parts[0].endswith(".dist-info")
            and Path(str(f)).name.upper().startswith(("LICENSE", "COPYING"))]

"""The engine's wheel (distribution backprop-verified, import package micrograd), which the
site serves and every downloaded notebook installs.

It also holds the package backprop_verified_exercises (GRADER): scripts/notebooks/notebook_exercises.py
as its __init__, with the site's exercise grader beside it at its repository paths
(the reader's package scripts/reader/, where scripts/reader/exercise_runner.py and all it
imports live, and docs/exercises/). A chapter notebook's exercise cells load it (`%load_ext`), so they run
the page's own tests with the page's own code in a Jupyter that has only the wheel.

wheel() builds it with setuptools from a copy of exactly what goes into it (micrograd/,
the grader, pyproject.toml, README.md), with SOURCE_DATE_EPOCH fixed, so the same source
gives the same bytes; it is cached in .cache/wheel/ under the sha256 of those files, this
file and setuptools' version, and built under a file lock (test workers and builds run in
parallel). Nothing is written into the repository (setuptools' build/ and *.egg-info
stay in the copy). url(site_url) is where the site serves it, pinned by its sha256.
"""

import fcntl
import hashlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urljoin

from scripts import ROOT

CACHE = ROOT / ".cache" / "wheel"
SERVED_AT = "downloads"  # the wheel's folder in the site
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01T00:00:00Z, the earliest time a zip entry can hold


GRADER = "backprop_verified_exercises"  # the wheel's package of the notebooks' exercise checks
# The packages setuptools puts in the wheel, in place of pyproject.toml's ["micrograd"] (the
# repository's own install has no grader package: it is laid out only in the build's copy)
PACKAGES = ["micrograd", GRADER, f"{GRADER}.scripts", f"{GRADER}.scripts.reader", f"{GRADER}.docs",
            f"{GRADER}.docs.exercises"]
_PACKAGES_LINE = re.compile(r'^packages = \["micrograd"\]$', re.MULTILINE)


def grader_modules(root=ROOT):
    """The grader's modules: the reader's package whole (scripts/reader/, where
    exercise_runner.py and all it imports live: .importlinter keeps it so) and
    scripts/__init__.py, as paths relative to `root`, sorted."""
    return sorted([Path("scripts") / "__init__.py",
                   *(p.relative_to(root) for p in (root / "scripts" / "reader").glob("*.py"))])


def layout(root=ROOT):
    """{path in the build's copy: path relative to `root`}, sorted: what goes into the wheel,
    and where. micrograd/, pyproject.toml and README.md at their own paths; the grader
    (grader_modules, docs/exercises/*.py) under GRADER/ at its repository paths, with
    scripts/notebooks/notebook_exercises.py as GRADER/__init__.py."""
    engine = [p.relative_to(root) for p in (root / "micrograd").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    placed = {p.as_posix(): p for p in [*engine, Path("pyproject.toml"), Path("README.md")]}
    grader = grader_modules(root)
    grader += sorted(p.relative_to(root) for p in (root / "docs" / "exercises").glob("*.py"))
    placed |= {f"{GRADER}/{p.as_posix()}": p for p in grader}
    placed[f"{GRADER}/__init__.py"] = Path("scripts") / "notebooks" / "notebook_exercises.py"
    return dict(sorted(placed.items()))


def sources(root=ROOT):
    """The files that go into the wheel: sorted paths relative to `root` (see layout)."""
    return sorted(set(layout(root).values()))


def cache_key(root=ROOT):
    """sha256 (hex) of every file in sources(root), this file and setuptools' version."""
    digest = hashlib.sha256(f"setuptools {importlib.metadata.version('setuptools')}\0".encode())
    digest.update(Path(__file__).read_bytes())
    for path in sources(root):
        digest.update(path.as_posix().encode() + b"\0" + (root / path).read_bytes() + b"\0")
    return digest.hexdigest()


def build(out_dir, root=ROOT):
    """Build the wheel of `root`'s sources() into the folder `out_dir`; return its Path.

    The files are copied into a temporary folder (mode 0644, so a checkout's umask does not
    reach the wheel) and built there by setuptools.build_meta in a child process.
    Raises RuntimeError with setuptools' output if the build fails.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="wheel-") as folder:
        for placed, path in layout(root).items():
            _write(Path(folder) / placed, (root / path).read_bytes())
        for package in PACKAGES[3:]:  # the grader's docs/ and docs/exercises/ hold no __init__.py
            _write(Path(folder, *package.split("."), "__init__.py"), b"")
        config = Path(folder) / "pyproject.toml"
        text, found = _PACKAGES_LINE.subn(f"packages = {PACKAGES}".replace("'", '"'), config.read_text())
        if found != 1:
            raise RuntimeError("pyproject.toml: the wheel's build expects the line "
                               "'packages = [\"micrograd\"]' under [tool.setuptools], once")
        config.write_text(text)
        built = subprocess.run(
            [sys.executable, "-c", "import sys; from setuptools import build_meta; "
             "print(build_meta.build_wheel(sys.argv[1]))", str(out_dir.resolve())],
            cwd=folder, capture_output=True, text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PYTHONDONTWRITEBYTECODE": "1"})
        if built.returncode != 0:
            raise RuntimeError(f"building the engine's wheel failed:\n{built.stdout}{built.stderr}")
    return out_dir / built.stdout.strip().splitlines()[-1]


def _write(path, content):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    path.chmod(0o644)


def wheel():
    """Path of the engine's wheel for the current sources, e.g.
    .cache/wheel/<key>/backprop_verified-0.1.0-py3-none-any.whl: from the cache, or built
    now (stale builds removed). Raises what build() raises."""
    key = cache_key()
    folder = CACHE / key[:24]
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = sorted(folder.glob("*.whl"))
        if not found:
            with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
                made = build(tmp)
                folder.mkdir()
                found = [made.replace(folder / made.name)]
            for stale in CACHE.iterdir():
                if stale.is_dir() and stale != folder:
                    shutil.rmtree(stale)
    return found[0]


def url(site_url):
    """The wheel's address on the site at `site_url` (e.g. https://example.org/book/), pinned:
    <site_url>downloads/<the wheel's file name>#sha256=<its sha256, hex>. pip checks a URL's
    #sha256= against the bytes it downloads and refuses a wheel that differs, so a notebook's
    install cell cannot be handed another engine. Raises ValueError if site_url is empty."""
    if not site_url:
        raise ValueError("site_url is not set: the downloaded notebooks install the engine from "
                         "<site_url>downloads/ (mkdocs.yml: site_url, or SITE_URL)")
    built = wheel()
    address = urljoin(site_url if site_url.endswith("/") else f"{site_url}/", f"{SERVED_AT}/{built.name}")
    return f"{address}#sha256={hashlib.sha256(built.read_bytes()).hexdigest()}"

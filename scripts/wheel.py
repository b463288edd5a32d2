"""The engine's wheel (distribution backprop-verified, import package micrograd), which the
site serves and every downloaded notebook installs.

wheel() builds it with setuptools from a copy of exactly what goes into it (micrograd/,
pyproject.toml, README.md), with SOURCE_DATE_EPOCH fixed, so the same source gives the
same bytes; it is cached in .cache/wheel/ under the sha256 of those files, this file and
setuptools' version, and built under a file lock (test workers and builds run in
parallel). Nothing is written into the repository (setuptools' build/ and *.egg-info
stay in the copy). url(site_url) is where the site serves it.
"""

import fcntl
import hashlib
import importlib.metadata
import os
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


def sources(root=ROOT):
    """The files that go into the wheel: sorted paths relative to `root`."""
    engine = [p for p in (root / "micrograd").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    return sorted(p.relative_to(root) for p in [*engine, root / "pyproject.toml", root / "README.md"])


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
        for path in sources(root):
            copy = Path(folder) / path
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes((root / path).read_bytes())
            copy.chmod(0o644)
        built = subprocess.run(
            [sys.executable, "-c", "import sys; from setuptools import build_meta; "
             "print(build_meta.build_wheel(sys.argv[1]))", str(out_dir.resolve())],
            cwd=folder, capture_output=True, text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PYTHONDONTWRITEBYTECODE": "1"})
        if built.returncode != 0:
            raise RuntimeError(f"building the engine's wheel failed:\n{built.stdout}{built.stderr}")
    return out_dir / built.stdout.strip().splitlines()[-1]


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
    """The wheel's address on the site at `site_url` (e.g. https://example.org/book/):
    <site_url>downloads/<the wheel's file name>. Raises ValueError if site_url is empty."""
    if not site_url:
        raise ValueError("site_url is not set: the downloaded notebooks install the engine from "
                         "<site_url>downloads/ (mkdocs.yml: site_url, or SITE_URL)")
    return urljoin(site_url if site_url.endswith("/") else f"{site_url}/", f"{SERVED_AT}/{wheel().name}")

"""The lock: requirements/docs.txt and requirements/test.txt pin, with hashes, every package
pyproject.toml's extras ask for, at a version they allow, in every environment the project
supports; and the two agree. A pyproject.toml changed without `bash scripts/dev.sh lock`
fails here. (tests/tools/test_dev.py checks what `dev.sh lock` runs and what `serve` and `test`
install from the lock.)
"""

import re

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def locked(extra):
    """requirements/<extra>.txt as {name: [(version, marker or None, hashes)]}."""
    pins = {}
    text = (ROOT / "requirements" / f"{extra}.txt").read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=\S)", text):
        if entry.startswith("#"):
            continue
        requirement = Requirement(entry.split("\\", 1)[0])
        (version,) = [s.version for s in requirement.specifier if s.operator == "=="]
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)
        pins.setdefault(canonicalize_name(requirement.name), []).append(
            (version, requirement.marker, hashes))
    return pins


# Where the lock must hold: every Python from 3.10 (pyproject.toml's requires-python) on Linux,
# x86-64 and arm64.
ENVIRONMENTS = [
    {"python_version": f"3.{minor}", "python_full_version": f"3.{minor}.{patch}",
     "sys_platform": "linux", "platform_system": "Linux", "platform_machine": machine,
     "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    for minor, patch in [(10, 12), (11, 2), (11, 9), (12, 3), (13, 5), (14, 0)]
    for machine in ["x86_64", "aarch64"]
]


def pinned(pins, name, environment):
    """The version the lock installs of `name` in `environment`, or None."""
    versions = [v for v, marker, _ in pins.get(name, []) if marker is None or marker.evaluate(environment)]
    assert len(versions) <= 1, f"{name}: {versions} in {environment['python_full_version']}"
    return versions[0] if versions else None


@pytest.mark.parametrize("extra", ["docs", "test"])
def test_the_lock_pins_what_pyproject_asks_for_with_hashes(extra):
    """Every requirement of the extra (and of the extras it includes) is pinned to a version it
    allows, in every environment: pyproject.toml changed without `bash scripts/dev.sh lock` fails."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = locked(extra)
    assert all(hashes for entries in pins.values() for _, _, hashes in entries), "an entry without hashes"
    extras, requirements = [extra], []
    while extras:
        for line in project["optional-dependencies"][extras.pop()]:
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
                extras.extend(requirement.extras)
            else:
                requirements.append(requirement)
    assert len(requirements) > 5
    for environment in ENVIRONMENTS:
        for requirement in requirements:
            if requirement.marker and not requirement.marker.evaluate(environment):
                continue
            version = pinned(pins, canonicalize_name(requirement.name), environment)
            where = f"{requirement} on Python {environment['python_full_version']}"
            assert version, f"{where}: not in requirements/{extra}.txt (run bash scripts/dev.sh lock)"
            assert requirement.specifier.contains(version, prereleases=True), f"{where}: locked {version}"


def test_the_docs_lock_and_the_test_lock_agree():
    """serve, then test, in one .venv: the test lock must not move what the docs lock installed."""
    docs, test = locked("docs"), locked("test")
    for environment in ENVIRONMENTS:
        for name in docs:
            assert pinned(docs, name, environment) == pinned(test, name, environment), name

"""The Python in this repository passes `ruff check` (rules in pyproject.toml, [tool.ruff])."""

import importlib.util
import subprocess
import sys

from scripts import ROOT


def test_ruff_check_is_clean():
    assert importlib.util.find_spec("ruff"), "ruff is not installed: .venv/bin/pip install -e '.[test]'"
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-fix", "--output-format", "concise", "."],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, (
        f"ruff check found problems (`ruff check --fix .` fixes the marked [*] ones):\n"
        f"{result.stdout}{result.stderr}"
    )

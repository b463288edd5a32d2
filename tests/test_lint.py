"""The Python in this repository passes `ruff check` (rules in pyproject.toml, [tool.ruff]) and
import-linter's contracts (.importlinter)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

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


def test_imports_keep_the_layers_and_have_no_cycle():
    """import-linter's contracts in .importlinter: hooks -> scripts -> micrograd, the engine
    over its support module, no import cycle in a package."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    assert lint_imports.exists(), "import-linter is not installed: .venv/bin/pip install -e '.[test]'"
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"import-linter found a broken contract:\n{result.stdout}{result.stderr}"

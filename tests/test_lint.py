"""The code in this repository passes its linters: ruff on the Python (pyproject.toml, [tool.ruff]),
import-linter's contracts (.importlinter), ESLint on the browser code (eslint.config.mjs); and no
test file is longer than a maintainer reads through (600 lines)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

from scripts import ROOT

MAX_TEST_LINES = 600  # issue 26, item 4: a longer test file is split by feature


def test_no_test_file_is_longer_than_600_lines():
    """Every .py file under tests/, helpers and conftest.py included, has at most 600 lines."""
    lines = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((ROOT / "tests").rglob("*.py"))}
    assert len(lines) > 30, lines  # the test files were found
    long = {path: n for path, n in lines.items() if n > MAX_TEST_LINES}
    assert long == {}, f"over {MAX_TEST_LINES} lines, split by feature: {long}"


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


ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def eslint(*args, stdin=None):
    """ESLint (pinned in package-lock.json) with eslint.config.mjs: the CompletedProcess."""
    assert ESLINT.exists(), "ESLint is missing: run `npm ci` (the README's commands do it)"
    return subprocess.run([str(ESLINT), "--config", str(ROOT / "eslint.config.mjs"), *args],
                          cwd=ROOT, input=stdin, capture_output=True, text=True)


def test_eslint_is_clean_on_the_browser_code():
    result = eslint("docs/javascripts", "eslint.config.mjs")
    assert result.returncode == 0, f"ESLint found problems:\n{result.stdout}{result.stderr}"


def test_eslint_reports_a_broken_module():
    """The check can fail: an undefined name and an unused variable in a module linted as one
    of docs/javascripts/ (read from stdin: no file is written where the build looks)."""
    result = eslint("--stdin", "--stdin-filename", "docs/javascripts/probe.js",
                    stdin="const unused = 1;\nexport const f = () => undefinedName;\n")
    assert result.returncode == 1
    assert "no-unused-vars" in result.stdout and "no-undef" in result.stdout, result.stdout


# The call from the page into Python, typed once (docs/javascripts/calls.js) and checked on both
# sides: python.js and python-worker.js, and the callers that name a function of it. TypeScript
# (package.json, pinned) checks them as they are, JavaScript with JSDoc types: nothing is compiled.
TYPED = ["calls.js", "python.js", "python-worker.js", "stepper-retrace.js", "run-blocks.js", "exercise.js",
         "engine-switch.js", "engine-map.js"]


def test_the_calls_into_python_type_check():
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "TypeScript is not installed: npm ci"
    result = subprocess.run(
        [str(tsc), "--noEmit", "--allowJs", "--checkJs", "--target", "es2022", "--module", "es2022",
         "--moduleResolution", "bundler", "--lib", "es2022,dom,dom.iterable", "--skipLibCheck",
         *(f"docs/javascripts/{name}" for name in TYPED)],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, f"tsc found type errors:\n{result.stdout}{result.stderr}"

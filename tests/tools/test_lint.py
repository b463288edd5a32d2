"""The code in this repository passes its linters: ruff on the Python (pyproject.toml, [tool.ruff]),
import-linter's contracts (.importlinter), ESLint on the browser code (eslint.config.mjs); no
test file is longer than a maintainer reads through (600 lines), and each is in its feature's
folder; and docs/javascripts/ keeps its folders by role (the tree in CONTRIBUTING.md)."""

import importlib.util
import re
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


def test_every_test_module_is_in_a_feature_folder_that_contributing_describes():
    """tests/ mirrors the site's features (issue 26, item 4): each test module sits in a folder
    (tests/run/, tests/engine/, ...) that CONTRIBUTING.md's "The test suite" lists, never at the
    top of tests/, where only the shared conftest.py, helpers.py and chapter_page.py are."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    described = set(re.findall(r"^- `tests/(\w+)/`", text, re.M))
    folders = {path.parent.name for path in (ROOT / "tests").glob("*/test_*.py")}
    top = sorted(path.name for path in (ROOT / "tests").glob("test_*.py"))
    assert top == [], f"{top} at the top of tests/: move each into its feature's folder, one of {sorted(described)}"
    assert folders == described, f"not in CONTRIBUTING.md: {folders - described}; absent: {described - folders}"


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


# The call from the page into Python, typed once (docs/javascripts/python/calls.js) and checked on both
# sides: python.js and python-worker.js, and every caller. TypeScript (package.json, pinned) checks
# every module of the site's JavaScript as it is, JavaScript with JSDoc types: nothing is compiled.
# Not editor/editor.js, the source of the CodeMirror bundle the build makes. Its settings are
# jsconfig.json's, which editors read too, so an editor shows what this test finds.
TYPED = sorted(path.relative_to(ROOT / "docs" / "javascripts").as_posix()
               for path in (ROOT / "docs" / "javascripts").rglob("*.js") if path.name != "editor.js")
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def tsc(*args):
    """TypeScript (pinned in package-lock.json) at the top of the repository: the CompletedProcess."""
    assert TSC.exists(), "TypeScript is not installed: npm ci"
    return subprocess.run([str(TSC), *args], cwd=ROOT, capture_output=True, text=True)


def test_the_calls_into_python_type_check():
    """jsconfig.json over every module; jsconfig.strict.json, strict, over python/ and shared/."""
    for config in ("jsconfig.json", "jsconfig.strict.json"):
        result = tsc("-p", config)
        assert result.returncode == 0, f"tsc -p {config} found type errors:\n{result.stdout}{result.stderr}"


def test_jsconfig_checks_every_module_of_the_site():
    """A module jsconfig.json left out would go unchecked: every one of TYPED is in its files."""
    listed = tsc("-p", "jsconfig.json", "--listFilesOnly").stdout.splitlines()
    checked = {Path(line).resolve().relative_to(JAVASCRIPTS.resolve()).as_posix()
               for line in listed if Path(line).resolve().is_relative_to(JAVASCRIPTS.resolve())}
    assert set(TYPED) - checked == set(), listed


# docs/javascripts/ in folders by role (CONTRIBUTING.md: the tree). At the top, only the modules
# mkdocs.yml loads on every page; each folder imports only the folders its role may use ("" is
# the top): nothing below the top imports what mkdocs.yml loads (what they share of it, the
# reader's engine and what the reader did, is python/reader-engine.js's and shared/'s).
# editor/editor.js is the source of the bundle the build serves in its place
# (scripts/build/editor_bundle.py): only editor/editor-loader.js names it.
JAVASCRIPTS = ROOT / "docs" / "javascripts"
ROLE_IMPORTS = {
    "shared": {"shared"},
    "python": {"python", "shared"},
    "editor": {"editor"},
    "run": {"run", "python", "shared", "editor"},
    "widgets": {"widgets", "python", "shared", "editor"},
    "": {"", "widgets", "run", "python", "shared", "editor"},
}
EDITOR_SOURCE, EDITOR_LOADER = "editor/editor.js", "editor/editor-loader.js"
SPECIFIER = re.compile(r"""["'](\.{1,2}/[\w./-]+\.js)["']""")  # "./x.js", "../shared/dom.js": imports, workers, types


def layout_problems(root, entries):
    """What breaks the folders' roles under root (a docs/javascripts/), as sentences; [] if none.
    entries: the file names mkdocs.yml loads from the top."""
    problems = []
    for path in sorted(root.rglob("*.js")):
        name = path.relative_to(root).as_posix()
        folder = name.rpartition("/")[0]
        if folder not in ROLE_IMPORTS:
            problems.append(f"{name}: not in a role's folder ({', '.join(sorted(ROLE_IMPORTS)[1:])}); "
                            "only what mkdocs.yml loads stays at the top")
            continue
        if not folder and name not in entries:
            problems.append(f"{name}: at the top, but mkdocs.yml does not load it: put it in its role's folder")
        for specifier in SPECIFIER.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / specifier).resolve()
            if not target.is_file():
                problems.append(f"{name}: names {specifier}, which does not exist")
                continue
            named = target.relative_to(root.resolve()).as_posix()
            if named.rpartition("/")[0] not in ROLE_IMPORTS[folder]:
                problems.append(f"{name}: names {named}, outside what {folder or 'the top'}/ may use")
            if named == EDITOR_SOURCE and name != EDITOR_LOADER:
                problems.append(f"{name}: names {EDITOR_SOURCE}, the bundle's source: load it with {EDITOR_LOADER}")
    return problems


def test_javascripts_keeps_its_folders_by_role():
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    entries = re.findall(r"^\s*- path: javascripts/(\S+\.js)", mkdocs, re.M)
    assert entries, "mkdocs.yml loads no javascripts/ module"
    assert layout_problems(JAVASCRIPTS, set(entries)) == []
    tree = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert [f for f in ROLE_IMPORTS if f and f"docs/javascripts/{f}/ " not in tree] == []


def test_the_role_check_finds_a_stray_module_a_broken_import_and_the_editor_source_named(tmp_path):
    files = {"widgets.js": 'import("./widgets/quiz.js");', "stray.js": "",
             "widgets/quiz.js": 'import { x } from "../editor/editor.js"; import("./gone.js");',
             "shared/dom.js": 'import("../python/python.js");', "python/python.js": "",
             "editor/editor.js": "", "editor/editor-loader.js": 'import("./editor.js");', "tools/x.js": ""}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert layout_problems(tmp_path, {"widgets.js"}) == [
        "shared/dom.js: names python/python.js, outside what shared/ may use",
        "stray.js: at the top, but mkdocs.yml does not load it: put it in its role's folder",
        "tools/x.js: not in a role's folder (editor, python, run, shared, widgets); "
        "only what mkdocs.yml loads stays at the top",
        "widgets/quiz.js: names editor/editor.js, the bundle's source: load it with editor/editor-loader.js",
        "widgets/quiz.js: names ./gone.js, which does not exist",
    ]

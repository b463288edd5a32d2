"""Every path the documentation names exists: in README.md, CONTRIBUTING.md, MAINTAINERS.md,
and in every docstring (module, class, function) of scripts/, micrograd/, tests/ and
conftest.py. A file moved or renamed while a text still names it fails here, with the
file and line of each stale mention.

A path is a token that starts with one of the repository's top-level folders or files
(scripts/, docs/, tests/, micrograd/, requirements/, .ci/, .github/, pyproject.toml, ...),
or a dotted module of the project (`python -m scripts.tools.bench_build`, scripts.pages.prose).
In a path, `<page>` stands for any name (docs/<page>.md: some docs/*.md must exist) and
`*`, `**` are globs that must match. What exists only once installed or built (.venv/,
node_modules/, site/, .cache/) is not the repository's, and is not checked.
"""

import ast
import re

import pytest

from scripts import ROOT

DOCUMENTS = ["README.md", "CONTRIBUTING.md", "MAINTAINERS.md"]
SOURCES = ["scripts", "micrograd", "tests"]

FOLDERS = r"scripts|docs|tests|micrograd|requirements|\.ci|\.github"
FILES = (r"pyproject\.toml|mkdocs\.yml|package(?:-lock)?\.json|\.importlinter|eslint\.config\.mjs"
         r"|conftest\.py|README\.md|CONTRIBUTING\.md|MAINTAINERS\.md")
# Not inside a longer path or a URL (…/docs/…, example.org/tests), and not a Python name (my_tests/).
PATH = re.compile(rf"(?<![\w./-])(?:(?:{FOLDERS})/[\w.*<>/-]*|(?:{FILES})(?![\w-]))")
MODULE = re.compile(r"(?<![\w./-])(?:scripts|micrograd)(?:\.[A-Za-z_]\w*)+")


def paths(text):
    """(offset, token) of every repository path and project module named in text."""
    for match in PATH.finditer(text):
        token = match.group().rstrip(".,;:")  # a sentence's full stop is not part of the path
        if token.endswith("."):  # "docs/." and the like: a folder, then punctuation
            token = token.rstrip(".")
        yield match.start(), token
    for match in MODULE.finditer(text):
        yield match.start(), match.group()


def exists(token, root=ROOT):
    """Whether the path or module `token` names something in the repository at root."""
    if MODULE.fullmatch(token):
        # The first name after the package must be one of its modules or subpackages, or a
        # name its __init__.py defines or exports; what follows may be an attribute of it.
        package, name = token.split(".")[:2]
        return (PLACEHOLDER.fullmatch(name) is not None or (root / package / f"{name}.py").is_file()
                or (root / package / name / "__init__.py").is_file() or name in defined(root / package / "__init__.py"))
    top, _, rest = token.rstrip("/").partition("/")
    pattern = "/".join([top, PLACEHOLDER.sub("*", rest)]) if rest else top
    if "*" in pattern:
        return next(root.glob(pattern), None) is not None
    return (root / pattern).exists()


# A name that stands for any: docs/<page>.md, docs/NN-*.py, docs/exercises/NAME.py, scripts.X
PLACEHOLDER = re.compile(r"<[^<>/]*>|\b[A-Z]+\b")


def defined(init):
    """The names a package's __init__.py defines, imports or lists in __all__."""
    names = set()
    for node in ast.walk(ast.parse(init.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __all__'s entries, e.g. a name __getattr__ imports on demand
    return names


def docstrings(source):
    """(line, text) of every module, class and function docstring in Python source."""
    tree = ast.parse(source)
    for node in [tree, *ast.walk(tree)]:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                yield first.lineno, first.value.value


def mentions(path, root=ROOT):
    """(line, token) of every path named in a Markdown file, or in a Python file's docstrings."""
    text = path.read_text(encoding="utf-8")
    parts = docstrings(text) if path.suffix == ".py" else [(1, text)]
    for line, part in dict.fromkeys(parts):  # a module's docstring is found twice by the walk
        for offset, token in paths(part):
            yield line + part.count("\n", 0, offset), token


def stale(files, root=ROOT):
    """`file:line: token` for each mention in files of a path that does not exist."""
    return [f"{path.relative_to(root)}:{line}: {token}"
            for path in files for line, token in mentions(path, root) if not exists(token, root)]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_a_document_names_exists(document):
    path = ROOT / document
    assert path.is_file(), f"{document} is missing"
    assert len(list(mentions(path))) >= 5, f"{document} names fewer than 5 paths: is the scanner still reading it?"
    assert not stale([path]), "paths that do not exist:\n" + "\n".join(stale([path]))


@pytest.mark.parametrize("folder", SOURCES)
def test_every_path_a_docstring_names_exists(folder):
    files = sorted((ROOT / folder).rglob("*.py")) + ([ROOT / "conftest.py"] if folder == "tests" else [])
    named = [m for path in files for m in mentions(path)]
    assert len(named) >= 5, f"{folder}/: only {len(named)} paths found in its docstrings"
    problems = stale(files)
    assert not problems, "paths named in docstrings that do not exist:\n" + "\n".join(problems)


def test_a_stale_path_is_found_with_its_line_and_a_placeholder_or_a_glob_is_not(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "__init__.py").write_text("ROOT = 1\n")
    (tmp_path / "scripts" / "pages.py").write_text('"""Runs docs/<page>.md (see scripts/gone.py).\n\n'
                                                   'Reads requirements/*.txt, scripts.pages and scripts.ROOT."""\n'
                                                   'def f():\n    """Moved: `python -m scripts.gone`."""\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "01-x.md").write_text("")
    (tmp_path / "README.md").write_text("Run `bash scripts/pages.py`; see https://example.org/tests/x and "
                                        "docs/.\nThen tests/nothing.py, pyproject.toml.\n")
    files = [tmp_path / "README.md", *sorted((tmp_path / "scripts").glob("*.py"))]
    assert stale(files, tmp_path) == [
        "README.md:2: tests/nothing.py",
        "README.md:2: pyproject.toml",
        "scripts/pages.py:1: scripts/gone.py",
        "scripts/pages.py:3: requirements/*.txt",
        "scripts/pages.py:5: scripts.gone",
    ]


def test_paths_end_before_punctuation_and_urls_are_not_paths():
    text = "See scripts/dev.sh, docs/index.md. Or https://github.com/x/tests/y and (micrograd/engine.py)."
    assert [token for _, token in paths(text)] == ["scripts/dev.sh", "docs/index.md", "micrograd/engine.py"]

"""Collect every example in docs/**/*.md and every doctest in micrograd/ (Sybil)."""

import os

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from scripts.build.page_build import parsers

os.environ.setdefault("MPLBACKEND", "Agg")  # plots are drawn to files, never to a screen

docs = Sybil(parsers=parsers(), patterns=["*.md"], path="docs", name="docs")
engine = Sybil(parsers=[DocTestParser()], patterns=["*.py"], path="micrograd", name="micrograd")

pytest_collect_file = (docs + engine).pytest()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Report a skipped example at its page and line: `docs/08-pytorch.md:60: reason`.

    Sybil skips by raising unittest.SkipTest, which pytest turns into a skip raised
    inside _pytest/unittest.py, so `-ra` would name that file for every skip.
    """
    report = yield
    example = getattr(item, "example", None)
    if report.skipped and example is not None and isinstance(report.longrepr, tuple):
        page = os.path.relpath(example.path, item.config.rootpath)
        report.longrepr = (page, example.line, report.longrepr[2])
    return report


# ---- pytest --engine path/to/engine.py: every chapter's examples on the reader's engine ----

def pytest_addoption(parser):
    parser.addoption("--engine", metavar="PATH", default=None,
                     help="run every chapter's examples (docs/*.md) with the Value of this file in "
                          "place of micrograd's engine (scripts/reader/your_engine.py); an example that "
                          "reads the engine's internals is skipped, saying what it reads")


def pytest_configure(config):
    path = config.getoption("engine", None)
    if not path:
        return
    import contextlib
    from pathlib import Path

    from sybil.evaluators.doctest import OutputChecker

    from scripts.reader import your_engine

    try:
        source = Path(path).read_text(encoding="utf-8")
        value = your_engine.load(source)
    except (OSError, your_engine.EngineError) as error:
        raise pytest.UsageError(f"--engine {path}: {error}") from None
    stack = contextlib.ExitStack()
    stack.enter_context(your_engine.installed(value))
    check = OutputChecker.check_output  # a correct engine may print 1 where the page prints 1.0

    def check_output(self, want, got, optionflags):
        return your_engine.same_output(want, got) or check(self, want, got, optionflags)

    OutputChecker.check_output = check_output
    stack.callback(setattr, OutputChecker, "check_output", check)
    config.add_cleanup(stack.close)
    config.stash[_ENGINE] = {"path": path, "source": source, "value": value, "pages": {}, "failures": []}


_ENGINE = pytest.StashKey()


def pytest_ignore_collect(collection_path, config):
    """Under --engine, only the chapters run: not tests/ nor micrograd's doctests."""
    if _ENGINE not in config.stash:
        return None
    docs = config.rootpath / "docs"
    if collection_path == docs or docs in collection_path.parents:
        return None
    return True


_REASONS = {}  # page path -> [(start, end, reasons)] of its Python blocks


def _reasons(example, Value):
    """Why the block holding `example` does not apply to the reader's engine `Value` (a `>>>`
    block is judged whole: its later examples use what its first imported)."""
    from scripts.pages.examples import python_blocks
    from scripts.reader.engine_swap import applies_in_order

    path = str(example.path)
    if path not in _REASONS:
        found = list(python_blocks(example.document))
        reasons = applies_in_order([str(b.lexemes["source"]) for b in found], Value)
        _REASONS[path] = [(b.start, b.end, r) for b, r in zip(found, reasons)]
    start = example.region.start
    return next((r for s, e, r in _REASONS[path] if s <= start < e), [])


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Under --engine, an example that does not apply runs (later examples need what it defines)
    but counts as skipped, with what it reads, whatever it did. A directive (figure, quiz,
    widget) runs too (a skip directive decides what runs next), and is skipped: not an example."""
    engine = item.config.stash.get(_ENGINE, None)
    example = getattr(item, "example", None)
    if not engine or example is None:
        return (yield)
    from scripts.pages.blocks import _is_python

    python = _is_python(example.region)
    reasons = _reasons(example, engine["value"]) if python else []
    if python and not reasons:
        return (yield)
    try:
        yield
    except Exception:  # what a not-applicable example does on the reader's engine does not count
        pass
    if not python:
        pytest.skip("not an example: a directive of the site build")
    pytest.skip("not applicable to your engine: " + "; ".join(reasons))


def pytest_runtest_logreport(report):
    config = _CONFIG[0] if _CONFIG else None
    if config is None or _ENGINE not in config.stash or report.when not in ("setup", "call"):
        return
    if report.when == "setup" and report.passed:
        return
    page, line = report.location[0], report.location[1]
    counts = config.stash[_ENGINE]["pages"].setdefault(page, {"passed": 0, "failed": 0, "not applicable": 0,
                                                                 "skipped": 0})
    if report.skipped:
        text = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        counts["not applicable" if "not applicable to your engine" in text else "skipped"] += 1
    elif report.failed:
        counts["failed"] += 1
        config.stash[_ENGINE]["failures"].append((page, line + 1 if line is not None else 0, report.nodeid))
    else:
        counts["passed"] += 1


_CONFIG = []


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    _CONFIG[:] = [session.config]


def pytest_terminal_summary(terminalreporter, config):
    """Under --engine: a table per chapter, then each failure's first node whose grad differs."""
    engine = config.stash.get(_ENGINE, None)
    if engine is None or hasattr(config, "workerinput"):
        return
    from scripts.tools import engine_report

    for line in engine_report.summary(engine, config.rootpath):
        terminalreporter.write_line(line)

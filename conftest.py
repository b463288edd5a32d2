"""Collect every example in docs/**/*.md and every doctest in micrograd/ (Sybil)."""

import os

import pytest
from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from scripts.pages import parsers

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

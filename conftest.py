"""Collect every example in docs/**/*.md and every doctest in micrograd/ (Sybil)."""

import os

from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from scripts.pages import parsers

os.environ.setdefault("MPLBACKEND", "Agg")  # plots are drawn to files, never to a screen

docs = Sybil(parsers=parsers(), patterns=["*.md"], path="docs", name="docs")
engine = Sybil(parsers=[DocTestParser()], patterns=["*.py"], path="micrograd", name="micrograd")

pytest_collect_file = (docs + engine).pytest()

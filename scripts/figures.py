"""Run a chapter's examples in order and draw its figures.

    python -m scripts.figures docs/03-backprop-by-hand.md

prints a JSON list of {"line", "alt", "svg"}, one per `<!-- figure: -->`
comment, in page order. Called by scripts/hooks.py in a fresh process for
every build, so `mkdocs serve` always draws with the current micrograd.
Exits 1 with "page:line: reason" on stderr when an example fails or a figure
cannot be drawn.
"""

import contextlib
import dataclasses
import json
import os
import sys
import unittest

from sybil import Document

from scripts.examples import parsers


def render(path):
    """Evaluate every example of the page at `path`; return its list[Figure]."""
    figures = []
    document = Document.parse(str(path), *parsers(figures.append))
    with contextlib.redirect_stdout(sys.stderr):  # a page's print() must not mix into our JSON
        for example in document:
            try:
                example.evaluate()
            except unittest.SkipTest:
                continue  # a skip with a stated reason, e.g. PyTorch not installed
    return figures


def main(argv):
    os.environ.setdefault("MPLBACKEND", "Agg")
    (path,) = argv
    try:
        figures = render(path)
    except Exception as error:  # report page:line, then fail
        message = str(error)
        if not message.startswith(path):  # the figure parser names page:line itself
            message = f"{path}{_failing_line(error)}: {message}"
        print(message, file=sys.stderr)
        return 1
    json.dump([dataclasses.asdict(f) for f in figures], sys.stdout)
    return 0


def _failing_line(error):
    example = getattr(error, "example", None)  # sybil.example.SybilFailure
    if example is not None:
        return f":{example.line}"
    tb = error.__traceback__
    line = ""
    while tb is not None:  # deepest frame that ran page code
        if tb.tb_frame.f_code.co_filename.endswith(".md"):
            line = f":{tb.tb_lineno}"
        tb = tb.tb_next
    return line


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`pytest --engine`'s report (conftest.py): a table per chapter (passed, failed, not
applicable, skipped by the page), then, for each failed example, the first node whose grad
differs between micrograd and the reader's engine, with both numbers and the likely cause
(scripts/reader/your_engine.py: diagnose_blocks, on the page's blocks up to the failing one).

Runs in the pytest process that prints the summary; not part of the reader's Python.
"""

import re
from pathlib import Path

from sybil import Document

from scripts.pages.blocks import _line
from scripts.pages.examples import python_blocks
from scripts.reader.reader_code import is_doctest
from scripts.reader.your_engine import diagnose_blocks, set_prev, varies

HEADER = ("chapter", "passed", "failed", "not applicable", "skipped")


def page_blocks(path):
    """A page's Python blocks in blocks.json's shape (scripts/pages/blocks.py), without the skips the
    build records: every block runs, as far as a diagnosis needs."""
    text = Path(path).read_text(encoding="utf-8")
    document = Document(text, str(path))
    return [{"line": _line(document, block.start), "kind": "doctest" if is_doctest(str(block.lexemes["source"]))
             else "code", "hidden": "directive" in block.lexemes,
             "source": str(block.lexemes["source"]), "skip": None, "when": None, "figure": False}
            for block in python_blocks(document)]


def table(pages):
    """The per-chapter table's lines; pages: {page: {column: count}}."""
    rows = [HEADER] + [(page, *(str(counts[c]) for c in HEADER[1:])) for page, counts in sorted(pages.items())]
    totals = [sum(counts[c] for counts in pages.values()) for c in HEADER[1:]]
    rows.append(("total", *map(str, totals)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
            for row in rows]


def diagnoses(failures, root, Value):
    """[(nodeid, diagnosis or None)] for failures [(page, line, nodeid)]: each page run once."""
    out = []
    by_page = {}
    for page, line, nodeid in failures:
        by_page.setdefault(page, []).append((line, nodeid))
    for page, items in by_page.items():
        blocks = page_blocks(Path(root) / page)
        index = {}
        for line, nodeid in items:
            before = [i for i, b in enumerate(blocks) if b["line"] <= line]
            index[nodeid] = before[-1] if before else None
        found = diagnose_blocks(blocks, [i for i in index.values() if i is not None], {}, Value)
        out += [(nodeid, found.get(i)) for nodeid, i in index.items()]
    return out


def _line_of(nodeid):
    match = re.search(r"line:(\d+)", nodeid)
    return int(match[1]) if match else 0


def no_difference(found):
    """What a diagnosis that found no differing grad says, naming only what was compared (found:
    your_engine's diagnosis, {"compared": [names], "uncompared": [names]}). A block the reader's
    engine raised in builds no graph: "no Value's grad differs" was said of it (an audit)."""
    compared, uncompared = found.get("compared", []), found.get("uncompared", [])
    said = [f"no grad differs in {', '.join(compared)}"] if compared else []
    if uncompared:  # micrograd built a graph there, the reader's engine none it could walk
        said.append(f"not compared: {', '.join(uncompared)} (no Value from your engine there, "
                    "or a graph that could not be walked)")
    if found.get("cause"):  # the block failed on a graph it keeps in no name (your_engine.py: _on_probes)
        said.append(f"the block failed on a graph it keeps in no name; likely cause: {found['cause']}")
        return "; ".join(said)
    return ("; ".join(said) if said else "no graph to compare") + (
        " (the output differs)" if compared and not uncompared else "")


FAILED = ("differs", "error")  # a block's status in run_blocks that pytest reports as failed


def varying(engine, root, failures):
    """The lines that open the report when the engine's results change from run to run: each page
    with a failure is run twice more, as the map runs it (your_engine.varies), and a block that
    failed in one of the three runs and passed in another is named. Only an engine whose _prev is
    a set is run again: a tuple is walked in the same order every time."""
    if not failures or not set_prev(engine["value"]):
        return []
    lines = []
    for page in sorted({page for page, _, _ in failures}):
        blocks = page_blocks(Path(root) / page)
        failed = {max((i for i, b in enumerate(blocks) if b["line"] <= line), default=0)
                  for p, line, _ in failures if p == page}
        found = varies(blocks, engine["source"])
        for index, (block, statuses) in enumerate(zip(blocks, found["statuses"])):
            if statuses is None:
                continue
            runs = ["failed" if s in FAILED else "passed" for s in statuses]
            # pytest's own run counts when it failed the block: a block it passed may be one the
            # page skips (an include), which the map's run of every block does not skip
            if index in failed:
                runs = ["failed"] + runs
            if len(set(runs)) > 1:
                said = "pytest's run, then the map's two" if index in failed else "two runs of the map's"
                lines.append(f"  {page}:{block['line']}: " + ", ".join(runs) + f" ({said})")
    if not lines:
        return []
    return ["", "your engine's results vary from run to run: its _prev is a set, which Python walks in an order "
            "that follows where the nodes sit in memory, a different one each run, and this engine's grads depend "
            "on that order. Blocks that went both ways:"] + lines


def summary(engine, root):
    """The lines pytest prints at the end under --engine (engine: conftest.py's record)."""
    failures = [(page, _line_of(nodeid), nodeid) for page, _, nodeid in engine["failures"]]
    lines = varying(engine, root, failures)
    lines += ["", f"your engine ({engine['path']}) on every chapter:"] + table(engine["pages"])
    if failures:
        lines += ["", "where each failed example's gradients first differ from micrograd's:"]
    for nodeid, found in diagnoses(failures, root, engine["value"]):
        difference = (found or {}).get("difference")
        if not difference:
            lines.append(f"{nodeid}: {no_difference(found or {})}")
            continue
        lines.append(f"{nodeid}: {found['name']}'s graph, node {difference['name']}: grad "
                     f"{difference['shown']['got']}, micrograd {difference['shown']['expected']}; "
                     + (f"likely cause: {found['cause']}" if found.get("cause") else found["diagnosis"]))
    return lines

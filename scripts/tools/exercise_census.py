"""The book's exercises counted by chapter and by kind (issue 47), for a maintainer to read.

    python -m scripts.tools.exercise_census

prints one row per chapter page (docs/NN-*.md: the chapters a reader works through), the
number of exercises it includes with `<!-- exercise: name -->` and how many of each kind
(scripts/reader/exercise_format.py: KINDS), then the totals and how far each is from the
issue's minimums. tests/exercises/test_exercise_rules.py reads the same numbers (census()).
"""

import re
from pathlib import Path

from scripts import ROOT
from scripts.reader import exercise_format

# Issue 47: at least three exercises in every chapter, thirty in all, five of each kind.
PER_CHAPTER, IN_ALL, PER_KIND = 3, 30, 5
_INCLUDE = re.compile(r"^<!-- exercise: ([a-z0-9_]+) -->[ \t]*$", re.MULTILINE)


def chapters(docs=ROOT / "docs"):
    """The chapter pages that hold prose and exercises, as a sorted list[Path]: docs/NN-*.md.
    (Chapter 6, docs/06-training.py, is a notebook of its own: it holds no exercise directive.)"""
    return sorted(Path(docs).glob("[0-9][0-9]-*.md"))


def census(docs=ROOT / "docs"):
    """{"chapters": {page stem: {kind: count}}, "kinds": {kind: count}, "total": int}.

    Every page under docs/ counts toward the kinds and the total; only chapter pages get a row.
    An exercise with no `# ---- kind: ----` counts as kind "" (the rules test names it)."""
    rows, kinds, total = {}, dict.fromkeys(exercise_format.KINDS, 0), 0
    for page in sorted(Path(docs).rglob("*.md")):
        found = [exercise_format.load(name).kind for name in _INCLUDE.findall(page.read_text(encoding="utf-8"))]
        if page in chapters(docs):
            rows[page.stem] = {kind: found.count(kind) for kind in exercise_format.KINDS}
        for kind in found:
            kinds[kind] = kinds.get(kind, 0) + 1
        total += len(found)
    return {"chapters": rows, "kinds": kinds, "total": total}


def shortfalls(counts):
    """What the census `counts` lacks of the issue's minimums, as a list[str] (empty: none)."""
    short = [f"{page}: {sum(row.values())} exercises, expected at least {PER_CHAPTER}"
             for page, row in counts["chapters"].items() if sum(row.values()) < PER_CHAPTER]
    if counts["total"] < IN_ALL:
        short.append(f"{counts['total']} exercises in all, expected at least {IN_ALL}")
    short += [f"{counts['kinds'].get(kind, 0)} of kind {kind}, expected at least {PER_KIND}"
              for kind in exercise_format.KINDS if counts["kinds"].get(kind, 0) < PER_KIND]
    return short


def table(counts):
    """The census as text: a row per chapter, a row of totals, then what is short."""
    kinds = exercise_format.KINDS
    width = max(len(page) for page in [*counts["chapters"], "chapter"])
    lines = ["chapter".ljust(width) + "".join(f"{kind:>8}" for kind in kinds) + f"{'all':>8}"]
    for page, row in counts["chapters"].items():
        lines.append(page.ljust(width) + "".join(f"{row[kind]:>8}" for kind in kinds) + f"{sum(row.values()):>8}")
    lines.append("in all".ljust(width) + "".join(f"{counts['kinds'].get(kind, 0):>8}" for kind in kinds)
                 + f"{counts['total']:>8}")
    short = shortfalls(counts)
    lines += ["", "Short of issue 47's minimums:", *(f"  {line}" for line in short)] if short else \
        ["", "Issue 47's minimums are met."]
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(census()))

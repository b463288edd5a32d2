"""Every number in a page's prose was computed on that page: it appears in the page's
executed output, in an assertion, or in one of its figures (scripts/pages/prose.py says how a
number is read and matched), or it is on the page's short list of exemptions, each with
its reason (scripts/pages/prose.py's EXEMPT, which the site build reads too). On a Markdown page
each number has one exact source, the one the site links it to, or stays plain text where no
source is certain (scripts/pages/number_sources.py).
A failure names the page, the line and the number."""

import json
import re

import pytest

from scripts import ROOT
from scripts.build.page_build import number_sources
from scripts.pages.prose import (
    EXEMPT,
    exempt_phrases,
    known_numbers,
    matches,
    numbers,
    page_numbers,
)

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
NOTEBOOK = DOCS / "06-training.py"

@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_number_in_the_prose_was_computed_on_its_page(fresh_run, page):
    text = page.read_text(encoding="utf-8")
    result = fresh_run(page)
    svgs = [content for name, content in result.files.items() if name.endswith(".svg")]
    known = known_numbers(text, result.printed, svgs)
    missing = [f"docs/{page.name}:{n.line}: {n.text}" for n in page_numbers(text, exempt_phrases(page.name))
               if not matches(n, known)]
    assert not missing, "numbers the page does not compute (print, assert or draw them, " \
        "or exempt them with a reason):\n" + "\n".join(missing)
    # ...and each has one exact source, the one the site links it to
    found = number_sources(page, result)
    assert not found.problems, "\n".join(found.problems)
    # (or it is plain text where no source is certain to be what the prose reads it as)
    assert len(found.numbers) + len(found.withheld) == len(page_numbers(text, exempt_phrases(page.name)))


def test_every_number_in_the_notebook_prose_is_in_its_output(executed_notebook):
    source = NOTEBOOK.read_text(encoding="utf-8").split("\n")
    exempt = exempt_phrases(NOTEBOOK.name)
    known = []
    for cell in executed_notebook.cells:
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                text = output.get("text") or output.get("data", {}).get("text/plain", "")
                known += [n.value for line in text.split("\n") for n in numbers(line)]
            known += [n.value for n in numbers(" ".join(re.findall(r"assert .*", cell.source)))]
    missing = []
    for cell in executed_notebook.cells:
        if cell.cell_type != "markdown":
            continue
        first = source.index(f"# {cell.source.splitlines()[0]}".rstrip()) + 1
        for found in page_numbers(cell.source, exempt):
            if not matches(found, known):
                missing.append(f"docs/{NOTEBOOK.name}:{first + found.line - 1}: {found.text}")
    assert not missing, "\n".join(missing)


def test_every_exemption_names_a_phrase_its_page_still_has():
    for name, phrases in EXEMPT.items():
        if not phrases:
            continue
        text = (DOCS / name).read_text(encoding="utf-8")
        stale = [phrase for phrase in phrases if phrase not in text]
        assert not stale, f"{name}: exemptions for phrases no longer on the page: {stale}"
        assert all(reason.strip() for reason in phrases.values()), name


@pytest.mark.parametrize("prose, output, found", [
    ("off by 0.003", "-0.0030000000000001137", True),  # the sign is the prose's to drop
    ("off by 0.003", "0.0036", False),  # 0.0036 shows as 0.004
    ("about 0.7071", "0.7071067811865476", True),
    ("15 times", "14.6", False),  # an integer is exact...
    ("about 15 times", "14.6", True),  # ...unless the prose says it is approximate
    ("$6 \\cdot 10^{-10}$", "5.9e-10", True),
    ("6·10⁻¹⁰", "6.6e-10", False),
    ("h² = 10⁻¹²", "1e-12", True),  # the 2 of h² is a power, not a number stated
    ("w1 and x2 and 3a", "", True),  # names and terms, not numbers
    ("1,000,000 operations", "1000000", True),
    ("−10", "-10.0", True),
    ("100%", "final accuracy: 100%", True),
    ("about 7,490,000 steps", "7.49e+06", True),  # Python's "%g" writes a plus: it read 7 and 06
    ("7 steps", "7.49e+06", False),
])
def test_how_prose_numbers_are_read_and_matched(prose, output, found):
    known = [n.value for n in numbers(output)]
    stated = numbers(prose)
    assert all(matches(n, known) for n in stated) == found, json.dumps([n.text for n in stated])

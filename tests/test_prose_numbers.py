"""Every number in a page's prose was computed on that page: it appears in the page's
executed output, in an assertion, or in one of its figures (scripts/prose.py says how a
number is read and matched), or it is on the page's short list of exemptions, each with
its reason. A failure names the page, the line and the number."""

import json
import re

import pytest

from scripts import ROOT
from scripts.prose import known_numbers, matches, numbers, page_numbers

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
NOTEBOOK = DOCS / "06-training.py"

# Phrases whose numbers are not results: page -> {phrase as written: why it is exempt}.
EXEMPT = {
    "index.md": {
        "chapter 4": "a chapter number",
        "micrograd 0.1.0": "a version number",
    },
    "01-computational-graphs.md": {
        "micrograd 0.1.0": "a version number",
    },
    "02-chain-rule.md": {
        "chapter 7": "a chapter number",
    },
    "03-backprop-by-hand.md": {
        "0.01": "the step size the page chooses, an input (step = 0.01)",
        "chapter 7": "a chapter number",
    },
    "04-engine.md": {
        "4. The engine": "the chapter's number",
        "chapter 7": "a chapter's number",
    },
    "05-neurons-layers-networks.md": {
        "5. Neurons": "the chapter's number",
        "chapter 7": "a chapter's number",
    },
    "06-training.py": {
        "6. Training": "the chapter's number",
        "Chapters 1 to 5": "chapter numbers",
        "chapter 5": "a chapter's number",
        "chapter 7": "a chapter's number",
    },
    "07-check-break-fix.md": {
        'below $10^{-7}$ "happy"': "a threshold quoted from CS231n's notes, not a result",
    },
    "08-pytorch.md": {
    },
    "09-tensors.md": {
        "9. From scalars to tensors": "the chapter's number in its title",
    },
    "10-under-the-hood.md": {
        "10. Under the hood": "the chapter's number",
        "0.1.0": "micrograd's version number",
        "Python 3.10": "a Python version",
        "Python 3.11": "a Python version",
        "chapter 9": "a chapter's number",
    },
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_number_in_the_prose_was_computed_on_its_page(fresh_run, page):
    text = page.read_text(encoding="utf-8")
    result = fresh_run(page)
    svgs = [content for name, content in result.files.items() if name.endswith(".svg")]
    known = known_numbers(text, result.printed, svgs)
    exempt = EXEMPT.get(page.name, {})
    missing = [f"docs/{page.name}:{n.line}: {n.text}" for n in page_numbers(text, exempt)
               if not matches(n, known)]
    assert not missing, "numbers the page does not compute (print, assert or draw them, " \
        "or exempt them with a reason):\n" + "\n".join(missing)


def test_every_number_in_the_notebook_prose_is_in_its_output(executed_notebook):
    source = NOTEBOOK.read_text(encoding="utf-8").split("\n")
    exempt = EXEMPT.get(NOTEBOOK.name, {})
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
])
def test_how_prose_numbers_are_read_and_matched(prose, output, found):
    known = [n.value for n in numbers(output)]
    stated = numbers(prose)
    assert all(matches(n, known) for n in stated) == found, json.dumps([n.text for n in stated])

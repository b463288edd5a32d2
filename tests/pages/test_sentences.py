"""Every sentence of a chapter's prose that compares, orders, counts, or says same, always,
never, every, any, only, at most or wins about what the page computes has a claim after it that
the page's code proves, or an entry with its reason in the one reviewed list
(scripts/pages/sentences.py, scripts/pages/unclaimed.py). A failure names page, line, sentence."""


import pytest

from scripts import ROOT
from scripts.pages.claims import CLAIM
from scripts.pages.sentences import Sentence, markdown_cells, needs_claim, sentences, unchecked
from scripts.pages.unclaimed import UNCLAIMED

DOCS = ROOT / "docs"
NOTEBOOK = DOCS / "06-training.py"
PAGES = sorted(DOCS.glob("[0-9][0-9]-*.md")) + [DOCS / "your-engine.md"]
# the pages issue 45 asked to be checked, with at least this many claims each
CLAIMED = ["01-computational-graphs.md", "02-chain-rule.md", "03-backprop-by-hand.md", "04-engine.md",
           "05-neurons-layers-networks.md", "06-training.py", "07-check-break-fix.md", "08-pytorch.md",
           "09-tensors.md", "10-under-the-hood.md", "your-engine.md"]


def _page_sentences(name):
    path = DOCS / name
    if path.suffix == ".py":
        return [s for line, source in markdown_cells(path) for s in sentences(source, line)]
    return sentences(path.read_text(encoding="utf-8"))


def _unchecked(path):
    if path.suffix == ".py":
        return [problem for line, source in markdown_cells(path) for problem in unchecked(path.name, source, line)]
    return unchecked(path.name, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", PAGES + [NOTEBOOK], ids=lambda p: p.name)
def test_every_sentence_that_states_what_the_code_shows_is_checked_or_listed_with_a_reason(path):
    problems = _unchecked(path)
    assert not problems, ("sentences that state what the page computes, with no claim after them "
                          "(add <!-- claim: EXPR -->, or list the sentence with its reason in "
                          "scripts/pages/unclaimed.py):\n" + "\n".join(problems))


@pytest.mark.parametrize("name", sorted(UNCLAIMED))
def test_every_listed_sentence_is_on_its_page_unchecked_and_needs_a_reason(name):
    needing = [s for s in _page_sentences(name) if needs_claim(s) and not s.checked]
    for phrase, reason in UNCLAIMED[name].items():
        assert reason.strip(), f"{name}: {phrase!r} has no reason"
        found = [s.text for s in needing if phrase in s.text]
        assert len(found) == 1, (f"{name}: the listed phrase {phrase!r} should name one unchecked sentence "
                                 f"that needs a claim; it names {found}")


@pytest.mark.parametrize("name", CLAIMED)
def test_each_checked_page_makes_at_least_five_claims(name):
    claims = CLAIM.findall((DOCS / name).read_text(encoding="utf-8"))
    assert len(claims) >= 5, f"{name}: {len(claims)} claims"


SENTENCE = "So the forward difference is always 3 times worse than the centered one."


def test_an_unchecked_sentence_added_to_a_chapter_fails_at_its_line():
    page = DOCS / "07-check-break-fix.md"
    lines = page.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("## Choosing h"))
    added = "\n".join(lines[:at] + [SENTENCE, ""] + lines[at:])
    problem = f"docs/{page.name}:{at + 1}: {SENTENCE}"
    assert problem in unchecked(page.name, added)
    claimed = "\n".join(lines[:at] + [SENTENCE + " <!-- claim: True -->", ""] + lines[at:])
    assert problem not in unchecked(page.name, claimed)
    assert len(unchecked(page.name, claimed)) == len(unchecked(page.name, added)) - 1


def test_an_unchecked_sentence_added_to_the_training_notebook_fails_at_its_line():
    text = NOTEBOOK.read_text(encoding="utf-8")
    at = text.index("\n# ## The loss")
    line = text.count("\n", 0, at) + 2
    source = text[:at] + "\n# " + SENTENCE + "\n#" + text[at:]
    cells = [cell for cell in markdown_cells_of(source)]
    problems = [p for first, cell in cells for p in unchecked(NOTEBOOK.name, cell, first)]
    assert f"docs/{NOTEBOOK.name}:{line}: {SENTENCE}" in problems


def markdown_cells_of(source):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "06-training.py"
        path.write_text(source, encoding="utf-8")
        return markdown_cells(path)


@pytest.mark.parametrize("text, found", [
    ("One thing. It is always 3. <!-- claim: x -->", [("One thing.", False), ("It is always 3.", True)]),
    ("It is always 3.\n<!-- claim: x -->\n", [("It is always 3.", True)]),
    ("It is `a`,\nnever `b`. <!-- claim: x -->\nNext, 4.", [("It is `a`, never `b`.", True), ("Next, 4.", False)]),
    ('!!! note "A title with 2 words"\n    Inside, only `x` is 2.\n    <!-- claim: x -->',
     [("Inside, only `x` is 2.", True)]),
    ("```python\nx = 2  # always 2\n```\n", []),
])
def test_sentences_are_read_with_their_claims(text, found):
    assert [(s.text, s.checked) for s in sentences(text)] == found


@pytest.mark.parametrize("text, needs", [
    ("The error is 3 times smaller than before.", True),
    ("`a.grad` is the same as `b.grad`.", True),
    ("The centered difference wins at any $h$.", True),
    ("It has five leaf nodes.", False),  # counts, but names nothing the page computes
    ("Read it as always.", False),
    ("This is the only `x`.", True),
])
def test_a_sentence_needs_a_claim_when_its_words_compare_about_something_computed(text, needs):
    assert needs_claim(Sentence(1, text, False)) == needs

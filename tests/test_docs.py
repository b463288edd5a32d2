"""The chapters' examples: none goes uncollected, none silently appears or disappears,
and a failure names docs/<page>.md:<line>."""

import re

import pytest
from sybil import Document
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from scripts.examples import ROOT, parsers

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))

# Python examples (code blocks and doctest examples) per page, exactly. A page
# that gains or loses one (a new check, a fence that stopped being collected, a
# deleted check) fails until this record is updated on purpose.
RECORDED_EXAMPLES = {
    "index.md": 4,
    "01-computational-graphs.md": 46,
    "02-chain-rule.md": 71,
    "03-backprop-by-hand.md": 75,
    "04-engine.md": 147,
    "05-neurons-layers-networks.md": 72,
    "07-check-break-fix.md": 145,
    "08-pytorch.md": 93,
    "09-tensors.md": 99,
}


def python_examples(path):
    document = Document.parse(str(path), *parsers())
    return [
        example for example in document
        if isinstance(example.region.evaluator, (PythonEvaluator, DocTestEvaluator))
    ]


def looks_like_python(info, source):
    """Broader than the parser on purpose: any fence a reader would take for Python."""
    words = info.strip().lstrip("{").replace(".", " ").split()
    language = words[0].lower() if words else ""
    return language.startswith("py") or language in {"ipython", "python3"} or source.lstrip().startswith(">>>")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_fence_is_collected(page):
    document = Document(page.read_text(encoding="utf-8"), str(page))
    lexer = RawFencedCodeBlockLexer(info_pattern=re.compile(r"(?P<info>[^\n]*)\n"))
    fences = [r for r in lexer(document) if looks_like_python(r.lexemes["info"], str(r.lexemes["source"]))]
    starts = [e.start for e in python_examples(page)]
    missed = [
        document.line_column(fence.start)
        for fence in fences
        if not any(fence.start <= s < fence.end for s in starts)
    ]
    assert not missed, f"{page.relative_to(ROOT)}: python fences not run by pytest at {missed}"


def test_every_page_holds_exactly_its_recorded_examples():
    counts = {str(p.relative_to(DOCS)): len(python_examples(p)) for p in PAGES}
    changed = [
        f"  {page}: {RECORDED_EXAMPLES.get(page, 'not recorded')} -> {counts.get(page, 'no page')}"
        for page in sorted(set(counts) | set(RECORDED_EXAMPLES))
        if counts.get(page) != RECORDED_EXAMPLES.get(page)
    ]
    if changed:
        order = [p for p in RECORDED_EXAMPLES if p in counts] + [p for p in counts if p not in RECORDED_EXAMPLES]
        record = "".join(f'    "{page}": {counts[page]},\n' for page in order)
        pytest.fail(
            "example counts changed (recorded -> now):\n" + "\n".join(changed)
            + "\nIf that is intended, set RECORDED_EXAMPLES in tests/test_docs.py to:\n"
            + "RECORDED_EXAMPLES = {\n" + record + "}",
            pytrace=False,
        )


def test_a_failing_example_points_at_its_page_and_line(tmp_path):
    page = tmp_path / "broken.md"
    page.write_text("# Broken\n\n```python\nx = 1\n```\n\n```python\ny = 2\nassert x == y\n```\n")
    examples = python_examples(page)
    examples[0].evaluate()
    with pytest.raises(AssertionError) as failure:
        examples[1].evaluate()
    frames = [(entry.frame.code.path, entry.lineno + 1) for entry in failure.traceback]
    assert (str(page), 9) in [(str(path), line) for path, line in frames]


def test_fences_with_attributes_and_short_names_run(tmp_path):
    page = tmp_path / "loose.md"
    page.write_text(
        '```python title="a.py"\na = 1\n```\n\n```py\nb = a + 1\n```\n\n'
        "```pycon\n>>> a + b\n3\n```\n\n```text\nnot python\n```\n"
    )
    examples = python_examples(page)
    assert [e.line for e in examples] == [1, 5, 10]
    for example in examples:
        example.evaluate()


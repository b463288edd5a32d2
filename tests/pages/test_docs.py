"""The chapters' examples: none goes uncollected, none silently appears or disappears,
every skip says why, and a failure or a skip names docs/<page>.md:<line>."""

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest
from sybil import Document
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.evaluators.skip import Skipper
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from scripts import ROOT
from scripts.build.page_build import parsers

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))

# Python examples (code blocks and doctest examples) per page, exactly. A page
# that gains or loses one (a new check, a fence that stopped being collected, a
# deleted check) fails until this record is updated on purpose.
RECORDED_EXAMPLES = {
    "index.md": 4,
    "01-computational-graphs.md": 40,
    "02-chain-rule.md": 71,
    "03-backprop-by-hand.md": 62,
    "04-engine.md": 97,  # the zero_grad section prints the inner grads after each backward()
    "05-neurons-layers-networks.md": 71,  # a tanh neuron inside a loss: its upstream is not 1
    "07-check-break-fix.md": 74,
    "08-pytorch.md": 106,  # no_grad, detach, retain_graph (issue 46)
    "09-tensors.md": 103,
    "10-under-the-hood.md": 56,
    "11-gates-and-granularity.md": 63,
    "12-jacobians-and-vjps.md": 47,
    "13-what-reverse-mode-costs.md": 19,
    "14-deep-networks.md": 25,
    "playground.md": 5,
    "your-engine.md": 1,  # hidden: what the map runs, read by the page's claims
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
            + "\nIf that is intended, set RECORDED_EXAMPLES in tests/pages/test_docs.py to:\n"
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


def skip_without_reason(action, arguments):
    """What is wrong with a `<!-- skip: action arguments -->`, or None.

    `start` and `next` need a reason: a non-empty string, or `if(condition,
    reason="...")`. Without one Sybil runs nothing and pytest reports PASSED.
    """
    if action == "end":
        return None
    if not arguments:
        return f"'skip: {action}' has no reason"
    text = arguments.strip()
    if text.startswith("if"):  # Sybil evaluates `if(...)` as a call to its If helper
        call = ast.parse("if_" + text[2:], mode="eval").body
        given = [k.value for k in getattr(call, "keywords", []) if k.arg == "reason"]
        given += getattr(call, "args", [])[1:2]
    else:
        given = [ast.parse(text, mode="eval").body]
    if not any(isinstance(g, ast.Constant) and isinstance(g.value, str) and g.value.strip() for g in given):
        return f"'skip: {action} {text}' gives no reason (a string, or if(condition, reason=\"...\"))"
    return None


def skips(path):
    """(line, action, arguments) of every skip directive on a page."""
    document = Document.parse(str(path), *parsers())
    return [(e.line, *e.parsed) for e in document if isinstance(e.region.evaluator, Skipper)]


def test_every_skip_in_the_docs_gives_a_reason():
    problems = [
        f"{page.relative_to(ROOT)}:{line}: {problem}"
        for page in PAGES
        for line, action, arguments in skips(page)
        if (problem := skip_without_reason(action, arguments))
    ]
    assert not problems, "\n".join(problems)


def test_a_skip_without_a_reason_is_caught(tmp_path):
    page = tmp_path / "skips.md"
    page.write_text(
        "<!-- skip: next -->\n```python\nx = 1\n```\n\n"
        "<!-- skip: next if(True) -->\n```python\nx = 2\n```\n\n"
        '<!-- skip: start "" -->\n```python\nx = 3\n```\n<!-- skip: end -->\n\n'
        '<!-- skip: next "shown, not run" -->\n```python\nx = 4\n```\n\n'
        '<!-- skip: next if(x is None, reason="x is missing") -->\n```python\nx = 5\n```\n'
    )
    found = [(line, skip_without_reason(action, arguments)) for line, action, arguments in skips(page)]
    assert [line for line, problem in found if problem] == [1, 6, 11]
    assert [line for line, problem in found if not problem] == [15, 17, 22]


SKIPPING_PAGE = """# A page with skips

```python
x = 1
```

<!-- skip: next "shown, not run: it needs a network" -->
```python
x = fetch()
```

```python
assert x == 1
```

<!-- skip: next if(x == 1, reason="x is one here") -->
```python
x = 2
```
"""


def test_a_skip_is_reported_at_its_page_and_line(tmp_path):
    """Through the repository's conftest.py and pytest settings, under pytest-xdist (one worker
    reports as two do: the skip travels from the worker to the controller)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(SKIPPING_PAGE)
    shutil.copy(ROOT / "conftest.py", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)  # addopts: -ra --dist loadfile
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # conftest.py imports scripts.pages.examples
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "1", "-p", "no:cacheprovider", "docs"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "SKIPPED [1] docs/page.md:8: shown, not run: it needs a network" in output
    assert "SKIPPED [1] docs/page.md:17: x is one here" in output
    assert "unittest.py" not in output
    assert "4 passed, 2 skipped" in output  # two blocks and the two skip comments pass

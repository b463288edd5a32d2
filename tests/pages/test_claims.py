"""Claims: `<!-- claim: EXPR -->` after a sentence is evaluated at its place by pytest and by the
site build; anything but exactly True fails both at the comment's line, with the sentence and
the values the expression read (scripts/pages/claims.py)."""

import os
import re
import subprocess
import sys

import pytest

from scripts import ROOT
from scripts.build.page_build import run
from scripts.pages.claims import sentence_before


def page(tmp_path, text):
    """A page whose line 6 is the first line of `text`."""
    path = tmp_path / "page.md"
    path.write_text("```python\nerrors = [3.0, 2.0, 5.0]\nsmallest = min(errors)\n```\n\n" + text)
    return path


def build_error(path, line):
    """What scripts.build.page_build prints when the page at `path` fails to build; fails the test
    if it builds, or if the error does not start with the page and `line`."""
    result = subprocess.run([sys.executable, "-m", "scripts.build.page_build", str(path), "page.md"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout
    assert result.stderr.startswith(f"{path}:{line}: the claim"), result.stderr
    return result.stderr


def pytest_failure(tmp_path, path, line):
    """pytest's report on the page at `path`, collected by the book's own Sybil parsers; fails the
    test if pytest passes, or if the report does not name the page and `line`."""
    (tmp_path / "conftest.py").write_text(
        "from sybil import Sybil\nfrom scripts.build.page_build import parsers\n"
        "pytest_collect_file = Sybil(parsers=parsers(), patterns=['*.md']).pytest()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                             "-p", "no:randomly", "--rootdir", str(tmp_path), str(path)],
                            cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 1, result.stdout
    assert f"{path.name}:{line}: the claim" in result.stdout, result.stdout
    return result.stdout


def test_a_true_claim_builds_a_hidden_mark_whose_box_shows_the_check_and_links_its_block(tmp_path):
    result = run(page(tmp_path, "The smallest error is 2.0. <!-- claim: smallest == min(errors) -->\n"))
    (claim,) = result.outputs
    assert (claim.kind, claim.line) == ("claim", 6)
    html = claim.markdown
    assert "\n" not in html  # one line: it may sit in a list or an admonition
    assert html.startswith('<button type="button" class="bv-claim" aria-expanded="false" '
                           'aria-controls="bv-claim-1" aria-label="Checked sentence: show the check" hidden>')
    box = re.search(r'<span class="bv-claim__box" id="bv-claim-1" hidden>(.*)</span>$', html)[1]
    assert "<code>smallest == min(errors)</code> \u2192 <code>True</code>" in box
    assert ("<br>It read <code>smallest = 2.0</code>, <code>errors = &#91;3.0, 2.0, 5.0&#93;</code>, "
            "<code>min(errors) = 2.0</code>.") in box
    assert '<br><a href="#block-1">Go to block 1</a>, which sets <code>errors</code>, <code>smallest</code>.' in box


def test_a_claim_links_the_last_visible_block_that_set_its_names_not_hidden_setup(tmp_path):
    text = ("<!-- invisible-code-block: python\nhidden = 1\n-->\n\n```python\nlater = 2\n```\n\n"
            "One. <!-- claim: hidden == 1 -->\n\nTwo. <!-- claim: later + hidden == 3 -->\n\n"
            "```python\n>>> later = 4\n```\n\nThree. <!-- claim: later == 4 -->\n")
    first, second, third = run(page(tmp_path, text)).outputs
    assert "Go to block" not in first.markdown  # set by hidden setup only: nothing to link to
    assert '<a href="#block-2">Go to block 2</a>, which sets <code>later</code>.' in second.markdown
    assert '<a href="#block-3">Go to block 3</a>' in third.markdown and 'id="bv-claim-3"' in third.markdown


FALSE = "The second error is the smallest of the three.\n<!-- claim: errors[0] < errors[1] -->\n"


def test_a_false_claim_fails_the_build_at_its_line_with_its_sentence_and_values(tmp_path):
    error = build_error(page(tmp_path, "Some words first.\n\n" + FALSE), 9)
    assert "the claim `errors[0] < errors[1]` gives False, not True" in error
    assert "sentence: The second error is the smallest of the three." in error
    assert "errors = [3.0, 2.0, 5.0]" in error
    assert "errors[0] = 3.0" in error and "errors[1] = 2.0" in error


def test_a_false_claim_fails_pytest_at_its_line(tmp_path):
    report = pytest_failure(tmp_path, page(tmp_path, "Some words first.\n\n" + FALSE), 9)
    assert "sentence: The second error is the smallest of the three." in report
    assert "errors[0] = 3.0" in report


@pytest.mark.parametrize("claim, message", [
    ("1", "gives 1, not True (a int: a claim must be a comparison, a bool)"),
    ("errors", "gives [3.0, 2.0, 5.0], not True (a list"),
    ("min(errors) > 2", "gives False, not True"),
    ("missing < 2", "could not be evaluated: NameError"),
])
def test_a_claim_that_is_not_exactly_true_fails_at_its_line(tmp_path, claim, message):
    error = build_error(page(tmp_path, f"A sentence. <!-- claim: {claim} -->\n"), 6)
    assert message in error


def test_a_numpy_bool_is_not_a_bool_and_the_error_says_what_to_do(tmp_path):
    np = pytest.importorskip("numpy", reason="NumPy's bool needs NumPy")
    path = page(tmp_path, "Smaller. <!-- claim: np.float64(1.0) < 2.0 -->\n")
    path.write_text(path.read_text().replace("```python\n", "```python\nimport numpy as np\n", 1))
    assert np.float64(1.0) < 2.0  # True_, truthy, yet not True
    assert "wrap the comparison in bool(...)" in build_error(path, 7)


def test_a_claim_that_is_not_python_fails_where_it_is_written(tmp_path):
    path = page(tmp_path, "A sentence. <!-- claim: smallest < -->\n")
    result = subprocess.run([sys.executable, "-m", "scripts.build.page_build", str(path), "page.md"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1 and f"{path}:6: the claim `smallest <` is not a Python expression" in result.stderr


def test_a_claim_is_evaluated_at_its_place_not_with_the_page_s_last_values(tmp_path):
    text = ("Here the smallest is 2.0. <!-- claim: smallest == 2.0 -->\n\n"
            "```python\nsmallest = 0.5\n```\n\nNow it is 0.5. <!-- claim: smallest == 0.5 -->\n")
    assert [o.line for o in run(page(tmp_path, text)).outputs] == [6, 12]


@pytest.mark.parametrize("text, sentence", [
    ("One. Two is 2.0.\n<!-- claim: x -->", "Two is 2.0."),
    ("A first line,\nand its end, e.g. here. <!-- claim: x -->", "A first line, and its end, e.g. here."),
    ("Before.\n\n- An item that says $h = 0.1$. <!-- claim: x -->", "An item that says $h = 0.1$."),
    ("    Inside a fold (really). It wins! <!-- claim: x -->", "It wins!"),
    ("<!-- claim: x -->", ""),
])
def test_the_sentence_of_a_claim_is_the_one_before_it_in_its_paragraph(text, sentence):
    assert sentence_before(text, text.index("<!-- claim")) == sentence

"""Quizzes: the key comes from the page's own code, a written answer that disagrees fails the
page at its line, and the build writes the quiz into the page, hidden until its script runs."""

import re
import subprocess
import sys

import pytest

from scripts import ROOT
from scripts.pages import run


def page(tmp_path, text):
    path = tmp_path / "page.md"
    path.write_text("```python\nx = 2.0\ny = x * 5\n```\n\n" + text)
    return path


def test_a_number_quiz_carries_the_key_its_expression_computed(tmp_path):
    result = run(page(tmp_path, "What is y?\n\n<!-- quiz: number(y, answer=10) -->\n"))
    (quiz,) = result.outputs
    assert (quiz.kind, quiz.line) == ("quiz", 8)
    assert 'data-quiz="number" data-key="10.0" data-tol="0.0" data-shown="10"' in quiz.markdown
    assert " hidden>" in quiz.markdown and "\n" not in quiz.markdown  # one line: fits an admonition


def test_a_tolerance_admits_a_rounded_written_answer(tmp_path):
    result = run(page(tmp_path, "<!-- quiz: number(y / 3, answer=3.3333, tol=5e-5) -->\n"))
    assert 'data-key="3.3333333333333335" data-tol="5e-05"' in result.outputs[0].markdown


@pytest.mark.parametrize("quiz, message", [
    ("number(y, answer=-10)", "written answer -10 differs from its expression, which gives 10.0"),
    ("number(y / 3, answer=3.3333)", "written answer 3.3333 differs"),
    ("choice('7', options=['6', '10'])", "gives '7', which is not one of its options"),
    ("number(x_missing, answer=1)", "name 'x_missing' is not defined"),
    ("sum([1, 2])", "a quiz is number(...) or choice(...)"),
])
def test_a_quiz_that_disagrees_with_its_page_fails_at_its_line(tmp_path, quiz, message):
    path = page(tmp_path, f"Some text.\n\n<!-- quiz: {quiz} -->\n")
    result = subprocess.run([sys.executable, "-m", "scripts.pages", str(path), "page.md"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1
    assert f"{path}:8" in result.stderr
    assert message in result.stderr


def test_a_choice_quiz_keys_the_index_of_the_right_option_and_renders_math(tmp_path):
    result = run(page(tmp_path, "<!-- quiz: choice(f'{y:g}', options=['5', '10', '$y^2$']) -->\n"))
    html = result.outputs[0].markdown
    assert 'data-quiz="choice" data-key="1"' in html
    assert len(re.findall(r'type="radio" name="quiz-1"', html)) == 3
    assert '<span class="arithmatex">\\(y^2\\)</span>' in html  # KaTeX fills it in the built page

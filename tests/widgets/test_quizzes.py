"""Quizzes: the key comes from the page's own code, a written answer that disagrees fails the
page at its line, and the build writes the quiz into the page, hidden until its script runs."""

import re
import subprocess
import sys

import pytest

from scripts import ROOT
from scripts.build.page_build import run
from scripts.pages.quizzes import quiz_id


def page(tmp_path, text):
    path = tmp_path / "page.md"
    path.write_text("```python\nx = 2.0\ny = x * 5\n```\n\n" + text)
    return path


def build_error(path):
    """What scripts.build.page_build prints when the page at `path` fails to build; fails the test
    if it builds, or if the error does not name the quiz's line (line 8 of page())."""
    result = subprocess.run([sys.executable, "-m", "scripts.build.page_build", str(path), "page.md"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout
    assert f"{path}:8" in result.stderr, result.stderr
    return result.stderr


def test_a_number_quiz_carries_the_key_its_expression_computed(tmp_path):
    result = run(page(tmp_path, "What is y?\n\n<!-- quiz: number(y, answer=10) -->\n"))
    (quiz,) = result.outputs
    assert (quiz.kind, quiz.line) == ("quiz", 8)
    assert 'data-quiz="number" data-key="10.0" data-tol="0.0" data-shown="10"' in quiz.markdown
    assert " hidden>" in quiz.markdown and "\n" not in quiz.markdown  # one line: fits an admonition


def test_an_answer_of_four_or_more_digits_is_shown_with_thousands_commas_as_the_pages_write_it(tmp_path):
    result = run(page(tmp_path, "<!-- quiz: number(y * 6153.9, answer=61539) -->\n\n"
                                "<!-- quiz: number(-y * 400.1, answer=-4001) -->\n\n"
                                "<!-- quiz: number(y * 67.4, answer=674) -->\n"))
    shown = [re.search(r'data-shown="([^"]*)"', output.markdown)[1] for output in result.outputs]
    assert shown == ["61,539", "\u22124,001", "674"]


def test_a_box_is_called_your_answer_or_what_the_page_names_it(tmp_path):
    result = run(page(tmp_path, '<!-- quiz: number(y, answer=10) -->\n\n'
                                '<!-- quiz: number(x, answer=2, label="The <first> leaf") -->\n\n'
                                '<!-- quiz: choice("a", options=["a", "b"], label="Backward passes") -->\n'))
    plain, named, picked = (output.markdown for output in result.outputs)
    first, second = quiz_id("number(y, answer=10)"), quiz_id('number(x, answer=2, label="The <first> leaf")')
    assert f'<label class="bv-quiz__label" for="{first}">Your answer</label>' in plain
    assert f'<label class="bv-quiz__label" for="{second}">The &lt;first&gt; leaf</label>' in named
    assert "<legend>Backward passes</legend>" in picked


def test_a_tolerance_admits_a_rounded_written_answer(tmp_path):
    result = run(page(tmp_path, "<!-- quiz: number(y / 3, answer=3.3333, tol=5e-5) -->\n"))
    assert 'data-key="3.3333333333333335" data-tol="5e-05"' in result.outputs[0].markdown


@pytest.mark.parametrize("quiz, message", [
    ("number(y, answer=-10)", "written answer -10 differs from its expression, which gives 10.0"),
    ("number(y / 3, answer=3.3333)", "written answer 3.3333 differs"),
    ("choice('7', options=['6', '10'])", "gives '7', which is not one of its options"),
    ("number(x_missing, answer=1)", "name 'x_missing' is not defined"),
    ("sum([1, 2])", "a quiz is number(...) or choice(...)"),
    ("number(y, answer=10, label='')", "label= must be a non-empty str"),
])
def test_a_quiz_that_disagrees_with_its_page_fails_at_its_line(tmp_path, quiz, message):
    path = page(tmp_path, f"Some text.\n\n<!-- quiz: {quiz} -->\n")
    assert message in build_error(path)


def test_a_choice_quiz_keys_the_index_of_the_right_option_and_renders_math(tmp_path):
    result = run(page(tmp_path, "<!-- quiz: choice(f'{y:g}', options=['5', '10', '$y^2$']) -->\n"))
    html = result.outputs[0].markdown
    assert 'data-quiz="choice" data-key="1"' in html
    name = quiz_id("choice(f'{y:g}', options=['5', '10', '$y^2$'])")
    assert len(re.findall(f'type="radio" name="{name}"', html)) == 3
    assert '<span class="arithmatex">\\(y^2\\)</span>' in html  # KaTeX fills it in the built page


def test_a_quiz_names_its_classic_mistakes_each_computed_by_running_it(tmp_path):
    """9 for 15 (a lost path, by a wrong visit order) and 9 for 27 (= for +=), from the engine."""
    path = tmp_path / "page.md"
    path.write_text(
        "```python\nfrom micrograd import Value\na = Value(2.0)\nb = a + 1\nc = 3 * a\nd = b * c\n"
        "x = Value(3.0)\n```\n\n"
        '<!-- quiz: number(15, answer=15, mistakes={"lost path": [grad_after(d, a, order=[b, d, c])]}) -->\n\n'
        '<!-- quiz: number(15, answer=15, mistakes={LOST_PATH: grad_after(d, a, order=[c, d, b])}) -->\n\n'
        '<!-- quiz: number(27, answer=27, mistakes={"= for +=": grad_with_assign(x * x * x, x)}) -->\n')
    lost, named, assign = run(path).outputs
    assert 'data-mistakes="[[9.0, &quot;lost path&quot;]]"' in lost.markdown
    assert 'data-mistakes="[[6.0, &quot;a lost path: a node passed' in named.markdown
    assert 'data-mistakes="[[9.0, &quot;= for +=&quot;]]"' in assign.markdown


def test_running_a_mistake_leaves_every_grad_as_it_was():
    from micrograd import Value
    from scripts.pages.quizzes import grad_after, grad_with_assign

    a = Value(3.0)
    y = a * a
    y.backward()
    assert (grad_with_assign(y, a), grad_after(y, a), a.grad, y.grad) == (3.0, 6.0, 6.0, 1.0)


@pytest.mark.parametrize("mistakes, message", [
    ('{"the key itself": y}', "mistake 'the key itself' gives 10.0"),
    ('{"one": 9, "two": 9.0}', "mistake 'two' gives 9.0"),
    ('{"typed": "9"}', "mistakes= a dict {message: the wrong number it explains"),
])
def test_a_mistake_a_reader_could_never_be_told_fails_the_page(tmp_path, mistakes, message):
    path = page(tmp_path, f"Some text.\n\n<!-- quiz: number(y, answer=10, mistakes={mistakes}) -->\n")
    assert message in build_error(path)


def test_a_number_quiz_asks_for_a_text_keyboard_that_has_a_minus(tmp_path):
    """iOS's keypad for inputmode=decimal has no minus key, and many answers are negative."""
    (quiz,) = run(page(tmp_path, "<!-- quiz: number(-y, answer=-10) -->\n")).outputs
    assert 'inputmode="text"' in quiz.markdown and "decimal" not in quiz.markdown


def test_a_quiz_is_named_by_what_it_asks_not_by_its_place(tmp_path):
    """An audit of issue 27, item 4: a quiz was quiz-N, N its place on the page, and the reader's
    kept answer was keyed by it. A quiz put above it gave its answer to another question. Now the
    same quiz has the same id wherever it sits, and a changed one a new id."""
    first, second = "number(y, answer=10)", "number(x, answer=2)"
    before = run(page(tmp_path, f"<!-- quiz: {first} -->\n\n<!-- quiz: {second} -->\n"))
    after = run(page(tmp_path, f"<!-- quiz: number(y + 1, answer=11) -->\n\n<!-- quiz: {first} -->\n\n"
                               f"<!-- quiz: {second} -->\n"))
    ids = [re.search(r'id="(quiz-[0-9a-f]{10})-box"', q.markdown)[1] for q in before.outputs]
    moved = [re.search(r'id="(quiz-[0-9a-f]{10})-box"', q.markdown)[1] for q in after.outputs]
    assert ids == [quiz_id(first), quiz_id(second)] == moved[1:]
    assert moved[0] not in ids
    assert quiz_id("number(y,  answer=10)") == quiz_id(first) != quiz_id("number(y, answer=10.0)")


def test_the_same_quiz_twice_on_a_page_fails_the_page_at_its_line(tmp_path):
    path = page(tmp_path, "<!-- quiz: number(y, answer=10) -->\n\n<!-- quiz: number(y, answer=10) -->\n")
    result = subprocess.run([sys.executable, "-m", "scripts.build.page_build", str(path), "page.md"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout
    assert f"{path}:8: this quiz is the same as one above it on the page" in result.stderr, result.stderr

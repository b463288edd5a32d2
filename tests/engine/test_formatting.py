"""How a number is written, in one module (micrograd/formatting.py), used by the trace, the
steppers, the playground and the quizzes (issue 26, item 6): it lived in five places."""

import json
import math
import re

import pytest

from micrograd import formatting
from scripts import ROOT


@pytest.mark.parametrize("x, json_value, field, caption, shown, answer", [
    (2.0, 2.0, "2.0000", "2", "2", "2"),
    (-3.5, -3.5, "-3.5000", "−3.5", "−3.5", "−3.5"),
    (-0.0, -0.0, "-0.0000", "0", "0", "−0"),
    (0.1 + 0.2, 0.30000000000000004, "0.3000", "0.3", "0.3", "0.3"),
    (1e-7, 1e-7, "1.0000e-07", "1e−7", "1e−7", "1e−07"),  # a caption said "its data, 0" (a reader's audit)
    (1e200, 1e200, "1.0000e+200", "1e200", "1e200", "1e+200"),  # a record had 201 digits
    (math.inf, "Infinity", "inf", "∞", "∞", "∞"),
    (-math.inf, "-Infinity", "-inf", "−∞", "−∞", "−∞"),
])
def test_each_way_of_writing_a_number(x, json_value, field, caption, shown, answer):
    assert formatting.for_json(x) == json_value and json.dumps(formatting.for_json(x), allow_nan=False)
    assert (formatting.field(x), formatting.caption(x), formatting.shown(x), formatting.answer(x)) == \
        (field, caption, shown, answer)
    assert formatting.caption(formatting.for_json(x)) == caption  # the trace's strings read back


def test_a_caption_never_writes_a_number_as_another_or_as_200_digits():
    assert [formatting.caption(x) for x in (0.00012, -4e-5, 1e200, 1234567.0, 999999.5)] == \
        ["0.0001", "−4e−5", "1e200", "1234567", "999999.5"]


def test_a_caption_knows_which_numbers_it_rounds_and_whether_its_arithmetic_holds_as_written():
    assert [formatting.rounded(x) for x in (0.5, -3.0, 0.000149, 0.1 + 0.2, 1e-7, 1 / 3e7, math.inf, "NaN")] == \
        [False, False, True, True, False, True, False, False]
    assert [formatting.read(t) for t in ("−1.5", "(−3)", "1e−7", "∞", "0.0201")] == [-1.5, -3.0, 1e-7, math.inf, 0.0201]
    assert formatting.sign(0.02013 * 3, 0.0201 * 3) == "≈" and formatting.sign(0.4999999999999999, 0.5 * 1) == "="


def test_a_quiz_answer_of_four_digits_or_more_has_thousands_commas_as_the_pages_write_it():
    assert [formatting.answer(x) for x in (61539.0, -4001.0, 999.0, 12345.5)] == ["61,539", "−4,001", "999", "12345.5"]


def test_powers_of_ten():
    assert formatting.exponent(1e-6) == "1e−6" and formatting.exponent(1.0, 1) == "1.0e0"
    assert formatting.exponent(3.26e-11, 1) == "3.3e−11" and formatting.exponent(math.nan) == "NaN"


def test_no_other_module_writes_a_number_its_own_way():
    """A format of its own (4 decimals, 10 significant digits, a true minus pasted in) outside
    micrograd/formatting.py: the same number would read otherwise there. draw_dot's records are
    the one other writer of 4 decimals (Graphviz's labels), and field() says so."""
    own = re.compile(r':\.4f\}|:\.10g\}|:g\}"\.replace\("-"|replace\("-", "−"\)|"NaN" if math\.isnan')
    apart = {"formatting.py": "the module itself",
             "gradcheck.py": "an AssertionError's message for a programmer, in Python's own digits"}
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("micrograd", "scripts")
             for path in sorted((ROOT / folder).rglob("*.py")) if path.name not in apart
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if own.search(line)]
    assert found == []

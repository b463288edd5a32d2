"""The playground's parser and builder (scripts/reader/playground.py), in CPython: every allowed
form, every refused one with its column, the same graph and grads as the engine's own
operators, and the check by finite differences. tests/playground/test_live.py runs it in the browser."""

import json
import math

import pytest

from micrograd import Value, draw_dot
from micrograd.gradcheck import relative_error
from scripts.reader import calls, playground
from scripts.reader.playground import (
    PlaygroundError,
    build,
    exponent,
    parse,
    parse_values,
    run,
    shown,
)
from scripts.reader.stepper_trace import replay


def grads(expression, values):
    tree, names = parse(expression)
    leaves = {name: Value(value, label=name) for name, value in parse_values(values).items()}
    out = build(tree, leaves)
    out.backward()
    return out.data, {name: leaves[name].grad for name in names}


@pytest.mark.parametrize("expression, names", [
    ("a", ["a"]),
    ("(a + b) * c", ["a", "b", "c"]),
    ("a - b", ["a", "b"]),
    ("a / b", ["a", "b"]),
    ("a ** 2 + a ** -1 + a ** 0.5", ["a"]),
    ("-a + +b", ["a", "b"]),
    ("tanh(x1*w1 + x2*w2 + b)", ["x1", "w1", "x2", "w2", "b"]),
    ("exp(a) * relu(b) + 2 * 3", ["a", "b"]),
    ("2 ** 3 * a", ["a"]),
    ("α * 2", ["α"]),
])
def test_every_allowed_form_parses_and_names_its_leaves_in_order(expression, names):
    assert parse(expression)[1] == names


def test_the_builder_gives_the_engines_graph_and_grads_on_the_pages_examples():
    """The playground builds with the engine's operators: the same numbers as Python code."""
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    out = (a + b) * c
    out.backward()
    assert grads("(a + b) * c", "a = 2, b = −3, c = 10") == (out.data, {"a": a.grad, "b": b.grad, "c": c.grad})
    assert grads("(a + b) * c", "a=2,b=-3,c=10") == (-10.0, {"a": 10.0, "b": 10.0, "c": -1.0})

    x1, x2, w1, w2, bias = (Value(v, label=n) for v, n in
                            [(2.0, "x1"), (0.0, "x2"), (-3.0, "w1"), (1.0, "w2"), (6.8813735870195432, "b")])
    neuron = (x1 * w1 + x2 * w2 + bias).tanh()
    neuron.backward()
    data, got = grads("tanh(x1*w1 + x2*w2 + b)", "x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 6.8813735870195432")
    assert data == neuron.data
    assert got == {"x1": x1.grad, "x2": x2.grad, "w1": w1.grad, "w2": w2.grad, "b": bias.grad}

    a = Value(3.0, label="a")
    b = Value(-1.5, label="b")
    mixed = a / b + a ** 2 - (b - a).relu() + (-a).exp() * 2
    mixed.backward()
    assert grads("a / b + a ** 2 - relu(b - a) + exp(-a) * 2", "a = 3, b = -1.5") == (
        mixed.data, {"a": a.grad, "b": b.grad})


def test_the_dot_source_is_draw_dots_and_a_repeated_leaf_is_one_node():
    result = run("x * x + 3 * x", "x = 2")
    x = Value(2.0, label="x")
    out = x * x + 3 * x
    assert result["ok"] and result["result"] == out.data == 10.0
    assert result["leaves"][0]["grad"] == 7.0
    ids = [line.split()[0] for line in result["dot"].splitlines() if "shape=record" in line]
    assert ids == [node["id"] for node in result["nodes"]]
    assert result["dot"].count('label="{ x |') == 1, "x is one leaf, used three times"
    assert result["dot"].startswith(draw_dot(Value(1.0), rankdir="TB").source.split("\n\tn0")[0])


@pytest.mark.parametrize("expression, column, words", [
    ("a // b", 3, "'//' is not an operation of the engine"),
    ("a % 2", 3, "'%' is not an operation of the engine"),
    ("a ** b", 6, "the exponent must be a number"),
    ("2 ** a", 6, "the exponent must be a number"),
    ("foo(a)", 1, "foo(…) is not an operation of the engine"),
    ("a + print(a)", 5, "print(…) is not an operation"),
    ("tanh(a, b)", 1, "tanh(…) takes one argument"),
    ("a.data", 1, "'a.data' is not allowed here"),
    ("a < b", 1, "'a < b' is not allowed here"),
    ("a + 'x'", 5, "'x' is not a number"),
    ("a + True", 5, "True is not a number"),
    ("a +", 4, "it ends too early"),
    ("(a + b", 1, "'(' was never closed"),
    ("a + * b", 5, "'*' cannot stand here: this is not a Python expression"),
    ("(a + b) * c $ 2", 13, "'$' cannot stand here"),
    ("__import__('os')", 1, "__import__(…) is not an operation"),
    ("[a for a in b]", 1, "is not allowed here"),
    ("lambda: a", 1, "is not allowed here"),
    ("2 * 3", 1, "the expression has no leaf"),
    ("", 1, "type an expression"),
    ("αβ + 1 // 2", 8, "'//' is not an operation"),
])
def test_a_refused_expression_gets_a_message_naming_its_column(expression, column, words):
    with pytest.raises(PlaygroundError) as refused:
        parse(expression)
    assert refused.value.field == "expression"
    assert refused.value.column == column, refused.value
    assert words in refused.value.message
    assert str(refused.value).startswith(f"expression, column {column}: ")


@pytest.mark.parametrize("values, column, words", [
    ("a = x", 5, "a value must be a number"),
    ("3, a = 2", 1, "give each leaf as name = number"),
    ("a = 1e999", 5, "a finite number"),
    ("a: 2", 2, "':' cannot stand here: this is not a Python expression"),
    ("tanh = 1", 1, "tanh is an operation, not a leaf"),
    ("a = 1, a = 2", 8, "a is given twice"),
])
def test_refused_values_get_a_message_naming_their_column(values, column, words):
    with pytest.raises(PlaygroundError) as refused:
        parse_values(values)
    assert (refused.value.field, refused.value.column) == ("values", column), refused.value
    assert words in refused.value.message


def test_missing_and_unused_values_and_what_the_engine_refuses_are_messages_not_errors():
    assert run("a + b", "a = 1") == {"ok": False, "field": "values", "column": 6,
                                     "message": "give b a value, for example b = 1.0"}
    assert run("a", "a = 1, b = 2") == {"ok": False, "field": "values", "column": 8,
                                        "message": "b has a value but the expression does not use it"}
    refused = run("a / (b - 1)", "a = 1, b = 1")
    assert (refused["ok"], refused["field"], refused["column"]) == (False, "expression", 3)
    assert refused["message"].startswith("the engine refused it: ZeroDivisionError: division by")
    assert run("exp(a)", "a = 1000")["message"] == (
        "the engine refused it: OverflowError: exp(1000.0) overflows a float")
    # A hostile audit: 1e200 * 1e200 gave out = inf and "✗ differs" on micrograd's right grads, with
    # "otherwise the engine would be wrong"; a ** 2 refused the same values. Both refuse now.
    overflowed = run("a * b", "a = 1e200, b = 1e200")
    assert (overflowed["ok"], overflowed["field"]) == (False, "values")
    assert overflowed["message"].startswith("out = ∞: the forward pass went past the largest float")
    assert run("a - b * b", "a = 1, b = 1e200")["message"].startswith("out = −∞: ")
    too_big = run("+".join("a" * 62), "a = 1")  # 61 additions of one leaf: 62 nodes
    assert too_big["message"] == f"its graph has 62 nodes; the playground draws at most {playground.MAX_NODES}"
    assert run("a" * 301, "")["message"] == "at most 300 characters, not 301"


def test_every_leafs_grad_is_checked_by_centered_differences():
    result = run("tanh(x1*w1 + x2*w2 + b)", "x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 6.8813735870195432")
    assert result["check"]["passed"] and all(leaf["passed"] for leaf in result["leaves"])
    for leaf in result["leaves"]:
        assert math.isclose(leaf["grad"], leaf["numeric"], rel_tol=1e-6, abs_tol=1e-9)
    assert [leaf["name"] for leaf in result["leaves"]] == ["x1", "w1", "x2", "w2", "b"]
    kink = run("relu(a)", "a = 0")
    assert not kink["check"]["passed"], "at relu's kink, finite differences see 0.5, backward 0"
    assert (kink["leaves"][0]["grad"], kink["leaves"][0]["numeric"]) == (0.0, 0.5)


@pytest.mark.parametrize("x, text", [
    (-1.5, "−1.5"), (0.1 + 0.2, "0.3"), (-0.0, "0"), (6.881373587019543, "6.881373587"),
    (1e-7, "1e−7"), (-2.5e-12, "−2.5e−12"), (123456789012.0, "1.23456789e11"),
    (math.inf, "∞"), (-math.inf, "−∞"), (math.nan, "NaN")])
def test_the_table_writes_a_number_with_10_digits_and_a_true_minus(x, text):
    assert shown(x) == text


def test_the_tables_rows_and_summary_are_written_in_python():
    """The page formats no number: it shows these texts as they are (tests/playground/test_live.py)."""
    result = run("relu(a) * b", "a = 0, b = 3")
    assert [leaf["shown"] for leaf in result["leaves"]] == [
        ["a", "0", "1.5", "1.0e0", "✗ differs"], ["b", "0", "0", "0.0e0", "✓ agrees"]]
    assert result["caption"].startswith("out = 0. ")
    assert result["check"]["text"].startswith("Some grads differ")
    passing = run("(a + b) * c", "a = 2, b = -3, c = 10")
    assert passing["leaves"][0]["shown"][:3] == ["a", "10", "10"]
    assert passing["check"]["text"] == ("Every leaf's grad agrees with centered finite differences (h = 1e−6): "
                                        "relative error at most 1e−6, or an absolute difference under 1e−9.")
    assert exponent(3.26e-11, 1) == "3.3e−11" and exponent(math.inf) == "∞"


FORGETS_RETURN = """from micrograd.engine import Value as _Book
class Value(_Book):
    def tanh(self):
        out = _Book.tanh(self)
    def __truediv__(self, other):
        return 7
"""


@pytest.mark.parametrize("expression, values, column, message", [
    ("tanh(a)", "a = 0.5", 1, "your engine's tanh(…) returned None, not a Value"),
    ("b - tanh(a)", "a = 0.5, b = 2", 5, "your engine's tanh(…) returned None, not a Value"),
    ("a / b", "a = 0.5, b = 2", 3, "your engine's / returned an object of type int, not a Value"),
])
def test_an_engine_operation_that_returns_no_value_is_named_not_blamed_on_the_expression(
        expression, values, column, message):
    """A hostile audit: an engine whose tanh forgot "return out" read "Expression, column 1: the
    expression has no leaf" for tanh(a); the operation that returned None is named instead."""
    said = run(expression, values, engine=FORGETS_RETURN)
    assert said == {"ok": False, "field": "expression", "column": column, "message": message}, said


def test_an_engines_refusal_is_clipped_with_its_invisible_characters_shown():
    """As every other engine message (reader_code.describe): a bidi override in a reader's engine's
    error reversed the words after it in the playground's message."""
    engine = FORGETS_RETURN + "    def exp(self):\n        raise ValueError('ok \\u202eKO')\n"
    assert run("exp(a)", "a = 1", engine=engine)["message"] == "your engine refused it: ValueError: ok <U+202E>KO"


def test_the_steps_are_the_steppers_replay_of_the_engines_trace():
    """One way to write a step: scripts.reader.stepper_trace.replay, for the steppers and the playground."""
    result = run("(a + b) * c", "a = 2, b = -3, c = 10")
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    e = a + b
    e.label = "a + b"
    out = e * c
    out.label = "out"
    expected = replay(out)
    assert {key: result[key] for key in playground.VIEW} == {key: expected[key] for key in playground.VIEW}
    assert [n["name"] for n in result["nodes"]] == ["a", "b", "a + b", "c", "out"]
    assert result["forwardCaptions"][2] == "Forward: (a + b) = a + b = 2 + (−3) = −1."
    assert result["backwardCaptions"][1] == ("Visit out, upstream gradient out.grad = 1: (a + b).grad += 10 × 1 = 10, "
                                             "now 10; c.grad += (−1) × 1 = −1, now −1.")
    assert result["backward"][-1]["grads"] == ["grad 10.0000", "grad 10.0000", "grad 10.0000",
                                               "grad -1.0000", "grad 1.0000"]
    assert result["edges"]["n3-n4-1"]["text"] == "Edge c → out (*): local derivative ∂(x·y)/∂y = x = −1."
    assert result["values"] == "a = 2, b = -3, c = 10"
    answer = calls.call_json("playground", json.dumps({"expression": "(a + b) * c", "values": "a = 2, b = -3, c = 10"}))
    assert json.loads(answer, parse_constant=None)["value"] == json.loads(json.dumps(result))  # strict JSON


def test_a_long_part_gets_a_short_label():
    result = run("tanh(x1*w1 + x2*w2 + b)", "x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 1")
    assert "t1" in [n["name"] for n in result["nodes"]]


def test_the_engines_result_is_shown_where_a_centered_difference_cannot_be_taken():
    """x ** 0.5 at x = 0: the engine computes it (grad ∞, by IEEE 754's pow); x − h is outside
    the domain, so the check is one-sided and says so, instead of refusing the whole expression
    as the engine's own refusal (issue 24, item 4)."""
    result = run("x ** 0.5", "x = 0")
    assert result["ok"], result
    assert result["dot"] and result["forward"] and result["backward"], "graph and steps are drawn"
    (leaf,) = result["leaves"]
    assert leaf["kind"] == "one-sided" and leaf["grad"] == "Infinity"
    assert leaf["numeric"] == math.sqrt(playground.H) / playground.H  # (f(x + h) − f(x)) / h
    assert leaf["shown"][2] == f"{shown(leaf['numeric'])} (one-sided)" and leaf["shown"][3] == "∞"
    assert not result["check"]["complete"]
    assert "x − h is outside the function's domain: the engine refuses it (" in result["check"]["text"]
    assert "So x's estimate is one-sided, from x + h only." in result["check"]["text"]
    assert "while checking the grads" not in json.dumps(result)


def test_a_one_sided_check_says_what_it_gave_not_only_the_rule_it_passes_by():
    """Issue 44, item 11: at x ** 0.5, x = 0 the check said "it passes at a relative error of 1e-3
    or less" beside the row's "∞, ✗ differs". It gives the tolerance, then this leaf's error and
    verdict, as the row does."""
    result = run("x ** 0.5", "x = 0")
    (leaf,) = result["leaves"]
    assert leaf["shown"][3:] == ["∞", "✗ differs"]
    assert "passes" not in result["check"]["text"], result["check"]["text"]
    assert result["check"]["text"].endswith(
        f"held to a relative error of {exponent(playground.ONE_SIDED_TOL)}, not {exponent(playground.TOL)}. "
        "x's relative error is ∞ (its grad is infinite, the estimate finite): it differs.")
    line = run("(x + 5e-7) ** 0.5 * 0 + 3 * x", "x = 0")
    assert line["leaves"][0]["passed"]
    assert line["check"]["text"].endswith(f"x's relative error is {line['leaves'][0]['shown'][3]}: it agrees.")


def test_a_leaf_with_no_side_in_the_domain_is_not_checked_and_says_so():
    result = run("(-x * x) ** 0.5 + y", "x = 0, y = 1")
    assert result["ok"], result
    x, y = result["leaves"]
    assert (x["passed"], x["kind"], x["numeric"]) == (None, None, None)
    assert x["shown"][2:] == ["none", "—", "not checked: no side in the domain"]
    assert y["passed"] and y["kind"] == "centered"
    text = result["check"]["text"]
    assert text.startswith("Every grad that could be checked agrees") and "x + h and x − h are outside" in text
    assert text.endswith("So x is not checked.")
    assert text.count("is not a real number") == 1, "the same refusal is said once"


def test_a_one_sided_estimate_passes_at_its_own_tolerance_and_fails_at_an_infinite_slope():
    """A one-sided difference is within about h·|f''|/2 of the slope: ONE_SIDED_TOL admits it on
    a straight line; at an infinite slope it is far off, and the row says it differs."""
    line = run("(x + 5e-7) ** 0.5 * 0 + 3 * x", "x = 0")  # x − h makes a negative base
    leaf = line["leaves"][0]
    assert leaf["kind"] == "one-sided" and leaf["passed"], leaf
    assert relative_error(leaf["grad"], leaf["numeric"]) <= playground.ONE_SIDED_TOL
    assert line["check"]["passed"] and not line["check"]["complete"]
    steep = run("(x + 1) ** 0.5", "x = -1")
    assert steep["leaves"][0]["kind"] == "one-sided" and steep["leaves"][0]["passed"] is False
    assert steep["leaves"][0]["shown"][4] == "✗ differs"

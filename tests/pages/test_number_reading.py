"""How the number sources read a number in its sentence: the cases chapters met, each linked to
the wrong code or left plain before its fix (scripts/pages/number_sources.py). The linker's other
tests, on the built site and in the browser, are in tests/pages/test_number_sources.py."""

from scripts.pages.number_sources import sources
from tests.pages.test_number_sources import outcome


def test_subscripts_name_the_variable_and_the_sign_is_the_names():
    # chapter 1's case: x₁ = 2 is x1, set later, not the a = 2 of the first example; w₁ = −3 is not b
    first = "```python\n>>> a, b\n(2.0, -3.0)\n>>> b_abs = 3.0\n>>> b_abs\n3.0\n```\n"
    later = "```python\n>>> x1, w1\n(2.0, -3.0)\n```\n"
    text = f"# P\n\n{first}\nTake $x_1 = 2$, $w_1 = -3$ and x₁ = 2.\n\n{later}"
    for number, line in (("2", 11), ("3", 11)):
        kind, shown = outcome(text, number, line)
        assert kind == "linked" and shown.code == "x1, w1", (number, shown)
    assert outcome(f"# P\n\n{first}\nTake $x_1 = 2$.\n", "2")[0] == "plain"
    assert outcome(f"# P\n\n{first}\nTake $b = 3$.\n", "3")[0] == "plain"  # b is −3: not b_abs's 3


def test_a_negative_value_and_a_subscripted_derivative_keep_their_names():
    """Chapter 12's "`a.grad` is −3" read the minus, not `a.grad`, as the name before −3, and its
    ∂L/∂x₁ = 2.5 looked for a value printed as "x₁.grad": both were plain text."""
    grads = "```python\n>>> a.grad, b.grad\n(-3.0, 2.0)\n```\n\n```python\n>>> b.data\n-3.0\n```\n"  # −3 twice
    kind, shown = outcome(f"# P\n\n{grads}\nSo `a.grad` is −3.\n", "3")
    assert kind == "linked" and shown.code == "a.grad, b.grad"
    assert outcome(f"# P\n\n{grads}\nSo `b.grad` is −3.\n", "3")[0] == "plain"  # b.grad is 2, not −3
    svg = '<svg><text>x1</text><text>data -1.0000</text><text>grad 2.5000</text></svg>'
    text = "# P\n\n```python\ndraw_dot(L)\n```\n<!-- figure: L -->\n\nHere $\\partial L/\\partial x_1 = 2.5$.\n"
    found = sources(text, "docs/page.md", figures=[(6, svg)])
    assert [s.text for _, s in found.numbers] == ["x1 | grad 2.5000"]
    assert not found.withheld and not found.problems


def test_a_tiny_number_is_not_taken_for_a_shared_0():
    """Chapter 9's 4.4·10⁻¹⁶ (one ulp of its loss, printed by one block) stayed plain text: an
    absolute tolerance of 10⁻¹² made it a 0, which only a name may link. A true 0 still needs one."""
    code = "```python\n>>> loss, abs(shifted - loss)\n(2.17, 4.440892098500626e-16)\n```\n"
    kind, shown = outcome(f"# P\n\n{code}\nThey differ by $4.4 \\cdot 10^{{-16}}$.\n", "4.4 · 10^{-16}")
    assert kind == "linked" and shown.code == "loss, abs(shifted - loss)"
    zero = "```python\n>>> loss, abs(shifted - loss)\n(2.17, 0.0)\n```\n"
    assert outcome(f"# P\n\n{zero}\nThey differ by 0.\n", "0")[0] == "plain"


def test_a_decimal_in_a_formula_is_linked_only_when_its_value_says_where():
    # chapter 3's case: the 0.5 of x_1 · 0.5 cited a list of gradients that holds 0.5 twice
    code = ("```python\n>>> round(n.grad, 4)\n0.5\n```\n\n"
            "```python\n>>> [round(v.grad, 4) for v in (w1, x2)]\n[1.0, 0.5]\n```\n")
    assert outcome(f"# P\n\n{code}\nSo $\\partial o/\\partial w_1 = x_1 \\cdot 0.5 = 1$.\n", "0.5")[0] == "plain"
    once = code[:code.index("```\n") + 4]  # printed by one block only: its value says where
    assert outcome(f"# P\n\n{once}\nSo $x_1 \\cdot 0.5$.\n", "0.5")[0] == "linked"


def test_a_name_takes_the_source_the_paragraph_follows_not_another_graphs():
    # chapter 4's case: ∂y/∂b = a = 2 cited the diamond's a (also 2), drawn sections later
    first = "```python\n>>> a, b\n(2.0, -3.0)\n```\n"
    other = "```python\n>>> a, d\n(2.0, 7.0)\n```\n"
    unnamed = "```python\n>>> y._local\n(-3.0, 2.0)\n```\n"
    kind, shown = outcome(f"# P\n\n{other}\n{first}\nHere $a = 2$.\n", "2")
    assert kind == "linked" and shown.code == "a, b"  # the block it follows, not the one before
    assert outcome(f"# P\n\n{other}\n## Next\n\n{unnamed}\nHere $a = 2$.\n", "2")[0] == "plain"  # other section
    assert outcome(f"# P\n\n{first}\n{other}\n{unnamed}\nHere $a = 2$.\n", "2")[0] == "plain"  # two places
    assert outcome(f"# P\n\n{unnamed}\nHere $a = 2$.\n\n{unnamed}\n{other}", "2")[0] == "plain"  # not the next
    kind, shown = outcome(f"# P\n\n{unnamed}\nHere $a = 2$.\n\n{other}", "2")
    assert kind == "linked" and shown.code == "a, d"  # the block the sentence leads into


def test_a_derivative_of_another_output_is_not_the_seed_of_the_drawn_one():
    # chapter 8's case: ∂z/∂y = 1 cited y's own gradient in the graph drawn from y
    svg = '<svg><text>y</text><text>data 6.0000</text><text>grad 1.0000</text></svg>'
    text = ("# P\n\n```python\ndraw_dot(y)\n```\n<!-- figure: y -->\n\n"
            "Then $\\partial z/\\partial y = 1$ and $\\partial y/\\partial y = 1$.\n")
    found = sources(text, "docs/page.md", figures=[(6, svg)])
    assert [n.start for n, _ in found.numbers] == [text.rindex("1")]


def test_an_assertions_bound_is_linked_only_as_a_bound():
    # chapter 10's case: "100 points" cited `assert scalar_time > 100 * array_time`
    code = "```python\nassert scalar_time > 100 * array_time\n```\n"
    assert outcome(f"# P\n\n{code}\nTake 100 points.\n", "100")[0] == "plain"
    assert outcome(f"# P\n\n{code}\nIt is more than 100 times faster.\n", "100")[0] == "linked"


def test_a_named_exception_keeps_a_number_plain():
    code = "```python\n>>> x.data\n5000.0\n```\n"
    text = f"# P\n\n{code}\nA loop that adds 5,000 numbers sums to 5,000.\n"
    found = sources(text, "docs/10-under-the-hood.md")
    assert [n.start for n, _ in found.numbers] == [text.rindex("5,000")]
    assert "5000.0 is the chain's sum" in found.withheld[0][1].why

"""Derive it: a power whose exponent is a `Value` too

PyTorch's `**` takes a tensor as the exponent, and gives it a gradient.
micrograd's `**` takes only a plain number, and raises `TypeError` for a
`Value`. Close the gap: `power_value(x, y)` returns a new `Value` holding
x to the power y, with two parents, `x` and `y`, and one local derivative
for each. Take x > 0, so that x to any power is defined.

The forward pass is written. Derive the two local derivatives and fill them
in. The tests run `backward()` through your operation and hold each
gradient to chapter 7's rule: relative error below 1e-6 against centered
differences.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value


def power_value(x, y):
    """x ** y for two Values, x.data > 0; its parents are (x, y)."""
    out = x.data ** y.data
    dx = ...  # d(x^y)/dx
    dy = ...  # d(x^y)/dy
    return Value(out, "", (x, y), (dx, dy), "**")

# ---- solution ----
import math

from micrograd import Value


def power_value(x, y):
    """x ** y for two Values, x.data > 0; its parents are (x, y)."""
    out = x.data ** y.data
    # for the base, y is a constant: the power rule
    dx = y.data * x.data ** (y.data - 1)
    # x^y = e^(y ln x), and for the exponent x is a constant
    dy = out * math.log(x.data)
    return Value(out, "", (x, y), (dx, dy), "**")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE_X = "d(x^y)/dx = y x^(y-1): for the base, y is a constant, and the power rule holds"
RULE_Y = "d(x^y)/dy = x^y ln x: write x^y as e^(y ln x); for the exponent, x is a constant"
POWER_ON_Y = f"the power rule holds for the base only, where the exponent is constant; {RULE_Y}"
NO_LOG = f"the factor ln x is missing; {RULE_Y}"
NO_Y = f"the factor y is missing; {RULE_X}"


def slopes(x, y):
    """(d/dx, d/dy) of x^y, as the rules give them, each checked against centered differences."""
    right = (y * x ** (y - 1), x ** y * math.log(x))
    a, b = Value(x), Value(y)
    numeric = numerical_grad(lambda: Value(a.data ** b.data), [a, b])
    assert all(relative_error(r, n) < 1e-6 for r, n in zip(right, numeric)), (x, y, right, numeric)
    return right


def grads(user, x, y):
    """backward() through the reader's power_value at (x, y): (x.grad, y.grad)."""
    a, b = Value(x), Value(y)
    out = expect_value(f"power_value(Value({x}), Value({y}))", user.power_value(a, b), Value)
    if any(v is Ellipsis for v in out._local):
        raise Fail("power_value(x, y)._local holds ... (a blank), expected two numbers: fill in the blanks")
    expect(f"power_value(x, y).data at x = {x:.6g}, y = {y}", out.data, x ** y)
    out.backward()
    return a.grad, b.grad


def check_at(user, x, y, at=None):
    at = at or f"x = {x}, y = {y}"
    dx, dy = slopes(x, y)
    gx, gy = grads(user, x, y)
    expect(f"x.grad for x^y at {at}", gx, dx,
           likely=[(x ** (y - 1), NO_Y), (y * x ** y, f"the exponent drops by one; {RULE_X}")], check=RULE_X)
    expect(f"y.grad for x^y at {at}", gy, dy,
           likely=[(y * x ** (y - 1), POWER_ON_Y), (x ** y, NO_LOG)],
           check=RULE_Y)


def test_at_a_generic_point(user):
    """x = 1.5, y = 2.5: both gradients"""
    check_at(user, 1.5, 2.5)


def test_a_base_below_one_and_a_negative_exponent(user):
    """x = 0.7, y = -1.3: both gradients"""
    check_at(user, 0.7, -1.3)


def test_e_to_the_y(user):
    """x = e: then d(e^y)/dy is e^y itself"""
    check_at(user, math.e, 0.8, at="x = e, y = 0.8")


def test_inside_a_graph(user):
    """L = (a * b) ^ (c + 1) * c: every gradient passes chapter 7's rule"""
    leaves = [Value(0.6), Value(2.5), Value(-0.4)]
    a, b, c = leaves
    L = expect_value("power_value(a * b, c + 1)", user.power_value(a * b, c + 1), Value) * c
    if any(v is Ellipsis for v in L._prev[0]._local):
        raise Fail("power_value(...)._local holds ... (a blank), expected two numbers: fill in the blanks")
    L.backward()
    numeric = numerical_grad(lambda: Value((a.data * b.data) ** (c.data + 1) * c.data), leaves)
    for name, leaf, estimate in zip("abc", leaves, numeric):
        if relative_error(leaf.grad, estimate) >= 1e-6:
            expect(f"{name}.grad for L = (a·b)^(c+1) · c at a = 0.6, b = 2.5, c = -0.4", leaf.grad,
                   round(estimate, 6), check=f"{RULE_X}; {RULE_Y}")

# ---- hints ----
# - The power has two inputs. If you hold the exponent still and nudge only the base, which rule
#   do you already know? And if you hold the base still and nudge only the exponent, what kind of
#   function of the exponent is it?
# - For the base, $y$ is a constant: $\frac{\partial}{\partial x} x^y = y\,x^{y-1}$. For the
#   exponent, write $x^y = e^{y \ln x}$; then $\frac{\partial}{\partial y} x^y = e^{y \ln x}
#   \ln x = x^y \ln x$, the output times $\ln x$.
# - `dx = y.data * x.data ** (y.data - 1)` and `dy = out * math.log(x.data)`.

# ---- mistake: the power rule on the exponent ----
# message: the power rule holds for the base only
# replace: dy = out * math.log(x.data)
# with: dy = y.data * x.data ** (y.data - 1)

# ---- mistake: ln x forgotten ----
# message: the factor ln x is missing
# replace: dy = out * math.log(x.data)
# with: dy = out

# ---- mistake: y forgotten in the base's slope ----
# message: the factor y is missing
# replace: dx = y.data * x.data ** (y.data - 1)
# with: dx = x.data ** (y.data - 1)

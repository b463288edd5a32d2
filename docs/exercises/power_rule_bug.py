"""Find the bug: four operations, one wrong local derivative

Someone added four operations to the engine, each a function that returns
a new `Value` with its one parent and that parent's local derivative. Each
looks right. One of them stores a wrong local derivative, so every gradient
that flows through it is wrong, and nothing raises an error.

Find it the way this chapter does: compare `backward()` with centered
differences (`gradcheck` and `numerical_grad` are imported for you), at
generic points, not at 0 or 1. Then fix that one operation and leave the
other three as they are.
"""

# ---- kind: debug ----

# ---- starter ----
from micrograd import Value, gradcheck, numerical_grad


def square(x):
    """x * x as a new Value; d(x²)/dx = 2x."""
    return Value(x.data * x.data, "", (x,), (2.0 * x.data,), "square")


def power(x, n):
    """x ** n for a plain number n; d(xⁿ)/dx = n xⁿ⁻¹."""
    slope = n * x.data ** n - 1
    return Value(x.data ** n, "", (x,), (slope,), f"**{n}")


def reciprocal(x):
    """1 / x as a new Value; d(1/x)/dx = -1/x²."""
    slope = -1.0 / (x.data * x.data)
    return Value(1.0 / x.data, "", (x,), (slope,), "1/x")


def cube_root(x):
    """x ** (1/3) for x > 0; its slope is out / (3x)."""
    out = x.data ** (1 / 3)
    return Value(out, "", (x,), (out / (3.0 * x.data),), "cbrt")

# ---- solution ----
from micrograd import Value, gradcheck, numerical_grad


def square(x):
    """x * x as a new Value; d(x²)/dx = 2x."""
    return Value(x.data * x.data, "", (x,), (2.0 * x.data,), "square")


def power(x, n):
    """x ** n for a plain number n; d(xⁿ)/dx = n xⁿ⁻¹."""
    slope = n * x.data ** (n - 1)
    return Value(x.data ** n, "", (x,), (slope,), f"**{n}")


def reciprocal(x):
    """1 / x as a new Value; d(1/x)/dx = -1/x²."""
    slope = -1.0 / (x.data * x.data)
    return Value(1.0 / x.data, "", (x,), (slope,), "1/x")


def cube_root(x):
    """x ** (1/3) for x > 0; its slope is out / (3x)."""
    out = x.data ** (1 / 3)
    return Value(out, "", (x,), (out / (3.0 * x.data),), "cbrt")

# ---- tests ----
from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import expect, expect_value

PRECEDENCE = ("that is n·xⁿ − 1, the power taken before the subtraction, not n·xⁿ⁻¹: "
              "in Python ** binds tighter than -")
SQUARE = "d(x²)/dx = 2x: the 2 is missing"
RECIPROCAL = "1/x falls as x grows where x > 0: d(1/x)/dx = -1/x², with the minus sign"
CUBE_ROOT = "d(x^(1/3))/dx = (1/3) x^(-2/3), which is out / (3x) with out = x^(1/3)"


def slope(user, op, x, *args):
    """backward() through the reader's op at x (a float): the leaf's grad."""
    leaf = Value(x)
    y = expect_value(f"{op}(Value({x}){''.join(f', {a}' for a in args)})", getattr(user, op)(leaf, *args), Value)
    y.backward()
    return leaf.grad


def reference(f, x):
    """d f / dx at x by micrograd's own operations, after checking it against centered
    differences by the chapter's rule (relative error below 1e-6)."""
    leaf = Value(x)
    f(leaf).backward()
    probe = Value(x)
    estimate = numerical_grad(lambda: f(probe), [probe])[0]
    assert relative_error(leaf.grad, estimate) < 1e-6, (x, leaf.grad, estimate)
    return leaf.grad


def test_square(user):
    """square: the slope at x = 1.3 and x = -0.7"""
    for x in (1.3, -0.7):
        expect(f"the slope of square at x = {x}", slope(user, "square", x), reference(lambda v: v * v, x),
               likely=[(x, SQUARE)], check="d(x²)/dx = 2x")


def test_power(user):
    """power: the slope for n = 3, -2 and 0.5"""
    for x, n in [(1.5, 3), (0.8, -2), (2.5, 0.5)]:
        expect(f"the slope of power(x, {n}) at x = {x}", slope(user, "power", x, n),
               reference(lambda v: v ** n, x), likely=[(n * x ** n - 1, PRECEDENCE)], check="d(xⁿ)/dx = n xⁿ⁻¹")


def test_reciprocal(user):
    """reciprocal: the slope at x = 0.4 and x = -2.5"""
    for x in (0.4, -2.5):
        expect(f"the slope of reciprocal at x = {x}", slope(user, "reciprocal", x), reference(lambda v: 1 / v, x),
               likely=[(1 / (x * x), RECIPROCAL)], check="d(1/x)/dx = -1/x²")


def test_cube_root(user):
    """cube_root: the slope at x = 2.7"""
    x = 2.7
    expect(f"the slope of cube_root at x = {x}", slope(user, "cube_root", x), reference(lambda v: v ** (1 / 3), x),
           check=CUBE_ROOT)


def test_all_four_in_one_graph(user):
    """L = power(square(x), 3) * reciprocal(x) + cube_root(x): x.grad at x = 1.2"""
    x = Value(1.2)
    L = user.power(user.square(x), 3) * user.reciprocal(x) + user.cube_root(x)
    L.backward()
    right = reference(lambda v: (v * v) ** 3 / v + v ** (1 / 3), 1.2)
    wrong = Value(1.2)  # the same graph with the precedence bug in power
    s = wrong * wrong
    p = Value(s.data ** 3, "", (s,), (3 * s.data ** 3 - 1,), "**3")
    (p * (1 / wrong) + wrong ** (1 / 3)).backward()
    expect("x.grad for L = (x²)³ · (1/x) + x^(1/3) at x = 1.2", x.grad, right,
           likely=[(wrong.grad, PRECEDENCE)], check="each operation's local derivative, one operation at a time")

# ---- hints ----
# - A gradient check on each operation alone, at a point such as 1.5, tells you which one is
#   wrong. Once you know which, what does Python compute first in a formula that mixes a power and
#   a subtraction?
# - The power rule is $\frac{d}{dx} x^n = n\,x^{n-1}$: the whole of $n - 1$ is the exponent.
#   Python raises to a power before it multiplies or subtracts, so the exponent needs parentheses
#   around $n - 1$, or the formula computes $n\,x^n - 1$.
# - In `power`, the local derivative is `n * x.data ** (n - 1)`, not `n * x.data ** n - 1`.
#   To find it yourself: `gradcheck(lambda: power(x, 3), [x])` with `x = Value(1.5)` fails, the
#   other three pass.

# ---- mistake: the planted bug, unfixed ----
# message: the power taken before the subtraction
# replace: slope = n * x.data ** (n - 1)
# with: slope = n * x.data ** n - 1

# ---- mistake: square without its 2 ----
# message: the 2 is missing
# replace: return Value(x.data * x.data, "", (x,), (2.0 * x.data,), "square")
# with: return Value(x.data * x.data, "", (x,), (x.data,), "square")

# ---- mistake: reciprocal without its minus ----
# message: with the minus sign
# replace: slope = -1.0 / (x.data * x.data)
# with: slope = 1.0 / (x.data * x.data)

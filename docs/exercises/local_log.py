"""The logarithm: a local derivative that depends on where you are

`micrograd` has no logarithm. Add one: `log(x)` takes a Value whose `data`
is positive and returns a new Value holding the natural logarithm, with `x`
as its one parent and one local derivative on that edge. The forward pass is
written; fill in the local derivative, read at this `x`.

A Value can be made with its parents and their local derivatives given:
`Value(data, label, _prev, _local, _op)`. Once the edge carries the right
number, `backward()` runs the chain rule through your operation like any
other: the tests check it on $\\log(x \\cdot x)$, where `x` reaches the output
by two paths, and on the loss $-\\log\\big(a / (a + b)\\big)$, against finite
differences.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value


def log(x):
    """log(x) for a Value x (x.data > 0): a new Value, parent x."""
    out = math.log(x.data)
    local = ...  # d log(x) / dx, at this x
    return Value(out, "", (x,), (local,), "log")

# ---- solution ----
import math

from micrograd import Value


def log(x):
    """log(x) for a Value x (x.data > 0): a new Value, parent x."""
    out = math.log(x.data)
    # d log(x) / dx = 1/x: steep near 0, flatter as x grows
    local = 1.0 / x.data
    return Value(out, "", (x,), (local,), "log")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

H = 1e-6
RULE = "d log(x)/dx = 1/x: the slope of log is large near 0 and shrinks as x grows"


def agree(what, got, measured, likely=(), check=RULE):
    """Pass if got and the finite-difference estimate agree to 1e-6 (relative), else fail naming both."""
    if isinstance(got, (int, float)) and relative_error(got, measured) < 1e-6:
        return
    expect(what, got, measured, likely=likely, check=check)


def logged(user, x):
    y = expect_value(f"log(Value({x}))", user.log(Value(x)), Value)
    if len(y._local) != 1 or y._local[0] is Ellipsis:
        raise Fail(f"log(Value({x}))._local is {y._local!r}, expected one number: fill in the blank (...)")
    return y


def test_forward_and_parent(user):
    """log(x) holds the logarithm and has x as its one parent"""
    x = Value(2.0)
    y = expect_value("log(x)", user.log(x), Value)
    expect("log(x).data with x = 2", y.data, math.log(2.0))
    if y._prev != (x,):
        raise Fail("log(x)._prev is not (x,): the one parent is x")


def test_local_derivative(user):
    """the edge carries the slope of log, as finite differences measure it, at x = 0.5, 2 and 10"""
    for x in (0.5, 2.0, 10.0):
        measured = (math.log(x + H) - math.log(x - H)) / (2 * H)
        agree(f"the local derivative of log at x = {x:g}", logged(user, x)._local[0], measured,
              likely=[(math.log(x), "that is the output, log(x), not its slope"),
                      (x, "that grows with x, but the slope of log shrinks as x grows")])


def test_two_paths(user):
    """z = log(x * x) at x = 3: backward() adds the two paths through the product"""
    x = Value(3.0)
    z = user.log(x * x)
    logged(user, 3.0)
    z.backward()
    measured = numerical_grad(lambda: Value(math.log((x * x).data)), [x], H)[0]
    agree("x.grad for z = log(x * x) at x = 3", x.grad, measured,
          check="log's edge carries 1/(x*x); backward() multiplies it by 3 and by 3 on the two edges into *")


def test_a_loss(user):
    """L = -log(a / (a + b)) at a = 2, b = 6: the gradients finite differences give"""
    a, b = Value(2.0), Value(6.0)
    logged(user, 2.0)
    L = -user.log(a / (a + b))
    L.backward()
    estimates = numerical_grad(lambda: -math.log((a / (a + b)).data), [a, b], H)
    for name, leaf, estimate in zip("ab", (a, b), estimates):
        agree(f"{name}.grad for L = -log(a / (a + b)) at a = 2, b = 6", leaf.grad, estimate,
              check="log's local derivative, 1 over its input, times the upstream gradient")

# ---- hints ----
# - Draw the curve of the logarithm: where is it steep, and where does it flatten? Which
#   function of x behaves like that slope?
# - The derivative of the natural logarithm is one over its input. It depends on the value
#   of x, so read it from the forward pass, the same way the power rule reads x.
# - `local = 1.0 / x.data`.

# ---- mistake: the output stored ----
# message: that is the output
# replace: local = 1.0 / x.data
# with: local = out

# ---- mistake: x stored ----
# message: the slope of log shrinks
# replace: local = 1.0 / x.data
# with: local = x.data

"""Derive it: softplus, a smooth ReLU

Softplus is $\\log(1 + e^x)$: close to 0 for very negative x, close to x for
large x, and smooth in between. It is the log-sum-exp of the two numbers 0
and x, so it is computed the way this section computes log-sum-exp: take
the larger of the two out first, and no exponent overflows.

`softplus(x)` below does the forward pass that way. Derive its local
derivative and fill it in. It must stay finite where x is far from 0, in
either direction, as the output does. The tests run `backward()` through
your operation and hold it to chapter 7's rule against centered
differences.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value


def softplus(x):
    """log(1 + e^x) as a new Value, x its parent; never overflows."""
    # the log-sum-exp of 0 and x, the larger taken out first
    out = max(x.data, 0.0) + math.log1p(math.exp(-abs(x.data)))
    slope = ...  # d softplus(x)/dx
    return Value(out, "", (x,), (slope,), "softplus")

# ---- solution ----
import math

from micrograd import Value


def softplus(x):
    """log(1 + e^x) as a new Value, x its parent; never overflows."""
    # the log-sum-exp of 0 and x, the larger taken out first
    out = max(x.data, 0.0) + math.log1p(math.exp(-abs(x.data)))
    # e^x / (1 + e^x); x - out <= 0, so no overflow
    slope = math.exp(x.data - out)
    return Value(out, "", (x,), (slope,), "softplus")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE = "d log(1 + e^x)/dx = e^x / (1 + e^x) = 1 / (1 + e^(-x)), the sigmoid of x"
INSIDE = f"that is e^x, the slope of the inside only: divide by 1 + e^x, the chain rule through log; {RULE}"
FLIPPED = f"that is the sigmoid of -x: the slope grows with x, towards 1; {RULE}"
OUTPUT = f"that is the output, not its slope; {RULE}"


def reference(x):
    """The slope of softplus at x by the rule, checked against centered differences where
    the estimate can resolve it."""
    slope = 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))
    if abs(x) < 30:
        probe = Value(x)
        estimate = numerical_grad(lambda: Value(math.log1p(math.exp(probe.data))), [probe])[0]
        assert relative_error(slope, estimate) < 1e-6, (x, slope, estimate)
    return slope


def slope_of(user, x):
    leaf = Value(x)
    try:
        y = expect_value(f"softplus(Value({x}))", user.softplus(leaf), Value)
    except OverflowError:
        raise Fail(f"softplus(Value({x})) raised OverflowError, expected a slope of {reference(x):.6g}: "
                   "e^x overflows for large x; write the slope with an exponent that is never positive") from None
    if any(v is Ellipsis for v in y._local):
        raise Fail(f"softplus(Value({x}))._local holds ... (a blank), expected the slope: fill in the blank")
    expect(f"softplus(x).data at x = {x}", y.data, math.log1p(math.exp(-abs(x))) + max(x, 0.0))
    y.backward()
    return leaf.grad, y.data


def check_at(user, x):
    grad, out = slope_of(user, x)
    expect(f"x.grad from softplus(x) at x = {x}", grad, reference(x),
           likely=[(math.exp(min(x, 700.0)), INSIDE), (reference(-x), FLIPPED), (out, OUTPUT)], check=RULE)


def test_positive(user):
    """x = 0.7: the slope agrees with centered differences"""
    check_at(user, 0.7)


def test_negative(user):
    """x = -1.9: the slope agrees with centered differences"""
    check_at(user, -1.9)


def test_far_from_zero(user):
    """x = 800 and x = -800: the slope is finite, next to 1 and next to 0"""
    for x in (800.0, -800.0):
        check_at(user, x)


def test_inside_a_graph(user):
    """L = softplus(a * b) * a: both gradients pass chapter 7's rule"""
    a, b = Value(1.2), Value(-0.8)
    L = expect_value("softplus(a * b)", user.softplus(a * b), Value) * a
    if any(v is Ellipsis for v in L._prev[0]._local):
        raise Fail("softplus(a * b)._local holds ... (a blank), expected the slope: fill in the blank")
    L.backward()
    numeric = numerical_grad(lambda: Value(math.log1p(math.exp(a.data * b.data)) * a.data), [a, b])
    for name, leaf, estimate in zip("ab", (a, b), numeric):
        if relative_error(leaf.grad, estimate) >= 1e-6:
            expect(f"{name}.grad for L = softplus(a·b) · a at a = 1.2, b = -0.8", leaf.grad, round(estimate, 6),
                   check=RULE)

# ---- hints ----
# - Softplus is a log of something that depends on $x$. What does the chain rule give for the
#   derivative of $\log u$ when $u = 1 + e^x$? And how can the result be written so that no
#   exponent is ever positive?
# - $\frac{d}{dx}\log(1 + e^x) = \frac{e^x}{1 + e^x}$, the sigmoid of $x$. Since the output is
#   $s = \log(1 + e^x)$, that fraction is also $e^{x - s}$, and $x - s$ is never positive, so it
#   cannot overflow, in the same way the shifted log-sum-exp cannot.
# - `slope = math.exp(x.data - out)`; or `1 / (1 + math.exp(-x.data))` for `x.data >= 0` and
#   `math.exp(x.data) / (1 + math.exp(x.data))` otherwise.

# ---- mistake: the slope of the inside only ----
# message: the slope of the inside only
# replace: slope = math.exp(x.data - out)
# with: slope = math.exp(x.data)

# ---- mistake: the sign flipped ----
# message: that is the sigmoid of -x
# replace: slope = math.exp(x.data - out)
# with: slope = 1 / (1 + math.exp(x.data))

# ---- mistake: the output as its slope ----
# message: that is the output
# replace: slope = math.exp(x.data - out)
# with: slope = out

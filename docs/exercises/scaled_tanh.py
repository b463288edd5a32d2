"""Derive it: LeCun's scaled tanh

LeCun and others (in this chapter's sources) scale `tanh` inside and out:
$f(x) = 1.7159 \\tanh(2x/3)$. The inner factor widens the range of sums
where the unit is not saturated; the outer one stretches its outputs.

`scaled_tanh(x)` below does the forward pass as one operation. Derive its
local derivative and fill it in. Like `tanh`'s in this engine, it can be
read off a number the forward pass already has. The tests run `backward()`
through your operation and hold it to centered differences, alone and in a
small network.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value

A, S = 1.7159, 2 / 3  # f(x) = A * tanh(S * x)


def scaled_tanh(x):
    """A * tanh(S * x) as one new Value, x (a Value) its parent."""
    t = math.tanh(S * x.data)
    out = A * t
    slope = ...  # d f(x) / dx
    return Value(out, "", (x,), (slope,), "scaled tanh")

# ---- solution ----
import math

from micrograd import Value

A, S = 1.7159, 2 / 3  # f(x) = A * tanh(S * x)


def scaled_tanh(x):
    """A * tanh(S * x) as one new Value, x (a Value) its parent."""
    t = math.tanh(S * x.data)
    out = A * t
    # the outer factor, times tanh's slope 1 - t², times the inner factor (the chain rule)
    slope = A * S * (1 - t * t)
    return Value(out, "", (x,), (slope,), "scaled tanh")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

A, S = 1.7159, 2 / 3
RULE = "d/dx A·tanh(S·x) = A · S · (1 - tanh²(S·x)), with tanh(S·x) = t, the forward pass's number"
INNER = f"the inner factor S = 2/3 is missing: the chain rule through S·x multiplies by S; {RULE}"
OUTER = f"the outer factor A = 1.7159 is missing: scaling the output scales its slope; {RULE}"
FROM_OUT = f"1 - out² uses the output A·t; tanh's slope is 1 - t², t = out / A; {RULE}"


def plain(x):
    """f built from the engine's own operations, for the centered differences."""
    return (x * S).tanh() * A


def slope_of(user, x):
    leaf = Value(x)
    y = expect_value(f"scaled_tanh(Value({x}))", user.scaled_tanh(leaf), Value)
    if any(v is Ellipsis for v in y._local):
        raise Fail(f"scaled_tanh(Value({x}))._local holds ... (a blank), expected the slope: fill in the blank")
    expect(f"scaled_tanh(x).data at x = {x}", y.data, A * math.tanh(S * x))
    y.backward()
    return leaf.grad


def check_at(user, x):
    grad = slope_of(user, x)
    probe = Value(x)
    estimate = numerical_grad(lambda: plain(probe), [probe])[0]
    t = math.tanh(S * x)
    right = A * S * (1 - t * t)
    assert relative_error(right, estimate) < 1e-6, (x, right, estimate)  # the rule agrees with the estimate
    expect(f"x.grad from scaled_tanh(x) at x = {x}", grad, right,
           likely=[(A * (1 - t * t), INNER), (S * (1 - t * t), OUTER), (A * S * (1 - (A * t) ** 2), FROM_OUT)],
           check=RULE)


def test_at_zero(user):
    """x = 0: the slope agrees with centered differences"""
    check_at(user, 0.0)


def test_positive(user):
    """x = 0.8: the slope agrees with centered differences"""
    check_at(user, 0.8)


def test_negative(user):
    """x = -2.5: the slope agrees with centered differences"""
    check_at(user, -2.5)


def test_in_a_network(user):
    """L = f(w2 · f(w1 · x)): both weights' gradients agree with centered differences"""
    x, w1, w2 = Value(1.5), Value(-0.7), Value(1.2)
    inner = expect_value("scaled_tanh(w1 * x)", user.scaled_tanh(w1 * x), Value)
    L = expect_value("scaled_tanh(w2 * h)", user.scaled_tanh(w2 * inner), Value)
    if any(v is Ellipsis for node in (inner, L) for v in node._local):
        raise Fail("scaled_tanh(...)._local holds ... (a blank), expected the slope: fill in the blank")
    L.backward()
    numeric = numerical_grad(lambda: plain(w2 * plain(w1 * x)), [w1, w2])
    for name, leaf, estimate in zip(["w1", "w2"], (w1, w2), numeric):
        if relative_error(leaf.grad, estimate) >= 1e-6:
            expect(f"{name}.grad for L = f(w2 · f(w1 · x)) at x = 1.5, w1 = -0.7, w2 = 1.2", leaf.grad,
                   round(estimate, 6), check=RULE)

# ---- hints ----
# - The function is a tanh with a factor inside and a factor outside. Which of the two does the
#   chain rule multiply by, and what does the tanh in between contribute?
# - With $u = S x$ and $t = \tanh u$: $f = A t$, so $\frac{df}{dx} = A \cdot (1 - t^2) \cdot S$.
#   Both factors count, and $1 - t^2$ uses $t$, the tanh's own output, not $f$, which is $A t$.
# - `slope = A * S * (1 - t * t)`

# ---- mistake: the inner factor forgotten ----
# message: the inner factor S = 2/3 is missing
# replace: slope = A * S * (1 - t * t)
# with: slope = A * (1 - t * t)

# ---- mistake: the outer factor forgotten ----
# message: the outer factor A = 1.7159 is missing
# replace: slope = A * S * (1 - t * t)
# with: slope = S * (1 - t * t)

# ---- mistake: the slope read off the output ----
# message: 1 - out² uses the output
# replace: slope = A * S * (1 - t * t)
# with: slope = A * S * (1 - out * out)

"""The sigmoid: a local derivative read off the output

The sigmoid squashes any number into the range from 0 to 1:
$\\sigma(x) = 1 / (1 + e^{-x})$. Older networks used it where this book
uses $\\tanh$. `sigmoid(x)` takes a Value and returns a new Value with `x`
as its one parent. The forward pass is written. Fill in the local
derivative, and write it with `s`, the output, as `tanh` writes its own
with `t`: the output is already computed.

A Value can be made with its parents and their local derivatives given:
`Value(data, label, _prev, _local, _op)`. The tests compare your local
derivative with finite differences, then run `backward()` through a neuron
that uses your sigmoid in place of $\\tanh$.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value


def sigmoid(x):
    """1 / (1 + exp(-x)) for a Value x, as a new Value; parent x."""
    s = 1.0 / (1.0 + math.exp(-x.data))
    local = ...  # d sigmoid(x) / dx, written with s
    return Value(s, "", (x,), (local,), "sigmoid")

# ---- solution ----
import math

from micrograd import Value


def sigmoid(x):
    """1 / (1 + exp(-x)) for a Value x, as a new Value; parent x."""
    s = 1.0 / (1.0 + math.exp(-x.data))
    # the chain rule on (1 + e**-x)**-1, rearranged: s times 1 - s
    local = s * (1.0 - s)
    return Value(s, "", (x,), (local,), "sigmoid")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

H = 1e-6
RULE = "d sigmoid(x)/dx = s * (1 - s), where s = sigmoid(x) is the output"


def sig(x):
    return 1.0 / (1.0 + math.exp(-x))


def agree(what, got, measured, likely=(), check=RULE):
    """Pass if got and the finite-difference estimate agree to 1e-6 (relative), else fail naming both."""
    if isinstance(got, (int, float)) and relative_error(got, measured) < 1e-6:
        return
    expect(what, got, measured, likely=likely, check=check)


def squashed(user, x):
    y = expect_value(f"sigmoid(Value({x}))", user.sigmoid(Value(x)), Value)
    if len(y._local) != 1 or y._local[0] is Ellipsis:
        raise Fail(f"sigmoid(Value({x}))._local is {y._local!r}, expected one number: fill in the blank (...)")
    return y


def test_forward_and_parent(user):
    """sigmoid(x) holds 1 / (1 + exp(-x)) and has x as its one parent"""
    x = Value(0.5)
    y = expect_value("sigmoid(x)", user.sigmoid(x), Value)
    expect("sigmoid(x).data with x = 0.5", y.data, sig(0.5))
    if y._prev != (x,):
        raise Fail("sigmoid(x)._prev is not (x,): the one parent is x")


def test_local_derivative(user):
    """the edge carries the slope of the sigmoid, as finite differences measure it, at x = -2, 0, 1.5"""
    for x in (-2.0, 0.0, 1.5):
        s = sig(x)
        measured = (sig(x + H) - sig(x - H)) / (2 * H)
        agree(f"the local derivative of sigmoid at x = {x:g}", squashed(user, x)._local[0], measured,
              likely=[(x * (1 - x), "that is x * (1 - x), from the input x; use the output s: s * (1 - s)"),
                      (1 - s * s, "that is 1 - s**2, the rule of tanh; the sigmoid's is s * (1 - s)"),
                      (s, "that is the output s, not its slope")])


def test_the_flat_ends(user):
    """far from 0 the sigmoid is flat: its local derivative at x = 8 is tiny but not 0"""
    x = 8.0
    measured = (sig(x + H) - sig(x - H)) / (2 * H)
    got = squashed(user, x)._local[0]
    if not isinstance(got, (int, float)) or relative_error(got, measured) > 1e-4:  # a flat curve: a looser check
        expect("the local derivative of sigmoid at x = 8", got, measured, check=RULE)


def test_a_neuron(user):
    """o = sigmoid(x1*w1 + x2*w2 + b): backward() gives the gradients finite differences give"""
    x1, w1, x2, w2, b = Value(2.0), Value(-3.0), Value(0.0), Value(1.0), Value(6.8813735870195432)
    squashed(user, 0.5)
    o = user.sigmoid(x1 * w1 + x2 * w2 + b)
    o.backward()
    leaves = [x1, w1, x2, w2, b]

    def rebuild():
        return Value(sig((x1 * w1 + x2 * w2 + b).data))

    for name, leaf, estimate in zip(["x1", "w1", "x2", "w2", "b"], leaves, numerical_grad(rebuild, leaves, H)):
        agree(f"{name}.grad in the sigmoid neuron", leaf.grad, estimate,
              check="the sigmoid's local derivative times the upstream gradient, then the two patterns")

# ---- hints ----
# - Where is the sigmoid steepest, and how flat is it when the output is near 0 or near 1?
#   Which expression in the output alone is largest at one half and vanishes at both ends?
# - Write the sigmoid as one plus e to the minus x, to the power minus one, and apply the chain
#   rule: the slope is e to the minus x over the square of one plus e to the minus x. Split
#   that fraction into the output times one minus the output.
# - `local = s * (1.0 - s)`.

# ---- mistake: from the input ----
# message: from the input x
# replace: local = s * (1.0 - s)
# with: local = x.data * (1.0 - x.data)

# ---- mistake: the rule of tanh ----
# message: the rule of tanh
# replace: local = s * (1.0 - s)
# with: local = 1.0 - s * s

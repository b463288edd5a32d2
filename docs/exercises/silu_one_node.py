"""Derive it: SiLU as one node

SiLU, also called swish, multiplies a number by its own sigmoid:
$\\mathrm{silu}(x) = x\\,\\sigma(x)$. Built from the engine's gates it is a
product of $x$ and a five-operation sigmoid. As one node it needs one local
derivative, which you derive here.

`silu(x)` below computes the forward pass as one node, with `s` the sigmoid
of the input and `out` the output. Fill in the local derivative. The tests
compare it with centered differences, and a backward pass through it with
the same function built from the engine's gates.
"""

# ---- kind: derive ----

# ---- starter ----
import math

from micrograd import Value


def silu(x):
    """x · σ(x) for a Value x, as one new Value whose one parent is x."""
    s = 1 / (1 + math.exp(-x.data))
    out = x.data * s
    local = ...  # d silu(x) / dx
    return Value(out, "", (x,), (local,), "silu")

# ---- solution ----
import math

from micrograd import Value


def silu(x):
    """x · σ(x) for a Value x, as one new Value whose one parent is x."""
    s = 1 / (1 + math.exp(-x.data))
    out = x.data * s
    # the product rule: σ(x) + x·σ'(x), and σ' = s·(1 - s)
    local = s + x.data * s * (1 - s)
    return Value(out, "", (x,), (local,), "silu")

# ---- tests ----
import math

from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE = "x·σ(x) is a product: its slope is σ(x) + x·σ(x)·(1 - σ(x)), the product rule"
FIRST = "that is σ(x) alone, the first term of the product rule: add x·σ'(x), with σ' = σ·(1 - σ)"
SECOND = "that is σ'(x) alone, the sigmoid's slope: the product rule gives σ(x) + x·σ'(x)"
NO_X = "that is σ(x) + σ'(x): the second term needs the factor x, σ(x) + x·σ'(x)"


def sig(x):
    return 1 / (1 + math.exp(-x))


def from_gates(x):
    """silu built from the engine's own operations: the granularity the reader's node replaces."""
    return x * (1 / (1 + (-x).exp()))


def one_node(user, x):
    """The reader's silu(Value(x)), checked to be one node with a number on its edge."""
    leaf = Value(x)
    y = expect_value(f"silu(Value({x}))", user.silu(leaf), Value)
    if y._prev != (leaf,):
        raise Fail(f"silu(Value({x})) has {len(y._prev)} parents, expected 1: one node whose parent is x")
    if y._local[0] is Ellipsis:
        raise Fail(f"silu(Value({x}))._local holds ... (a blank), expected the slope: fill in the blank")
    return leaf, y


def check_at(user, x):
    leaf, y = one_node(user, x)
    expect(f"silu(x).data at x = {x}", y.data, x * sig(x))
    probe = Value(x)
    measured = numerical_grad(lambda: Value(probe.data * sig(probe.data)), [probe])[0]
    got = y._local[0]
    if isinstance(got, (int, float)) and relative_error(got, measured) < 1e-6:
        return
    s = sig(x)
    expect(f"the local derivative of silu at x = {x}", got, round(measured, 9),
           likely=[(s, FIRST), (s * (1 - s), SECOND), (s + s * (1 - s), NO_X)], check=RULE)


def test_positive(user):
    """x = 1.5: the local derivative agrees with centered differences"""
    check_at(user, 1.5)


def test_negative(user):
    """x = -2: where silu dips below 0, the slope is negative; centered differences agree"""
    check_at(user, -2.0)


def test_same_gradient_as_the_gates(user):
    """x = 0.5: backward() through one node gives the gradient of the gates, up to rounding"""
    leaf, y = one_node(user, 0.5)
    y.backward()
    built = Value(0.5)
    from_gates(built).backward()
    if relative_error(leaf.grad, built.grad) >= 1e-12:
        s = sig(0.5)
        expect("x.grad from silu(x) at x = 0.5", leaf.grad, built.grad,
               likely=[(s, FIRST), (s * (1 - s), SECOND), (s + s * (1 - s), NO_X)], check=RULE)


def test_inside_a_graph(user):
    """L = silu(a * b) * a at a = 1.2, b = -0.8: both grads match the graph built from gates"""
    a, b = Value(1.2), Value(-0.8)
    inner = a * b
    L = expect_value("silu(a * b)", user.silu(inner), Value) * a
    if L._prev[0]._local[0] is Ellipsis:
        raise Fail("silu(a * b)._local holds ... (a blank), expected the slope: fill in the blank")
    L.backward()
    a2, b2 = Value(1.2), Value(-0.8)
    (from_gates(a2 * b2) * a2).backward()
    for name, got, want in (("a", a.grad, a2.grad), ("b", b.grad, b2.grad)):
        if relative_error(got, want) >= 1e-12:
            expect(f"{name}.grad for L = silu(a·b)·a at a = 1.2, b = -0.8", got, want, check=RULE)

# ---- hints ----
# - The output is one function of $x$ multiplied by another. Which rule of calculus takes the
#   derivative of a product, and which of the two factors has a derivative this book already
#   wrote with the sigmoid's own output?
# - By the product rule, the slope of $x\,\sigma(x)$ is $\sigma(x) + x\,\sigma'(x)$. The
#   sigmoid's slope is $\sigma(x)(1 - \sigma(x))$, so with $s = \sigma(x)$ the local
#   derivative is $s + x\,s\,(1 - s)$.
# - `local = s + x.data * s * (1 - s)`; the same number is `s + out * (1 - s)`, read partly
#   off the output.

# ---- mistake: the first term only ----
# message: that is σ(x) alone
# replace: local = s + x.data * s * (1 - s)
# with: local = s

# ---- mistake: the sigmoid's slope only ----
# message: that is σ'(x) alone
# replace: local = s + x.data * s * (1 - s)
# with: local = s * (1 - s)

# ---- mistake: the factor x left out ----
# message: the second term needs the factor x
# replace: local = s + x.data * s * (1 - s)
# with: local = s + s * (1 - s)

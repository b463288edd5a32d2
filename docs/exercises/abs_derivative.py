"""Derive it: the local derivative of `abs`

micrograd has no absolute value. Add one: `absolute(x)` returns a new
`Value` holding |x|, with `x` as its one parent and, as its local
derivative, d|x|/dx at the point `x.data`. The forward pass is written; fill
in the local derivative.

|x| has a kink at 0, where no slope exists. There, store 0, as the engine
does for ReLU's kink (and PyTorch does for `abs`). The tests run
`backward()` through your operation and hold every gradient to the rule of
this chapter: relative error below 1e-6 against centered differences.
"""

# ---- kind: derive ----

# ---- starter ----
from micrograd import Value


def absolute(x):
    """|x| as a new Value, with x as its one parent."""
    return Value(abs(x.data), "", (x,), (...,), "abs")

# ---- solution ----
from micrograd import Value


def absolute(x):
    """|x| as a new Value, with x as its one parent."""
    # the sign of x; 0 at the kink
    slope = 1.0 if x.data > 0 else -1.0 if x.data < 0 else 0.0
    return Value(abs(x.data), "", (x,), (slope,), "abs")

# ---- tests ----
from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE = "d|x|/dx is the sign of x: 1 where x > 0, -1 where x < 0 (and 0 at the kink x = 0)"
OUTPUT = f"that is the output |x|, not its slope; {RULE}"
ONE = f"a slope of 1 is right only where x > 0; where x < 0, |x| = -x falls as x grows: {RULE}"
INPUT = f"that is x itself, not its slope; {RULE}"


def agrees(what, actual, estimate, likely):
    """Pass if `actual` is within the chapter's rule (relative error below 1e-6) of the
    finite-difference `estimate`; otherwise fail with both numbers and the likely cause."""
    if not isinstance(actual, (int, float)) or relative_error(actual, estimate) >= 1e-6:
        expect(what, actual, round(estimate, 6), likely=likely, check=RULE)


def grad_of(user, x):
    """backward() through the reader's absolute(x), from a fresh leaf: x.grad."""
    y = expect_value(f"absolute(Value({x.data}))", user.absolute(x), Value)
    if any(v is Ellipsis for v in y._local):
        raise Fail(f"absolute(x)._local at x = {x.data} is (... (a blank),), expected d|x|/dx: fill in the blank")
    y.backward()
    return x.grad


def test_positive(user):
    """at x = 1.7, backward() agrees with finite differences"""
    x = Value(1.7)
    estimate = numerical_grad(lambda: Value(abs(x.data)), [x])[0]
    agrees("x.grad from absolute(x) at x = 1.7", grad_of(user, x), estimate,
           likely=[(1.7, OUTPUT)])


def test_negative(user):
    """at x = -0.6, backward() agrees with finite differences"""
    x = Value(-0.6)
    estimate = numerical_grad(lambda: Value(abs(x.data)), [x])[0]
    agrees("x.grad from absolute(x) at x = -0.6", grad_of(user, x), estimate,
           likely=[(1.0, ONE), (0.6, OUTPUT), (-0.6, INPUT)])


def test_at_the_kink(user):
    """at x = 0 the engine stores 0, as finite differences give"""
    x = Value(0.0)
    y = expect_value("absolute(Value(0.0))", user.absolute(x), Value)
    expect("absolute(x).data at x = 0", y.data, 0.0)
    expect("absolute(x)._local at x = 0", tuple(y._local), (0.0,),
           check="at the kink x = 0 store 0, as relu does at its kink")


def test_inside_a_graph(user):
    """L = |a * b - c| * a: every gradient passes the chapter's rule"""
    a, b, c = Value(0.5), Value(-3.0), Value(0.25)
    inputs = [a, b, c]
    estimates = numerical_grad(lambda: Value(abs(a.data * b.data - c.data)) * a, inputs)
    inner = a.data * b.data - c.data  # negative: the slope of |.| there is -1
    wrong = [Value(v) for v in (0.5, -3.0, 0.25)]  # the same graph with a slope of +1 at the |.|
    wa, wb, wc = wrong
    (Value(abs(inner), "", (wa * wb - wc,), (1.0,), "abs") * wa).backward()
    inner_node = a * b - c
    L = expect_value("absolute(a * b - c)", user.absolute(inner_node), Value) * a
    if any(v is Ellipsis for v in L._prev[0]._local):
        raise Fail("absolute(a * b - c)._local is (... (a blank),), expected d|x|/dx: fill in the blank")
    L.backward()
    for name, leaf, estimate, w in zip("abc", inputs, estimates, wrong):
        agrees(f"{name}.grad for L = |a * b - c| * a at a = 0.5, b = -3, c = 0.25", leaf.grad, estimate,
               likely=[(w.grad, ONE)])


def test_one_parent(user):
    """absolute(x) has exactly one parent, x"""
    x = Value(-2.5)
    y = expect_value("absolute(Value(-2.5))", user.absolute(x), Value)
    if len(y._prev) != 1 or y._prev[0] is not x:
        raise Fail(f"absolute(x) has {len(y._prev)} parents, expected 1: x itself, as (x,)")

# ---- hints ----
# - Where $x$ is positive, how does $|x|$ change when $x$ grows a little? And where $x$ is
#   negative?
# - For $x > 0$, $|x| = x$, whose slope is $1$; for $x < 0$, $|x| = -x$, whose slope is $-1$. So
#   the local derivative is the sign of $x$, and at the kink $x = 0$ you store $0$.
# - `slope = 1.0 if x.data > 0 else -1.0 if x.data < 0 else 0.0`, then put `(slope,)` where the
#   blank is.

# ---- mistake: a slope of 1 everywhere ----
# message: a slope of 1 is right only where x > 0
# replace: slope = 1.0 if x.data > 0 else -1.0 if x.data < 0 else 0.0
# with: slope = 1.0

# ---- mistake: the output as the slope ----
# message: that is the output |x|
# replace: slope = 1.0 if x.data > 0 else -1.0 if x.data < 0 else 0.0
# with: slope = abs(x.data)

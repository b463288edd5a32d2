"""Derive it: the hinge loss as one node

Chapter 6's loss takes each point's hinge as `(1 - t * s).relu()`, where
`s` is the network's score, a `Value`, and `t` the point's label, -1 or 1.
That builds several nodes per point, and the graph keeps them all until
the backward pass. One operation that computes $\\max(0, 1 - t s)$ directly
keeps a single node per point, with `s` its one parent.

`hinge(s, t)` below does the forward pass. Derive its local derivative,
$\\partial\\,\\text{hinge} / \\partial s$, and fill it in. At the kink, where
$1 - t s = 0$, pick 0, as `relu` does. The tests run `backward()` through
your operation, check that it makes one node, hold its slope to centered
differences, and compare a small model's gradients with the plain hinge's.
"""

# ---- kind: derive ----

# ---- starter ----
from micrograd import Value


def hinge(s, t):
    """max(0, 1 - t * s) as one new Value: s (a Value, the score) its parent, t a label (-1 or 1)."""
    margin = 1.0 - t * s.data
    out = margin if margin > 0 else 0.0
    slope = ...  # d hinge / d s
    return Value(out, "", (s,), (slope,), "hinge")

# ---- solution ----
from micrograd import Value


def hinge(s, t):
    """max(0, 1 - t * s) as one new Value: s (a Value, the score) its parent, t a label (-1 or 1)."""
    margin = 1.0 - t * s.data
    out = margin if margin > 0 else 0.0
    # inside the margin the output is 1 - t*s, whose slope is -t; past it the constant 0
    slope = -t if margin > 0 else 0.0
    return Value(out, "", (s,), (slope,), "hinge")

# ---- tests ----
from micrograd import Value, numerical_grad, relative_error
from micrograd.engine import topological_order

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE = "inside the margin (1 - t·s > 0) the hinge is 1 - t·s, whose slope in s is -t; past it, 0"
FLIPPED = f"the sign is flipped: a larger t·s lowers 1 - t·s; {RULE}"
NO_ZERO = f"past the margin the hinge is the constant 0, and a constant's slope is 0; {RULE}"
OF_T = f"that is the slope in t, -s; the parent is s; {RULE}"
# a linear model s = w1·x1 + w2·x2 + b, and points on both sides of the margin, of both labels
WEIGHTS = (0.5, -1.0, 0.25)
POINTS = [((1.0, 2.0), 1), ((2.0, -1.0), 1), ((0.5, 0.5), -1), ((-1.0, 1.0), -1)]


def plain(s, t):
    """Chapter 6's hinge, built from the engine's operations."""
    return (1 - t * s).relu()


def hinge_of(user, s, t):
    """The reader's hinge of Value s: one new node whose one parent is s, its slope filled in."""
    y = expect_value(f"hinge(Value({s.data}), {t})", user.hinge(s, t), Value)
    if y._prev != (s,):
        raise Fail(f"hinge(Value({s.data}), {t}) has {len(topological_order(y)) - 1} nodes below it, expected 1, "
                   "the score s as its one parent: one operation, not several")
    if any(v is Ellipsis for v in y._local):
        raise Fail(f"hinge(Value({s.data}), {t})._local holds ... (a blank), expected the slope: fill in the blank")
    return y


def check_at(user, s, t):
    score = Value(s)
    y = hinge_of(user, score, t)
    expect(f"hinge(s, t).data at s = {s}, t = {t}", y.data, plain(Value(s), t).data)
    y.backward()
    probe = Value(s)
    estimate = numerical_grad(lambda: plain(probe, t), [probe])[0]
    right = -float(t) if 1 - t * s > 0 else 0.0
    assert relative_error(right, estimate) < 1e-6, (s, t, right, estimate)  # the rule agrees with the estimate
    expect(f"s.grad from hinge(s, t) at s = {s}, t = {t}", score.grad, right,
           likely=[(-right, FLIPPED), (-t, NO_ZERO), (-s, OF_T)], check=RULE)


def test_inside_the_margin(user):
    """s = 0.3, t = 1: inside the margin; the slope agrees with centered differences"""
    check_at(user, 0.3, 1)


def test_the_other_label(user):
    """s = -0.4, t = -1: inside the margin; the slope agrees with centered differences"""
    check_at(user, -0.4, -1)


def test_past_the_margin(user):
    """s = 2.0, t = 1: past the margin; the slope agrees with centered differences"""
    check_at(user, 2.0, 1)


def loss_of(make_hinge):
    """(the loss, the parameters) of the mean hinge of the linear model over POINTS."""
    w1, w2, b = (Value(v) for v in WEIGHTS)
    hinges = [make_hinge(w1 * x1 + w2 * x2 + b, t) for (x1, x2), t in POINTS]
    return sum(hinges) / len(hinges), [w1, w2, b]


def test_a_models_gradients(user):
    """the mean hinge of a linear model on four points: its gradients are the plain hinge's"""
    right, parameters = loss_of(plain)
    right.backward()
    loss, mine = loss_of(lambda s, t: hinge_of(user, s, t))
    expect("the mean hinge", loss.data, right.data)
    loss.backward()
    expect("[w1.grad, w2.grad, b.grad]", [p.grad for p in mine], [p.grad for p in parameters],
           check=f"the slope at each point: {RULE}")

# ---- hints ----
# - The hinge has two pieces, split by the sign of $1 - t s$. What is the slope of each piece as
#   $s$ moves, with $t$ held fixed?
# - Where $1 - t s > 0$ the output is $1 - t s$, a straight line in $s$ with slope $-t$. Where
#   $1 - t s \le 0$ the output is 0 whatever $s$ is, so its slope is 0; at the kink pick 0 too.
#   So $t = 1$ gives $-1$ inside the margin, and $t = -1$ gives $+1$.
# - `slope = -t if margin > 0 else 0.0`

# ---- mistake: the sign flipped ----
# message: the sign is flipped
# replace: slope = -t if margin > 0 else 0.0
# with: slope = t if margin > 0 else 0.0

# ---- mistake: no zero past the margin ----
# message: past the margin the hinge is the constant 0
# replace: slope = -t if margin > 0 else 0.0
# with: slope = -t

# ---- mistake: the slope in t ----
# message: that is the slope in t
# replace: slope = -t if margin > 0 else 0.0
# with: slope = -s.data if margin > 0 else 0.0

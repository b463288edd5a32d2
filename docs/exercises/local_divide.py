"""Division as one operation: two local derivatives

`micrograd` builds `x / y` from a power and a product. Make it a single
operation instead, with one edge from each parent. `divide(x, y)` takes two
Values and returns a new Value: its `data` is the quotient $q = x / y$, its
parents are `(x, y)`, and `_local` holds one local derivative per parent, in
the same order.

A Value can be made with its parents and their local derivatives given:
`Value(data, label, _prev, _local, _op)`. The forward pass is written. Fill
in the two local derivatives: how fast $q$ moves when `x` moves with `y`
held still, and how fast it moves when `y` moves with `x` held still.

The tests nudge `x` and `y` a tiny step each way (finite differences) and
compare what $q$ did with the numbers you stored.
"""

# ---- kind: derive ----

# ---- starter ----
from micrograd import Value


def divide(x, y):
    """x / y as a new Value whose parents are the Values x and y."""
    q = x.data / y.data
    dq_dx = ...  # how fast q moves with x, y held still
    dq_dy = ...  # how fast q moves with y, x held still
    return Value(q, "", (x, y), (dq_dx, dq_dy), "/")

# ---- solution ----
from micrograd import Value


def divide(x, y):
    """x / y as a new Value whose parents are the Values x and y."""
    q = x.data / y.data
    # q = x * (1/y): a line in x whose slope is 1/y
    dq_dx = 1.0 / y.data
    # q = x * y**-1: the power rule gives -x * y**-2
    dq_dy = -x.data / y.data ** 2
    return Value(q, "", (x, y), (dq_dx, dq_dy), "/")

# ---- tests ----
from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect, expect_value

RULE_X = "with y held still, q = x * (1/y) is a straight line in x whose slope is 1/y"
RULE_Y = "with x held still, q = x * y**-1; the power rule gives dq/dy = -x / y**2"
POINTS = [(6.0, -3.0), (1.0, 0.5), (-2.0, 4.0)]


def quotient(user, x, y):
    """The reader's divide(x, y) as a Value with two local derivatives, or Fail."""
    q = expect_value(f"divide(Value({x}), Value({y}))", user.divide(Value(x), Value(y)), Value)
    if len(q._local) != 2:
        raise Fail(f"divide(Value({x}), Value({y}))._local holds {len(q._local)} numbers, expected 2: "
                   "one local derivative per parent, x first")
    return q


def by_finite_differences(x, y):
    """dq/dx and dq/dy of x / y, estimated by nudging micrograd's own division."""
    vx, vy = Value(x), Value(y)
    return numerical_grad(lambda: vx / vy, [vx, vy])


def agree(what, stored, measured, likely=(), check=""):
    """Pass if the stored number and the finite-difference estimate agree to 1e-6 (relative);
    otherwise fail, naming both (expect), with the cause of a likely wrong value."""
    if isinstance(stored, (int, float)) and relative_error(stored, measured) < 1e-6:
        return
    expect(what, stored, measured, likely=likely, check=check)


def test_forward_and_parents(user):
    """divide(x, y) holds the quotient and remembers x and y as its parents"""
    x, y = Value(6.0), Value(-3.0)
    q = expect_value("divide(x, y)", user.divide(x, y), Value)
    expect("divide(x, y).data with x = 6, y = -3", q.data, (x / y).data)
    if len(q._prev) != 2 or q._prev[0] is not x or q._prev[1] is not y:
        raise Fail("divide(x, y)._prev is not (x, y): the parents are x and y, in that order")


def test_local_derivative_in_x(user):
    """the edge from x carries dq/dx, as finite differences measure it"""
    for x, y in POINTS:
        stored = quotient(user, x, y)._local[0]
        measured = by_finite_differences(x, y)[0]
        agree(f"dq/dx for q = {x:g} / {y:g}", stored, measured,
              likely=[(y, "that is the rule for *, where the edge carries the other factor; "
                          "here the other factor is 1/y"),
                      (x / y, "that is q itself, the output, not its slope")],
              check=RULE_X)


def test_local_derivative_in_y(user):
    """the edge from y carries dq/dy, as finite differences measure it"""
    for x, y in POINTS:
        stored = quotient(user, x, y)._local[1]
        measured = by_finite_differences(x, y)[1]
        agree(f"dq/dy for q = {x:g} / {y:g}", stored, measured,
              likely=[(x / y ** 2, "the sign is wrong: a larger y makes x / y smaller when x and y are "
                                   "positive, so dq/dy has the opposite sign of x"),
                      (-1 / y ** 2, "x is missing: -1/y**2 is the slope of 1/y, and q is x times that"),
                      (-x / y, "y is squared in the power rule: y**-1 gives -1 * y**-2")],
              check=RULE_Y)


def test_in_a_graph(user):
    """backward() through divide gives the gradients finite differences give, for L = (a / b) * c"""
    a, b, c = Value(3.0), Value(-1.5), Value(2.0)
    q = expect_value("divide(a, b)", user.divide(a, b), Value)
    if Ellipsis in q._local:
        raise Fail("divide(a, b)._local still holds a blank (...): fill in both local derivatives first")
    L = q * c
    L.backward()
    estimates = numerical_grad(lambda: (a / b) * c, [a, b, c])
    for name, leaf, estimate in zip("abc", (a, b, c), estimates):
        agree(f"{name}.grad for L = (a / b) * c with a = 3, b = -1.5, c = 2", leaf.grad, estimate,
              check="each edge's local derivative, times the upstream gradient c")

# ---- hints ----
# - Hold y still and look at x alone: what kind of function of x is a quotient by a fixed
#   number, and what is its slope? Then hold x still: when y grows, does the quotient grow or
#   shrink?
# - Write the quotient as x times y to the power minus one. In x that is a line whose slope
#   is the factor in front of x. In y, the power rule turns the power minus one into minus
#   one times the power minus two, and x rides along as a constant factor.
# - `dq_dx = 1.0 / y.data` and `dq_dy = -x.data / y.data ** 2`.

# ---- mistake: the rule for * ----
# message: that is the rule for *
# replace: dq_dx = 1.0 / y.data
# with: dq_dx = y.data

# ---- mistake: the sign of dq/dy ----
# message: the sign is wrong
# replace: dq_dy = -x.data / y.data ** 2
# with: dq_dy = x.data / y.data ** 2

# ---- mistake: x left out of dq/dy ----
# message: x is missing
# replace: dq_dy = -x.data / y.data ** 2
# with: dq_dy = -1.0 / y.data ** 2

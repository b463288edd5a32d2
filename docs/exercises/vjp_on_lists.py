"""Build it: a Jacobian row by row, and its vector-Jacobian product

Write the two functions of this section in plain Python, with lists of
lists where the page used NumPy.

- `jacobian(f, point)`: `f` takes a list of Values and returns a list of
  Values; `point` is a list of floats. Return $J$ as a list of rows, one
  row per output of `f` and one number per input in each row, from one
  backward pass per row.
- `vjp(J, v)`: the row vector `v`, one number per output, times `J`: a
  list with one number per input.

The tests run both on $f(x_0, x_1) = (x_0 x_1,\\; x_0 + x_1,\\; x_0^2)$
and on a function with three inputs and two outputs, and compare
`vjp(jacobian(f, point), v)` with a single backward pass from
$\\sum_i v_i y_i$.
"""

# ---- kind: build ----

# ---- starter ----
from micrograd import Value


def jacobian(f, point):
    """J of f at point (a list of floats), as a list of rows (lists of floats), one per output."""
    n_outputs = len(f([Value(p) for p in point]))
    rows = []
    for i in range(n_outputs):
        ...
    return rows


def vjp(J, v):
    """vᵀJ for J (a list of m rows of n floats) and v (m floats): a list of n floats."""
    ...

# ---- solution ----
from micrograd import Value


def jacobian(f, point):
    """J of f at point (a list of floats), as a list of rows (lists of floats), one per output."""
    n_outputs = len(f([Value(p) for p in point]))
    rows = []
    for i in range(n_outputs):
        xs = [Value(p) for p in point]  # fresh leaves: each pass starts from zero grads
        f(xs)[i].backward()
        rows.append([x.grad for x in xs])
    return rows


def vjp(J, v):
    """vᵀJ for J (a list of m rows of n floats) and v (m floats): a list of n floats."""
    # entry j sums down column j of J, each row weighted by its v[i]
    return [sum(v[i] * J[i][j] for i in range(len(J))) for j in range(len(J[0]))]

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, fmt

FRESH = ("each row holds the grads of the earlier passes too: make fresh leaves "
         "for each backward pass, so every row starts from zero grads")
J_TIMES_V = "that is J·v, one number per output; vᵀJ has one number per input: sum down each column, weighted by v"


def f(xs):
    """Two inputs, three outputs, as on the page: (x0·x1, x0 + x1, x0²). No tanh: it runs on
    micrograd 0.1.0's engine too, which has none."""
    x0, x1 = xs
    return [x0 * x1, x0 + x1, x0**2]


def g(xs):
    """Three inputs, two outputs: (a·b + c, relu(a·c))."""
    a, b, c = xs
    return [a * b + c, (a * c).relu()]


def reference_rows(fn, point):
    """J by micrograd: one backward pass per output, fresh leaves each time."""
    rows = []
    for i in range(len(fn([Value(p) for p in point]))):
        xs = [Value(p) for p in point]
        fn(xs)[i].backward()
        rows.append([x.grad for x in xs])
    return rows


def one_pass(fn, point, v):
    """The inputs' grads after one backward pass from L = Σ v_i y_i."""
    xs = [Value(p) for p in point]
    sum((y * vi for y, vi in zip(fn(xs), v)), Value(0.0)).backward()
    return [x.grad for x in xs]


def accumulated(rows):
    """What the rows become when the same leaves are used for every pass."""
    return [[sum(r[j] for r in rows[: i + 1]) for j in range(len(rows[0]))] for i in range(len(rows))]


def user_jacobian(user, fn, point, where):
    J = user.jacobian(fn, list(point))
    if J is None:
        raise Fail(f"jacobian({where}) is None, expected a list of rows: does it `return rows`?")
    return [list(row) if isinstance(row, (list, tuple)) else row for row in J]


def check_jacobian(user, fn, point, where):
    J = user_jacobian(user, fn, point, where)
    want = reference_rows(fn, point)
    if len(J) != len(want):
        raise Fail(f"jacobian({where}) has {len(J)} rows, expected {len(want)}: one row per output of the function")
    wrong = accumulated(want)
    for i, (row, expected) in enumerate(zip(J, want)):
        expect(f"row {i} of jacobian({where})", row, expected, likely=[(wrong[i], FRESH)],
               check="row i holds the inputs' grads after a backward pass from output i alone")


def call_vjp(user, J, v, want, what):
    """The reader's vjp(J, v) as a list; an index past the end fails with the numbers expected."""
    try:
        got = user.vjp(J, list(v))
    except IndexError as error:
        raise Fail(f"{what} raised IndexError ({error}), expected {fmt(want)}: J has {len(J)} rows of "
                   f"{len(J[0])} and v has {len(v)} numbers; v[i] goes with row i") from None
    if got is None:
        raise Fail(f"{what} is None, expected {fmt(want)}: does vjp `return` its list?")
    return list(got) if isinstance(got, (list, tuple)) else got


def check_vjp(user, fn, point, v, where):
    J = reference_rows(fn, point)
    want = one_pass(fn, point, v)
    got = call_vjp(user, J, v, want, f"vjp(J, {v}) for {where}")
    j_v = [sum(J[i][j] * v[j] for j in range(min(len(v), len(J[0])))) for i in range(len(J))]
    expect(f"vjp(J, {v}) for {where}", got, want, likely=[(j_v, J_TIMES_V)],
           check="entry j is the sum over outputs i of v[i] * J[i][j], what one backward pass from Σ v_i y_i gives")


def test_jacobian_of_the_pages_function(user):
    """f(x0, x1) = (x0·x1, x0 + x1, x0²) at (2, -1): three rows of two"""
    check_jacobian(user, f, [2.0, -1.0], "f, [2.0, -1.0]")


def test_jacobian_with_more_inputs_than_outputs(user):
    """g(a, b, c) = (a·b + c, relu(a·c)) at (0.5, -2, 1.5): two rows of three"""
    check_jacobian(user, g, [0.5, -2.0, 1.5], "g, [0.5, -2.0, 1.5]")


def test_vjp_is_one_backward_pass(user):
    """vᵀJ for f with v = (1, 0.5, -2) equals the grads of one pass from Σ v_i y_i"""
    check_vjp(user, f, [2.0, -1.0], [1.0, 0.5, -2.0], "f at (2, -1)")


def test_vjp_with_more_inputs(user):
    """vᵀJ for g with v = (3, -1): three numbers, one per input"""
    check_vjp(user, g, [0.5, -2.0, 1.5], [3.0, -1.0], "g at (0.5, -2, 1.5)")


def test_both_together(user):
    """vjp(jacobian(g, point), v) with v = (0, 1): the second row of J, as one pass from y1 gives"""
    J = user_jacobian(user, g, [0.5, -2.0, 1.5], "g, [0.5, -2.0, 1.5]")
    want = one_pass(g, [0.5, -2.0, 1.5], [0.0, 1.0])
    what = "vjp(jacobian(g, [0.5, -2.0, 1.5]), [0.0, 1.0])"
    expect(what, call_vjp(user, J, [0.0, 1.0], want, what), want,
           check="a v with one 1 picks one row of J; both functions must be right for this")

# ---- hints ----
# - A backward pass from one output fills the grads of every input. Which part of the
#   Jacobian is that, and what must the inputs' grads be before the next pass starts?
# - For each output, make new leaves from the point, run the function, call the backward
#   pass of that one output, and keep the inputs' grads as a row. For the product, entry
#   $j$ is $\sum_i v_i J_{ij}$: go down column $j$, weighting row $i$ by $v_i$.
# - In the loop: `xs = [Value(p) for p in point]`, then `f(xs)[i].backward()` and
#   `rows.append([x.grad for x in xs])`. For the product:
#   `return [sum(v[i] * J[i][j] for i in range(len(J))) for j in range(len(J[0]))]`.

# ---- mistake: the same leaves for every pass ----
# message: make fresh leaves
# replace: rows = []
# for i in range(n_outputs):
# xs = [Value(p) for p in point]  # fresh leaves: each pass starts from zero grads
# with: rows = []
# xs = [Value(p) for p in point]
# for i in range(n_outputs):

# ---- mistake: J times v ----
# message: that is J·v
# replace: return [sum(v[i] * J[i][j] for i in range(len(J))) for j in range(len(J[0]))]
# with: return [sum(J[i][j] * v[j] for j in range(len(J[0]))) for i in range(len(J))]

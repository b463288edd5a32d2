"""Debug: a layer's backward pass that multiplies by the wrong matrix

`linear(W, x)` computes $y = Wx$ for a matrix `W` of $k$ rows and $m$
columns and a vector `x` of $m$ numbers, on plain lists, in the shape of
chapter 11's `matmul`: it returns `y` and a `backward` function. Given
`g`, the upstream gradient at `y` ($k$ numbers), `backward(g)` must return
the vector-Jacobian products for `W` and for `x`.

One line is wrong. With a square `W` it runs and returns wrong numbers;
with a wide one it stops with an error. The tests compare every gradient
with micrograd's backward pass through the same layer built from Values.
Read their numbers, find the line, fix it, and change nothing else.
"""

# ---- kind: debug ----

# ---- starter ----
def linear(W, x):
    """y = W·x for W (k rows of m floats) and x (m floats); returns (y, backward).

    backward(g) takes g = dL/dy (k floats) and returns (dW, dx): dW is k rows of
    m floats, dx is m floats."""
    y = [sum(W[i][j] * x[j] for j in range(len(x))) for i in range(len(W))]

    def backward(g):
        dW = [[g[i] * x[j] for j in range(len(x))] for i in range(len(W))]
        dx = [sum(W[j][i] * g[i] for i in range(len(g))) for j in range(len(x))]
        return dW, dx

    return y, backward

# ---- solution ----
def linear(W, x):
    """y = W·x for W (k rows of m floats) and x (m floats); returns (y, backward).

    backward(g) takes g = dL/dy (k floats) and returns (dW, dx): dW is k rows of
    m floats, dx is m floats."""
    y = [sum(W[i][j] * x[j] for j in range(len(x))) for i in range(len(W))]

    def backward(g):
        dW = [[g[i] * x[j] for j in range(len(x))] for i in range(len(W))]
        # dx = Wᵀg: entry j sums down column j of W, the Jacobian of y with respect to x
        dx = [sum(W[i][j] * g[i] for i in range(len(g))) for j in range(len(x))]
        return dW, dx

    return y, backward

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, fmt

SQUARE = ([[2.0, -1.0], [0.5, 3.0]], [1.0, -2.0], [1.0, 0.5])
WIDE = ([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0]], [2.0, -1.0, 0.5], [1.0, -2.0])
NOT_TRANSPOSED = ("that is W·g, the Jacobian times g; a backward pass computes gᵀW, which is Wᵀg: "
                  "entry j sums down column j of W")
DW_TRANSPOSED = "that is dW transposed: dW[i][j] pairs g[i], row i's upstream gradient, with x[j]"


def by_micrograd(W, x, g):
    """dL/dW and dL/dx for L = Σ g_i y_i, y = W·x built from Values: one backward pass."""
    Wv = [[Value(w) for w in row] for row in W]
    xv = [Value(v) for v in x]
    y = [sum((row[j] * xv[j] for j in range(len(x))), Value(0.0)) for row in Wv]
    sum((yi * gi for yi, gi in zip(y, g)), Value(0.0)).backward()
    return [[w.grad for w in row] for row in Wv], [v.grad for v in xv], [yi.data for yi in y]


def backward_of(user, W, x, g, want, what, call):
    """The reader's backward(g) for linear(W, x); an index past the end fails with the numbers expected."""
    result = user.linear(W, x)
    if not isinstance(result, tuple) or len(result) != 2:
        raise Fail(f"linear(W, x) returned {fmt(result)}, expected a pair (y, backward): keep the last line")
    try:
        return result[1](g)
    except IndexError as error:
        raise Fail(f"{call} raised IndexError ({error}), expected {what} = {fmt(want)}: W has {len(W)} rows of "
                   f"{len(W[0])}, g has {len(g)} numbers and x has {len(x)}: which index runs over which?") from None


def check_dx(user, case, name):
    W, x, g = case
    _, dx, _ = by_micrograd(W, x, g)
    what = f"dx for the {name} W = {W}, g = {g}"
    _, got = backward_of(user, W, x, g, dx, "dx", f"backward(g) for the {name} W = {W}, g = {g}")
    w_times_g = [sum(W[i][j] * g[j] for j in range(len(g))) for i in range(len(W))] if len(W) == len(x) else None
    expect(what, list(got), dx, likely=[(w_times_g, NOT_TRANSPOSED)] if w_times_g else (),
           check="dx[j] is the sum over rows i of W[i][j] * g[i]")


def check_dW(user, case, name):
    W, x, g = case
    dW, _, _ = by_micrograd(W, x, g)
    what = f"dW for the {name} W = {W}, x = {x}, g = {g}"
    got, _ = backward_of(user, W, x, g, dW, "dW", f"backward(g) for the {name} W = {W}, g = {g}")
    transposed = [[g[j] * x[i] for j in range(len(g))] for i in range(len(x))]
    expect(what, [list(row) for row in got], dW, likely=[(transposed, DW_TRANSPOSED)],
           check="dW[i][j] is g[i] * x[j]: y[i] = Σ_j W[i][j] x[j]")


def test_forward(user):
    """y = W·x for the wide W: one number per row of W"""
    W, x, g = WIDE
    result = user.linear(W, x)
    if not isinstance(result, tuple) or len(result) != 2:
        raise Fail(f"linear(W, x) returned {fmt(result)}, expected a pair (y, backward): keep the last line")
    expect(f"y for W = {W}, x = {x}", list(result[0]), by_micrograd(W, x, g)[2])


def test_dx_square(user):
    """dx for a 2×2 W that is not symmetric"""
    check_dx(user, SQUARE, "square")


def test_dx_wide(user):
    """dx for a 2×3 W: three numbers, one per entry of x"""
    check_dx(user, WIDE, "wide")


def test_dW(user):
    """dW for the square and the wide W: one number per weight"""
    check_dW(user, SQUARE, "square")
    check_dW(user, WIDE, "wide")


def test_two_layers(user):
    """h = W1·x, y = W2·h: the backward of y hands dh to the backward of h, which gives dx"""
    W1, x, _ = WIDE
    W2, _, g = SQUARE
    x_v = [Value(v) for v in x]
    h_v = [sum((Value(W1[i][j]) * x_v[j] for j in range(3)), Value(0.0)) for i in range(2)]
    y_v = [sum((Value(W2[i][j]) * h_v[j] for j in range(2)), Value(0.0)) for i in range(2)]
    sum((yi * gi for yi, gi in zip(y_v, g)), Value(0.0)).backward()
    want = [v.grad for v in x_v]
    h, back_h = user.linear(W1, x)
    _, back_y = user.linear(W2, list(h))
    try:
        _, dh = back_y(g)
        _, dx = back_h(list(dh))
    except IndexError as error:
        raise Fail(f"dx through two layers raised IndexError ({error}), expected {fmt(want)}") from None
    expect(f"dx through y = W2·(W1·x) with W1 = {W1}, W2 = {W2}, g = {g}", list(dx), want,
           check="each backward is a vector-Jacobian product: Wᵀ times what arrives")

# ---- hints ----
# - The Jacobian of $y = Wx$ with respect to $x$ is $W$ itself. A backward pass multiplies the
#   upstream gradient by a Jacobian: from which side, and what does that do to the rows and
#   columns of $W$?
# - A backward pass computes $g^\top J$, a row vector times the Jacobian. With $J = W$ that is
#   $g^\top W$, the same numbers as $W^\top g$: entry $j$ of the gradient of $x$ sums down
#   column $j$ of $W$, weighting row $i$ by $g_i$. The weights' gradient pairs $g_i$ with
#   $x_j$, as it should; only one of the two lines gets the sides wrong.
# - The line for `dx` indexes `W[j][i]` where the VJP needs `W[i][j]`:
#   `dx = [sum(W[i][j] * g[i] for i in range(len(g))) for j in range(len(x))]`.

# ---- mistake: J instead of its transpose ----
# message: that is W·g, the Jacobian times g
# replace: dx = [sum(W[i][j] * g[i] for i in range(len(g))) for j in range(len(x))]
# with: dx = [sum(W[j][i] * g[i] for i in range(len(g))) for j in range(len(x))]

# ---- mistake: dW transposed ----
# message: that is dW transposed
# replace: dW = [[g[i] * x[j] for j in range(len(x))] for i in range(len(W))]
# with: dW = [[g[j] * x[i] for j in range(len(W))] for i in range(len(x))]

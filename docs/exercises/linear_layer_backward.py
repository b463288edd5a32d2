"""A linear layer's backward pass, on nested lists

Write this chapter's `linear_backward` without NumPy (the Python in your
browser has none): matrices are lists of rows, each row a list of floats.
Given the layer's input `X` (n rows of m), its weights `W` (m rows of k)
and the upstream gradient `G = dL/dY` (n rows of k), return the gradients
of the loss with respect to `X`, `W` and the bias `b`: `dX` (n rows of m),
`dW` (m rows of k) and `db` (a list of k).

The tests build the same layer from micrograd scalars, one `Value` per
entry, run `backward()` from a loss whose upstream gradient is `G`, and
compare every entry.
"""

# ---- kind: build ----

# ---- starter ----
def linear_backward(X, W, G):
    """dX, dW, db of Y = X W + b from G = dL/dY; lists of rows."""
    n, m, k = len(X), len(W), len(W[0])
    dX = ...
    dW = ...
    db = ...
    return dX, dW, db

# ---- solution ----
def linear_backward(X, W, G):
    """dX, dW, db of Y = X W + b from G = dL/dY; lists of rows."""
    n, m, k = len(X), len(W), len(W[0])
    # G Wᵀ: n rows of m
    dX = [[sum(G[i][j] * W[a][j] for j in range(k)) for a in range(m)]
          for i in range(n)]
    # Xᵀ G: m rows of k, summed over the batch
    dW = [[sum(X[i][a] * G[i][j] for i in range(n)) for j in range(k)]
          for a in range(m)]
    # b was broadcast to every row: sum over the batch
    db = [sum(G[i][j] for i in range(n)) for j in range(k)]
    return dX, dW, db

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, fmt

X = [[1.0, 2.0], [0.5, -1.0], [-2.0, 0.5]]               # the chapter's batch: 3 inputs, 2 features
W = [[0.5, -1.0, 0.25, 2.0], [1.5, 0.5, -0.5, 0.0]]      # 2 features in, 4 outputs
B = [0.5, 0.0, -1.0, 0.25]
G = [[1.0, -0.5, 2.0, 0.25], [0.0, 1.5, -1.0, 0.5], [-2.0, 0.75, 0.5, 1.0]]  # an upstream gradient
BATCH = "every row of the batch used the same {}: its gradient sums the rows' contributions, over i"


def scalar_layer(X, W, b, G):
    """The layer built from micrograd Values; backward() from L = Σ G[i][j]·Y[i][j], whose
    upstream gradient at Y is G. Returns the grads of X, W and b as nested lists of floats."""
    Xv = [[Value(v) for v in row] for row in X]
    Wv = [[Value(v) for v in row] for row in W]
    bv = [Value(v) for v in b]
    L = Value(0.0)
    for i, row in enumerate(Xv):
        for j in range(len(bv)):
            y = sum((row[a] * Wv[a][j] for a in range(len(row))), bv[j])
            L = L + G[i][j] * y
    L.backward()
    return ([[v.grad for v in row] for row in Xv], [[v.grad for v in row] for row in Wv], [v.grad for v in bv])


def shaped(what, value, rows, cols=None):
    """Fail unless value is a list of `rows` (lists of `cols`) numbers."""
    size = f"a list of {rows} rows of {cols} numbers" if cols else f"a list of {rows} numbers"
    ok = isinstance(value, list) and len(value) == rows and (
        all(isinstance(r, list) and len(r) == cols for r in value) if cols else
        all(isinstance(v, (int, float)) for v in value))
    if not ok:
        got = f"a list of {len(value)}" if isinstance(value, list) else fmt(value)
        raise Fail(f"{what} is {got}, expected {size}")


def grads(user, X, W, G):
    result = user.linear_backward(X, W, G)
    if not (isinstance(result, tuple) and len(result) == 3):
        raise Fail(f"linear_backward returned {result!r}, expected three things: dX, dW, db")
    return result


def test_shapes(user):
    """each gradient has the shape of what it differentiates"""
    dX, dW, db = grads(user, X, W, G)
    shaped("dX", dX, 3, 2)
    shaped("dW", dW, 2, 4)
    shaped("db", db, 4)


def test_db(user):
    """db: the bias was broadcast over the batch"""
    dX, dW, db = grads(user, X, W, G)
    right = scalar_layer(X, W, B, G)[2]
    expect("db", db, right, likely=[(G[0], BATCH.format("b") + ": G[0] is the first row's share only"),
                                    ([v / len(G) for v in right], "that is the mean over the batch; the bias "
                                     "gets the sum, one share per row")],
           check="db[j] is the sum over i of G[i][j]")


def test_dW(user):
    """dW: the weights, shared by every row"""
    dX, dW, db = grads(user, X, W, G)
    right = scalar_layer(X, W, B, G)[1]
    first_row = [[X[0][a] * G[0][j] for j in range(4)] for a in range(2)]
    expect("dW", dW, right, likely=[(first_row, BATCH.format("W") + " (Xᵀ G)")],
           check="dW[a][j] is the sum over i of X[i][a] * G[i][j], which is Xᵀ G")


def test_dX(user):
    """dX: each input row's gradient"""
    dX, dW, db = grads(user, X, W, G)
    right = scalar_layer(X, W, B, G)[0]
    expect("dX", dX, right, check="dX[i][a] is the sum over j of G[i][j] * W[a][j], which is G Wᵀ")


def test_a_square_batch(user):
    """a batch of 2 inputs with 2 features, where the shapes alone cannot tell Xᵀ G from X G"""
    X2 = [[1.5, -0.5], [2.0, 1.0]]
    W2 = [[1.0, -2.0, 0.5], [0.25, 1.0, -1.0]]
    G2 = [[0.5, 1.0, -1.5], [2.0, -0.25, 1.0]]
    dX, dW, db = grads(user, X2, W2, G2)
    rX, rW, rb = scalar_layer(X2, W2, [0.0, 0.0, 0.0], G2)
    untransposed = [[sum(X2[a][i] * G2[i][j] for i in range(2)) for j in range(3)] for a in range(2)]
    expect("dW for the 2 × 2 batch", dW, rW,
           likely=[(untransposed, "that is X G, which has W's shape here only by chance: the weight gradient is "
                                  "Xᵀ G, summing X[i][a] * G[i][j] over the batch index i")],
           check="dW[a][j] is the sum over i of X[i][a] * G[i][j]")
    expect("dX for the 2 × 2 batch", dX, rX, check="dX[i][a] is the sum over j of G[i][j] * W[a][j]")
    expect("db for the 2 × 2 batch", db, rb, likely=[(G2[0], BATCH.format("b") + ": G[0] is the first row's share only")],
           check="db[j] is the sum over i of G[i][j]")

# ---- hints ----
# - A gradient has the shape of what it differentiates. Which index does each entry of the weights
#   share with the input, which with the upstream gradient, and which index is summed away?
# - In index form, $\frac{\partial L}{\partial W_{aj}} = \sum_i X_{ia} G_{ij}$, which is
#   $X^\top G$; $\frac{\partial L}{\partial X_{ia}} = \sum_j G_{ij} W_{aj}$, which is $G W^\top$;
#   and $\frac{\partial L}{\partial b_j} = \sum_i G_{ij}$, since the bias was added to every row.
# - One list comprehension each, for example
#   `dW = [[sum(X[i][a] * G[i][j] for i in range(n)) for j in range(k)] for a in range(m)]` and
#   `db = [sum(G[i][j] for i in range(n)) for j in range(k)]`; `dX` sums `G[i][j] * W[a][j]` over `j`.

# ---- mistake: db from the first row only ----
# message: G[0] is the first row's share only
# replace: db = [sum(G[i][j] for i in range(n)) for j in range(k)]
# with: db = G[0]

# ---- mistake: dW from the first row only ----
# message: every row of the batch used the same W
# replace:
#     dW = [[sum(X[i][a] * G[i][j] for i in range(n)) for j in range(k)]
#           for a in range(m)]
# with:
#     dW = [[X[0][a] * G[0][j] for j in range(k)] for a in range(m)]

# ---- mistake: db as a mean ----
# message: that is the mean over the batch
# replace: db = [sum(G[i][j] for i in range(n)) for j in range(k)]
# with: db = [sum(G[i][j] for i in range(n)) / n for j in range(k)]

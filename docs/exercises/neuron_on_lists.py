"""A neuron's forward and backward pass on plain lists

`Value` does the bookkeeping for you. Here you do it yourself, on plain
Python numbers, for one ReLU neuron: $\\text{out} = \\text{relu}(z)$ with
$z = w_1 x_1 + \\dots + w_n x_n + b$.

`neuron_forward(w, b, x)` returns the output, a float. `neuron_backward(w,
b, x, out_grad)` returns the gradients of the loss with respect to the
weights, the bias and the inputs, given `out_grad`, the gradient that
reached the neuron's output from above (the upstream gradient). Each list
of gradients has one number per weight or input, in their order.

The tests build the same neuron from micrograd's Values, run `backward()`
and compare.
"""

# ---- kind: build ----

# ---- starter ----
def neuron_forward(w, b, x):
    """relu(w . x + b), a float: w, x lists of floats, b a float."""
    z = b
    for wi, xi in zip(w, x):
        z += wi * xi
    return ...


def neuron_backward(w, b, x, out_grad):
    """(w_grads, b_grad, x_grads): two lists of floats and a float,
    the loss's gradients, given out_grad = d loss / d out."""
    z = b + sum(wi * xi for wi, xi in zip(w, x))
    z_grad = ...   # through the ReLU
    w_grads = ...  # one per weight
    b_grad = ...
    x_grads = ...  # one per input
    return w_grads, b_grad, x_grads

# ---- solution ----
def neuron_forward(w, b, x):
    """relu(w . x + b), a float: w, x lists of floats, b a float."""
    z = b
    for wi, xi in zip(w, x):
        z += wi * xi
    return z if z > 0 else 0.0


def neuron_backward(w, b, x, out_grad):
    """(w_grads, b_grad, x_grads): two lists of floats and a float,
    the loss's gradients, given out_grad = d loss / d out."""
    z = b + sum(wi * xi for wi, xi in zip(w, x))
    # ReLU: passes the gradient where z > 0, blocks it elsewhere
    z_grad = out_grad if z > 0 else 0.0
    w_grads = [xi * z_grad for xi in x]  # w_i * x_i: w_i gets x_i...
    b_grad = z_grad                      # the sums copy z_grad
    x_grads = [wi * z_grad for wi in w]  # ...and x_i gets w_i
    return w_grads, b_grad, x_grads

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect

SWAP = "each weight's gradient is its input times the gradient at z, and each input's is its weight"
BLOCK = ("the sum z is not positive, so the ReLU outputs the constant 0 and passes no gradient: "
         "every gradient is 0")
UPSTREAM = "the gradients were not multiplied by out_grad, the upstream gradient"
RULE = "z_grad = out_grad where z > 0, else 0; then w_i gets x_i * z_grad, b gets z_grad, x_i gets w_i * z_grad"
W, B, X = [0.5, -1.5, 2.0], 0.25, [1.0, 0.5, 0.75]  # z = 1.5: the ReLU is open


def reference(w, b, x, out_grad):
    """The same neuron made of micrograd Values: (out, w_grads, b_grad, x_grads)."""
    wv, xv, bv = [Value(v) for v in w], [Value(v) for v in x], Value(b)
    z = bv
    for wi, xi in zip(wv, xv):
        z = z + wi * xi
    out = z.relu()
    (out * out_grad).backward()
    return out.data, [v.grad for v in wv], bv.grad, [v.grad for v in xv]


def grads(user, w, b, x, out_grad):
    result = user.neuron_backward(w, b, x, out_grad)
    if not (isinstance(result, tuple) and len(result) == 3):
        raise Fail(f"neuron_backward returned {result!r}, expected a tuple of three: (w_grads, b_grad, x_grads)")
    return result


def check(user, w, b, x, out_grad, where):
    _, w_ref, b_ref, x_ref = reference(w, b, x, out_grad)
    w_grads, b_grad, x_grads = grads(user, w, b, x, out_grad)
    open_relu = reference(w, b, x, 1.0)[0] > 0
    swapped = [(reference(x, b, w, out_grad)[1], SWAP)]
    unscaled = [(reference(w, b, x, 1.0)[1], UPSTREAM)] if out_grad != 1.0 else []
    gate = [([xi * out_grad for xi in x], BLOCK)] if not open_relu else []
    expect(f"w_grads {where}", w_grads, w_ref, likely=gate + swapped + unscaled, check=RULE)
    expect(f"b_grad {where}", b_grad, b_ref, likely=[(out_grad, BLOCK)] if not open_relu else [], check=RULE)
    expect(f"x_grads {where}", x_grads, x_ref, likely=[(reference(x, b, w, out_grad)[3], SWAP)], check=RULE)


def test_forward(user):
    """the output: the weighted sum where it is positive, 0 where it is not"""
    for w, b, x in [(W, B, X), (W, B, [-1.0, 0.5, 0.25])]:
        expect(f"neuron_forward with w = {w}, b = {b}, x = {x}", user.neuron_forward(w, b, x),
               reference(w, b, x, 1.0)[0], check="relu(z) is z for z > 0, else 0.0")


def test_backward_from_the_output(user):
    """out_grad = 1: the gradients of the output itself"""
    check(user, W, B, X, 1.0, "with out_grad = 1")


def test_an_upstream_gradient(user):
    """out_grad = -0.4: every gradient is scaled by it"""
    check(user, W, B, X, -0.4, "with out_grad = -0.4")


def test_a_closed_relu(user):
    """a negative sum: the ReLU blocks the gradient"""
    check(user, W, B, [-1.0, 0.5, 0.25], 1.0, "with x = [-1.0, 0.5, 0.25], where z < 0")


def test_two_inputs(user):
    """the chapter's neuron shape, two inputs, out_grad = 2"""
    check(user, [0.6888, 0.5159], 0.0, [2.0, -1.0], 2.0, "for two inputs with out_grad = 2")

# ---- hints ----
# - Which way does each kind of node send a gradient back: the ReLU, the sums, the products?
#   What does the ReLU send back when its input is negative?
# - First the gradient at z: the upstream gradient where z is positive, zero otherwise. The
#   sums copy it to the bias and to every product. Each product swaps and scales: a weight
#   gets its input times the gradient at z, and an input gets its weight times it.
# - `z_grad = out_grad if z > 0 else 0.0`, `w_grads = [xi * z_grad for xi in x]`,
#   `b_grad = z_grad`, `x_grads = [wi * z_grad for wi in w]`; the forward pass returns
#   `z if z > 0 else 0.0`.

# ---- mistake: weights and inputs swapped ----
# message: each weight's gradient is its input
# replace: w_grads = [xi * z_grad for xi in x]  # w_i * x_i: w_i gets x_i...
# with: w_grads = [wi * z_grad for wi in w]

# ---- mistake: the ReLU does not block ----
# message: passes no gradient
# replace: z_grad = out_grad if z > 0 else 0.0
# with: z_grad = out_grad

# ---- mistake: the upstream gradient forgotten ----
# message: not multiplied by out_grad
# replace: z_grad = out_grad if z > 0 else 0.0
# with: z_grad = 1.0 if z > 0 else 0.0

"""A gradient check of your own: centered differences and relative error

Build the two halves of `micrograd.gradcheck` yourself.

`relative_error(a, b)` compares two numbers on their own scale: the
absolute difference divided by the larger of the two sizes, and 0.0 when
both are 0.

`numerical_grad(f, inputs, h)` estimates the gradient of `f()` with respect
to each `Value` in `inputs` by centered differences. `f` takes no arguments:
it rebuilds the graph from the inputs' current `.data` and returns a `Value`.
Nudge one input at a time, and leave every input's `.data` as you found it.

The tests compare your numbers with micrograd's on the chapter's neuron, and
then use your check on a gradient that `backward()` computed.
"""

# ---- kind: build ----

# ---- starter ----
def relative_error(a, b):
    """|a - b| / max(|a|, |b|) for two floats; 0.0 when both are 0."""
    ...


def numerical_grad(f, inputs, h=1e-6):
    """d f() / d x by centered differences, for each x in inputs."""
    estimates = []
    for x in inputs:
        original = x.data
        ...
    return estimates

# ---- solution ----
def relative_error(a, b):
    """|a - b| / max(|a|, |b|) for two floats; 0.0 when both are 0."""
    scale = max(abs(a), abs(b))
    if scale == 0:
        return 0.0
    return abs(a - b) / scale


def numerical_grad(f, inputs, h=1e-6):
    """d f() / d x by centered differences, for each x in inputs."""
    estimates = []
    for x in inputs:
        original = x.data
        x.data = original + h
        up = f().data
        x.data = original - h
        down = f().data
        # as found, before the next input is nudged
        x.data = original
        estimates.append((up - down) / (2 * h))
    return estimates

# ---- tests ----
from micrograd import Value, numerical_grad as reference_grad, relative_error as reference_error

from scripts.reader.exercise_checks import Fail, expect, fmt

NAMES = ["x1", "w1", "x2", "w2", "b"]
NEURON = [2.0, -3.0, 0.0, 1.0, 6.8813735870195432]
CENTERED = "the centered difference is (f(x + h) - f(x - h)) / (2 * h)"
FORWARD = ("that is a forward difference, (f(x + h) - f(x)) / h, whose error is of order h: "
           "evaluate f at x + h and at x - h")
HALF = "the two points x + h and x - h are 2h apart: divide by 2 * h, not by h"
RESTORE = ("an input kept its nudge: put x.data back to its original value before the next input "
           "is nudged, or every later estimate is taken at a shifted point")
SCALE = "divide |a - b| by the larger size, max(|a|, |b|)"


def neuron():
    leaves = [Value(v) for v in NEURON]
    x1, w1, x2, w2, b = leaves
    return leaves, lambda: (x1 * w1 + x2 * w2 + b).tanh()


def by_rule(f, inputs, h, centered=True, half=False, restore=True):
    """What a numerical_grad with one thing changed returns, on the same graph: a forward
    difference, a divisor of h instead of 2h, or inputs left where they were nudged."""
    originals = [x.data for x in inputs]
    estimates = []
    for x in inputs:
        original = x.data
        x.data = original + h
        up = f().data
        x.data = original - h if centered else original
        down = f().data
        if restore:
            x.data = original
        estimates.append((up - down) / (h if half or not centered else 2 * h))
    for x, v in zip(inputs, originals):
        x.data = v
    return estimates


def checked(user, f, inputs, h=None):
    estimates = user.numerical_grad(f, inputs) if h is None else user.numerical_grad(f, inputs, h)
    if not isinstance(estimates, list) or len(estimates) != len(inputs):
        raise Fail(f"numerical_grad returned {estimates!r}, expected a list of {len(inputs)} floats, one per input")
    return estimates


def test_relative_error(user):
    """relative_error: differences on their own scale"""
    for a, b in [(2e-9, 1e-9), (-0.0003, 0.0003), (12.000001, 12.0), (0.0, 0.0)]:
        smaller = min(abs(a), abs(b))
        wrong = [(abs(a - b), f"that is the absolute difference; {SCALE}")]
        if smaller:
            wrong.append((abs(a - b) / smaller, f"that divides by the smaller size; {SCALE}"))
        expect(f"relative_error({a}, {b})", user.relative_error(a, b), reference_error(a, b), likely=wrong,
               check=f"{SCALE}, and return 0.0 when both are 0")


def test_a_cube(user):
    """the slope of x * x * x at x = 2"""
    x = Value(2.0)
    f = lambda: x * x * x  # noqa: E731
    h = 1e-3  # large enough that a forward difference shows its error
    right = reference_grad(f, [x], h)
    expect("numerical_grad for x * x * x at x = 2, h = 0.001", checked(user, f, [x], h), right,
           likely=[(by_rule(f, [x], h, centered=False), FORWARD), (by_rule(f, [x], h, half=True), HALF)],
           check=CENTERED)


def test_inputs_are_left_as_found(user):
    """every input's .data is the same after the check"""
    leaves, f = neuron()
    checked(user, f, leaves)
    for name, leaf, original in zip(NAMES, leaves, NEURON):
        expect(f"{name}.data after numerical_grad", leaf.data, original,
               likely=[(original - 1e-6, RESTORE), (original + 1e-6, RESTORE)],
               check="set x.data back to its original value after the two evaluations")


def test_the_neuron(user):
    """the neuron's five estimates agree with micrograd's"""
    leaves, f = neuron()
    right = reference_grad(f, leaves)
    wrong = [(by_rule(f, leaves, 1e-6, restore=False), RESTORE), (by_rule(f, leaves, 1e-6, half=True), HALF),
             (by_rule(f, leaves, 1e-6, centered=False), FORWARD)]
    estimates = checked(user, f, leaves)
    for name, leaf, original in zip(NAMES, leaves, NEURON):
        leaf.data = original  # whatever the reader's code left, for the comparison below
    expect("numerical_grad on the neuron, h = 1e-6", estimates, right, likely=wrong, check=CENTERED)


def test_your_check_passes_a_correct_gradient(user):
    """backward() on the neuron passes your check: relative errors below 1e-6"""
    leaves, f = neuron()
    f().backward()
    right = max(reference_error(leaf.grad, estimate) for leaf, estimate in zip(leaves, reference_grad(f, leaves)))
    estimates = checked(user, f, leaves)
    worst = max(user.relative_error(leaf.grad, estimate) for leaf, estimate in zip(leaves, estimates))
    if not (isinstance(worst, float) and worst < 1e-6):
        raise Fail(f"the worst relative error of backward() against your estimates is {fmt(worst)}, expected "
                   f"below 1e-6 (micrograd's own check gives {fmt(right)}). To check: {CENTERED}; {SCALE}")

# ---- hints ----
# - Nudging an input up by $h$ and down by $h$ gives two values of the function: how far apart
#   are the two points, and what must the input hold before you nudge the next one?
# - The estimate is $\frac{f(x+h) - f(x-h)}{2h}$: set the input to its original value plus $h$,
#   evaluate, set it to the original minus $h$, evaluate, then put the original back. The relative
#   error is $\frac{|a-b|}{\max(|a|, |b|)}$, and 0 when both are 0.
# - In the loop: `x.data = original + h`, `up = f().data`, `x.data = original - h`,
#   `down = f().data`, `x.data = original`, then `estimates.append((up - down) / (2 * h))`.
#   In `relative_error`: `scale = max(abs(a), abs(b))`, and `abs(a - b) / scale` unless `scale == 0`.

# ---- mistake: a forward difference ----
# message: forward difference
# replace:
#     x.data = original - h
#     down = f().data
#     # as found, before the next input is nudged
#     x.data = original
#     estimates.append((up - down) / (2 * h))
# with:
#     x.data = original
#     down = f().data
#     estimates.append((up - down) / h)

# ---- mistake: divided by h ----
# message: 2h apart
# replace: estimates.append((up - down) / (2 * h))
# with: estimates.append((up - down) / h)

# ---- mistake: the input left nudged ----
# message: put x.data back
# replace:
#     # as found, before the next input is nudged
#     x.data = original
# with:

# ---- mistake: divided by the smaller size ----
# message: divides by the smaller size
# replace: scale = max(abs(a), abs(b))
# with: scale = min(abs(a), abs(b))

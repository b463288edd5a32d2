"""Debug: a step that should lower L

`descend` takes one step of **gradient descent**: it runs a forward and a
backward pass, moves every leaf a little against its gradient, and returns
the output after the step. Called again and again, it should drive the
output down. One line is wrong. Run the tests, read what they report, and fix
that line; change nothing else.

`rebuild()` is a fresh forward pass from the leaves' current `.data`, as in
the chapter's finite-difference checks. The leaves are the same Values in
every step, and `backward()` adds into `.grad`, so each step starts by
setting their grads to 0.
"""

# ---- kind: debug ----

# ---- starter ----
def descend(leaves, rebuild, rate=0.01):
    """One step of gradient descent on rebuild()'s output.

    Returns the output after the step, a float."""
    for v in leaves:
        v.grad = 0.0                # this step's gradient only
    out = rebuild()                 # forward pass
    out.backward()                  # backward pass
    for v in leaves:
        v.data += rate * v.grad     # a small step
    return rebuild().data

# ---- solution ----
def descend(leaves, rebuild, rate=0.01):
    """One step of gradient descent on rebuild()'s output.

    Returns the output after the step, a float."""
    for v in leaves:
        v.grad = 0.0                # this step's gradient only
    out = rebuild()                 # forward pass
    out.backward()                  # backward pass
    for v in leaves:
        v.data -= rate * v.grad     # against the gradient: downhill
    return rebuild().data

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import expect

RATE = 0.01
UPHILL = ("the output went up: the gradient points uphill, so a step that lowers the output moves "
          "each leaf against it, by minus rate times its grad")
KEPT = ("the grads of the last step were still there (backward() adds into .grad): set every "
        "leaf's grad to 0 at the start of each step")
RULE = "zero the grads, forward, backward, then move each leaf by minus rate times its grad"


def chapter_graph():
    """The chapter's leaves a = 2, b = -3, c = 10, f = -2, and a rebuild of L = (a * b + c) * f."""
    a, b, c, f = Value(2.0), Value(-3.0), Value(10.0), Value(-2.0)
    return [a, b, c, f], lambda: (a * b + c) * f


def reference(steps, sign=-1, zero=True):
    """The chapter's graph after `steps` right steps (sign=+1: uphill; zero=False: grads kept):
    the outputs returned, and the leaves' data."""
    leaves, rebuild = chapter_graph()
    outputs = []
    for _ in range(steps):
        if zero:
            for v in leaves:
                v.grad = 0.0
        rebuild().backward()
        for v in leaves:
            v.data += sign * RATE * v.grad
        outputs.append(rebuild().data)
    return outputs, [v.data for v in leaves]


def test_one_step(user):
    """one step lowers L = (a * b + c) * f from -8"""
    leaves, rebuild = chapter_graph()
    got = user.descend(leaves, rebuild, RATE)
    expect("L after one step", got, reference(1)[0][0], likely=[(reference(1, sign=1)[0][0], UPHILL)],
           check=RULE)


def test_the_leaves_move_against_their_grads(user):
    """after one step, each leaf has moved by -0.01 times its gradient"""
    leaves, rebuild = chapter_graph()
    user.descend(leaves, rebuild, RATE)
    expect("[a, b, c, f] after one step", [v.data for v in leaves], reference(1)[1],
           likely=[(reference(1, sign=1)[1], UPHILL)], check=RULE)


def test_three_steps(user):
    """three steps in a row: L goes down at every step"""
    leaves, rebuild = chapter_graph()
    got = [user.descend(leaves, rebuild, RATE) for _ in range(3)]
    expect("L after each of three steps", got, reference(3)[0],
           likely=[(reference(3, sign=1)[0], UPHILL), (reference(3, zero=False)[0], KEPT)], check=RULE)


def test_a_square(user):
    """(x - 3)**2 from x = 0 with rate 0.1: x moves towards 3"""
    x = Value(0.0)
    got = user.descend([x], lambda: (x - 3) ** 2, 0.1)
    y = Value(0.0)
    ((y - 3) ** 2).backward()
    expect("x after one step on (x - 3)**2 from x = 0", x.data, 0.0 - 0.1 * y.grad,
           likely=[(0.0 + 0.1 * y.grad, UPHILL)], check=RULE)
    expect("the output returned after that step", got, (x.data - 3) ** 2, check="return rebuild().data")

# ---- hints ----
# - The gradient points in the direction in which the output grows. Which way must each leaf
#   move for the output to shrink?
# - Move each leaf by a small multiple of its gradient, with a minus sign: a step against the
#   gradient. The chapter stepped with a plus sign on purpose, to show that L goes up.
# - `v.data -= rate * v.grad`.

# ---- mistake: uphill ----
# message: the output went up
# replace: v.data -= rate * v.grad     # against the gradient: downhill
# with: v.data += rate * v.grad

# ---- mistake: grads kept from the last step ----
# message: the grads of the last step were still there
# replace:
#     for v in leaves:
#         v.grad = 0.0                # this step's gradient only
# with:

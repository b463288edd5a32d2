"""Find the bug: a training loop whose memory grows with every step

`train` runs gradient descent on a micrograd model and returns the mean of
its losses, a float. Its numbers are right: the losses, the parameters, the
mean. Its memory is not. A graph should live for one step, until the next
step's graph replaces it, and reference counting frees it. Here every
step's graph stays alive until `train` returns, so a long run holds all of
them at once.

One line keeps them alive. Find it and fix it, so that the loop keeps one
graph at a time and returns the same float. The tests count the `Value`s
alive at the start of each step.
"""

# ---- kind: debug ----

# ---- starter ----
def train(model, data, steps, lr=0.05):
    """Gradient descent on the mean squared error over data, a
    list of (x, y) pairs; returns the mean of the steps' losses."""
    total = 0.0
    for _ in range(steps):
        errors = [(model(x) - y) ** 2 for x, y in data]
        loss = sum(errors) / len(data)  # forward pass
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        total = total + loss       # the running total of the losses
    return total.data / steps

# ---- solution ----
def train(model, data, steps, lr=0.05):
    """Gradient descent on the mean squared error over data, a
    list of (x, y) pairs; returns the mean of the steps' losses."""
    total = 0.0
    for _ in range(steps):
        errors = [(model(x) - y) ** 2 for x, y in data]
        loss = sum(errors) / len(data)  # forward pass
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        total = total + loss.data     # a float: the graph is not kept
    return total / steps

# ---- tests ----
import contextlib
import gc
import random

from micrograd import Value
from micrograd.nn import Neuron

from scripts.reader.exercise_checks import Fail, expect

DATA = [([2.0, -1.0], 1.0), ([0.5, 1.5], -0.5), ([-1.0, -2.0], 2.0), ([1.0, 0.0], 0.5)]
RATE = 0.05
KEPT = "every step's graph is still alive: something that outlives the step still refers to that step's loss"
STEP = "each step: the forward pass, zero_grad(), backward(), then p.data -= lr * p.grad"


class Watched:
    """A linear Neuron that counts the Values alive when each step's forward pass begins."""

    def __init__(self):
        random.seed(5)  # the same starting weights every time
        self.model = Neuron(2, nonlin=False)
        self.calls, self.alive = 0, []

    def __call__(self, x):
        if self.calls % len(DATA) == 0:  # the first point of a step
            # collect first: a closure engine's graphs are cycles that only the collector frees,
            # so without it the count depends on when the collector last ran
            gc.collect()
            self.alive.append(sum(1 for o in gc.get_objects() if type(o) is Value))
        self.calls += 1
        return self.model(x)

    def parameters(self):
        return self.model.parameters()

    def zero_grad(self):
        self.model.zero_grad()


@contextlib.contextmanager
def own_objects():
    """Set aside every object alive before the run (gc.freeze) until it ends (gc.unfreeze), so
    that each step's collection and count look at the run's own objects only: they cost as
    little in a test process holding millions of objects as in the browser. The tests compare
    counts between steps of one run, which objects older than the run cannot change."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def reference(steps, keep=False, zero=True):
    """(the mean loss, the parameters, the Values alive at each step's start) of micrograd's own
    loop; keep=True adds each step's loss, a Value, to a running total, zero=False leaves zero_grad out."""
    with own_objects():
        model, kept, losses = Watched(), 0.0, []
        for _ in range(steps):
            loss = sum((model(x) - y) ** 2 for x, y in DATA) / len(DATA)
            if zero:
                model.zero_grad()
            loss.backward()
            for p in model.parameters():
                p.data -= RATE * p.grad
            losses.append(loss.data)
            if keep:
                kept = kept + loss
    return sum(losses) / steps, [p.data for p in model.parameters()], model.alive


def run(user, steps):
    with own_objects():
        model = Watched()
        mean = user.train(model, DATA, steps, RATE)
    return model, mean


def test_the_mean_loss(user):
    """the mean of 5 steps' losses, a float"""
    _, mean = run(user, 5)
    if not isinstance(mean, float):
        raise Fail(f"train returned {mean!r} ({type(mean).__name__}), expected a float, the mean loss: "
                   "return a number, not a Value")
    right, _, _ = reference(5)
    expect("the mean loss of 5 steps", mean, right, likely=[(reference(5, zero=False)[0],
           "the gradients of earlier steps piled up: zero_grad() must run in every step, before backward()")],
           check=STEP)


def test_the_parameters(user):
    """the parameters after 5 steps"""
    model, _ = run(user, 5)
    expect("w1, w2, b after 5 steps", [p.data for p in model.parameters()], reference(5)[1],
           likely=[(reference(5, zero=False)[1], "the gradients of earlier steps piled up: zero_grad() must run "
                                                 "in every step, before backward()")], check=STEP)


def test_one_graph_at_a_time(user):
    """the Values alive when each step begins stay the same from step 2 on"""
    model, _ = run(user, 8)
    _, _, alive = reference(8)
    _, _, kept = reference(8, keep=True)
    growth = model.alive[-1] - model.alive[1]
    expect("how many more Values are alive when step 8 begins than when step 2 begins", growth,
           alive[-1] - alive[1], likely=[(kept[-1] - kept[1], KEPT)],
           check="nothing that outlives a step may hold on to its graph: keep numbers, not Values")


def test_a_longer_run(user):
    """20 steps: the loss falls"""
    model, mean = run(user, 20)
    right, _, _ = reference(20)
    expect("the mean loss of 20 steps", mean, right, check=STEP)

# ---- hints ----
# - A graph is freed when nothing refers to it any more. After a step is over, which name in the
#   loop still refers to that step's loss, or to something built from it?
# - Adding a number to a Value builds a new node whose parents are both, so a running total that is
#   a Value holds every loss it was built from, and each loss holds its step's whole graph. Add the
#   loss's number instead: the total stays a plain float and holds nothing.
# - Change `total = total + loss` to `total = total + loss.data`, and return `total / steps`.

# ---- mistake: the planted leak ----
# message: every step's graph is still alive
# replace:
#     total = total + loss.data     # a float: the graph is not kept
# with:
#     total = total + loss
# replace: return total / steps
# with: return total.data / steps

# ---- mistake: zero_grad forgotten ----
# message: the gradients of earlier steps piled up
# replace: model.zero_grad()
# with:

# ---- mistake: a Value returned ----
# message: expected a float, the mean loss
# replace:
#     total = total + loss.data     # a float: the graph is not kept
# with:
#     total = total + loss

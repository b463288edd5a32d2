"""Find the bug: a training loop in PyTorch's shape that never learns

A PyTorch training step is three calls on an optimizer and a loss:
`optimizer.zero_grad()`, `loss.backward()`, `optimizer.step()`. Below,
`SGD` is a stand-in for `torch.optim.SGD` that works on micrograd's
parameters, and `train` is the loop as a PyTorch user writes it, on a
micrograd model: the mean squared error of a linear neuron over a few
points.

Run it: the losses it returns should fall step by step. They do not. One
line is in the wrong place. Find it and fix it; change nothing else.
"""

# ---- kind: debug ----

# ---- starter ----
class SGD:
    """torch.optim.SGD's zero_grad() and step(), on micrograd."""

    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        """Set every parameter's .grad to 0.0; returns None."""
        for p in self.params:
            p.grad = 0.0

    def step(self):
        """Move each parameter lr times its gradient downhill."""
        for p in self.params:
            p.data -= self.lr * p.grad


def train(model, xs, ys, steps, lr=0.05):
    """Gradient descent on the squared error: each step's loss."""
    optimizer = SGD(model.parameters(), lr)
    losses = []
    for _ in range(steps):
        errors = [(model(x) - y) ** 2 for x, y in zip(xs, ys)]
        loss = sum(errors) / len(xs)     # forward pass
        optimizer.zero_grad()
        optimizer.step()
        loss.backward()
        losses.append(loss.data)
    return losses

# ---- solution ----
class SGD:
    """torch.optim.SGD's zero_grad() and step(), on micrograd."""

    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        """Set every parameter's .grad to 0.0; returns None."""
        for p in self.params:
            p.grad = 0.0

    def step(self):
        """Move each parameter lr times its gradient downhill."""
        for p in self.params:
            p.data -= self.lr * p.grad


def train(model, xs, ys, steps, lr=0.05):
    """Gradient descent on the squared error: each step's loss."""
    optimizer = SGD(model.parameters(), lr)
    losses = []
    for _ in range(steps):
        errors = [(model(x) - y) ** 2 for x, y in zip(xs, ys)]
        loss = sum(errors) / len(xs)     # forward pass
        optimizer.zero_grad()
        loss.backward()                  # the gradients first,
        optimizer.step()                 # then the step
        losses.append(loss.data)
    return losses

# ---- tests ----
import random

from micrograd.nn import Neuron

from scripts.reader.exercise_checks import Fail, expect

XS = [[2.0, -1.0], [0.5, 1.5], [-1.0, -2.0], [1.0, 0.0]]
YS = [1.0, -0.5, 2.0, 0.5]
RATE = 0.05
NAMES = ["w1", "w2", "b"]
BEFORE = "the parameters never moved: every .grad was 0.0 whenever step() read it"
FORGOT = "the gradients of earlier steps piled up: zero_grad() must run in every step, before backward()"
UPHILL = "the parameters moved uphill, with the gradient: step() subtracts lr * p.grad"
ORDER = "each step: the forward pass, optimizer.zero_grad(), loss.backward(), optimizer.step()"


def model():
    random.seed(3)  # the same starting weights every time
    return Neuron(2, nonlin=False)


def reference(steps, order=("zero", "backward", "step"), sign=-1):
    """The losses and final parameters of the loop, run by the tests with the steps in `order`
    (a step left out is not done) and the update's sign: the right loop and its classic bugs."""
    m = model()
    losses = []
    for _ in range(steps):
        loss = sum((m(x) - y) ** 2 for x, y in zip(XS, YS)) / len(XS)
        for action in order:
            if action == "zero":
                m.zero_grad()
            elif action == "backward":
                loss.backward()
            else:
                for p in m.parameters():
                    p.data += sign * RATE * p.grad
        losses.append(loss.data)
    return losses, [p.data for p in m.parameters()]


def likely(index):
    """The classic bugs' numbers, each with its cause: index picks losses (0) or parameters (1)."""
    return [(reference(3, ("zero", "step", "backward"))[index], BEFORE),
            (reference(3, ("backward", "step"))[index], FORGOT),
            (reference(3, sign=1)[index], UPHILL)]


def losses_of(user, steps):
    m = model()
    losses = user.train(m, XS, YS, steps, RATE)
    if not isinstance(losses, list) or len(losses) != steps:
        raise Fail(f"train(..., steps={steps}) returned {losses!r}, expected a list of {steps} losses")
    return m, losses


def test_sgd_step(user):
    """SGD.step moves each parameter by lr times its gradient, downhill"""
    ps = model().parameters()
    for p, g in zip(ps, [0.5, -2.0, 1.0]):
        p.grad = g
    before = [p.data for p in ps]
    user.SGD(ps, 0.1).step()
    expect("the parameters after one step() with grads 0.5, -2, 1 and lr = 0.1", [p.data for p in ps],
           [d - 0.1 * g for d, g in zip(before, [0.5, -2.0, 1.0])],
           likely=[([d + 0.1 * g for d, g in zip(before, [0.5, -2.0, 1.0])], UPHILL)], check="p.data -= lr * p.grad")


def test_first_loss(user):
    """the first loss is the loss of the starting weights"""
    _, losses = losses_of(user, 1)
    expect("the first loss", losses[0], reference(1)[0][0], check="append loss.data, the loss of the forward pass")


def test_three_steps(user):
    """three steps: the losses"""
    _, losses = losses_of(user, 3)
    expect("the losses of 3 steps", losses, reference(3)[0], likely=likely(0), check=ORDER)


def test_three_steps_parameters(user):
    """three steps: the parameters"""
    m, _ = losses_of(user, 3)
    expect("w1, w2, b after 3 steps", [p.data for p in m.parameters()], reference(3)[1], likely=likely(1), check=ORDER)


def test_it_learns(user):
    """fifty steps bring the loss below half its first value"""
    _, losses = losses_of(user, 50)
    right = reference(50)[0]
    if not losses[-1] < losses[0] / 2:
        expect(f"the loss after 50 steps (the first: {losses[0]:.4g})", round(losses[-1], 4), round(right[-1], 4),
               check=ORDER)

# ---- hints ----
# - A step reads each parameter's gradient. At the moment the step runs, what has filled the
#   gradients, and what has just emptied them?
# - The order within one step matters: clear the gradients, run the backward pass to fill them
#   with this step's gradient, and only then move the parameters against it. A step taken before
#   the backward pass sees only zeros, and the next clearing throws the new gradients away.
# - Swap two lines, so the loop body reads `optimizer.zero_grad()`, `loss.backward()`,
#   `optimizer.step()`.

# ---- mistake: the step before backward ----
# message: every .grad was 0.0 whenever step() read it
# replace:
#     loss.backward()                  # the gradients first,
#     optimizer.step()                 # then the step
# with:
#     optimizer.step()
#     loss.backward()

# ---- mistake: zero_grad forgotten ----
# message: the gradients of earlier steps piled up
# replace: optimizer.zero_grad()
# with:

# ---- mistake: a step uphill ----
# message: the parameters moved uphill
# replace: p.data -= self.lr * p.grad
# with: p.data += self.lr * p.grad

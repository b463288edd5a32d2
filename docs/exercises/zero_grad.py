"""A training step, with `zero_grad`

`backward()` adds to `.grad` (`+=`), it never resets it. Inside one
backward pass that is what sums the paths; across training steps it is a
bug, because the parameters are the same leaf nodes in every step.

Write `zero_grad(parameters)`, which sets every parameter's `.grad` to 0.0,
and complete `train_step`: one step of gradient descent on the squared error
of a micrograd model (a `Neuron` from chapter 5). The forward pass and the
update are written; add the backward pass, with the gradients zeroed first.
"""

# ---- kind: build ----

# ---- starter ----
def zero_grad(parameters):
    """Set the .grad of every parameter to 0.0; returns None."""
    ...


def train_step(model, x, y, learning_rate=0.1):
    """One step of gradient descent on (model(x) - y) ** 2; returns the loss, a float."""
    loss = (model(x) - y) ** 2            # forward pass
    ...                                   # zero the gradients, then the backward pass
    for p in model.parameters():          # update: a small step against the gradient
        p.data -= learning_rate * p.grad
    return loss.data

# ---- solution ----
def zero_grad(parameters):
    """Set the .grad of every parameter to 0.0; returns None."""
    for p in parameters:
        p.grad = 0.0


def train_step(model, x, y, learning_rate=0.1):
    """One step of gradient descent on (model(x) - y) ** 2; returns the loss, a float."""
    loss = (model(x) - y) ** 2            # forward pass
    zero_grad(model.parameters())         # forget the last step's gradients
    loss.backward()                       # backward pass
    for p in model.parameters():          # update: a small step against the gradient
        p.data -= learning_rate * p.grad
    return loss.data

# ---- tests ----
import random

from micrograd.engine import Value
from micrograd.nn import Neuron

from scripts.reader.exercise_checks import expect

X, Y, RATE = [2.0, -1.0], 1.0, 0.1
NAMES = ["w1", "w2", "b"]
FORGOT = ("the gradients of earlier steps are still there (backward() adds to .grad): "
          "call zero_grad(model.parameters()) before loss.backward() in every step")
UPHILL = ("the parameters moved uphill, with the gradient: the update is "
          "p.data -= learning_rate * p.grad, a step against it")
STEP = ("each step runs zero_grad(model.parameters()), then loss.backward(), then "
        "p.data -= learning_rate * p.grad for every p")
TOO_LATE = ("the parameters did not move, because every p.grad was 0.0 at the update: zero the "
            "gradients first, then loss.backward(), then the update")


def model():
    random.seed(1)  # the same weights every time
    return Neuron(2, nonlin=False)  # w1*x1 + w2*x2 + b


def reference(steps, zero=True, sign=-1):
    """The parameters of a model after `steps` steps of micrograd's own training loop.

    zero=False leaves zero_grad out; sign=+1 steps uphill (+= in the update).
    """
    m = model()
    for _ in range(steps):
        loss = (m(X) - Y) ** 2
        if zero:
            m.zero_grad()
        loss.backward()
        for p in m.parameters():
            p.data += sign * RATE * p.grad
    return m.parameters()


def test_zero_grad(user):
    """zero_grad sets every .grad to 0.0 and returns None"""
    params = [Value(1.0), Value(2.0), Value(3.0)]
    for p, g in zip(params, [0.5, -4.0, 2.0]):
        p.grad = g
    returned = user.zero_grad(params)
    expect("the grads after zero_grad", [p.grad for p in params], [0.0, 0.0, 0.0],
           check="set p.grad = 0.0 for every p in parameters")
    expect("zero_grad(params)'s return value", returned, None,
           check="zero_grad changes the parameters and returns None, as its docstring says: it needs no return statement")


def test_first_step(user):
    """one step: the loss, and the parameters after the update"""
    m = model()
    loss = user.train_step(m, X, Y, RATE)
    first = model()
    expect("the loss returned by the first step", loss, ((first(X) - Y) ** 2).data,
           check="return loss.data, the loss of the forward pass")
    unchanged = [p.data for p in model().parameters()]
    for name, p, ref, up in zip(NAMES, m.parameters(), reference(1), reference(1, sign=1)):
        expect(f"{name}.data after one step", p.data, ref.data,
               likely=[(unchanged[NAMES.index(name)], TOO_LATE), (up.data, UPHILL)], check=STEP)


def test_three_steps(user):
    """three steps: each step uses its own gradient only"""
    m = model()
    for _ in range(3):
        user.train_step(m, X, Y, RATE)
    forgot, up = reference(3, zero=False), reference(3, sign=1)
    for name, p, ref, wrong, uphill in zip(NAMES, m.parameters(), reference(3), forgot, up):
        expect(f"{name}.grad after 3 steps", p.grad, ref.grad,
               likely=[(wrong.grad, FORGOT), (0.0, TOO_LATE), (uphill.grad, UPHILL)], check=STEP)
        expect(f"{name}.data after 3 steps", p.data, ref.data,
               likely=[(wrong.data, FORGOT), (uphill.data, UPHILL)], check=STEP)


def test_loss_goes_down(user):
    """twenty steps bring the loss close to 0"""
    m = model()
    losses = [user.train_step(m, X, Y, RATE) for _ in range(20)]
    first = ", ".join(f"{v:.3g}" for v in losses[:4])
    expect(f"the loss after 20 steps (the first four: {first})", round(losses[-1], 6), 0.0,
           check="each step moves the parameters against this step's gradient")

# ---- hints ----
# - The backward pass adds into every gradient and never clears one: what do the parameters'
#   gradients hold when the second training step begins? And at which point of a step must they
#   be cleared?
# - Set every parameter's gradient to zero in each step, before the backward pass: after it,
#   zeroing would throw away the gradients the update is about to use. The function only changes
#   the parameters; it gives nothing back.
# - In `zero_grad`: `for p in parameters: p.grad = 0.0`, and no `return`. In `train_step`:
#   `zero_grad(model.parameters())`, then `loss.backward()`.

# ---- mistake: zero_grad forgotten ----
# message: the gradients of earlier steps are still there
# replace: zero_grad(model.parameters())         # forget the last step's gradients
# with:

# ---- mistake: zeroed after the backward pass ----
# message: the parameters did not move
# replace:
#     zero_grad(model.parameters())         # forget the last step's gradients
#     loss.backward()                       # backward pass
# with:
#     loss.backward()
#     zero_grad(model.parameters())

# ---- mistake: zero_grad returns 0 ----
# message: return value is 0, expected None
# replace:
#     for p in parameters:
#         p.grad = 0.0
# with:
#     for p in parameters:
#         p.grad = 0.0
#     return 0

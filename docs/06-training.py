# %% [markdown]
# # 6. Training a network
#
# Chapters 1 to 5 built every piece: the `Value` engine, the backward pass,
# and neurons stacked into a multi-layer perceptron. This page puts them to
# work. We train a small network to separate two interleaved half-moons of
# points, with nothing but `micrograd` and a `for` loop.
#
# By the end of this page you will be able to:
#
# - say what the SVM max-margin (hinge) loss asks of a score, and write it,
#   plus L2 regularization, out of `Value` operations (most classifiers are
#   trained on cross-entropy instead, the loss of
#   [chapter 9](../09-tensors/); this page keeps the loss of micrograd's demo);
# - write the training loop yourself: forward pass, `zero_grad()`, backward
#   pass, gradient-descent update;
# - read a loss curve, an accuracy curve and a decision boundary, and say
#   what each one tells you;
# - measure accuracy on points the network never trained on, and recognise a
#   learning rate too large by its loss.
#
# This page is a notebook. Every cell ran when the site was built, and every
# number and plot below is that run's output; a test checks them. The button
# at the top of the page downloads it, to run it yourself.

# %%
# %matplotlib inline
import gc
import random

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons

from micrograd.engine import Value, topological_order
from micrograd.nn import MLP

# plots that stay readable on a phone: narrow, sharp, large labels
plt.rcParams.update({"figure.figsize": (5, 3.2), "figure.dpi": 144, "font.size": 13})

# %% [markdown]
# ## The data: two moons
#
# `make_moons` draws points along two interleaved half-circles and adds
# Gaussian noise. We take $N = 100$ points with noise 0.1. A fixed
# `random_state` gives the same points on every run.
#
# The labels come out as 0 and 1. The loss below wants $-1$ and $+1$, so we
# map $t \mapsto 2t - 1$.

# %%
N = 100
X, labels = make_moons(n_samples=N, noise=0.1, random_state=1337)
y = 2 * labels - 1

# Plain Python floats and ints: the network works on Values, not NumPy arrays.
inputs = [[float(a), float(b)] for a, b in X]
targets = [int(t) for t in y]

print(len(inputs), "points of", len(inputs[0]), "coordinates")
print(targets.count(+1), "labelled +1,",
      targets.count(-1), "labelled -1")
print("first point:", [round(v, 3) for v in inputs[0]],
      "label", targets[0])

# %% [markdown]
# No straight line separates the two moons; the last plot on this page shows
# them. A linear classifier cannot get every point right, so the network
# needs its hidden layers.

# %% [markdown]
# ## The model: a multi-layer perceptron
#
# The network is the `MLP` of [chapter 5](../05-neurons-layers-networks/):
# 2 inputs, two hidden layers of 16 ReLU neurons, and one linear output
# neuron. Its output is a score: positive means "class $+1$", negative means
# "class $-1$".
#
# The weights start uniform in $[-1, 1]$, drawn from Python's `random`
# module. Seeding it makes the starting network, and so the whole run,
# repeatable.

# %%
random.seed(1337)
model = MLP(2, [16, 16, 1])

sizes = [len(model.layers[0].neurons[0].w)] + [len(l.neurons) for l in model.layers]
per_layer = [len(l.parameters()) for l in model.layers]
print("layer sizes, inputs first:", sizes)
print("parameters per layer:", per_layer)
print("total parameters:", len(model.parameters()))

# %% [markdown]
# Each neuron has one weight per input plus a bias. The first layer has
# $16 \cdot (2 + 1)$ parameters, the second $16 \cdot (16 + 1)$, the output
# neuron $16 + 1$: the three counts printed above, and their sum.

# %% [markdown]
# ## The loss: max-margin plus L2
#
# The network gives each point a score $s_i$, and only the sign of the score
# decides the class. What should the loss reward? For point $i$ with label
# $y_i \in \{-1, +1\}$, the product $y_i s_i$ is positive when the point is
# on the correct side, and the larger it is, the safer.
#
# The first loss that comes to mind, the squared error $(s_i - y_i)^2$, does
# not fit. It pulls every score towards exactly $\pm 1$, so it also punishes
# a point that is right with confidence: the further a correct score goes
# past its label, the more it costs. <!-- claim: all(((Value(s) - 1) ** 2).data < ((Value(s + 1) - 1) ** 2).data for s in [1.0, 2.0, 3.0]) -->
# The **SVM max-margin loss** (hinge loss) asks only for a margin: $y_i s_i \ge 1$.
#
# $$\text{data loss} = \frac{1}{N} \sum_{i=1}^{N} \mathrm{relu}(1 - y_i s_i)$$
#
# The cell below compares the two on one point with label $+1$, for a few
# scores, with the engine's own `relu`.

# %%
label = +1
print(f"one point, label {label:+d}")
print("score  squared error  hinge loss")
for number in [-1.0, 0.0, 0.5, 1.0, 3.0]:
    score = Value(number)
    squared = (score - label) ** 2
    hinge = (1 - label * score).relu()
    print(f"{number:5.1f}  {squared.data:13.2f}  {hinge.data:10.2f}")

# %% [markdown]
# The squared error charges the correct score 3 exactly as much as the
# wrong score $-1$, <!-- claim: ((Value(3.0) - 1) ** 2).data == ((Value(-1.0) - 1) ** 2).data -->
# and a more confident correct score would cost more than that wrong one. <!-- claim: ((Value(3.5) - 1) ** 2).data > ((Value(-1.0) - 1) ** 2).data -->
# The hinge loss charges nothing from score 1 on: such a
# point adds nothing, and since the ReLU is flat there, it sends no gradient
# back either. Training only pushes on points that are wrong or too close to
# the boundary.
#
# On top we add **L2 regularization**, a small penalty on large weights:
#
# $$\text{reg loss} = \alpha \sum_{p} p^2, \qquad \alpha = 10^{-4}$$
#
# The **accuracy** is the fraction of points where the sign of the score
# matches the label. It is computed from `.data`, so it is not part of the
# graph; we only watch it. We use the full batch: all $N = 100$ points in
# every step. <!-- claim: len(inputs) == len(targets) == 100 -->

# %%
alpha = 1e-4
print("alpha =", alpha)


def loss_and_accuracy(model, alpha=alpha):
    """Forward pass: (data loss, reg loss, accuracy)."""
    scores = [model(x) for x in inputs]
    pairs = list(zip(targets, scores))
    hinge = [(1 - t * s).relu() for t, s in pairs]
    data_loss = sum(hinge) / len(hinge)
    reg_loss = alpha * sum(p * p for p in model.parameters())
    correct = [(s.data > 0) == (t > 0) for t, s in pairs]
    return data_loss, reg_loss, sum(correct) / len(correct)


data_loss, reg_loss, acc = loss_and_accuracy(model)
loss = data_loss + reg_loss
print(f"before training: loss {loss.data:.4f}, "
      f"accuracy {acc:.0%}")
print("nodes in its graph:", len(topological_order(loss)))

# %% [markdown]
# That node count is the size of one forward pass: every multiplication,
# addition and ReLU for 100 points through 337 parameters is its own `Value`. <!-- claim: len(model.parameters()) == 337 and len(inputs) == 100 -->
# The loop below builds a graph this size, runs `backward()` through it, and
# throws it away, once per step.
#
# One practical line before we start: the cell below switches Python's
# cycle collector off for the heavy cells, and a cell at the end of the page
# switches it back on. No number on this page changes, only the waiting;
# [chapter 10](../10-under-the-hood/) explains why, and why it is safe for
# this engine.

# %%
gc.disable()  # this engine's graphs have no cycles: see chapter 10

# %% [markdown]
# ## The training loop
#
# Each step $k = 0, 1, \dots, 99$ does four things:
#
# 1. **Forward pass**: compute the loss (and the accuracy) on all 100 points.
# 2. **Zero the gradients**: `backward()` adds into `.grad`, so last step's
#    gradients must be cleared first ([chapter 4](../04-engine/)).
# 3. **Backward pass**: `loss.backward()` fills in $\partial L / \partial p$
#    for every parameter $p$.
# 4. **Update**: step every parameter against its gradient,
#    $p \leftarrow p - \eta_k \, \partial L / \partial p$.
#
# The learning rate $\eta_k$ decays linearly, from 1.0 at the first step
# towards 0.1:
#
# $$\eta_k = 1 - 0.9 \cdot \frac{k}{100}$$
#
# Big steps early cover ground fast; smaller steps late settle in without
# overshooting.

# %%
steps = 100
loss_history, acc_history = [], []

for k in range(steps):
    # 1. forward pass
    data_loss, reg_loss, acc = loss_and_accuracy(model)
    loss = data_loss + reg_loss

    # 2. zero the gradients, 3. backward pass
    model.zero_grad()
    loss.backward()

    # 4. gradient descent with a decaying learning rate
    lr = 1.0 - 0.9 * k / steps
    for p in model.parameters():
        p.data -= lr * p.grad

    loss_history.append(loss.data)
    acc_history.append(acc)
    if k % 10 == 0 or k == steps - 1:
        print(f"step {k:3d}   loss {loss.data:.4f}   "
              f"accuracy {acc:.0%}")

# %% [markdown]
# The loss and accuracy of step $k$ are measured in that step's forward pass,
# before its update.

# %%
first_perfect = acc_history.index(1.0)
misses = [k for k, a in enumerate(acc_history) if a < 1.0]
settled = misses[-1] + 1
dip = min(acc_history[first_perfect:])
print(f"first step with 100% accuracy: step {first_perfect}")
print(f"100% accuracy at every step from step {settled} on")
print(f"lowest accuracy after that: {dip:.0%}")
print(f"final training accuracy: {acc_history[-1]:.0%}")
print(f"final loss: {loss_history[-1]:.4f}")
assert acc_history[-1] == 1.0
assert all(a == 1.0 for a in acc_history[settled:])

# %% [markdown]
# Every one of the $N = 100$ training points ends up on the correct side. <!-- claim: acc_history[-1] == 1.0 and len(inputs) == 100 --> The road
# there is not smooth: the network reaches 100% once, then loses it again for
# a while, because the learning rate is still large and a big step can knock
# a few points back across the boundary. <!-- claim: first_perfect < settled and dip < 1.0 --> As the learning rate shrinks, the
# steps get gentler and the accuracy stays at 100% (the second `assert`
# checks that, from the step printed above to the last).

# %% [markdown]
# <div class="admonition question">
# <p class="admonition-title">Check yourself</p>
#
# What learning rate does the last step ($k = 99$) use? How many times
# smaller is it than the first step's?
#
# <!-- quiz: number(1.0 - 0.9 * (steps - 1) / steps, answer=0.109, tol=1e-9, label="Its learning rate") -->
#
# <!-- quiz: number(1.0 / (1.0 - 0.9 * (steps - 1) / steps), answer=9.2, tol=0.05, label="Times smaller") -->
#
# </div>

# %% [markdown] tags=["answer"]
# Put $k = 99$ into $\eta_k = 1 - 0.9 \cdot k / 100$. The cell below does it
# with the same expression the loop used, and compares it with $\eta_0$.

# %% tags=["answer"]
lr_first = 1.0 - 0.9 * 0 / steps
lr_last = 1.0 - 0.9 * (steps - 1) / steps
print(f"first step: {lr_first:.3f}, last: {lr_last:.3f}")
print(f"the last is {lr_first / lr_last:.1f} times smaller")

# %% [markdown]
# ## The loss curve
#
# The loss per step, on a logarithmic axis so that the late, small values
# stay visible. The two vertical lines mark the first step with 100%
# accuracy and the step from which it stays there.

# %% alt="The training loss per step on a logarithmic axis. It falls steeply and bumpily while the learning rate is large, then keeps creeping down. A dashed vertical line marks the first step with 100% accuracy, a dotted one the step from which it stays at 100%."
fig, ax = plt.subplots()
ax.plot(range(steps), loss_history, color="tab:purple")
ax.axvline(first_perfect, color="gray", linestyle="--",
           label=f"first 100% (step {first_perfect})")
ax.axvline(settled, color="black", linestyle=":",
           label=f"100% from here on (step {settled})")
ax.set_yscale("log")
ax.set_xlabel("step $k$")
ax.set_ylabel("loss (log scale)")
ax.set_title("Training loss: hinge + L2")
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# The loss falls fast while the learning rate is large, and it is bumpy:
# a big step often overshoots. Once the steps are small it keeps creeping
# down even though the accuracy is already perfect: the hinge loss still
# rewards pushing points out past the margin.

# %% [markdown]
# ## The accuracy curve

# %% alt="Training accuracy in percent per step. It climbs in jumps of whole points, reaches 100% at the dashed line, dips below it for a while, and stays at 100% from the dotted line on."
fig, ax = plt.subplots()
ax.plot(range(steps), [100 * a for a in acc_history],
        color="tab:orange")
ax.axvline(first_perfect, color="gray", linestyle="--",
           label=f"first 100% (step {first_perfect})")
ax.axvline(settled, color="black", linestyle=":",
           label=f"100% from here on (step {settled})")
ax.set_ylim(0, 105)
ax.set_xlabel("step $k$")
ax.set_ylabel("training accuracy (%)")
ax.set_title("Training accuracy")
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()

# %% [markdown]
# Accuracy moves in jumps of whole points: a point only counts once its score
# changes sign. You can see the dip after the first 100%, between the two
# vertical lines. The loss, by contrast, changes continuously with the weights,
# and that is why we take gradients of the loss, not of the accuracy.

# %% [markdown]
# ## The decision boundary
#
# To see what the network learned, we ask it for a score at every point of a
# 40 × 40 grid covering the data and colour each region by the sign of the
# score. The solid line is where the score is exactly 0: the decision
# boundary. This uses the trained model, after the last update.

# %% alt="The two moons: orange circles labelled −1 and purple squares labelled +1, over the regions the trained network assigns to each class. The solid decision boundary, where the score is 0, curves between the moons and around the tip of each, with every point on its own side."
# the trained model on the training points
final_scores = [model(x).data for x in inputs]
pairs = zip(final_scores, targets)
right = [(s > 0) == (t > 0) for s, t in pairs]
final_acc = sum(right) / len(right)
print(f"trained model's accuracy: {final_acc:.0%}")
assert final_acc == 1.0

# ... and on a 40 x 40 grid around them
xs = np.linspace(X[:, 0].min() - 0.5, X[:, 0].max() + 0.5, 40)
ys = np.linspace(X[:, 1].min() - 0.5, X[:, 1].max() + 0.5, 40)
grid_x, grid_y = np.meshgrid(xs, ys)
points = zip(grid_x.ravel(), grid_y.ravel())
grid_scores = np.array(
    [model([float(a), float(b)]).data for a, b in points]
).reshape(grid_x.shape)
print(grid_x.size, "grid points scored")

fig, ax = plt.subplots(figsize=(5, 4))
ax.contourf(grid_x, grid_y, grid_scores > 0,
            levels=[-0.5, 0.5, 1.5],
            colors=["#fde0c5", "#d9d2f0"])
ax.contour(grid_x, grid_y, grid_scores, levels=[0.0],
           colors="black", linewidths=1.5)
for label, colour, marker in [(-1, "tab:orange", "o"),
                              (+1, "tab:purple", "s")]:
    mask = y == label
    ax.scatter(X[mask, 0], X[mask, 1], c=colour,
               marker=marker, s=25, edgecolors="black",
               linewidths=0.5, label=f"label {label:+d}")
ax.set_xlabel("$x_1$")
ax.set_ylabel("$x_2$")
ax.set_title("Learned decision boundary (score = 0)")
ax.legend(loc="upper right")
fig.tight_layout()
plt.show()

# %% [markdown]
# The boundary snakes between the moons, around the tip of each one: a
# curve no single line could draw. Every orange circle sits in the orange region and every purple
# square in the purple one. Away from the data the network has seen nothing,
# so the shape of the regions out there is a guess.

# %% [markdown]
# ## Points it never saw
#
# A score on the training points says how well the network fits them, not
# how well it does on new ones. So we draw more points from the same two
# moons, with another seed, and hold them out: the network never trains on
# them. Its accuracy there is the fairer measure.

# %%
X_held, labels_held = make_moons(n_samples=50, noise=0.1, random_state=7)
held_inputs = [[float(a), float(b)] for a, b in X_held]
held_targets = [int(2 * t - 1) for t in labels_held]
held_right = [(model(x).data > 0) == (t > 0) for x, t in zip(held_inputs, held_targets)]
held_acc = sum(held_right) / len(held_right)
print(f"held-out accuracy: {held_acc:.0%} of {len(held_inputs)} points")
print(f"training accuracy: {final_acc:.0%} of {len(inputs)} points")
assert held_acc == final_acc

# %% [markdown]
# Here the network does as well on the held-out points as on the training
# points (both printed above): the curve it learned carries over to new
# points from the same moons.
# <!-- claim: held_acc == final_acc --> Had it only memorised its training points, the
# held-out accuracy would show it; it is the number to report.

# %% [markdown]
# ## A learning rate too large
#
# The loop above starts at $\eta_0 = 1$. Here is the same network, from the
# same starting weights, with a fixed learning rate ten times larger, for
# six steps.

# %%
big_lr = 10.0
random.seed(1337)
fast_model = MLP(2, [16, 16, 1])
fast_history, fast_accuracy = [], []
for k in range(6):
    data_loss, reg_loss, acc = loss_and_accuracy(fast_model)
    fast_loss = data_loss + reg_loss
    fast_model.zero_grad()
    fast_loss.backward()
    for p in fast_model.parameters():
        p.data -= big_lr * p.grad
    fast_history.append(fast_loss.data)
    fast_accuracy.append(acc)
    print(f"step {k}   learning rate {big_lr:g}   loss {fast_loss.data:.4g}   accuracy {acc:.0%}")
assert fast_history[0] == loss_history[0]  # the same start as the loop above
assert fast_history[-1] > 1000 * fast_history[0]

# %% [markdown]
# Step 0 starts from the same loss as the loop above.
# <!-- claim: fast_history[0] == loss_history[0] --> Then the steps
# overshoot: the loss jumps from 0.8958 to 146.8 after one update and passes
# a million by step 4, while the accuracy stays between 50% and 62%, about a
# coin toss.
# <!-- claim: fast_history[1] > 100 * fast_history[0] and fast_history[4] > 1e6 and 0.5 <= min(fast_accuracy) <= max(fast_accuracy) <= 0.62 --> The gradient says which way is down only near the current
# weights; a step far beyond them lands anywhere. When a loss climbs from
# the first steps, lower the learning rate first.

# %%
gc.enable()  # back to normal: the heavy cells are done

# %% [markdown]
# <div class="admonition question">
# <p class="admonition-title">Check yourself</p>
#
# The accuracy is 100%, so every point is on the correct side. <!-- claim: final_acc == 1.0 --> Why is the
# loss still not zero? There are two candidate sources: which one is it in
# this run?
#
# <!-- quiz: choice(["the L2 penalty", "both"][min(t * s for t, s in zip(targets, final_scores)) < 1], options=["the margin: some points are still inside it", "the L2 penalty", "both"]) -->
#
# </div>

# %% [markdown] tags=["answer"]
# 1. **The margin**: the hinge loss is zero only for points with
#    $y_i s_i \ge 1$. A point can be on the correct side ($0 < y_i s_i < 1$)
#    and still pay.
# 2. **L2 regularization**: $\alpha \sum_p p^2$ is zero only if every weight
#    is zero, and a network with all-zero weights scores 0 everywhere, so it
#    could not classify anything.
#
# The cell below splits the trained model's loss into the two parts and
# counts the points still inside the margin.

# %% tags=["answer"]
data_loss, reg_loss, acc = loss_and_accuracy(model)
margins = [t * s for t, s in zip(targets, final_scores)]
inside = sum(m < 1 for m in margins)
total = data_loss + reg_loss
print(f"data loss {data_loss.data} + reg loss "
      f"{reg_loss.data:.4f} = {total.data:.4f}")
print(f"points with y*s < 1: {inside} of {len(margins)}")
print(f"smallest margin y*s: {min(margins):.3f}")
assert data_loss.data == 0.0 and inside == 0
assert reg_loss.data > 0

# %% [markdown] tags=["answer"]
# In this run the data loss is exactly 0: every point is past the margin
# (even the closest one, printed above), so no point pushes on the weights
# any more. <!-- claim: data_loss.data == 0.0 and min(margins) >= 1 --> All of the remaining loss is the L2
# penalty. Its gradient is $2\alpha p$, so if training went on, each step
# would only shrink every weight by a tiny factor,
# $p \leftarrow (1 - 2\alpha\eta)\,p$, until some point slipped back inside
# the margin and the hinge loss started pushing again.

# %% [markdown]
# ## Recap
#
# - Training is a loop of four steps: forward pass, `zero_grad()`,
#   `backward()`, and the update $p \leftarrow p - \eta \, \partial L / \partial p$.
# - The SVM max-margin loss $\mathrm{relu}(1 - y_i s_i)$ only pushes on points
#   that are wrong or inside the margin; L2 regularization keeps the weights
#   small.
# - A decaying learning rate takes big steps early and careful steps late.
# - With 337 parameters and 100 steps, the network separates the two moons
#   perfectly on the training points; <!-- claim: len(model.parameters()) == 337 and steps == 100 and final_acc == 1.0 --> the decision boundary shows the curve
#   it learned, and held-out points measure it fairly.
# - A learning rate too large makes the loss climb instead of fall.
# - Every gradient on this page came from the engine we built: no other
#   autodiff library was used.
#
# Next, [chapter 7](../07-check-break-fix/) checks these gradients against
# finite differences, breaks the engine on purpose, and fixes it.

# %% [markdown]
# **Sources**: the setup of Andrej Karpathy's [micrograd](https://github.com/karpathy/micrograd) demo
# notebook ([demo.ipynb](https://github.com/karpathy/micrograd/blob/master/demo.ipynb): the two
# moons, `MLP(2, [16, 16, 1])`, the max-margin loss with $\alpha = 10^{-4}$, the decaying learning
# rate) and his lecture [The spelled-out intro to neural networks and
# backpropagation](https://www.youtube.com/watch?v=VMj-3S1tku0); the
# [hinge loss](https://en.wikipedia.org/wiki/Hinge_loss) and the
# [chain rule](https://en.wikipedia.org/wiki/Chain_rule) on Wikipedia; scikit-learn's
# [make_moons](https://scikit-learn.org/stable/modules/generated/sklearn.datasets.make_moons.html).

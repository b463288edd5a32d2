"""Predict: softmax with cross-entropy, by hand

Four logits are chosen so that their exponentials are the whole numbers 1,
2, 3 and 4, and the label is class 2 (counting from 0):

```text
z = [log(1), log(2), log(3), log(4)]      label = 2
```

Predict, without running anything, what softmax and cross-entropy give:
`p`, the four probabilities; `loss`, minus the log of the correct class's
probability; `grad`, the gradient of the loss with respect to the four
logits; and `grad_shifted`, the same gradient after 50 is added to every
logit. Write each as a number or a list of numbers (an expression such as
`-math.log(...)` is fine: `math` is imported).

The tests compute each one with micrograd's scalars.
"""

# ---- kind: predict ----

# ---- starter ----
import math

p = ...             # the four probabilities
loss = ...          # -log p[label]
grad = ...          # dL/dz, four numbers
grad_shifted = ...  # dL/dz for z + 50

# ---- solution ----
import math

p = [0.1, 0.2, 0.3, 0.4]              # the four probabilities
loss = -math.log(0.3)                 # -log p[label]
grad = [0.1, 0.2, 0.3 - 1, 0.4]       # dL/dz, four numbers
grad_shifted = [0.1, 0.2, -0.7, 0.4]  # dL/dz for z + 50

# ---- tests ----
import math

from micrograd import Value

from scripts.reader.exercise_checks import expect, predicted

Z = [math.log(1), math.log(2), math.log(3), math.log(4)]
LABEL = 2
RULE = "dL/dz = p - y, where y is the one-hot vector of the label"


def by_micrograd(z):
    """(p, loss, grad) from micrograd scalars: p_label's graph, backward(), then the last link of
    the chain rule, dL/dp = -1/p, applied outside the graph (micrograd has no log)."""
    zs = [Value(v) for v in z]
    es = [zj.exp() for zj in zs]
    total = es[0] + es[1] + es[2] + es[3]
    p_label = es[LABEL] / total
    p_label.backward()
    p = [e.data / total.data for e in es]
    return p, -math.log(p_label.data), [zj.grad * (-1 / p_label.data) for zj in zs]


def test_p(user):
    """p: softmax of the logits"""
    p, _, _ = by_micrograd(Z)
    expect("p", predicted(user, "p"), p, likely=[([1.0, 2.0, 3.0, 4.0], "those are the exponentials: divide each "
                                                  "by their sum, so that the four add up to 1")],
           check="p_j = e^(z_j) / (e^(z_0) + e^(z_1) + e^(z_2) + e^(z_3))")


def test_loss(user):
    """loss: cross-entropy of the correct class"""
    p, loss, _ = by_micrograd(Z)
    expect("loss", predicted(user, "loss"), loss,
           likely=[(-loss, "the loss is minus the log of p[label], a positive number"),
                   (-math.log(max(p)), "that is the largest probability's; the loss takes the label's, p[2]"),
                   (1 - p[LABEL], "the loss is -log p[label], not 1 - p[label]")],
           check="L = -log p[label]")


def test_grad(user):
    """grad: dL/dz for the four logits"""
    p, _, grad = by_micrograd(Z)
    onehot = [1.0 if j == LABEL else 0.0 for j in range(4)]
    expect("grad", predicted(user, "grad"), grad,
           likely=[(p, f"that is p; subtract the one-hot label: {RULE}"),
                   ([y - q for q, y in zip(p, onehot)], f"the sign is flipped: {RULE}")],
           check=RULE)


def test_grad_shifted(user):
    """grad_shifted: the gradient after adding 50 to every logit"""
    p, _, grad = by_micrograd([v + 50 for v in Z])
    expect("grad_shifted", predicted(user, "grad_shifted"), grad,
           likely=[([g + 50 for g in by_micrograd(Z)[2]], "softmax does not move when every logit moves by "
                                                         "the same amount: p, and so p - y, stay the same")],
           check="adding the same number to every logit leaves p, and so p - y, unchanged")

# ---- hints ----
# - The exponentials are given: what fraction of their total is each one? And which entry of the
#   gradient is the only one that the label changes?
# - Softmax divides each exponential by their sum, 1 + 2 + 3 + 4. The loss is $-\log p_2$. The
#   gradient is $p - y$ with $y$ the one-hot vector of class 2: every entry is $p_j$ except the
#   label's, which is $p_2 - 1$. Adding 50 to every logit multiplies every exponential by $e^{50}$,
#   which the division cancels.
# - `p = [0.1, 0.2, 0.3, 0.4]`, `loss = -math.log(0.3)`, `grad = [0.1, 0.2, 0.3 - 1, 0.4]`, and
#   `grad_shifted` is the same list as `grad`.

# ---- mistake: p instead of p - y ----
# message: that is p; subtract the one-hot label
# replace: grad = [0.1, 0.2, 0.3 - 1, 0.4]       # dL/dz, four numbers
# with: grad = [0.1, 0.2, 0.3, 0.4]

# ---- mistake: y - p ----
# message: the sign is flipped
# replace: grad = [0.1, 0.2, 0.3 - 1, 0.4]       # dL/dz, four numbers
# with: grad = [-0.1, -0.2, 1 - 0.3, -0.4]

# ---- mistake: the loss's sign ----
# message: a positive number
# replace: loss = -math.log(0.3)                 # -log p[label]
# with: loss = math.log(0.3)

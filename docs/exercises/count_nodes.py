"""Predict: how many nodes does a weighted sum build?

Three weights are `Value`s; the three inputs are plain Python floats, as a
network's inputs are. Python's `sum` adds up the products:

```text
ws = [Value(0.5), Value(-1.0), Value(2.0)]
xs = [1.0, 2.0, 3.0]
y = sum(w * x for w, x in zip(ws, xs))
order = topological_order(y)
```

Predict, without running it: `nodes`, the length of `order`; `leaves`, how
many of those nodes have no parents; `edges`, the parents summed over all
nodes (one `+=` each in the backward pass); and `nodes_100`, the length of
`order` for the same code with 100 weights and 100 inputs.
"""

# ---- kind: predict ----

# ---- starter ----
nodes = ...      # len(order)
leaves = ...     # nodes without parents
edges = ...      # sum(len(node._prev) for node in order)
nodes_100 = ...  # len(order) with 100 weights and 100 inputs

# ---- solution ----
nodes = 13       # len(order)
leaves = 7       # nodes without parents
edges = 12       # sum(len(node._prev) for node in order)
nodes_100 = 401  # len(order) with 100 weights and 100 inputs

# ---- tests ----
from micrograd import Value
from micrograd.engine import topological_order

from scripts.reader.exercise_checks import expect, predicted

WEIGHTS = [0.5, -1.0, 2.0]
CONSTANTS = "each plain float x becomes a leaf Value when w * x wraps it"
ZERO = "sum() starts from 0: the first addition is 0 + w * x, and the 0 becomes a leaf Value too"


def counted(n):
    """(nodes, leaves, edges) of the weighted sum of n weights and n plain inputs, as built."""
    ws = [Value(v) for v in (WEIGHTS if n == len(WEIGHTS) else [0.5] * n)]
    xs = [float(i + 1) for i in range(n)]
    order = topological_order(sum(w * x for w, x in zip(ws, xs)))
    return len(order), sum(1 for node in order if not node._prev), sum(len(node._prev) for node in order)


def test_nodes(user):
    """nodes: every Value the sum depends on, itself included"""
    nodes, leaves, _ = counted(3)
    expect("nodes", predicted(user, "nodes"), nodes,
           likely=[(nodes - 1, ZERO), (nodes - 3, CONSTANTS), (nodes - 4, f"{CONSTANTS}; and {ZERO}")],
           check="the weights, the wrapped inputs, the 0 that sum() starts from, the products and the additions")


def test_leaves(user):
    """leaves: the nodes without parents"""
    _, leaves, _ = counted(3)
    expect("leaves", predicted(user, "leaves"), leaves,
           likely=[(len(WEIGHTS), f"the weights are not the only leaves: {CONSTANTS}, and {ZERO}"), (leaves - 1, ZERO),
                   (leaves - 3, CONSTANTS)],
           check="the weights, the wrapped inputs and the wrapped 0")


def test_edges(user):
    """edges: one += per parent in the backward pass"""
    nodes, leaves, edges = counted(3)
    expect("edges", predicted(user, "edges"), edges,
           likely=[(nodes, "the leaves have no parents, and every other node has two: count parents, not nodes"),
                   (edges - 2, ZERO)],
           check="every product and every addition has two parents, the leaves none")


def test_nodes_100(user):
    """nodes_100: the same code on 100 weights and 100 inputs"""
    nodes = counted(100)[0]
    expect("nodes_100", predicted(user, "nodes_100"), nodes,
           likely=[(nodes - 1, ZERO), (nodes - 100, CONSTANTS), (nodes - 101, f"{CONSTANTS}; and {ZERO}")],
           check="four nodes per weight (the weight, its input, the product, an addition), plus the wrapped 0")

# ---- hints ----
# - Which numbers in this code are not yet nodes before the products are taken, and what does the
#   engine do with a plain number it is given? And what does Python's sum add the first product to?
# - Each product wraps its plain input in a leaf, so it adds three nodes: the weight, the input and
#   itself. Python's sum starts from 0, so the first addition is $0 + w_0 x_0$, and that 0 is wrapped
#   too. Count the additions: one per product. Every product and every addition has two parents.
# - For 3 pairs: 3 weights, 3 wrapped inputs, 3 products, 1 wrapped 0 and 3 additions, so
#   `nodes = 13`, `leaves = 7`, `edges = 2 * 6`; for 100 pairs, `nodes_100 = 4 * 100 + 1`.

# ---- mistake: the 0 of sum forgotten ----
# message: sum() starts from 0
# replace: nodes = 13       # len(order)
# with: nodes = 12

# ---- mistake: only the weights are leaves ----
# message: the weights are not the only leaves
# replace: leaves = 7       # nodes without parents
# with: leaves = 3

# ---- mistake: the inputs forgotten ----
# message: each plain float x becomes a leaf Value
# replace: nodes_100 = 401  # len(order) with 100 weights and 100 inputs
# with: nodes_100 = 301

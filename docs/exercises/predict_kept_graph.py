"""Predict: what a loss keeps until its backward pass

The forward pass keeps every node it makes until `backward()` has run, and
the backward pass does one multiply-and-add per edge. This program builds
the squared error of a line on three points; predict, on paper, the
numbers it prints.

```python
from micrograd import Value
from micrograd.engine import topological_order

w, b = Value(0.5), Value(0.0)
loss = Value(0.0)
for x, y in [(1.0, 2.0), (2.0, 3.0), (3.0, 5.0)]:
    loss = loss + (w * x + b - y) ** 2
order = topological_order(loss)
print(len(order))                                # line 1: nodes kept
print(sum(1 for node in order if not node._prev))  # line 2: leaves
print(sum(len(node._prev) for node in order))    # line 3: edges
```

Line 4 is line 1 for the same loop over 1,000 points instead of 3. Write
each prediction in place of its blank (a sum such as `3 + 4` will do),
then Run: the tests build the graph and count.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
nodes = ...       # line 1: len(order)
leaves = ...      # line 2: nodes without parents
edges = ...       # line 3: one multiply-and-add each in backward()
nodes_1000 = ...  # line 4: line 1 with 1,000 points

# ---- solution ----
# w, b and the starting 0; per point: x and -y wrapped as leaves, then
# w * x, + b, + (-y), ** 2 and loss + ...: 7 nodes
nodes = 3 + 3 * 7
leaves = 3 + 3 * 2
# per point: four nodes of two parents, and ** 2 of one (2 is no node)
edges = 3 * (4 * 2 + 1)
nodes_1000 = 3 + 1000 * 7

# ---- tests ----
from micrograd import Value
from micrograd.engine import topological_order

from scripts.reader.exercise_checks import expect, predicted

POINTS = [(1.0, 2.0), (2.0, 3.0), (3.0, 5.0)]
WRAPPED = "a plain number meets a Value twice per point: x in w * x, and y in - y; each becomes a leaf Value"
SHARED = "w, b and the starting 0 are made once, before the loop: only the nodes of one point repeat"


def counted(points):
    """(nodes, leaves, edges) of the program's graph over `points`, as micrograd builds it."""
    w, b = Value(0.5), Value(0.0)
    loss = Value(0.0)
    for x, y in points:
        loss = loss + (w * x + b - y) ** 2
    order = topological_order(loss)
    return len(order), sum(1 for node in order if not node._prev), sum(len(node._prev) for node in order)


def test_nodes(user):
    """line 1: the nodes the graph keeps until backward()"""
    nodes, _, _ = counted(POINTS)
    n = len(POINTS)
    expect("nodes", predicted(user, "nodes"), nodes,
           likely=[(nodes - 2 * n, WRAPPED), (nodes - n, f"one constant per point is missing: {WRAPPED}")],
           check="the leaves w, b and 0, then per point the wrapped constants and each operation's node")


def test_leaves(user):
    """line 2: the nodes without parents"""
    leaves = counted(POINTS)[1]
    expect("leaves", predicted(user, "leaves"), leaves,
           likely=[(3, f"w, b and 0 are not the only leaves: {WRAPPED}")],
           check="w, b, the starting 0 and every plain number the loop wraps")


def test_edges(user):
    """line 3: the edges, one multiply-and-add each in the backward pass"""
    nodes, leaves, edges = counted(POINTS)
    expect("edges", predicted(user, "edges"), edges,
           likely=[(2 * (nodes - leaves), "** 2 has one parent: its exponent is a plain number, not a node"),
                   (nodes, "a leaf has no parent and most other nodes have two: count parents, not nodes")],
           check="every +, * and ** node's parents, leaves none")


def test_nodes_1000(user):
    """line 4: the nodes kept for 1,000 points"""
    nodes = counted(POINTS)[0]
    thousand = counted([(float(i), float(i % 7)) for i in range(1000)])[0]
    expect("nodes_1000", predicted(user, "nodes_1000"), thousand,
           likely=[(nodes * 1000 / len(POINTS), f"the graph does not grow in proportion: {SHARED}"),
                   (thousand - 2000, WRAPPED)],
           check="the nodes one point adds, times 1,000, plus the nodes made before the loop")

# ---- hints ----
# - Which numbers in the loop are plain floats, and what does the engine make of a plain number
#   that meets a Value? Which nodes are made once, and which again for every point?
# - Before the loop: three leaves. Each point wraps two plain numbers, $x$ and $-y$, as leaves,
#   and makes five operations: a product, two additions for $+b$ and $-y$, a square, and the
#   running sum. A square has one parent, the other four operations two each.
# - Per point: 2 leaves + 5 operations = 7 nodes and 4 × 2 + 1 = 9 edges, so `nodes = 3 + 3 * 7`,
#   `leaves = 3 + 3 * 2`, `edges = 3 * 9`, and `nodes_1000 = 3 + 1000 * 7`.

# ---- mistake: the wrapped constants forgotten ----
# message: each becomes a leaf Value
# replace: nodes = 3 + 3 * 7
# with: nodes = 3 + 3 * 5

# ---- mistake: a square with two parents ----
# message: ** 2 has one parent
# replace: edges = 3 * (4 * 2 + 1)
# with: edges = 3 * 5 * 2

# ---- mistake: the graph scaled in proportion ----
# message: the graph does not grow in proportion
# replace: nodes_1000 = 3 + 1000 * 7
# with: nodes_1000 = 24 * 1000 / 3

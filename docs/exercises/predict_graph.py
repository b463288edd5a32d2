"""Predict: read a graph before you run it

This program builds a small graph in which `a` is used twice, then prints
four things about it. Work out each line on paper, without running it.

```python
from micrograd import Value
from micrograd.engine import topological_order

a = Value(3.0, label="a")
b = Value(-2.0, label="b")
s = a + b
p = s * a
nodes = topological_order(p)
print(p.data)                                   # line 1
print(len([v for v in nodes if not v._prev]))   # line 2
print(sum(q is a for v in nodes for q in v._prev))  # line 3
print(p._local)                                 # line 4
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
p_data = ...          # line 1: the forward pass
leaves = ...          # line 2: how many leaf nodes
edges_from_a = ...    # line 3: how many edges leave a
p_local = (..., ...)  # line 4: p's local derivatives

# ---- solution ----
# s = a + b = 1 first, then p = s * a
p_data = (3.0 + -2.0) * 3.0
# a and b: a is one node, however often it is used
leaves = 2
# a fills an input of the + and an input of the *
edges_from_a = 2
# p's parents are (s, a): s's edge carries a, a's edge carries s
p_local = (3.0, 1.0)

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_graph"  # this exercise, whose program the tests run


def test_line_1(user):
    """line 1: p.data, the forward pass"""
    lines, names = program(NAME)
    a, b, s = names["a"].data, names["b"].data, names["s"].data
    expect("p_data", predicted(user, "p_data"), lines[0],
           likely=[(s, "that is s = a + b; p multiplies s by a"),
                   (a * b * a, "p multiplies the sum s = a + b by a, not the product a * b")],
           check="compute s = a + b first, then p = s * a")


def test_line_2(user):
    """line 2: the number of leaf nodes"""
    lines, names = program(NAME)
    right = lines[1]
    expect("leaves", predicted(user, "leaves"), right,
           likely=[(right + 1, "a is used twice but is one node, so one leaf: a node with no parents "
                               "is counted once"),
                   (len(names["nodes"]), "s and p have parents: a leaf is a node with no parents")],
           check="a leaf is a node with no parents; each node is counted once")


def test_line_3(user):
    """line 3: the number of edges that leave a"""
    right = program(NAME)[0][2]
    expect("edges_from_a", predicted(user, "edges_from_a"), right,
           likely=[(1, "a feeds two operations, the + and the *: one edge into each")],
           check="an edge runs from a parent to each operation that uses it")


def test_line_4(user):
    """line 4: p._local, the local derivative of each of p's edges"""
    right = program(NAME)[0][3]
    expect("p_local", predicted(user, "p_local"), right,
           likely=[(tuple(reversed(right)), "each parent got its own value: the edge from one factor of a "
                                            "product carries the other factor's value"),
                   ((1.0, 1.0), "that is the rule for +; p is a product")],
           check="p = s * a has parents (s, a), in that order; the edge from each carries the other's value")

# ---- hints ----
# - Which nodes have no parents? How many operations take a as an input? And for a product,
#   whose value sits on the edge from each factor?
# - Do the forward pass in your head, the sum before the product. A leaf is a node with no
#   parents, counted once however often it is used. Every operation input that a fills is
#   one edge out of a. The edge from one factor of a product carries the value of the other
#   factor, and the parents are listed in the order the product was written.
# - `p_data = (3.0 + -2.0) * 3.0`, `leaves = 2`, `edges_from_a = 2`, `p_local = (3.0, 1.0)`.

# ---- mistake: a counted as two leaves ----
# message: a is used twice but is one node
# replace: leaves = 2
# with: leaves = 3

# ---- mistake: one edge from a ----
# message: a feeds two operations
# replace: edges_from_a = 2
# with: edges_from_a = 1

# ---- mistake: each parent's own value ----
# message: each parent got its own value
# replace: p_local = (3.0, 1.0)
# with: p_local = (1.0, 3.0)

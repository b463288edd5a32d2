"""Predict: paths multiply, nodes add up

Each stage of this loop uses `y` three times, in two multiplications. The
program counts the paths from `x` to the output, as the chapter did, and
three other things. Work out each line on paper before you run anything.

```python
from micrograd import Value
from micrograd.engine import topological_order

x = Value(1.0, label="x")
y = x
for _ in range(4):
    y = y * y * y  # (y * y) * y: two operations

nodes = topological_order(y)
paths = {}  # the number of paths from x to each node
for v in nodes:
    paths[v] = 1 if v is x else sum(paths[p] for p in v._prev)
print(paths[y])                                     # line 1
print(len(nodes))                                   # line 2
print(sum(len(v._prev) for v in nodes))             # line 3
print(sum(p is x for v in nodes for p in v._prev))  # line 4
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
paths_to_y = ...    # line 1: paths from x to the output
node_count = ...    # line 2: nodes in the graph
edge_count = ...    # line 3: edges in the graph
edges_from_x = ...  # line 4: edges that leave x

# ---- solution ----
# 3 paths through each stage, and the 4 stages chain: paths multiply
paths_to_y = 3 ** 4
# x, then two products per stage; no constants are made
node_count = 1 + 2 * 4
# each product has two parents
edge_count = 2 * 2 * 4
# the first stage uses x three times
edges_from_x = 3

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_paths"  # this exercise, whose program the tests run

STAGES = 4


def test_line_1(user):
    """line 1: the number of paths from x to y"""
    right = program(NAME)[0][0]
    per_stage = round(right ** (1 / STAGES))
    expect("paths_to_y", predicted(user, "paths_to_y"), right,
           likely=[(per_stage * STAGES, "the paths were added stage by stage; they multiply: every path "
                                        "into a stage goes on along each path through it"),
                   (2 ** STAGES, "each stage uses y three times, not twice: y * y, then times y again")],
           check="paths multiply along a chain of stages")


def test_line_2(user):
    """line 2: the number of nodes"""
    right = program(NAME)[0][1]
    expect("node_count", predicted(user, "node_count"), right,
           likely=[(1 + STAGES, "y * y * y is two operations, (y * y) * y: two nodes per stage"),
                   (1 + 3 * STAGES, "a Value used three times is still one node: only the products are new")],
           check="x, plus one node for every operation the loop runs")


def test_line_3(user):
    """line 3: the number of edges"""
    right = program(NAME)[0][2]
    expect("edge_count", predicted(user, "edge_count"), right,
           likely=[(3 * STAGES, "each product has two parents, so two edges: two products make four "
                                "edges per stage")],
           check="one edge per parent of every node")


def test_line_4(user):
    """line 4: the number of edges that leave x"""
    right = program(NAME)[0][3]
    expect("edges_from_x", predicted(user, "edges_from_x"), right,
           likely=[(2, "y * y * y uses y three times: twice in the first product, once in the second")],
           check="one edge for every operation input that x fills")

# ---- hints ----
# - If one stage can be crossed in three ways, and the next stage in three ways too, how many
#   ways are there through both? And does a Value used three times make three nodes?
# - The number of paths through a chain of stages is the product of the paths through each
#   stage. Nodes and edges only add up: each stage adds two products, and each product has
#   two parents.
# - `paths_to_y = 3 ** 4`, `node_count = 1 + 2 * 4`, `edge_count = 2 * 2 * 4`, `edges_from_x = 3`.

# ---- mistake: paths added ----
# message: the paths were added stage by stage
# replace: paths_to_y = 3 ** 4
# with: paths_to_y = 3 * 4

# ---- mistake: one node per stage ----
# message: y * y * y is two operations
# replace: node_count = 1 + 2 * 4
# with: node_count = 1 + 4

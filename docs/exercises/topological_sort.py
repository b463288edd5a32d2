"""Topological order, without recursion

Write `topological_order(root)`: a list of every node that `root` depends
on, root included, each node once and after all of its parents. Reversed,
it is the order of the backward pass.

A recursive depth-first search is the classic answer, but Python stops at
about 1,000 nested calls, and a loop that adds 5,000 numbers builds a chain
5,000 operations deep. So keep your own stack, a Python list. A node's
parents are `node._prev`.
"""

# ---- kind: build ----

# ---- starter ----
def topological_order(root):
    """Every node root depends on, parents before children, as a list."""
    order, visited, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        ...
    return order

# ---- solution ----
def topological_order(root):
    """Every node root depends on, parents before children, as a list."""
    order, visited, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node is None:               # marker: all parents of the node below it are listed
            order.append(stack.pop())
        elif node not in visited:
            visited.add(node)
            stack.append(node)         # come back to it...
            stack.append(None)         # ...after its parents, which go on top
            stack.extend(node._prev)
    return order

# ---- tests ----
from collections import Counter

from micrograd.engine import Value, topological_order as reference_order

from scripts.reader.exercise_checks import Fail, chain, diamond, expect, neuron, topological


def names_of(nodes, labelled):
    return [labelled.get(id(n), f"{n.data:g}") for n in nodes]


def check_order(user, root, what, labels):
    order = user.topological_order(root)
    if not isinstance(order, list):
        raise Fail(f"topological_order({what}) returned {type(order).__name__}, expected a list of nodes")
    wanted = reference_order(root)
    counts = Counter(id(n) for n in order)
    twice = [n for n in wanted if counts[id(n)] > 1]
    if twice:
        name = names_of(twice, labels)[0]
        raise Fail(f"{name} appears {counts[id(twice[0])]} times in the order of {what}, expected once: "
                   "a node reached along two paths must be listed once; add it to `visited`")
    missing = [n for n in wanted if counts[id(n)] == 0]
    if missing:
        raise Fail(f"the order of {what} misses {', '.join(names_of(missing, labels))}: "
                   "every node the root depends on must be listed, the root too")
    if not topological(order):
        position = {id(n): i for i, n in enumerate(order)}
        child = next(n for n in order if any(position[id(p)] > position[id(n)] for p in n._prev))
        parent = next(p for p in child._prev if position[id(p)] > position[id(child)])
        raise Fail(f"in the order of {what}, {names_of([child], labels)[0]} is at place {position[id(child)] + 1} "
                   f"of {len(order)}, expected after its parent {names_of([parent], labels)[0]}, at place "
                   f"{position[id(parent)] + 1}: a node comes before its parent; list a node only after all "
                   "of its parents")
    return order


def test_leaf(user):
    """a leaf node's order is just the leaf"""
    x = Value(1.0)
    order = user.topological_order(x)
    expect("topological_order(x) for a leaf x", order, [x], check="a node with no parents is listed alone")


def test_diamond(user):
    """the diamond: every node once, parents first"""
    a, b, c, d = diamond(Value)
    check_order(user, d, "the diamond", {id(a): "a", id(b): "b", id(c): "c", id(d): "d"})


def test_neuron(user):
    """a neuron tanh(x1*w1 + x2*w2 + b): every node once, parents first"""
    leaves, o = neuron(Value)
    labels = dict(zip(map(id, leaves), ["x1", "w1", "x2", "w2", "b"]))
    labels[id(o)] = "o"
    check_order(user, o, "the neuron", labels)


def test_long_chain(user):
    """a chain of 5,000 additions works (no recursion limit)"""
    x0, x = chain(Value, 5000)
    try:
        order = user.topological_order(x)
    except RecursionError:  # raised in the reader's code; this message says what to do instead
        raise Fail(f"topological_order(x) for a chain of 5,000 additions raised RecursionError, expected a "
                   f"list of {len(reference_order(x)):,} nodes: Python allows about 1,000 nested calls; use a "
                   "loop with your own stack (a list) instead of recursion") from None
    expect("the number of nodes listed for the chain", len(order) if isinstance(order, list) else order,
           len(reference_order(x)), check="5,000 additions, 5,000 constants and x0: 10,001 nodes")
    check_order(user, x, "the chain", {id(x0): "x0", id(x): "the last node"})

# ---- hints ----
# - Without recursion, how can you come back to a node after all of its parents have been
#   listed, so that it is listed after them?
# - Pop a node. The first time you meet it, mark it visited, push it back, push a marker on top
#   of it, then push its parents above the marker: they are popped, and listed, before the
#   marker comes up. When the marker comes up, the node under it is ready: list it. The visited
#   set keeps a node reached along two paths, like the diamond's $a$, from being expanded or
#   listed twice.
# - The marker can be `None`: `if node is None: order.append(stack.pop())`; for a node not yet
#   in `visited`: `visited.add(node)`, `stack.append(node)`, `stack.append(None)`,
#   `stack.extend(node._prev)`.

# ---- mistake: no visited set ----
# message: appears 2 times
# replace:
#         elif node not in visited:
#             visited.add(node)
# with:
#         else:

# ---- mistake: recursion ----
# message: RecursionError
# replace:
#     order, visited, stack = [], set(), [root]
#     while stack:
#         node = stack.pop()
#         if node is None:               # marker: all parents of the node below it are listed
#             order.append(stack.pop())
#         elif node not in visited:
#             visited.add(node)
#             stack.append(node)         # come back to it...
#             stack.append(None)         # ...after its parents, which go on top
#             stack.extend(node._prev)
#     return order
# with:
#     order, visited = [], set()
#
#     def visit(node):
#         if node not in visited:
#             visited.add(node)
#             for parent in node._prev:
#                 visit(parent)
#             order.append(node)
#
#     visit(root)
#     return order

# ---- mistake: listed before its parents ----
# message: a node comes before its parent
# replace:
#         if node is None:               # marker: all parents of the node below it are listed
#             order.append(stack.pop())
#         elif node not in visited:
#             visited.add(node)
# with:
#         if node is None:
#             stack.pop()
#         elif node not in visited:
#             visited.add(node)
#             order.append(node)

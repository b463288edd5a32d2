"""The chain rule on paths, as a program

The rule of this chapter has two halves: multiply the local derivatives
along a path, then add up the paths. Turn it into a function.
`derivative_by_paths(root, leaf)` returns $\\partial\\,\\text{root} /
\\partial\\,\\text{leaf}$ without calling `backward()`: it walks down from
the root along every edge (`node._prev` are a node's parents, `node._local`
the local derivatives of the edges from them), follows every path that ends
at `leaf`, and adds up the products.

The walk keeps a stack of pairs: a node it reached, and the product of the
local derivatives of the edges crossed from the root down to it. The root
starts with 1, because $\\partial\\,\\text{root} / \\partial\\,\\text{root} = 1$.
The tests compare your number with `backward()`'s on the chapter's graphs.
"""

# ---- kind: build ----

# ---- starter ----
def derivative_by_paths(root, leaf):
    """d root / d leaf, a float: over every path from leaf to root,
    the product of the local derivatives along it, summed."""
    total = 0.0
    # (a node reached, the product of the locals down to it)
    stack = [(root, 1.0)]
    while stack:
        node, product = stack.pop()
        if node is leaf:
            ...  # one whole path is done
        for parent, local in zip(node._prev, node._local):
            ...  # one edge further down
    return total

# ---- solution ----
def derivative_by_paths(root, leaf):
    """d root / d leaf, a float: over every path from leaf to root,
    the product of the local derivatives along it, summed."""
    total = 0.0
    # (a node reached, the product of the locals down to it)
    stack = [(root, 1.0)]
    while stack:
        node, product = stack.pop()
        if node is leaf:
            total += product  # one whole path: add it to the others
        for parent, local in zip(node._prev, node._local):
            # crossing an edge multiplies by its local derivative
            stack.append((parent, product * local))
    return total

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect

ADD = "the paths were not added up: each time the walk reaches the leaf, add that path's product to the total"
MULTIPLY = ("that is the number of paths: crossing an edge must multiply the product by the edge's "
            "local derivative")
RULE = "the sum over the paths of the product of the local derivatives along each"


def by_paths(root, leaf, add=True, multiply=True):
    """The walk of the solution, with one of the classic slips: add=False keeps only the last
    path's product (=, not +=); multiply=False never multiplies by a local derivative."""
    total, stack = 0.0, [(root, 1.0)]
    while stack:
        node, product = stack.pop()
        if node is leaf:
            total = total + product if add else product
        stack.extend((parent, product * local if multiply else product)
                     for parent, local in zip(node._prev, node._local))
    return total


def check(user, root, leaf, what):
    root.backward()
    got = user.derivative_by_paths(root, leaf)
    if got is None:
        raise Fail(f"derivative_by_paths for {what} returned None, expected {leaf.grad:g}: return the total")
    expect(f"derivative_by_paths for {what}", got, leaf.grad,
           likely=[(by_paths(root, leaf, add=False), ADD), (by_paths(root, leaf, multiply=False), MULTIPLY)],
           check=RULE)


def test_a_chain(user):
    """the car, the bicycle and the human: z = 2 * (4 * x), dz/dx = 8"""
    x = Value(5.0)
    check(user, 2 * (4 * x), x, "z = 2 * (4 * x)")


def test_a_value_used_twice(user):
    """y = x * x at x = 3: two paths of 3 each"""
    x = Value(3.0)
    check(user, x * x, x, "y = x * x at x = 3")


def test_two_leaves(user):
    """z = a * b + a at a = 2, b = -3: a has two paths, b one"""
    a, b = Value(2.0), Value(-3.0)
    check(user, a * b + a, a, "z = a * b + a, with respect to a")
    a, b = Value(2.0), Value(-3.0)
    check(user, a * b + a, b, "z = a * b + a, with respect to b")


def test_the_slope_14(user):
    """3x**2 - 4x + 5 at x = 3: the paths through the square and through 4x"""
    x = Value(3.0)
    check(user, 3 * x**2 - 4 * x + 5, x, "3x**2 - 4x + 5 at x = 3")


def test_the_loss_of_the_chapter(user):
    """(w1*x1 + w2*x2 + b - t)**2: every leaf, as one backward pass gives them"""
    names = ["w1", "w2", "b", "x1", "x2", "t"]
    for i, name in enumerate(names):
        w1, w2, b, x1, x2, t = (Value(v) for v in (0.5, 3.0, 1.0, 2.0, -1.0, 4.0))
        leaves = [w1, w2, b, x1, x2, t]
        check(user, (w1 * x1 + w2 * x2 + b - t) ** 2, leaves[i], f"the chapter's loss, with respect to {name}")


def test_paths_that_multiply(user):
    """five stages of y = y * 3 + y: 32 paths, each a product of 3s and 1s"""
    x = Value(1.0)
    y = x
    for _ in range(5):
        y = y * 3 + y
    assert by_paths(y, x, multiply=False) == 2 ** 5  # what the test's name says: 32 paths
    check(user, y, x, "five stages of y = y * 3 + y")

# ---- hints ----
# - Along one path, do the local derivatives add or multiply? And when two paths lead from
#   the leaf to the root, what becomes of their two products?
# - Walk down from the root, carrying for each node reached the product of the local
#   derivatives of the edges crossed so far; crossing one more edge multiplies it by that
#   edge's local derivative. Each arrival at the leaf completes one path: add its product to
#   the total.
# - `total += product` when `node is leaf`, and `stack.append((parent, product * local))` for
#   every edge.

# ---- mistake: = instead of += ----
# message: the paths were not added up
# replace: total += product  # one whole path: add it to the others
# with: total = product

# ---- mistake: the local derivatives not multiplied ----
# message: that is the number of paths
# replace: stack.append((parent, product * local))
# with: stack.append((parent, product))

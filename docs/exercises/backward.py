"""`backward()`: seed, then reverse topological order

Put the pieces together. `backward(root)` fills in the `.grad` of every node
`root` depends on, in three steps:

1. sort: list the nodes in topological order (`topological_order` is
   imported for you: micrograd's, the same as the one you wrote);
2. seed: the root's gradient is 1, because $\\partial L / \\partial L = 1$;
3. walk the list in reverse, and on each node apply the chain rule to every
   edge into it, as `propagate` did.

Leaf nodes start with `.grad` 0.0 in every test.
"""

# ---- kind: build ----

# ---- starter ----
from micrograd.engine import topological_order


def backward(root):
    """Fill in .grad of every node root depends on; returns None."""
    order = topological_order(root)
    ...

# ---- solution ----
from micrograd.engine import topological_order


def backward(root):
    """Fill in .grad of every node root depends on; returns None."""
    order = topological_order(root)
    root.grad = 1.0                      # dL/dL = 1
    for node in reversed(order):         # every node before its parents
        for parent, local in zip(node._prev, node._local):
            parent.grad += local * node.grad

# ---- tests ----
from micrograd.engine import Value

from scripts.reader.exercise_checks import chain, diamond, expect, grads_by_rule, kite, neuron, zero_grads

ORDER = ("a node passed its gradient on before every contribution had arrived: visit the nodes "
         "in reverse topological order, so each node is complete when its turn comes")
RULE = ("root.grad = 1.0 first, then every edge adds local * node.grad to its parent's grad (+=), "
        "the nodes visited in reverse topological order")
ACCUMULATE = "a value used twice needs +=, not =: each edge adds its share"
SEED = "seed the root first: root.grad = 1.0, because dL/dL = 1"


def check_leaf(user, root, leaf, what):
    """Run the reader's backward(root) and compare leaf.grad with micrograd's rule.

    The wrong numbers of the classic mistakes are computed first, on the same
    graph, by the engine's rule with one thing changed.
    """
    right = grads_by_rule(root, [leaf])[0]
    wrong = [(grads_by_rule(root, [leaf], accumulate=False)[0], ACCUMULATE)]
    wrong += [(grads_by_rule(root, [leaf], order=order)[0], ORDER) for order in ("topological", "depth first")]
    zero_grads(root)
    user.backward(root)
    if root.grad != 1.0:
        wrong.insert(0, (leaf.grad, SEED))  # whatever the leaf got, the seed is the first thing to fix
    expect(what, leaf.grad, right, likely=wrong, check=RULE)


def test_seed(user):
    """the root's own gradient is 1"""
    x = Value(3.0)
    y = x * 2
    user.backward(y)
    expect("y.grad after backward(y)", y.grad, 1.0, likely=[(0.0, SEED)], check=RULE)


def test_a_value_used_twice(user):
    """b = a * a gives a.grad = 2a = 6"""
    a = Value(3.0)
    check_leaf(user, a * a, a, "a.grad for b = a * a with a = 3")


def test_diamond(user):
    """the diamond gives a.grad = 15"""
    a, b, c, d = diamond(Value)
    check_leaf(user, d, a, "a.grad in the diamond d = (a + 1) * (3 * a), a = 2")


def test_order_matters(user):
    """g = (2x + x) * 2x: the node 2x must wait for both of its uses"""
    x, e, f, g = kite(Value)
    check_leaf(user, g, x, "x.grad for g = (2x + x) * 2x at x = 3")


def test_neuron(user):
    """the neuron: the same gradients as micrograd's backward()"""
    leaves, o = neuron(Value)
    for name, leaf in zip(["x1", "w1", "x2", "w2", "b"], leaves):
        check_leaf(user, o, leaf, f"{name}.grad in the neuron")


def test_long_chain(user):
    """a chain of 5,000 additions: x0.grad = 1"""
    x0, x = chain(Value, 5000)
    forward = grads_by_rule(x, [x0], order="topological")[0]  # the order not reversed
    zero_grads(x)
    user.backward(x)
    expect("x.grad, the root's, after backward(x)", x.grad, 1.0, likely=[(0.0, SEED)], check=RULE)
    expect("x0.grad at the start of the chain", x0.grad, 1.0, likely=[(forward, ORDER)], check=RULE)

# ---- hints ----
# - When the walk reaches a node, what must already have happened to every node that uses it?
#   And what is the gradient of the loss with respect to the loss itself?
# - Seed the root with $\partial L / \partial L = 1$. Then walk the topological order from its
#   end back to its start: a node comes up only after every node that uses it, so its gradient
#   is complete when its turn comes. At each node, every parent's gradient grows by the edge's
#   local derivative times the node's own gradient.
# - In code: `root.grad = 1.0`, then `for node in reversed(order):` and inside it `for parent,
#   local in zip(node._prev, node._local): parent.grad += local * node.grad`.

# ---- mistake: no seed ----
# message: seed the root
# replace: root.grad = 1.0                      # dL/dL = 1
# with:

# ---- mistake: = instead of += ----
# message: needs +=, not =
# replace: parent.grad += local * node.grad
# with: parent.grad = local * node.grad

# ---- mistake: order not reversed ----
# message: reverse topological order
# replace: for node in reversed(order):         # every node before its parents
# with: for node in order:

# ---- mistake: no topological sort ----
# message: reverse topological order
# replace:
#     order = topological_order(root)
#     root.grad = 1.0                      # dL/dL = 1
#     for node in reversed(order):         # every node before its parents
#         for parent, local in zip(node._prev, node._local):
#             parent.grad += local * node.grad
# with:
#     root.grad = 1.0
#     stack, seen = [root], {root}
#     while stack:                         # depth first from the root, no sort
#         node = stack.pop()
#         for parent, local in zip(node._prev, node._local):
#             parent.grad += local * node.grad
#             if parent not in seen:
#                 seen.add(parent)
#                 stack.append(parent)

"""One chain-rule step: `+=`, not `=`

The backward pass visits the nodes one at a time. At each node it applies
the chain rule to every edge into the node: the parent's gradient grows by
the local derivative of the edge times the node's own gradient, the
upstream gradient. Write `propagate(node)`, which does that for one node.
It returns nothing; it changes the parents' `.grad`.

The tests call it on graphs of micrograd Values, whose fields are the ones
you built: `._prev`, `._local`, `.grad`.
"""

# ---- kind: build ----

# ---- starter ----
def propagate(node):
    """Pass node.grad on to node's parents: the chain rule on each edge into node."""
    for parent, local in zip(node._prev, node._local):
        ...

# ---- solution ----
def propagate(node):
    """Pass node.grad on to node's parents: the chain rule on each edge into node."""
    for parent, local in zip(node._prev, node._local):
        parent.grad += local * node.grad

# ---- tests ----
from micrograd.engine import Value, topological_order

from scripts.reader.exercise_checks import diamond, expect, grads_by_rule

ACCUMULATE = "a value used twice needs +=, not =: each edge adds its share"
UPSTREAM = "multiply the local derivative by node.grad, the upstream gradient"
NO_LOCAL = ("the local derivative is missing: the parent's grad grows by local * node.grad, "
            "not by node.grad alone")
RULE = "each edge adds local * node.grad to its parent's grad (+=)"


def without_local(node, parent):
    """What `parent.grad += node.grad` (no local derivative) adds to `parent` from `node`."""
    return sum(node.grad for p in node._prev if p is parent)


def test_one_edge(user):
    """y = a * b: a gets b's value and b gets a's value"""
    a, b = Value(2.0), Value(-3.0)
    y = a * b
    y.grad = 1.0
    user.propagate(y)
    expect("a.grad", a.grad, b.data, likely=[(1.0, NO_LOCAL)],
           check="the edge from a carries the local derivative b")
    expect("b.grad", b.grad, a.data, likely=[(1.0, NO_LOCAL)],
           check="the edge from b carries the local derivative a")


def test_upstream_gradient(user):
    """the local derivative is multiplied by the node's gradient"""
    a, b = Value(2.0), Value(-3.0)
    y = a * b
    y.grad = 2.0  # as if y fed into 2 * y further on
    user.propagate(y)
    expect("a.grad with y.grad = 2", a.grad, 2.0 * b.data,
           likely=[(b.data, UPSTREAM), (without_local(y, a), NO_LOCAL)], check=RULE)


def test_a_value_used_twice(user):
    """b = a * a: both edges start at a, and both count"""
    a = Value(3.0)
    b = a * a
    right = grads_by_rule(b, [a])[0]                    # the real engine's graph, with +=
    wrong = grads_by_rule(b, [a], accumulate=False)[0]  # and with =
    a.grad, b.grad = 0.0, 1.0
    user.propagate(b)
    expect("a.grad for b = a * a with a = 3", a.grad, right,
           likely=[(wrong, ACCUMULATE), (without_local(b, a), NO_LOCAL)], check=RULE)


def test_keeps_what_arrived_earlier(user):
    """a gradient that arrived along another path is kept"""
    a, b = Value(2.0), Value(-3.0)
    y = a * b
    a.grad = 1.5  # already sent by another path
    y.grad = 1.0
    user.propagate(y)
    expect("a.grad (it held 1.5 before)", a.grad, 1.5 + b.data,
           likely=[(b.data, "= threw away the 1.5 that a already had from another path: use +="),
                   (1.5, "nothing was added: the parent's grad must grow by local * node.grad"),
                   (1.5 + without_local(y, a), NO_LOCAL)],
           check=RULE)


def test_whole_diamond(user):
    """the diamond: propagate on every node in reverse topological order gives a.grad = 15"""
    a, b, c, d = diamond(Value)
    right = grads_by_rule(d, [a])[0]
    wrong = grads_by_rule(d, [a], accumulate=False)[0]
    for node in topological_order(d):
        node.grad = 0.0
    d.grad = 1.0
    for node in reversed(topological_order(d)):
        user.propagate(node)
    expect("a.grad in the diamond d = (a + 1) * (3 * a), a = 2", a.grad, right,
           likely=[(wrong, ACCUMULATE)], check=RULE)

# ---- hints ----
# - The chain rule multiplies two numbers for each edge into the node: which two? And when a
#   parent is reached by two edges, should the second edge's share replace the first one's?
# - The parent's gradient grows by the edge's local derivative times the upstream gradient, the
#   node's own gradient: $\frac{\partial L}{\partial p} \mathrel{+}= \frac{\partial n}{\partial
#   p} \cdot \frac{\partial L}{\partial n}$. It grows, and is not overwritten, because a value
#   used twice, as in $b = a \cdot a$, gets a share from each use.
# - One line inside the loop: `parent.grad += local * node.grad`. With `=` instead of `+=`, the
#   second edge out of `a` in `b = a * a` overwrites the first one's share.

# ---- mistake: = instead of += ----
# message: needs +=, not =
# replace: parent.grad += local * node.grad
# with: parent.grad = local * node.grad

# ---- mistake: the upstream gradient forgotten ----
# message: upstream gradient
# replace: parent.grad += local * node.grad
# with: parent.grad += local

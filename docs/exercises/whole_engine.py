"""The whole engine, from blanks

Now write the engine yourself, in one piece and from blanks: the
constructor, the six operations with their local derivatives, the
topological sort and `backward()`. The derived operations (`-`, `/`, and a
number on the left, as in `2 * a`) are given: they are built from the others. When every test passes, your `Value` computes the same gradients as
`micrograd/engine.py`, on every graph the tests build, including a chain of
5,000 operations.
"""

# ---- kind: build ----

# ---- starter ----
import math


class Value:
    """One scalar node of a computation graph."""

    __slots__ = ("data", "grad", "label", "_prev", "_local", "_op")

    def __init__(self, data, label="", _prev=(), _local=(), _op=""):
        ...

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        ...

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        ...

    def __pow__(self, n):  # n is a plain number
        ...

    def tanh(self):
        ...

    def exp(self):
        ...

    def relu(self):
        ...

    def backward(self):
        """Fill in .grad of every node this Value depends on; returns None."""
        ...

    # Derived operations: built from the ones above, no calculus of their own.
    def __neg__(self): return self * -1                       # -self
    def __radd__(self, other): return self + other            # other + self
    def __sub__(self, other): return self + (-other)          # self - other
    def __rsub__(self, other): return other + (-self)         # other - self
    def __rmul__(self, other): return self * other            # other * self
    def __truediv__(self, other): return self * other ** -1   # self / other
    def __rtruediv__(self, other): return other * self ** -1  # other / self


def topological_order(root):
    """Every node root depends on, parents before children, as a list."""
    ...

# ---- solution ----
# --8<-- [start:engine]
import math


class Value:
    """One scalar node of a computation graph."""

    __slots__ = ("data", "grad", "label", "_prev", "_local", "_op")

    def __init__(self, data, label="", _prev=(), _local=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._prev = _prev    # the parents
        self._local = _local  # d self / d parent, one number per parent
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")

    def __pow__(self, n):  # n is a plain number
        return Value(self.data ** n, "", (self,), (n * self.data ** (n - 1),), f"**{n}")

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, "", (self,), (1.0 - t * t,), "tanh")

    def exp(self):
        e = math.exp(self.data)
        return Value(e, "", (self,), (e,), "exp")

    def relu(self):
        out = self.data if self.data > 0 else 0.0
        return Value(out, "", (self,), (1.0 if self.data > 0 else 0.0,), "ReLU")

    def backward(self):
        """Fill in .grad of every node this Value depends on; returns None."""
        order = topological_order(self)
        self.grad = 1.0
        for node in reversed(order):
            for parent, local in zip(node._prev, node._local):
                parent.grad += local * node.grad

    # Derived operations: built from the ones above, no calculus of their own.
    def __neg__(self): return self * -1                       # -self
    def __radd__(self, other): return self + other            # other + self
    def __sub__(self, other): return self + (-other)          # self - other
    def __rsub__(self, other): return other + (-self)         # other - self
    def __rmul__(self, other): return self * other            # other * self
    def __truediv__(self, other): return self * other ** -1   # self / other
    def __rtruediv__(self, other): return other * self ** -1  # other / self


def topological_order(root):
    """Every node root depends on, parents before children, as a list."""
    order, visited, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node is None:
            order.append(stack.pop())
        elif node not in visited:
            visited.add(node)
            stack.append(node)
            stack.append(None)
            stack.extend(node._prev)
    return order
# --8<-- [end:engine]

# ---- tests ----
from micrograd.engine import Value as Ref

from scripts.reader.exercise_checks import Fail, chain, diamond, expect, expect_value, grads_by_rule, kite, neuron, zero_grads

ACCUMULATE = "a value used twice needs +=, not =: each edge adds its share"
ORDER = ("a node passed its gradient on before every contribution had arrived: visit the nodes "
         "in reverse topological order, so each node is complete when its turn comes")
RULE = ("backward() sets self.grad = 1.0, then every edge adds local * node.grad to its parent's grad "
        "(+=), the nodes visited in reverse topological order")
DIFFERS = "each operation's forward value and local derivatives, and backward(), against micrograd's"
TANH_FROM_INPUT = "tanh's local derivative is 1 - t**2 with t = tanh(x), the output, not the input x"


def test_fields(user):
    """Value(2, label="a") holds data 2.0, grad 0.0, the label, and no parents"""
    a = user.Value(2, label="a")
    for field, expected in [("data", 2.0), ("grad", 0.0), ("label", "a"), ("_prev", ()), ("_local", ())]:
        expect(f"a.{field}", getattr(a, field, None), expected,
               check="the constructor stores float(data), grad 0.0, and the other arguments as given")
    expect("type(a.data)", type(a.data).__name__, "float", check="store float(data)")


def test_local_derivatives(user):
    """each operation stores micrograd's local derivatives"""
    cases = [("a + b", lambda a, b: a + b), ("a * b", lambda a, b: a * b), ("a ** 3", lambda a, b: a ** 3),
             ("a.tanh()", lambda a, b: a.tanh()), ("a.exp()", lambda a, b: a.exp()),
             ("a.relu()", lambda a, b: a.relu()), ("b.relu()", lambda a, b: b.relu())]
    for text, op in cases:
        mine = expect_value(text, op(user.Value(0.5), user.Value(-3.0)), user.Value)
        ref = op(Ref(0.5), Ref(-3.0))
        expect(f"({text}).data with a = 0.5, b = -3", mine.data, ref.data)
        likely = [((1 - 0.25,), TANH_FROM_INPUT)] if "tanh" in text else []
        expect(f"({text})._local with a = 0.5, b = -3", mine._local, ref._local, likely=likely)


def test_a_value_used_twice(user):
    """b = a * a gives a.grad = 6"""
    a = user.Value(3.0)
    (a * a).backward()
    r = Ref(3.0)
    rb = r * r
    wrong = grads_by_rule(rb, [r], accumulate=False)[0]
    expect("a.grad for b = a * a with a = 3", a.grad, grads_by_rule(rb, [r])[0],
           likely=[(wrong, ACCUMULATE)], check=RULE)


def test_graphs_that_need_the_order(user):
    """the diamond and the kite: every contribution arrives"""
    for name, build in [("the diamond", diamond), ("g = (2x + x) * 2x", kite)]:
        mine, ref = build(user.Value), build(Ref)
        mine[-1].backward()
        likely = [(grads_by_rule(ref[-1], [ref[0]], accumulate=False)[0], ACCUMULATE)]
        likely += [(grads_by_rule(ref[-1], [ref[0]], order=order)[0], ORDER)
                   for order in ("topological", "depth first")]
        zero_grads(ref[-1])
        ref[-1].backward()
        expect(f"the first leaf's grad in {name}", mine[0].grad, ref[0].grad, likely=likely, check=RULE)


def test_neuron(user):
    """the neuron tanh(x1*w1 + x2*w2 + b): micrograd's gradients"""
    leaves, o = neuron(user.Value)
    o.backward()
    ref_leaves, ref_o = neuron(Ref)
    ref_o.backward()
    expect("o.data", o.data, ref_o.data, check=DIFFERS)
    for name, mine, ref in zip(["x1", "w1", "x2", "w2", "b"], leaves, ref_leaves):
        expect(f"{name}.grad in the neuron", mine.grad, ref.grad, check=DIFFERS)


def test_every_operation(user):
    """an expression with every operation: micrograd's gradients"""
    def expression(V):
        a, b, c = V(0.7), V(-1.3), V(2.0)
        y = (a * b + c).tanh() + (a - b) ** 2 / c + (2 - a).exp() * (b + 3).relu() - 1 / c
        return [a, b, c], y

    leaves, y = expression(user.Value)
    y.backward()
    ref_leaves, ref_y = expression(Ref)
    ref_y.backward()
    expect("y.data", y.data, ref_y.data, check=DIFFERS)
    for name, mine, ref in zip("abc", leaves, ref_leaves):
        expect(f"{name}.grad", mine.grad, ref.grad, check=DIFFERS)


def test_long_chain(user):
    """a chain of 5,000 additions: backward() works, x0.grad = 1"""
    x0, x = chain(user.Value, 5000)
    try:
        x.backward()
    except RecursionError:  # raised in the reader's code; this message says what to do instead
        raise Fail("x.backward() on a chain of 5,000 additions raised RecursionError, expected x0.grad = 1.0: "
                   "Python allows about 1,000 nested calls; sort with a loop over your own stack (a list), "
                   "not recursion") from None
    ref0, ref = chain(Ref, 5000)
    forward = grads_by_rule(ref, [ref0], order="topological")[0]  # the order not reversed
    expect("x0.grad at the start of the chain", x0.grad, 1.0, likely=[(forward, ORDER)], check=RULE)

# ---- hints ----
# - Which earlier exercise of this chapter already holds each piece, and what must every
#   operation store besides its output number?
# - The constructor keeps the number as a float, starts the gradient at 0 and keeps the rest as
#   given. Each operation returns a new node with its output, its parents and one local
#   derivative per parent, as in the first two exercises. The backward pass seeds the root with
#   1, walks the topological order in reverse, and adds local derivative times upstream gradient
#   into each parent. The sort loops over its own stack, as in the topological-sort exercise,
#   since recursion stops at about 1,000 nested calls.
# - In code: `self.data = float(data)` and `self.grad = 0.0`; each operation is one `return
#   Value(output, "", parents, local_derivatives, op)`; `backward()` is `order =
#   topological_order(self)`, `self.grad = 1.0`, then `parent.grad += local * node.grad` for
#   every edge, over `reversed(order)`.

# ---- mistake: = instead of += ----
# message: needs +=, not =
# replace: parent.grad += local * node.grad
# with: parent.grad = local * node.grad

# ---- mistake: tanh's derivative from the input ----
# message: not the input x
# replace: return Value(t, "", (self,), (1.0 - t * t,), "tanh")
# with: return Value(t, "", (self,), (1.0 - self.data ** 2,), "tanh")

# ---- mistake: no reverse order ----
# message: reverse topological order
# replace: for node in reversed(order):
# with: for node in order:

# ---- mistake: recursive sort ----
# message: RecursionError
# replace:
#     order, visited, stack = [], set(), [root]
#     while stack:
#         node = stack.pop()
#         if node is None:
#             order.append(stack.pop())
#         elif node not in visited:
#             visited.add(node)
#             stack.append(node)
#             stack.append(None)
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

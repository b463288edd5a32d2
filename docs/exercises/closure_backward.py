"""Build micrograd 0.1.0's design: a `_backward` closure per node

In the design of micrograd 0.1.0 and of the lecture, an operation stores no
local derivatives. It defines a small function, `_backward`, inside itself,
which remembers `self`, `other` and `out`, and which pushes `out.grad` into
the parents when `backward()` calls it. `__add__` and `backward()` are
written below; write the closures of `__mul__`, `tanh` and `relu`, in the
same shape.

The tests build the same graphs from your class and from micrograd's
`Value`, run `backward()` on both, and compare every gradient.
"""

# ---- kind: build ----

# ---- starter ----
import math


class ClosureValue:
    """micrograd 0.1.0's design: a _backward closure per node."""

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        if not isinstance(other, ClosureValue):
            other = ClosureValue(other)
        out = ClosureValue(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        if not isinstance(other, ClosureValue):
            other = ClosureValue(other)
        out = ClosureValue(self.data * other.data, (self, other), "*")

        def _backward():
            ...
        out._backward = _backward
        return out

    def tanh(self):
        out = ClosureValue(math.tanh(self.data), (self,), "tanh")

        def _backward():
            ...
        out._backward = _backward
        return out

    def relu(self):
        positive = self.data if self.data > 0 else 0.0
        out = ClosureValue(positive, (self,), "ReLU")

        def _backward():
            ...
        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other

# ---- solution ----
import math


class ClosureValue:
    """micrograd 0.1.0's design: a _backward closure per node."""

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        if not isinstance(other, ClosureValue):
            other = ClosureValue(other)
        out = ClosureValue(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        if not isinstance(other, ClosureValue):
            other = ClosureValue(other)
        out = ClosureValue(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad   # d(xy)/dx = y
            other.grad += self.data * out.grad   # d(xy)/dy = x
        out._backward = _backward
        return out

    def tanh(self):
        out = ClosureValue(math.tanh(self.data), (self,), "tanh")

        def _backward():
            # 1 - t², t the output
            self.grad += (1.0 - out.data ** 2) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        positive = self.data if self.data > 0 else 0.0
        out = ClosureValue(positive, (self,), "ReLU")

        def _backward():
            # slope 1 where the input was positive, else 0
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, grads_by_rule, neuron

ACCUMULATE = "a value used twice needs +=, not =: each edge adds its share"
SWAP = "each factor's share is the other factor's data times out.grad: d(x*y)/dx = y"
UPSTREAM = "multiply the local derivative by out.grad, the upstream gradient"
TANH_FROM_INPUT = "tanh's local derivative is 1 - t**2 with t = out.data, the output, not the input self.data"
GATE = "relu passes out.grad on only where its input was positive: multiply by (out.data > 0)"
RULE = "each closure adds local derivative * out.grad to each parent's grad (+=)"


def run_both(user, build):
    """build(cls) -> (leaves, root) on the reader's class and on micrograd's; backward() on both;
    returns (the reader's leaves, micrograd's leaves, micrograd's root)."""
    mine, root = build(user.ClosureValue)
    if not hasattr(root, "backward"):
        raise Fail(f"the operation returned {root!r}, expected a ClosureValue: does it `return out`?")
    root.backward()
    theirs, ref_root = build(Value)
    ref_root.backward()
    return mine, theirs, ref_root


def product(V):
    a, b = V(2.0), V(-3.0)
    return (a, b), a * b


def square(V):
    a = V(3.0)
    return (a,), a * a


def test_mul(user):
    """a * b with a = 2, b = -3: each factor gets the other's value"""
    (a, b), (ra, rb), _ = run_both(user, product)
    expect("a.grad for a * b", a.grad, ra.grad, likely=[(2.0, SWAP), (1.0, UPSTREAM)], check=RULE)
    expect("b.grad for a * b", b.grad, rb.grad, likely=[(-3.0, SWAP), (1.0, UPSTREAM)], check=RULE)


def test_a_value_used_twice(user):
    """a * a with a = 3: both edges count"""
    (a,), (ra,), ref_root = run_both(user, square)
    right = ra.grad
    wrong = grads_by_rule(ref_root, [ra], accumulate=False)[0]
    expect("a.grad for a * a with a = 3", a.grad, right, likely=[(wrong, ACCUMULATE)], check=RULE)


def test_upstream(user):
    """(a * b) * 4: the product's closure multiplies by out.grad"""
    (a, b), (ra, rb), _ = run_both(user, lambda V: (lambda a, b: ((a, b), (a * b) * 4))(V(2.0), V(-3.0)))
    expect("a.grad for (a * b) * 4", a.grad, ra.grad, likely=[(rb.data, UPSTREAM)], check=RULE)


def test_tanh(user):
    """tanh(0.5): 1 - t² from the output t"""
    (x,), (rx,), _ = run_both(user, lambda V: (lambda v: ((v,), v.tanh()))(V(0.5)))
    expect("x.grad for tanh(x) at x = 0.5", x.grad, rx.grad, likely=[(1 - 0.5 ** 2, TANH_FROM_INPUT)],
           check="d tanh(x)/dx = 1 - t**2, t = tanh(x)")


def test_relu(user):
    """relu at 1.5 and at -2: the gradient passes, or stops"""
    for value in (1.5, -2.0):
        (x,), (rx,), _ = run_both(user, lambda V: (lambda v: ((v,), (v * 3).relu()))(V(value)))
        expect(f"x.grad for relu(3x) at x = {value}", x.grad, rx.grad, likely=[(3.0, GATE)],
               check="d relu(u)/du is 1 where u > 0, else 0")


def test_neuron(user):
    """the neuron tanh(x1*w1 + x2*w2 + b): micrograd's gradients"""
    mine, root = neuron(user.ClosureValue)
    root.backward()
    theirs, ref_root = neuron(Value)
    ref_root.backward()
    for name, leaf, ref in zip(["x1", "w1", "x2", "w2", "b"], mine, theirs):
        expect(f"{name}.grad in the neuron", leaf.grad, ref.grad, check=RULE)

# ---- hints ----
# - When backward calls a closure, the output's gradient is complete. Which two numbers does each
#   parent's share need, and where does the closure find them?
# - A parent's gradient grows by the local derivative times the output's gradient. For a product,
#   each factor's local derivative is the other factor's value; for tanh it is $1 - t^2$ with $t$
#   the output; for ReLU it is 1 where the output is positive, else 0. Grow with an addition, never
#   replace: a value used twice gets a share from each use.
# - In `__mul__`: `self.grad += other.data * out.grad` and `other.grad += self.data * out.grad`.
#   In `tanh`: `self.grad += (1.0 - out.data ** 2) * out.grad`. In `relu`:
#   `self.grad += (out.data > 0) * out.grad`.

# ---- mistake: = instead of += ----
# message: needs +=, not =
# replace:
#     self.grad += other.data * out.grad   # d(xy)/dx = y
#     other.grad += self.data * out.grad   # d(xy)/dy = x
# with:
#     self.grad = other.data * out.grad
#     other.grad = self.data * out.grad

# ---- mistake: tanh's derivative from the input ----
# message: not the input self.data
# replace: self.grad += (1.0 - out.data ** 2) * out.grad
# with: self.grad += (1.0 - self.data ** 2) * out.grad

# ---- mistake: relu without its gate ----
# message: relu passes out.grad on only where its input was positive
# replace: self.grad += (out.data > 0) * out.grad
# with: self.grad += out.grad

# ---- mistake: each factor's own value ----
# message: each factor's share is the other factor's data
# replace:
#     self.grad += other.data * out.grad   # d(xy)/dx = y
#     other.grad += self.data * out.grad   # d(xy)/dy = x
# with:
#     self.grad += self.data * out.grad
#     other.grad += other.data * out.grad

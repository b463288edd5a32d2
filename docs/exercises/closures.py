"""Write the `_backward` closures

Here is a `Value` in the shape of Karpathy's lecture and micrograd 0.1.0: no
stored local derivatives. Each operation makes its output `out`, then
defines a small function `_backward` that, when it is called, pushes
`out.grad` into the inputs, and stores it on `out`. `backward()` is written
for you: it seeds the root and calls every node's `_backward` in reverse
topological order. Fill in the bodies of the three closures (`+`, `*` and
`tanh`); replace every `...`.
"""

# ---- kind: build ----

# ---- starter ----
import math


class Value:
    """One scalar node: its number, its gradient, its inputs and a function that fills their grads."""

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None  # a leaf has no inputs to fill
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += ...
            other.grad += ...
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += ...
            other.grad += ...
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += ...
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(node):  # depth first: a node is listed after all of its inputs
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()

# ---- solution ----
import math


class Value:
    """One scalar node: its number, its gradient, its inputs and a function that fills their grads."""

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None  # a leaf has no inputs to fill
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(node):  # depth first: a node is listed after all of its inputs
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()

# ---- tests ----
from micrograd.engine import Value as Ref

from scripts.reader.exercise_checks import expect, expect_value

ADD_RULE = "an add closure hands out.grad to both inputs unchanged: local derivative 1 each"
MUL_RULE = "a multiply closure gives each input the OTHER input's data times out.grad"
UPSTREAM = "each closure multiplies its local derivative by out.grad, the upstream gradient"
WHEN = ("out.grad was read when the operation ran, before backward() filled it: "
        "read out.grad inside _backward, when it is called")
ACCUMULATE = "a value used twice needs +=, not =: each use adds its share"
TANH_RULE = "tanh's local derivative is 1 - t**2, read off the output t, not the input x"


def reference(build, *numbers):
    """The grads of the leaves that micrograd's own engine gives for build(*leaves)."""
    leaves = [Ref(x) for x in numbers]
    build(*leaves).backward()
    return tuple(leaf.grad for leaf in leaves)


def grads(user, build, *numbers):
    """The grads of the leaves that the reader's Value gives for build(*leaves)."""
    leaves = [user.Value(x) for x in numbers]
    out = expect_value("the result", build(*leaves), user.Value)
    out.backward()
    return tuple(leaf.grad for leaf in leaves)


def test_add_routes_the_gradient_to_both(user):
    """(a + b) * 3: the add hands its upstream gradient, 3, to a and to b"""
    def build(a, b):
        return (a + b) * 3.0
    expect("(a.grad, b.grad) for (a + b) * 3 with a = 2, b = -4", grads(user, build, 2.0, -4.0),
           reference(build, 2.0, -4.0),
           likely=[((1.0, 1.0), UPSTREAM), ((0.0, 0.0), WHEN)], check=ADD_RULE)


def test_mul_swaps_its_inputs(user):
    """a * b: a gets b's value and b gets a's value"""
    def build(a, b):
        return a * b
    expect("(a.grad, b.grad) for a * b with a = 2, b = -3", grads(user, build, 2.0, -3.0),
           reference(build, 2.0, -3.0),
           likely=[((2.0, -3.0), f"each input got its own value; {MUL_RULE}")], check=MUL_RULE)


def test_mul_scales_by_the_upstream_gradient(user):
    """(a * b) * c: the inner product gets c as its upstream gradient"""
    def build(a, b, c):
        return (a * b) * c
    expect("(a.grad, b.grad, c.grad) for (a * b) * c with a = 2, b = -3, c = 5",
           grads(user, build, 2.0, -3.0, 5.0), reference(build, 2.0, -3.0, 5.0),
           likely=[((-3.0, 2.0, -6.0), UPSTREAM), ((0.0, 0.0, -6.0), WHEN)], check=MUL_RULE)


def test_a_value_used_twice(user):
    """a * a and a + a: both edges start at a, and both count"""
    def square(a):
        return a * a
    expect("a.grad for a * a with a = 3", grads(user, square, 3.0), reference(square, 3.0),
           likely=[((3.0,), ACCUMULATE)], check=MUL_RULE)

    def double(a):
        return (a + a) * 1.0
    expect("a.grad for a + a with a = 3", grads(user, double, 3.0), reference(double, 3.0),
           likely=[((1.0,), ACCUMULATE)], check=ADD_RULE)


def test_tanh(user):
    """tanh(a * b): the tanh closure multiplies 1 - t**2 by its upstream gradient"""
    def build(a, b):
        return (a * b).tanh()
    x = 0.5 * 1.0
    from_input = (1 - x**2) * 1.0, (1 - x**2) * 0.5  # the rule read off the input x = a*b, not t
    expect("(a.grad, b.grad) for tanh(a * b) with a = 0.5, b = 1", grads(user, build, 0.5, 1.0),
           reference(build, 0.5, 1.0), likely=[(from_input, TANH_RULE)],
           check="the tanh closure adds (1 - t**2) * out.grad to the input's grad")


def test_a_chain_of_every_operation(user):
    """tanh(a * b + c) * d: every closure in one graph, in reverse topological order"""
    def build(a, b, c, d):
        return (a * b + c).tanh() * d
    expect("the four leaf grads of tanh(a * b + c) * d with a = 0.5, b = -1, c = 0.25, d = 3",
           grads(user, build, 0.5, -1.0, 0.25, 3.0), reference(build, 0.5, -1.0, 0.25, 3.0),
           check="each closure adds local derivative * out.grad to its inputs' grads")

# ---- hints ----
# - When the backward pass calls a node's closure, which number says how much the final output
#   moves per unit of that node, and is it complete yet? If a product's first factor grows by a
#   small $h$, how much does the product grow? Does tanh's local derivative need its input or
#   its output?
# - That number is the node's own gradient, the upstream gradient, and it is complete only when
#   the node's turn comes: each closure reads it when it runs, multiplies each local derivative
#   by it and adds the result to that input's gradient. A product $a \cdot b$ grows by $b \cdot
#   h$, so the edge from $a$ carries $b$'s number and the edge from $b$ carries $a$'s: the
#   multiply gate swaps its inputs. For tanh, $\frac{d}{dx} \tanh x = 1 - t^2$ with $t = \tanh
#   x$, the output, which the closure can still read because it was defined where $t$ was.
# - For each input of `+`: `self.grad += 1.0 * out.grad`. For `*`: `self.grad += other.data *
#   out.grad` and `other.grad += self.data * out.grad`. For tanh: `self.grad += (1 - t**2) *
#   out.grad`.

# ---- mistake: = instead of += ----
# message: needs +=, not =
# replace: self.grad += other.data * out.grad
# other.grad += self.data * out.grad
# with: self.grad = other.data * out.grad
# other.grad = self.data * out.grad

# ---- mistake: each factor gets its own value ----
# message: each input got its own value
# replace: self.grad += other.data * out.grad
# other.grad += self.data * out.grad
# with: self.grad += self.data * out.grad
# other.grad += other.data * out.grad

# ---- mistake: out.grad read when the operation runs ----
# message: before backward() filled it
# replace: def _backward():
# self.grad += 1.0 * out.grad
# other.grad += 1.0 * out.grad
# with: upstream = out.grad
# def _backward():
#     self.grad += 1.0 * upstream
#     other.grad += 1.0 * upstream

# ---- mistake: the upstream gradient forgotten ----
# message: the upstream gradient
# replace: self.grad += other.data * out.grad
# other.grad += self.data * out.grad
# with: self.grad += other.data
# other.grad += self.data

# ---- mistake: tanh's derivative from the input ----
# message: not the input x
# replace: self.grad += (1 - t**2) * out.grad
# with: self.grad += (1 - self.data**2) * out.grad

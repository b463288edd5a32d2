"""This book's solution of the whole-engine exercise (docs/exercises/whole_engine.py), as a
reader would save it: `pytest --engine tests/engines/book.py`. tests/your_engine/test_your_engine.py checks
it is the exercise's solution, word for word."""
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

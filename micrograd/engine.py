"""A scalar reverse-mode automatic differentiation engine.

Every `Value` remembers its parents (at most two) and, for each parent, the
local derivative of the edge from that parent (d self / d parent, computed
during the forward pass). `backward()` walks the graph in reverse topological
order and applies the chain rule: parent.grad += local derivative * node.grad.

Design after Andrej Karpathy's micrograd (MIT, 2020); storing local
derivatives instead of a `_backward` closure per node follows his microgpt
(2026): "return local gradients for each op and get backward() to do the
multiply".

Numbers are IEEE 754 doubles, as in PyTorch's float64. Where Python's floats
refuse a result (division by zero, overflow), an operation raises an error
naming the operation you wrote; micrograd/support.py holds those checks, the
other edge cases and pickling, so this file stays the lesson.
"""

import math
import numbers
from collections import deque

from micrograd.support import c_pow, number, power, rebuild, reciprocal, two


class Value:
    """One scalar node of a computation graph.

    Value(data: int | float, label: str = "") -> Value. `data` is stored as a
    float, `grad` starts at 0.0. Raises TypeError for anything that is not a
    real number (str, None, complex...); NumPy scalars are accepted.

    An operation computes its local derivatives from its inputs' data when it
    runs. So changing `w.data` after the forward pass changes neither the
    outputs nor what backward() computes (micrograd 0.1.0 reads the new data
    in backward()): rebuild the graph after changing data, as training does.
    """

    # Parents _x, _y (None if absent) and local derivatives _dx = d self/dx,
    # _dy = d self/dy sit in slots, not in two tuples: then the node itself
    # is the only object per node that the garbage collector tracks.
    __slots__ = ("data", "grad", "label", "_op", "_x", "_y", "_dx", "_dy")

    def __init__(self, data, label="", _prev=(), _local=(), _op=""):
        if not isinstance(data, (float, int)) and not isinstance(data, numbers.Real):
            raise TypeError(f"Value() takes an int or a float, not {type(data).__name__}: {data!r}")
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._op = _op             # the operation that made it, for drawing
        self._x = self._y = None   # no parents (a leaf) ...
        self._dx = self._dy = 0.0
        if _prev:                  # ... unless given, with their local derivatives
            self._prev, self._local = _prev, _local

    def __repr__(self):  # same text as micrograd 0.1.0
        return f"Value(data={self.data}, grad={self.grad})"

    # The parents and their local derivatives as tuples, for drawing and for
    # code written for micrograd 0.1.0; the engine itself reads the slots.
    @property
    def _prev(self): return tuple(p for p in (self._x, self._y) if p is not None)
    @_prev.setter
    def _prev(self, parents): self._x, self._y = two(parents, None)
    @property
    def _local(self): return (self._dx, self._dy)[:len(self._prev)]
    @_local.setter
    def _local(self, local): self._dx, self._dy = two(local, 0.0)

    # Each op: the output, then each parent with its local derivative.

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(number(other, "+"))
        # d(x + y)/dx = 1 and d(x + y)/dy = 1
        return _node(self.data + other.data, "+", self, 1.0, other, 1.0)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(number(other, "*"))
        # d(x * y)/dx = y and d(x * y)/dy = x: swap and scale
        return _node(self.data * other.data, "*", self, other.data, other, self.data)

    def __pow__(self, n):
        """self ** n for a constant n (int | float) as a new Value.

        TypeError for any other n, a Value too. ZeroDivisionError for 0 ** n
        with n < 0, ValueError for a negative number to a fractional power,
        OverflowError past the largest float: each names **. The local
        derivative n·xⁿ⁻¹ follows C's pow (IEEE 754): inf for x ** 0.5 at 0;
        0 for n = 0, as in PyTorch. (PyTorch computes x ** ±0.5 as a square
        root, which gives a different sign or NaN at x = -0.0 and -inf.)
        """
        if not isinstance(n, (int, float)):
            raise TypeError(f"unsupported exponent for **: {type(n).__name__} "
                            "(only int/float exponents are supported)")
        x = self.data
        # d(x ** n)/dx = n * x ** (n - 1); 0 for n = 0 (x ** 0 is the constant 1)
        return _node(power(x, n), f"**{n}", self, n * c_pow(x, n - 1) if n else 0.0)

    def tanh(self):
        """tanh(self) as a new Value; never raises (tanh(±inf) = ±1).

        The local derivative 1 - t*t is read off the rounded output t; PyTorch
        fuses that multiply-add, so the two may differ by up to 2**-52, which
        is a large relative difference where tanh saturates (7e-11 at x = 8).
        """
        t = math.tanh(self.data)
        # d tanh(x)/dx = 1 - tanh(x)**2, read off the output
        return _node(t, "tanh", self, 1.0 - t * t)

    def exp(self):
        """e ** self as a new Value; exp(inf) = inf and exp(-inf) = 0.0.
        OverflowError (naming exp and the input) for a finite input above
        about 709.78, where PyTorch returns inf."""
        try:
            e = math.exp(self.data)
        except OverflowError:
            raise OverflowError(f"exp({self.data}) overflows a float") from None
        # d exp(x)/dx = exp(x)
        return _node(e, "exp", self, e)

    def relu(self):
        """max(0, self) as a new Value; never raises. As in PyTorch, NaN stays
        NaN and -0.0 stays -0.0; the local derivative is 0 for x <= 0, else 1."""
        x = self.data
        # d relu(x)/dx = 1 for x > 0, else 0 (we pick 0 at the kink x = 0);
        # NaN < 0 is False, so NaN passes through
        return _node(0.0 if x < 0 else x, "ReLU", self, 0.0 if x <= 0 else 1.0)

    def backward(self):
        """Fill in .grad of every node this Value depends on; returns None.

        Seeds self.grad with 1.0, then visits nodes in reverse topological
        order, so a node's grad is complete before it is passed on. Gradients
        accumulate with +=, so calling backward() twice adds the second pass
        on top of the first, and since inner nodes keep their grads too, the
        leaves get more than twice as much once the graph is two ops deep.
        Zero the grads between calls (micrograd.nn.Module.zero_grad) or
        rebuild the graph. Iterative, so graphs of any depth work.
        """
        deque(backward_steps(self), maxlen=0)  # run every step, keep none

    def __reduce__(self):  # pickle and copy.deepcopy: the whole graph at once (support.py)
        order = topological_order(self)
        index = {node: i for i, node in enumerate(order)}
        return rebuild, ([node if node._x is None and node is not self else
                          (type(node), node.data, node.grad, node.label, node._op,
                           index.get(node._x), node._dx, index.get(node._y), node._dy)
                          for node in order], _node)

    # Derived ops: one line each, built from the ops above.
    def __neg__(self): return self * -1                                        # -self
    def __radd__(self, other): return self + other                             # other + self
    def __sub__(self, other): return self + (-_operand(other, "-"))           # self - other
    def __rsub__(self, other): return (-self) + _operand(other, "-")          # other - self
    def __rmul__(self, other): return self * other                             # other * self
    def __truediv__(self, other): return self * reciprocal(_operand(other, "/"))  # self / other
    def __rtruediv__(self, other): return reciprocal(self) * _operand(other, "/")  # other / self


def _operand(x, op):
    """x if it is a Value, else x as a real number: support.number, a TypeError naming op."""
    return x if isinstance(x, Value) else number(x, op)


def backward_steps(root, order=None):
    """The backward pass from `root`, one step at a time: a generator of Values.

    Seeds root.grad = 1.0 and yields root (the seed step); then, for each node
    of `order`, does parent.grad += local * node.grad for each of its parents
    and yields the node. order: an iterable of Values of root's graph, by
    default its reverse topological order; another order may lose paths, as
    a reader may want to see. backward() runs every step; micrograd.trace
    records them. Raises nothing of its own.
    """
    root.grad = 1.0
    yield root
    for node in reversed(topological_order(root)) if order is None else order:
        # the chain rule on each edge, parent.grad += local * node.grad, written
        # out for the two parents (a loop over them costs 5% of a training step)
        if node._x is not None:
            node._x.grad += node._dx * node.grad  # += sums every path
            if node._y is not None:
                node._y.grad += node._dy * node.grad
        yield node


def topological_order(root):
    """Every node `root` depends on, parents before children, as a list[Value].

    Depth-first search with an explicit stack instead of recursion, so a chain
    of a million operations does not hit Python's recursion limit. A node is
    pushed back under a marker while its parents are explored; popping the
    marker means all its parents are listed, so the node is listed next.
    Nodes of another class work too if they keep their parents in `_prev`.
    """
    order, visited, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node is _LISTED:  # the node below the marker has all its parents listed
            order.append(stack.pop())
        elif node is not None and node not in visited:  # None: no such parent
            visited.add(node)
            try:
                stack += (node, _LISTED, node._y, node._x)  # _x on top: listed first
            except AttributeError:  # not a Value: parents in a _prev tuple
                stack += (node, _LISTED, *node._prev[::-1])
    return order


_LISTED = object()
_new = object.__new__


def _node(data, op, x, dx, y=None, dy=0.0, cls=Value):
    """A new Value: `data`, made by `op` from x (and y), d data/dx = dx (and dy)."""
    out = _new(cls)  # no __init__: data is a float already
    out.data, out.grad = data, 0.0
    out.label, out._op = "", op
    out._x, out._y = x, y
    out._dx, out._dy = dx, dy
    return out

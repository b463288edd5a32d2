"""A scalar reverse-mode automatic differentiation engine.

Every `Value` remembers its parents (at most two) and, for each parent, the
local derivative of the edge from that parent (d self / d parent, computed
during the forward pass). `backward()` walks the graph in reverse topological
order and applies the chain rule: parent.grad += local derivative * node.grad.

Design after Andrej Karpathy's micrograd (MIT, 2020); storing local
derivatives instead of a `_backward` closure per node follows his microgpt
(2026): "return local gradients for each op and get backward() to do the
multiply".

Numbers are IEEE 754 doubles, as in PyTorch's float64: inf and NaN propagate,
and a local derivative may be inf (the slope of √x at 0). Where Python's own
float arithmetic refuses a result (division by zero, 0 to a negative power,
overflow in ** or exp, a negative number to a fractional power), the
operation raises an error naming the operation you wrote; PyTorch returns
inf or NaN there. Other differences from PyTorch, all tested: a zero
gradient is +0.0 where PyTorch may give -0.0 (grads start at 0.0 and grow by
+=); a / b is a * b**-1, one rounding more than a true division, and its
gradient for b underflows (loses digits, then is 0) once |b| > 1e154; the
local derivatives of tanh and of x ** ±0.5 may differ in the last digits
(see those methods).
"""

import math
import numbers
from collections import deque


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
            raise TypeError(
                f"Value() takes an int or a float, not {type(data).__name__}: {data!r}"
            )
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
    def _prev(self, parents): self._x, self._y = _two(parents, None)
    @property
    def _local(self): return (self._dx, self._dy)[:len(self._prev)]
    @_local.setter
    def _local(self, local): self._dx, self._dy = _two(local, 0.0)

    # Each op: the output, then each parent with its local derivative.

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(_number(other, "+"))
        # d(x + y)/dx = 1 and d(x + y)/dy = 1
        return _node(self.data + other.data, "+", self, 1.0, other, 1.0)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(_number(other, "*"))
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
        return _node(_power(x, n), f"**{n}", self, n * _c_pow(x, n - 1) if n else 0.0)

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

    def __reduce__(self):
        # pickle and copy.deepcopy: the graph as one flat list in topological
        # order, not parent by parent (a recursion that fails a few hundred
        # nodes deep). Other leaves stay objects: shared with a model's own.
        order = topological_order(self)
        index = {node: i for i, node in enumerate(order)}
        return _rebuild, ([node if node._x is None and node is not self else
                           (type(node), node.data, node.grad, node.label, node._op,
                            index.get(node._x), node._dx, index.get(node._y), node._dy)
                           for node in order],)

    # Derived ops: one line each, built from the ops above.
    def __neg__(self): return self * -1                                        # -self
    def __radd__(self, other): return self + other                             # other + self
    def __sub__(self, other): return self + (-_number(other, "-"))             # self - other
    def __rsub__(self, other): return (-self) + _number(other, "-")            # other - self
    def __rmul__(self, other): return self * other                             # other * self
    def __truediv__(self, other): return self * _reciprocal(other)             # self / other
    def __rtruediv__(self, other): return _reciprocal(self) * _number(other, "/")  # other / self


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


def _number(x, op):
    """x itself if it is a Value or a real number; TypeError naming `op` if not."""
    if isinstance(x, (Value, float, int)) or isinstance(x, numbers.Real):
        return x
    raise TypeError(f"unsupported operand for {op} with a Value: {type(x).__name__} "
                    f"{x!r} (a Value combines with Values, ints and floats)")


def _two(items, missing):
    """The first two of at most two items, `missing` standing in for absent ones."""
    items = tuple(items)
    if len(items) > 2:
        raise ValueError(f"a Value has at most two parents, not {len(items)}")
    return (items + (missing, missing))[:2]


def _reciprocal(x):
    """x ** -1 for a Value or a number; errors name the division."""
    if (x.data if isinstance(x, Value) else _number(x, "/")) == 0:
        raise ZeroDivisionError(f"division by {x!r}, which is 0")
    try:
        return x**-1
    except OverflowError:
        raise OverflowError(f"division by {x!r} overflows a float") from None


def _power(x, n):
    """x ** n for a float x; an error naming ** where Python refuses it."""
    try:
        y = x**n
    except ZeroDivisionError:
        raise ZeroDivisionError(f"{x!r} ** {n!r}: 0 cannot be raised to a negative power") from None
    except OverflowError:
        raise OverflowError(f"{x!r} ** {n!r} overflows a float") from None
    if isinstance(y, complex):  # Python's answer for a negative number to a fractional power
        raise ValueError(f"{x!r} ** {n!r} is not a real number (a negative base needs an integer exponent)")
    return y


def _c_pow(x, n):
    """x ** n as C's pow() gives it (IEEE 754): ±inf where Python raises."""
    try:
        return x**n
    except (ZeroDivisionError, OverflowError):  # 0 to a negative power, or too large
        return math.copysign(math.inf, x) if n % 2 == 1 else math.inf  # odd n keeps x's sign


def _rebuild(entries):
    """The last node of a list made by Value.__reduce__, with its graph."""
    nodes = []
    for entry in entries:
        if isinstance(entry, tuple):  # a node's fields, its parents as indices
            cls, data, grad, label, op, x, dx, y, dy = entry
            x, y = (None if i is None else nodes[i] for i in (x, y))
            entry = _node(data, op, x, dx, y, dy, cls)
            entry.grad, entry.label = grad, label
        nodes.append(entry)
    return nodes[-1]

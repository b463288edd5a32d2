"""The local derivatives of `+` and `*`

Here is the start of a `Value` class with the same fields as micrograd's.
Complete `__add__` and `__mul__`. Each one does two things: it computes the
output number (the forward pass), and it stores, for each parent, the local
derivative of the output with respect to that parent. `Value(data, label,
_prev, _local, _op)` takes the parents in `_prev` and their local
derivatives in `_local`, in the same order. Replace every `...`.
"""

# ---- kind: build ----

# ---- starter ----
class Value:
    """One scalar node: its number, its gradient, its parents and their local derivatives."""

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
        # d(x + y)/dx = ?  and  d(x + y)/dy = ?
        return Value(..., "", (self, other), (..., ...), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        # d(x * y)/dx = ?  and  d(x * y)/dy = ?
        return Value(..., "", (self, other), (..., ...), "*")

# ---- solution ----
class Value:
    """One scalar node: its number, its gradient, its parents and their local derivatives."""

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
        # d(x + y)/dx = 1 and d(x + y)/dy = 1
        return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        # d(x * y)/dx = y and d(x * y)/dy = x: each parent gets the other one's value
        return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")

# ---- tests ----
from micrograd.engine import Value as Ref

from scripts.reader.exercise_checks import expect, expect_value

MUL_RULE = "each factor's local derivative is the other factor: d(x*y)/dx = y, d(x*y)/dy = x"
ADD_RULE = "a sum moves one-for-one with each term: d(x+y)/dx = 1 and d(x+y)/dy = 1, whatever x and y are"


def test_add_forward(user):
    """a + b computes the sum (forward pass)"""
    s = expect_value("a + b", user.Value(2.0) + user.Value(-3.0), user.Value)
    expect("(a + b).data with a = 2, b = -3", s.data, (Ref(2.0) + Ref(-3.0)).data)


def test_add_parents(user):
    """a + b remembers a and b as its parents"""
    a, b = user.Value(2.0), user.Value(-3.0)
    s = expect_value("a + b", a + b, user.Value)
    if not (len(s._prev) == 2 and s._prev[0] is a and s._prev[1] is b):
        expect("(a + b)._prev", s._prev, (a, b), check="the parents are (self, other), in that order")


def test_add_local(user):
    """a + b stores the local derivatives of +"""
    s = expect_value("a + b", user.Value(2.0) + user.Value(-3.0), user.Value)
    expected = (Ref(2.0) + Ref(-3.0))._local
    expect("(a + b)._local with a = 2, b = -3", s._local, expected,
           likely=[((-3.0, 2.0), f"that is the rule for *; {ADD_RULE}"),
                   ((2.0, -3.0), f"each parent got its own value; {ADD_RULE}")],
           check=ADD_RULE)


def test_mul_forward(user):
    """a * b computes the product (forward pass)"""
    p = expect_value("a * b", user.Value(2.0) * user.Value(-3.0), user.Value)
    expect("(a * b).data with a = 2, b = -3", p.data, (Ref(2.0) * Ref(-3.0)).data)


def test_mul_local(user):
    """a * b stores the local derivatives of *"""
    p = expect_value("a * b", user.Value(2.0) * user.Value(-3.0), user.Value)
    expected = (Ref(2.0) * Ref(-3.0))._local
    expect("(a * b)._local with a = 2, b = -3", p._local, expected,
           likely=[((2.0, -3.0), f"each parent got its own value; {MUL_RULE}: swap them"),
                   ((1.0, 1.0), f"that is the rule for +; {MUL_RULE}")],
           check=MUL_RULE)


def test_with_plain_numbers(user):
    """a * 4 and a + 4 work, with 4 turned into a Value"""
    p = expect_value("a * 4", user.Value(2.0) * 4, user.Value)
    expect("(a * 4)._local with a = 2", p._local, (Ref(2.0) * 4)._local, check=MUL_RULE)
    s = expect_value("a + 4", user.Value(2.0) + 4, user.Value)
    expect("(a + 4).data with a = 2", s.data, (Ref(2.0) + 4).data)

# ---- hints ----
# - Nudge $x$ by a small $h$: how far does $x + y$ move? How far does $x \cdot y$ move?
# - The sum moves by $h$, so both local derivatives of $+$ are 1, whatever $x$ and $y$ are. The
#   product moves by $y \cdot h$, so the edge from $x$ carries $y$ and the edge from $y$ carries
#   $x$. The output itself is the sum, or the product, of the parents' numbers.
# - For `+`: `Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")`. For `*`: the
#   output `self.data * other.data` and the local derivatives `(other.data, self.data)`, each
#   parent getting the other one's number.

# ---- mistake: each factor gets its own value ----
# message: swap them
# replace: return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")
# with: return Value(self.data * other.data, "", (self, other), (self.data, other.data), "*")

# ---- mistake: + with the rule of * ----
# message: that is the rule for *
# replace: return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")
# with: return Value(self.data + other.data, "", (self, other), (other.data, self.data), "+")

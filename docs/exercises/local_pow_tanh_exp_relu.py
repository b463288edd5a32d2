"""The local derivatives of `**`, `tanh`, `exp` and `relu`

`+` and `*` are done. Each new operation has one parent, so it stores one
local derivative: a tuple with one number. Fill in the blanks (`...`) with
the local derivative of each operation. Where the derivative can be read off
the output (tanh, exp), use the output: it is already computed.
"""

# ---- kind: build ----

# ---- starter ----
import math


class Value:
    """One scalar node: its number, its gradient, its parents and their local derivatives."""

    __slots__ = ("data", "grad", "label", "_prev", "_local", "_op")

    def __init__(self, data, label="", _prev=(), _local=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._prev = _prev
        self._local = _local
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")

    def __pow__(self, n):  # n is a plain number, not a Value
        # d(x ** n)/dx = ?
        return Value(self.data ** n, "", (self,), (...,), f"**{n}")

    def tanh(self):
        t = math.tanh(self.data)
        # d tanh(x)/dx = ?  (write it with t, the output)
        return Value(t, "", (self,), (...,), "tanh")

    def exp(self):
        e = math.exp(self.data)
        # d exp(x)/dx = ?
        return Value(e, "", (self,), (...,), "exp")

    def relu(self):
        out = self.data if self.data > 0 else 0.0
        # d relu(x)/dx = ?  (1 or 0; pick 0 at the kink x = 0)
        return Value(out, "", (self,), (...,), "ReLU")

# ---- solution ----
import math


class Value:
    """One scalar node: its number, its gradient, its parents and their local derivatives."""

    __slots__ = ("data", "grad", "label", "_prev", "_local", "_op")

    def __init__(self, data, label="", _prev=(), _local=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._prev = _prev
        self._local = _local
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")

    def __pow__(self, n):  # n is a plain number, not a Value
        # d(x ** n)/dx = n * x ** (n - 1)
        return Value(self.data ** n, "", (self,), (n * self.data ** (n - 1),), f"**{n}")

    def tanh(self):
        t = math.tanh(self.data)
        # d tanh(x)/dx = 1 - tanh(x)**2 = 1 - t**2
        return Value(t, "", (self,), (1.0 - t * t,), "tanh")

    def exp(self):
        e = math.exp(self.data)
        # d exp(x)/dx = exp(x): the output itself
        return Value(e, "", (self,), (e,), "exp")

    def relu(self):
        out = self.data if self.data > 0 else 0.0
        # d relu(x)/dx = 1 for x > 0, else 0
        return Value(out, "", (self,), (1.0 if self.data > 0 else 0.0,), "ReLU")

# ---- tests ----
import math

from micrograd.engine import Value as Ref

from scripts.reader.exercise_checks import expect, expect_value

POW_RULE = "d(x**n)/dx = n * x**(n - 1)"
TANH_RULE = "d tanh(x)/dx = 1 - t**2, where t = tanh(x) is the output"


def test_pow(user):
    """x ** n stores n * x ** (n - 1)"""
    for x, n in [(2.0, 3), (4.0, -1), (4.0, 0.5)]:
        y = expect_value(f"Value({x}) ** {n}", user.Value(x) ** n, user.Value)
        expect(f"(x ** {n}).data with x = {x}", y.data, (Ref(x) ** n).data)
        expect(f"(x ** {n})._local with x = {x}", y._local, (Ref(x) ** n)._local,
               likely=[((n * x ** n,), f"the exponent drops by one: {POW_RULE}"),
                       ((x ** (n - 1),), f"multiply by n: {POW_RULE}"),
                       ((x ** n,), f"that is the output; {POW_RULE}")],
               check=POW_RULE)


def test_tanh(user):
    """tanh stores 1 - t**2, read off the output t"""
    for x in (0.5, -1.2):
        y = expect_value(f"Value({x}).tanh()", user.Value(x).tanh(), user.Value)
        expect(f"tanh(x).data with x = {x}", y.data, Ref(x).tanh().data)
        t = math.tanh(x)
        expect(f"tanh(x)._local with x = {x}", y._local, Ref(x).tanh()._local,
               likely=[((1 - x * x,), f"{TANH_RULE}, not the input x: use 1 - t * t"),
                       ((1 - t,), f"t is not squared; {TANH_RULE}")],
               check=TANH_RULE)


def test_exp(user):
    """exp stores its own output"""
    for x in (0.5, -1.0):
        y = expect_value(f"Value({x}).exp()", user.Value(x).exp(), user.Value)
        expect(f"exp(x)._local with x = {x}", y._local, Ref(x).exp()._local,
               likely=[((x,), "d exp(x)/dx = exp(x), the output, not the input x")],
               check="d exp(x)/dx = exp(x): the output itself")


def test_relu_positive(user):
    """relu of a positive x stores 1"""
    y = expect_value("Value(0.5).relu()", user.Value(0.5).relu(), user.Value)
    expect("relu(x).data with x = 0.5", y.data, Ref(0.5).relu().data)
    expect("relu(x)._local with x = 0.5", y._local, Ref(0.5).relu()._local,
           likely=[((0.5,), "that is the output; for x > 0 relu(x) = x, whose slope is 1")],
           check="for x > 0, relu(x) = x, whose slope is 1")


def test_relu_negative_and_zero(user):
    """relu of x <= 0 outputs 0 and stores 0"""
    for x in (-2.0, 0.0):
        y = expect_value(f"Value({x}).relu()", user.Value(x).relu(), user.Value)
        expect(f"relu(x).data with x = {x}", y.data, Ref(x).relu().data)
        expect(f"relu(x)._local with x = {x}", y._local, Ref(x).relu()._local,
               check="for x <= 0 relu(x) is the constant 0, whose slope is 0 (the engine picks 0 at x = 0)")


def test_one_parent(user):
    """each of these operations has exactly one parent, self"""
    x = user.Value(0.5)
    for name, y in [("x ** 2", x ** 2), ("x.tanh()", x.tanh()), ("x.exp()", x.exp()), ("x.relu()", x.relu())]:
        y = expect_value(name, y, user.Value)
        if len(y._prev) != 1 or y._prev[0] is not x:
            expect(f"({name})._prev", y._prev, (x,), check="one parent: (self,)")

# ---- hints ----
# - Each operation here has one parent, $x$: how fast does its output change as $x$ changes? For
#   which of them can that rate be read off the output you have already computed?
# - The power rule: $\frac{d}{dx} x^n = n\,x^{n-1}$, which is 12 for $n = 3$ at $x = 2$. With $t
#   = \tanh x$ the output, $\frac{d}{dx} \tanh x = 1 - t^2$. The exponential is its own
#   derivative: $\frac{d}{dx} e^x = e^x$. ReLU has slope 1 where $x > 0$ and slope 0 elsewhere.
# - The four tuples, in order: `(n * self.data ** (n - 1),)`, `(1.0 - t * t,)`, `(e,)` and `(1.0
#   if self.data > 0 else 0.0,)`.

# ---- mistake: tanh's derivative from the input ----
# message: not the input x
# replace: return Value(t, "", (self,), (1.0 - t * t,), "tanh")
# with: return Value(t, "", (self,), (1.0 - self.data ** 2,), "tanh")

# ---- mistake: power rule without n - 1 ----
# message: the exponent drops by one
# replace: return Value(self.data ** n, "", (self,), (n * self.data ** (n - 1),), f"**{n}")
# with: return Value(self.data ** n, "", (self,), (n * self.data ** n,), f"**{n}")

# ---- mistake: relu stores its output ----
# message: that is the output
# replace: return Value(out, "", (self,), (1.0 if self.data > 0 else 0.0,), "ReLU")
# with: return Value(out, "", (self,), (out,), "ReLU")

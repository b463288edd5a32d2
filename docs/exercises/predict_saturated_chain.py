"""Predict: the gradient through a chain of saturated tanh units

`chain(k, t)` builds k `tanh` units in a row and shifts each one's sum so
that every unit outputs the same t. Then it runs the backward pass and
returns the gradient that reaches the input. Predict the four lines this
program prints, on paper, from what this section showed about paths.

```python
import math

from micrograd import Value


def chain(k, t):
    z = math.atanh(t)  # the sum at which tanh outputs t
    x = Value(z)
    h = x.tanh()
    for _ in range(k - 1):
        h = (h + (z - t)).tanh()  # the sum is t + (z - t) = z again
    h.backward()
    return x.grad


print(chain(4, 0.5))                                          # line 1
print(chain(4, 0.95))                                         # line 2
print(min(k for k in range(1, 20) if chain(k, 0.95) < 1e-6))  # line 3
print(chain(5, 0.95) / chain(4, 0.95))                        # line 4
```

Write each prediction in place of its blank: an expression such as
`0.5 ** 3`, or a number to four significant figures. The tests run the
program and compare, to within 0.1 percent.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
half = ...       # line 1: four units that output 0.5
saturated = ...  # line 2: four units that output 0.95
fewest = ...     # line 3: the fewest units of 0.95 that pass back less than 1e-6
one_more = ...   # line 4: what a fifth unit multiplies the gradient by

# ---- solution ----
# every + passes the gradient on unchanged; every tanh multiplies it by 1 - t**2
half = (1 - 0.5 ** 2) ** 4
saturated = (1 - 0.95 ** 2) ** 4
# 0.0975 ** 5 is about 8.8e-6, 0.0975 ** 6 about 8.6e-7
fewest = 6
one_more = 1 - 0.95 ** 2

# ---- tests ----
import math

from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, fmt

TOL = 1e-3  # 0.1 percent, as the instructions say
OUTPUT = "the local derivative of tanh is 1 - t², read off its output t, not t itself"
ONE = "that is one unit's factor: the k units' factors multiply, one per unit along the path"
NOT_SQUARED = "the local derivative of tanh is 1 - t², not 1 - t"


def chain(k, t):
    """The program's chain(k, t), on micrograd."""
    z = math.atanh(t)
    x = Value(z)
    h = x.tanh()
    for _ in range(k - 1):
        h = (h + (z - t)).tanh()
    h.backward()
    return x.grad


def graded(user, name, expected, likely=(), check=""):
    """Fail unless the reader's prediction `name` is within TOL of `expected`; likely: (wrong value,
    cause) pairs, as expect takes them."""
    value = getattr(user, name)
    if value is Ellipsis:
        raise Fail(f"{name} is still ... (a blank): write your prediction in its place")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Fail(f"{name} is {value!r}, expected a number, such as {fmt(expected)}")
    # within TOL of a value is that value: the right one, or a likely mistake's (whose cause expect names)
    near = [v for v in [expected, *(wrong for wrong, _ in likely)] if math.isclose(value, v, rel_tol=TOL)]
    expect(name, near[0] if near else value, expected, likely, check)


def test_half(user):
    """line 1: four units that output 0.5"""
    graded(user, "half", chain(4, 0.5), likely=[(0.5 ** 4, OUTPUT), (chain(1, 0.5), ONE)],
           check="one factor 1 - t² per unit, multiplied along the chain")


def test_saturated(user):
    """line 2: four units that output 0.95"""
    graded(user, "saturated", chain(4, 0.95),
           likely=[(0.95 ** 4, OUTPUT), (chain(1, 0.95), ONE), ((1 - 0.95) ** 4, NOT_SQUARED)],
           check="one factor 1 - t² per unit, multiplied along the chain")


def test_fewest(user):
    """line 3: the fewest units of 0.95 that pass back less than 1e-6"""
    fewest = min(k for k in range(1, 20) if chain(k, 0.95) < 1e-6)
    graded(user, "fewest", fewest,
           likely=[(fewest - 1, f"{fewest - 1} units still pass back {chain(fewest - 1, 0.95):.3g}, above 1e-6")],
           check="the factor of one unit, raised to the power k, against 1e-6")


def test_one_more(user):
    """line 4: what a fifth unit multiplies the gradient by"""
    graded(user, "one_more", chain(5, 0.95) / chain(4, 0.95),
           likely=[(0.95, OUTPUT), (1 - 0.95, NOT_SQUARED)],
           check="the local derivative of the one unit added, the + before it passing the gradient on as it is")

# ---- hints ----
# - The input reaches the output along one path. Which operations lie on it, and what local
#   derivative does each one contribute to the product?
# - Each addition passes the gradient on times 1. Each $\tanh$ that outputs $t$ multiplies it by
#   $1 - t^2$: 0.75 for $t = 0.5$, and much less for $t = 0.95$. Along $k$ units the factors multiply:
#   the gradient is $(1 - t^2)^k$, so one more unit multiplies it by $1 - t^2$ again.
# - `half = (1 - 0.5 ** 2) ** 4`, `saturated = (1 - 0.95 ** 2) ** 4`, `one_more = 1 - 0.95 ** 2`;
#   for `fewest`, try powers of `one_more` until one falls below `1e-6`.

# ---- mistake: the output for its derivative ----
# message: read off its output t, not t itself
# replace: half = (1 - 0.5 ** 2) ** 4
# with: half = 0.5 ** 4

# ---- mistake: one unit's factor ----
# message: that is one unit's factor
# replace: saturated = (1 - 0.95 ** 2) ** 4
# with: saturated = 1 - 0.95 ** 2

# ---- mistake: one unit short ----
# message: units still pass back
# replace: fewest = 6
# with: fewest = 5

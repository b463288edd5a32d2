"""What micrograd/engine.py needs but does not teach: operand checks whose errors name the
operation the user wrote, the float edge cases of `**` and `/`, and pickling a graph of any
depth. Every choice is tested against PyTorch in float64 (tests/engine/test_engine_numerics.py).
"""

import math
import numbers


def number(x, op):
    """x itself if it is a real number (int, float, a NumPy scalar...); TypeError naming `op`
    if not. The engine passes its Values by before it asks."""
    if isinstance(x, (float, int)) or isinstance(x, numbers.Real):
        return x
    raise TypeError(f"unsupported operand for {op} with a Value: {type(x).__name__} "
                    f"{x!r} (a Value combines with Values, ints and floats)")


def two(items, missing):
    """The first two of at most two items, `missing` standing in for absent ones."""
    items = tuple(items)
    if len(items) > 2:
        raise ValueError(f"a Value has at most two parents, not {len(items)}")
    return (items + (missing, missing))[:2]


def reciprocal(x):
    """x ** -1 for x a real number or a Value (the caller checked which: number() above);
    errors name the division."""
    if (x if isinstance(x, numbers.Real) else x.data) == 0:
        raise ZeroDivisionError(f"division by {x!r}, which is 0")
    try:
        return x**-1
    except OverflowError:
        raise OverflowError(f"division by {x!r} overflows a float") from None


def power(x, n):
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


def c_pow(x, n):
    """x ** n as C's pow() gives it (IEEE 754): ±inf where Python raises."""
    try:
        return x**n
    except (ZeroDivisionError, OverflowError):  # 0 to a negative power, or too large
        return math.copysign(math.inf, x) if n % 2 == 1 else math.inf  # odd n keeps x's sign


def rebuild(entries, make_node):
    """The last node of a list made by Value.__reduce__, with its graph.

    Each entry is a leaf Value or a node's fields (class, data, grad, label, op,
    index of parent x, dx, index of parent y, dy), parents before children,
    so no step recurses however deep the graph is. make_node(data, op, x, dx, y,
    dy, cls) makes a node (the engine's _node, pickled by name with the entries:
    this module imports nothing of the engine).
    """
    nodes = []
    for entry in entries:
        if isinstance(entry, tuple):  # a node's fields, its parents as indices
            cls, data, grad, label, op, x, dx, y, dy = entry
            x, y = (None if i is None else nodes[i] for i in (x, y))
            entry = make_node(data, op, x, dx, y, dy, cls)
            entry.grad, entry.label = grad, label
        nodes.append(entry)
    return nodes[-1]

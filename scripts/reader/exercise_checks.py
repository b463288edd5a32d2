"""What an exercise's tests section checks with: Fail, expect and friends, and the graphs
the tests build (the diamond, the kite, chapter 3's neuron, a deep chain).

A test receives `user`, the names the reader's code defined (user.Value,
user.backward...), and raises Fail (usually through `expect`) with a message
a learner can act on: which value, what it was, what it should be, and the
cause only when the value shows it. Expected values come from the real
micrograd, imported in the same interpreter. Stdlib only (it runs in Pyodide too).
"""

import ast
import contextlib
import io
import math
import re

from scripts.reader.exercise_format import load
from scripts.reader.reader_code import take_graphs_apart

# The helpers below that read this engine's internals (_prev, _local, topological_order): an
# exercise whose tests use one is graded on micrograd's engine only, never on a reader's
# (scripts/reader/exercise_runner.py: not_on_engine).
INTERNAL = ("grads_by_rule", "zero_grads", "topological")


class Fail(Exception):
    """Raised by a test: the message is shown to the reader as is."""


def fmt(x):
    """A short, readable form of a value for messages: 0.786448, (1.0, 1.0), Value(data=2.0)."""
    if isinstance(x, float):
        text = repr(x)
        return text if len(text) <= 10 else f"{x:.6g}"
    if isinstance(x, tuple):
        inner = ", ".join(fmt(v) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(fmt(v) for v in x) + "]"
    if x is Ellipsis:
        return "... (a blank)"
    if hasattr(x, "data") and hasattr(x, "grad"):
        return f"a Value with data {fmt(x.data)}"
    return repr(x)


def same(actual, expected, tol=1e-9):
    """True if two numbers, or tuples/lists of numbers, agree within a relative `tol`."""
    if isinstance(expected, (tuple, list)):
        return (isinstance(actual, (tuple, list)) and len(actual) == len(expected)
                and all(same(a, e, tol) for a, e in zip(actual, expected)))
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        if isinstance(actual, bool) or not isinstance(actual, (int, float)):
            return False
        return math.isclose(actual, expected, rel_tol=tol, abs_tol=1e-12)
    return actual == expected


def _has_blank(x):
    return x is Ellipsis or (isinstance(x, (tuple, list)) and any(_has_blank(v) for v in x))


def predicted(user, name):
    """A predict exercise's answer: the reader's value `name` (an attribute of `user`). Raises
    Fail while it, or an item of it, is still the starter's blank (...), without giving the
    printed value away."""
    value = getattr(user, name)
    if _has_blank(value):
        raise Fail(f"{name} is still a blank (...): write what you predict the program prints")
    return value


def program(exercise):
    """Run the program that the instructions of the exercise named `exercise` (str) show, in
    their first python fence: ([each line it printed, read back as a Python value], {the names
    it defined}, for the numbers of likely mistakes). Its output is the answer: captured, never
    shown."""
    source = re.search(r"```python\n(.*?)```", load(exercise).instructions, re.S).group(1)
    output, names = io.StringIO(), {"__name__": "program"}
    with contextlib.redirect_stdout(output):
        exec(source, names)
    return [ast.literal_eval(line) for line in output.getvalue().splitlines()], names


def expect(what, actual, expected, likely=(), check=""):
    """Fail unless `actual` equals `expected` (numbers within 1e-9, relative).

    what: how the reader names the value ("a.grad"); likely: (wrong value,
    cause) pairs: the first whose value equals `actual` gives the message's
    cause, because that value is the evidence for it; check: what to look at
    when none of them matches, said as a rule to check, never as the cause
    (the code may not make the mistake a likely cause names). Messages:
    "a.grad is 3.0, expected 6.0: a value used twice needs +=, not =" (a likely
    value), "a.grad is 2.0, expected 6.0. To check: ..." (any other value).
    """
    if same(actual, expected):
        return
    message = f"{what} is {fmt(actual)}, expected {fmt(expected)}"
    if _has_blank(actual):
        raise Fail(message + ": fill in the blank (...)")
    for wrong, why in likely:
        if same(actual, wrong):
            raise Fail(f"{message}: {why}")
    raise Fail(f"{message}. To check: {check}" if check else message)


def expect_value(what, x, cls):
    """Return x if it is an instance of the reader's class `cls`, else Fail saying what it is."""
    if isinstance(x, cls):
        return x
    if x is None:
        raise Fail(f"{what} is None, expected a new {cls.__name__}: does the method `return` it?")
    raise Fail(f"{what} is {fmt(x)} ({type(x).__name__}), expected a {cls.__name__}")


def topological(order):
    """True if every node in `order` (a list of Values) comes after each of its parents in it."""
    position = {id(node): i for i, node in enumerate(order)}
    return all(id(p) in position and position[id(p)] < position[id(n)] for n in order for p in n._prev)


def grads_by_rule(root, nodes, accumulate=True, order="reverse topological", seed=1.0):
    """The grads of `nodes` that a backward pass over `root`'s graph would give, as a list[float].

    Runs on a graph of micrograd Values (any objects with .grad, ._prev,
    ._local), starting from zero grads, and is how a test computes the wrong
    number a classic mistake produces, from the real engine's graph:
    accumulate=False assigns (=) instead of adding (+=); order "topological"
    forgets to reverse the order, "depth first" walks from the root without
    sorting (each node passes its gradient on as soon as it is reached).
    Leaves every grad as the rule left it.
    """
    from micrograd.engine import topological_order

    everything = topological_order(root)
    for node in everything:
        node.grad = 0.0
    root.grad = seed
    if order == "reverse topological":
        visits = list(reversed(everything))
    elif order == "topological":
        visits = everything
    elif order == "depth first":
        visits, seen, stack = [], {id(root)}, [root]
        while stack:
            node = stack.pop()
            visits.append(node)
            for parent in node._prev:
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append(parent)
    else:
        raise ValueError(f"unknown order {order!r}")
    for node in visits:
        for parent, local in zip(node._prev, node._local):
            parent.grad = parent.grad + local * node.grad if accumulate else local * node.grad
    return [node.grad for node in nodes]


def zero_grads(root):
    """Set the .grad of every node of root's graph (micrograd Values) to 0.0; returns None."""
    from micrograd.engine import topological_order

    for node in topological_order(root):
        node.grad = 0.0


def diamond(cls):
    """a = 2, b = a + 1, c = 3 * a, d = b * c, built with `cls`; returns (a, b, c, d)."""
    a = cls(2.0)
    b = a + 1
    c = a * 3
    d = b * c
    return a, b, c, d


def kite(cls):
    """x = 3, e = x * 2, f = e + x, g = f * e: depth-first from g reaches e too early.

    Returns (x, e, f, g). A walk that passes e's gradient on before f has
    sent its share loses a contribution, unlike on the diamond.
    """
    x = cls(3.0)
    e = x * 2
    f = e + x
    g = f * e
    return x, e, f, g


def neuron(cls):
    """o = tanh(x1*w1 + x2*w2 + b), chapter 3's neuron; returns ([x1, w1, x2, w2, b], o)."""
    x1, w1 = cls(2.0), cls(-3.0)
    x2, w2 = cls(0.0), cls(1.0)
    b = cls(6.8813735870195432)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    return [x1, w1, x2, w2, b], o


def chain(cls, n):
    """x0 = 0 followed by n additions of 1: a graph n operations deep; returns (x0, x_n).

    The runner takes the chain apart after the test (release_deep_graphs).
    """
    x0 = cls(0.0)
    x = x0
    for _ in range(n):
        x = x + 1
    _deep_graphs.append(x)
    return x0, x


# Deep graphs built by chain(), kept alive until the test is over, then taken apart node
# by node (scripts/reader/reader_code.py says why): release_deep_graphs().
_deep_graphs = []


def release_deep_graphs():
    """Take apart the graphs chain() built since the last call; returns None."""
    take_graphs_apart(_deep_graphs)
    _deep_graphs.clear()

"""What every run of a reader's code needs, in the browser (Pyodide) and under pytest: its
printed output clipped, its computation graphs taken apart before they are freed, input()
that says why it cannot work, and an error described even when it has no message.

Used by scripts/run_blocks.py (Run on a chapter's blocks) and
scripts/exercise_runner.py (an exercise's Run). Stdlib only.
"""

import builtins
import contextlib
import types

MAX_OUTPUT = 10_000  # characters kept of what one run (an exercise, or one block) prints
PAGE_MODULES = {"builtins", "__test__"}  # the __module__ of classes that page code defines


def clip(text):
    """text (str) cut to MAX_OUTPUT characters, with a line that says so when it was cut."""
    return text if len(text) <= MAX_OUTPUT else text[:MAX_OUTPUT] + "\n... (output cut)\n"


NO_INPUT = ("input() is not available in the browser: Python here has no keyboard to read from. "
            "Put the value in a variable instead (for example x = 2.0 where you would type 2.0).")


def _input(prompt=""):
    raise RuntimeError(NO_INPUT)


@contextlib.contextmanager
def no_input():
    """While the reader's code runs, input() raises RuntimeError(NO_INPUT): in the browser it
    would otherwise fail with "OSError: [Errno 29] I/O error", under pytest with another OSError."""
    saved = builtins.input
    builtins.input = _input
    try:
        yield
    finally:
        builtins.input = saved


def describe(error, where=""):
    """"Type<where>: message" of an exception, or "Type<where>" and what it means when it has
    no message (MemoryError() has none: "MemoryError: " would end in an empty colon).

    where: words that place it, after the type (" on line 3 of your code").
    """
    name = type(error).__name__ + where
    text = str(error)
    if text:
        return f"{name}: {text}"
    if isinstance(error, MemoryError):
        return f"{name}: Python ran out of memory (something grew far too big)"
    return name


def take_graphs_apart(objects):
    """Empty the parents of every computation-graph node reachable from `objects` (an
    iterable: a namespace's values, a list of roots), one node at a time; returns None.

    Freeing a long chain of nodes frees each node's parents from inside the
    free of its child: a recursion in C. CPython's guard against it counts the
    C stack, but in Pyodide WebAssembly frames also fill the browser's own,
    smaller stack: in Chromium's worker, freeing a chain of about 2,000
    operations at once is a fatal "Maximum call stack size exceeded" (1,000 is
    fine). With every node's _prev (and a closure-style node's _backward)
    emptied first, each node is freed on its own. Only containers and the
    instances of micrograd's classes and of classes the page or the reader
    defines are touched.
    """
    stack, seen = list(objects), set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _NOT_GRAPHS):
            continue
        seen.add(id(obj))
        if isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif _graph_object(obj):
            stack.extend(getattr(obj, "__dict__", {}).values())
            for name in _slots(type(obj)):
                try:
                    stack.append(getattr(obj, name))
                except AttributeError:  # a slot never set
                    pass
            for name, empty in (("_prev", ()), ("_backward", None)):
                try:
                    if hasattr(obj, name):  # micrograd's _prev is a property that sets _x, _y
                        setattr(obj, name, empty)
                except Exception:  # a class of the reader's that refuses: nothing more to do
                    pass


_NOT_GRAPHS = (type, types.ModuleType, types.FunctionType, str, bytes, int, float, complex, type(None))


def _graph_object(obj):
    module = getattr(type(obj), "__module__", None)
    return isinstance(module, str) and (module.startswith(("micrograd", "exercise"))
                                        or module in PAGE_MODULES)


def _slots(cls):
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return names

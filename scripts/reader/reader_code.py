"""What every run of a reader's code needs, in the browser (Pyodide) and under pytest: every
text it gives the page (printed output, error messages, tracebacks) clipped and with its
invisible controls made visible, its computation graphs taken apart before they are freed,
input() that says why it cannot work, and an error described even when it has no message.

Used by scripts/reader/run_blocks.py (Run on a chapter's blocks) and
scripts/reader/exercise_runner.py (an exercise's Run); is_doctest by every part that reads a
block. Stdlib only.
"""

import builtins
import contextlib
import re
import traceback
import types

# Characters kept of any one text of the reader's code the page shows: what one run (an
# exercise, or one block) prints, an error's message, a traceback, a test's message. A tab
# given a 10**8-character error message to show crashed after about 10 s.
MAX_OUTPUT = 10_000
PAGE_MODULES = {"builtins", "__test__"}  # the __module__ of classes that page code defines
# Characters that change how text around them reads but show nothing themselves: the bidi
# controls (Unicode's Bidi_Control: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069;
# U+202E makes "txt.exe" read "exe.txt") and the zero-width ones (U+200B-U+200D, U+2060,
# U+FEFF). Shown as <U+202E>, as code-review tools show them, so printed text reads as printed.
CONTROLS = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def is_doctest(source):
    """True if a code block's text (str) runs as a doctest: it starts with `>>>`, its very first
    characters, as Sybil's PythonCodeBlockParser decides; any other text runs as Python code.
    The build, the notebooks, the Run in the browser and the page's copy all ask this one
    function, so none can read a block as the other kind (a block whose first line is blank or
    indented is code, and fails as code)."""
    return source.startswith(">>>")


def visible(text):
    """text (str) with each of CONTROLS written as <U+XXXX> (U+202E: "<U+202E>")."""
    return CONTROLS.sub(lambda match: f"<U+{ord(match.group()):04X}>", text)


def clip(text, what="output"):
    """text (str) as the page shows it: its first MAX_OUTPUT characters, each of CONTROLS
    made visible (visible()), and, when it was longer, a last line that says so: "... (output
    cut: the first 10,000 of its 123,456 characters are shown)". what: "output", "error"...
    The cut is made before anything else, so a 10**8-character text costs one slice."""
    if len(text) <= MAX_OUTPUT:
        return visible(text)
    return visible(text[:MAX_OUTPUT]) + (f"\n... ({what} cut: the first {MAX_OUTPUT:,} of its {len(text):,} "
                                         "characters are shown)" + ("\n" if what == "output" else ""))


def text_of(error):
    """str(error), or what Python's traceback says when that fails (a reader's __str__ may raise)."""
    try:
        return str(error)
    except Exception:  # the reader's __str__ may do anything
        return "<exception str() failed>"


def exception_only(error):
    """The last line of error's traceback, "ValueError: message", as traceback.format_exception_only
    gives it (with Python's "Did you mean" and the exception's notes), as the page shows it
    (clip()): one str. A name, message or notes of more than MAX_OUTPUT characters are never
    formatted whole."""
    kind = type(error)
    module = getattr(kind, "__module__", None)  # a class made by type() in a block has none
    name = kind.__qualname__ if module in (None, "builtins", "__main__") else f"{module}.{kind.__qualname__}"
    message = text_of(error)
    notes = getattr(error, "__notes__", None)
    notes = [text_of(note) for note in notes] if isinstance(notes, (list, tuple)) else []
    if len(name) + len(message) + sum(map(len, notes)) <= MAX_OUTPUT:
        try:
            return visible("".join(traceback.format_exception_only(kind, error)).rstrip("\n"))
        except Exception:  # a class of the reader's whose attributes refuse to be read
            pass
    name = clip(name, "name")
    lines = [f"{name}: {clip(message, 'message')}" if message else name]
    return "\n".join(lines + [clip(note, "note") for note in notes])


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
    no message (MemoryError() has none: "MemoryError: " would end in an empty colon). The
    message is clipped (clip()).

    where: words that place it, after the type (" on line 3 of your code").
    """
    name = clip(type(error).__name__, "name") + where
    text = clip(text_of(error), "message")
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
        try:
            _take_apart(obj, stack)
        except Exception:  # an object of the reader's whose parts refuse to be read: left as it is
            pass


def _take_apart(obj, stack):
    """Put obj's parts on stack and, for a graph node, empty its parents."""
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

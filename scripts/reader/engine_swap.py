"""The reader's own engine in place of micrograd's: load it, install it, and find where its
backward pass first parts from micrograd's (issue 28, "Your engine runs the book").

scripts/reader/your_engine.py is the door (it re-exports all of this and adds diagnose); this
module holds what scripts/reader/run_blocks.py needs too, so the two import without a cycle.

    load(source: str) -> type
        exec the reader's engine source (a file, or the whole-engine exercise's code) in a
        fresh module and return its `Value`. Two shapes work: this book's (`_prev` and
        `_local`: micrograd/engine.py, docs/exercises/whole_engine.py) and micrograd 0.1.0's
        and the lecture's (`_prev` a set, a `_backward` closure per node, a recursive
        `backward()`). Raises EngineError (a ValueError) with a message for a source
        without a usable Value.
    shape(Value) -> "book" | "lecture"
    installed(Value)
        a context manager: `Value` is micrograd.engine.Value (and micrograd.Value,
        micrograd.nn.Value) while it lasts, so micrograd.nn, draw_dot, trace and gradcheck
        work with it; everything is restored after, even on an error. Nested, it restores
        the engine installed before it.
    applies(code: str) -> list[str]
        why an example does NOT apply to a reader's engine, decided with `ast` from its
        code: "reads _local (this engine's internals)", "imports topological_order from
        micrograd.engine (this engine's internals)", "measures sizes in bytes (getsizeof)".
        Empty: it applies.
    first_difference(expected_root, got_root, rel_tol=1e-9) -> dict | None
        nodes matched by structure; the first node of the reference graph, in reverse
        topological order, whose grad differs: {"id" (draw_dot's id in the reference
        graph), "label", "op", "expected", "got": the two grads as JSON numbers (for_json:
        "Infinity", "-Infinity" or "NaN" where JSON has none), "shown": {"expected", "got"}
        written as the site writes a number (micrograd.formatting.shown)}; None if none differs.
    likely_cause(Value) -> str | None
        the classic mistake the engine's gradients match, found by running it on the
        exercises' graphs (the kite, the diamond, chapter 3's neuron): "=" for "+=", the
        upstream factor left out, a wrong visit order, tanh's derivative from the input.
    (diagnose, which uses all of these, is documented in scripts/reader/your_engine.py.)

An example applies when it touches only the public interface: `Value`, its operations,
`data`, `grad`, `label`, `backward()`, `micrograd.nn`, `draw_dot`, `trace`, `gradcheck`, and
`_prev` and `_op`, which micrograd 0.1.0 has under the same names (both shapes keep the
parents in `_prev`; drawing needs `_op`). Any other `_name` it reads is this engine's own
(`_local`, `_x`, `_backward`), unless the example itself defines it (a class of its own, as
chapter 10's micrograd 0.1.0). For the lecture's shape, the drawing and the trace read each
edge's local derivative from the node's own `_backward` (called once with the node's grad
at 1 and its parents' at 0, every grad restored), so `draw_dot(..., local_derivatives=True)`
and `trace` show what the reader's closure does.

Stdlib and micrograd only: this module runs in Pyodide (the site's Python zip) and in
CPython (tests/your_engine/test_your_engine.py; `pytest --engine`, conftest.py).
"""

import ast
import builtins
import contextlib
import doctest
import inspect
import math
import re
import sys
import traceback
import types

import micrograd
import micrograd.engine
import micrograd.gradcheck
import micrograd.nn
import micrograd.trace
from micrograd.formatting import for_json, shown
from scripts.reader.reader_code import clip, describe, is_doctest, text_of

try:  # draw_dot needs the graphviz package; import it now so its names are patched too
    import micrograd.draw
except ImportError:  # pragma: no cover - graphviz is in the site's zip and the test extras
    pass

BOOK = micrograd.engine.Value
# The public interface is Value, its operations, data, grad, label and backward() (issue 28):
# no name with a leading underscore. _prev and _op are in both shapes, but a lecture engine's
# _prev is a set, whose order (which parent prints first) is no engine's promise.
PUBLIC = set()
# Names of this engine's internals an example may import or call.
INTERNALS = {"backward_steps", "topological_order", "_node", "_LISTED", "rebuild", "two", "number",
             "reciprocal", "power", "c_pow"}
BYTES = {"getsizeof", "tracemalloc", "memory_per_node", "__sizeof__", "__slots__"}
ENGINE_FILE = "<your engine>"  # the file name the engine's code is compiled under
LIT = "#ffb74d"  # the fill of the node where the reader's engine first differs


class EngineError(ValueError):
    """A reader's engine source without a usable Value; the message says what is wrong."""


_LOADED = {}  # source -> its Value, in this Python: an engine is imported once, as a module is


def load(source):
    """exec `source` (str) in a fresh module, once per Python (a later call with the same source gets
    the same class: a re-audit's engine that wrapped micrograd's own __mul__ wrapped it again on every
    call, and the playground's "micrograd" grads doubled click after click); return its class Value.
    Raises EngineError, again on each call."""
    if source in _LOADED:
        return _LOADED[source]
    module = types.ModuleType("your_engine_source")
    module.__dict__["__builtins__"] = builtins
    try:
        code = compile(source, ENGINE_FILE, "exec")
    except SyntaxError as error:
        raise EngineError(f"your engine does not parse: line {error.lineno}: {clip(str(error.msg), 'error')}") from None
    try:
        exec(code, module.__dict__)
    except BaseException as error:  # the reader's code may raise anything, KeyboardInterrupt and SystemExit too
        raise EngineError(f"your engine raised {describe(error)}") from None
    Value = module.__dict__.get("Value")
    if not isinstance(Value, type):
        raise EngineError("your engine defines no class Value" if Value is None else
                          f"your engine's Value is an object of type {clip(type(Value).__name__, 'name')}, "
                          "not a class")
    try:
        a, b = Value(2.0), Value(-3.0)
        c = a * b + a
        c.backward()
        fields = [c.data, c.grad, a.grad, c._prev]
    except BaseException as error:
        if isinstance(error, AttributeError) and error.__traceback__.tb_next is None:  # raised by load's own read
            missing = clip(text_of(error), "error")
            raise EngineError(f"your engine's Value lacks a field this book reads: {missing}") from None
        # Raised inside the engine's code (a typo such as self.dta in its __mul__): the book read nothing
        line = _engine_line(error)
        where = f" on line {line} of your engine" if line else ""
        raise EngineError(f"your engine's Value fails on a * b + a then backward(): {describe(error, where)}") from None
    del fields
    shape(Value)
    _LOADED[source] = Value
    return Value


def _engine_line(error):
    """The line of the reader's engine (compiled as "<your engine>") where `error` was raised:
    its innermost frame there, or None when none of its frames is the engine's."""
    lines = [line for frame, line in traceback.walk_tb(error.__traceback__) if frame.f_code.co_filename == ENGINE_FILE]
    return lines[-1] if lines else None


def shape(Value):
    """"book" (nodes keep _local) or "lecture" (a _backward closure); EngineError if neither."""
    node = Value(2.0) * Value(3.0)
    if hasattr(node, "_local"):
        return "book"
    if callable(getattr(node, "_backward", None)):
        return "lecture"
    raise EngineError("your engine's nodes have neither _local (this book's shape) nor a "
                      "_backward closure (the lecture's)")


def _parents(node):
    prev = getattr(node, "_prev", ())
    return prev if isinstance(prev, tuple) else tuple(prev)


_LISTED = object()


def topological_order(root, flip=False):
    """Every node root depends on, parents before children (micrograd.engine's order for its
    own Values); any class whose nodes keep their parents in _prev, a tuple or a set.
    Nodes are told apart by identity, whatever __eq__ and __hash__ the class defines."""
    order, visited, stack = [], set(), [root]  # flip: see _by_rule
    while stack:
        node = stack.pop()
        if node is _LISTED:
            order.append(stack.pop())
        elif id(node) not in visited:
            visited.add(id(node))
            parents = _parents(node)
            stack += (node, _LISTED, *(parents if flip else reversed(parents)))
    return order


def backward_steps(root, order=None):
    """micrograd.engine.backward_steps for any engine: seeds root.grad = 1.0, then visits the
    nodes (reverse topological order by default), each running its own _backward, or the
    chain rule over its _prev and _local; yields root, then each node."""
    root.grad = 1.0
    yield root
    for node in reversed(topological_order(root)) if order is None else order:
        step = getattr(node, "_backward", None)
        if callable(step):
            step()
        else:
            for parent, local in zip(_parents(node), node._local):
                parent.grad += local * node.grad
        yield node


def _probed_local(node):
    """A closure node's local derivatives: its _backward run once with its grad at 1 and its
    parents' at 0; every grad is restored."""
    parents = _parents(node)
    saved, own = [p.grad for p in parents], node.grad
    try:
        for p in parents:
            p.grad = 0.0
        node.grad = 1.0
        node._backward()
        return tuple(float(p.grad) for p in parents)
    finally:
        for p, grad in zip(parents, saved):
            p.grad = grad
        node.grad = own


@contextlib.contextmanager
def installed(Value):
    """`Value` as micrograd's Value while the block runs; see the module docstring."""
    targets = [(micrograd, "Value"), (micrograd.engine, "Value"), (micrograd.nn, "Value")]
    values = [Value] * 3
    functions = [(module, name) for module in (micrograd.engine, micrograd.trace,
                                               sys.modules.get("micrograd.draw")) if module
                 for name in ("topological_order", "backward_steps") if hasattr(module, name)]
    targets += functions
    values += [_ORIGINAL[(m.__name__, n)] if Value is BOOK else globals()[n] for m, n in functions]
    add_local = Value is not BOOK and not hasattr(Value, "_local") and shape(Value) == "lecture"
    add_label = Value is not BOOK and not _takes_label(Value)
    own_init = vars(Value).get("__init__")
    saved = [getattr(module, name) for module, name in targets]
    try:
        for (module, name), value in zip(targets, values):
            setattr(module, name, value)
        if add_local:
            Value._local = property(_probed_local)
        if add_label:
            Value.__init__ = _labelled(Value.__init__)
        yield Value
    finally:
        for (module, name), value in zip(targets, saved):
            setattr(module, name, value)
        if add_local:
            del Value._local
        if add_label:
            if own_init is None:
                del Value.__init__
            else:
                Value.__init__ = own_init


def _takes_label(Value):
    """Whether Value(data, label=...) works: this book's shape and the lecture's take a label;
    micrograd 0.1.0's Value does not."""
    try:
        parameters = inspect.signature(Value.__init__).parameters
    except (TypeError, ValueError):  # a signature Python cannot read: let the call say
        return True
    return "label" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _labelled(init):
    """Value.__init__ that also takes label=: a label only names a node in the figures (the
    chapters pass one, micrograd.nn too), so the book supplies it to an engine without one."""
    def __init__(self, *args, label="", **kwargs):
        init(self, *args, **kwargs)
        if label or not hasattr(self, "label"):
            try:
                self.label = label
            except AttributeError:  # __slots__ without label: it is display only
                pass
    return __init__


_ORIGINAL = {(m.__name__, n): getattr(m, n) for m in (micrograd.engine, micrograd.trace,
                                                      sys.modules.get("micrograd.draw")) if m
             for n in ("topological_order", "backward_steps") if hasattr(m, n)}


# ---- applies ----

def _code_of(code):
    """The Python of a block: a `>>>` block's examples joined, else the text itself."""
    if is_doctest(code):
        try:
            return "".join(e.source for e in doctest.DocTestParser().get_examples(code))
        except ValueError:
            return code
    return code


# micrograd's own operations a reader's engine may lack (micrograd 0.1.0 has no tanh, no exp)
OPERATIONS = tuple(name for name in vars(BOOK) if not name.startswith("_") and callable(vars(BOOK)[name])
                   and name != "backward")
LACKS = ", which your engine does not have"  # how a reason for an operation the engine lacks ends


def lacks(Value):
    """The operations of micrograd's Value (tanh, exp, relu) that `Value` does not have."""
    return [] if Value is None else [name for name in OPERATIONS if not hasattr(Value, name)]


def applies(code, Value=None):
    """Why the block `code` (str) does not apply to a reader's engine: a list[str], empty if it
    applies. A block that does not parse applies (running it says what is wrong). Value: the
    reader's engine; a block calling an operation it lacks ("uses tanh(), which your engine
    does not have") does not apply to it."""
    try:
        tree = ast.parse(_code_of(code))
    except SyntaxError:
        return []
    own = set()  # names the block defines itself: a class of its own keeps its own internals
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
    reasons = []

    def say(text):
        if text not in reasons:
            reasons.append(text)

    if "Traceback (most recent call last)" in code:
        say("expects this engine's own error message")
    missing = lacks(Value)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "micrograd.support" or node.module.startswith("tracemalloc"):
                say(f"imports {node.module}" + (" (sizes in bytes)" if "tracemalloc" in node.module
                                                 else " (this engine's internals)"))
            elif node.module == "micrograd.engine":
                for alias in node.names:
                    if alias.name != "Value":
                        say(f"imports {alias.name} from micrograd.engine (this engine's internals)")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tracemalloc":
                    say("imports tracemalloc (sizes in bytes)")
                elif alias.name == "micrograd.support":
                    say("imports micrograd.support (this engine's internals)")
        elif isinstance(node, (ast.Attribute, ast.Name)):
            name = node.attr if isinstance(node, ast.Attribute) else node.id
            if isinstance(node, ast.Attribute) and name in missing and name not in own:
                say(f"uses {name}(){LACKS}")
            elif name in BYTES and name not in own:
                say(f"measures sizes in bytes ({name})")
            elif name in own:
                continue
            elif isinstance(node, ast.Name):  # imported by an earlier block: topological_order(f)
                if name in INTERNALS:
                    say(f"uses {name} (this engine's internals)")
                continue
            elif name in INTERNALS and name not in own:
                say(f"uses {name} (this engine's internals)")
            elif (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
                  and name not in PUBLIC):
                say(f"reads {name} (this engine's internals)")
        elif (isinstance(node, ast.Assign) and any(isinstance(target, ast.Attribute) and target.attr == "data"
                                                   for target in node.targets)):
            say("sets data after building a graph (micrograd 0.1.0 reads it again in backward(); "
                "this engine does not)")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Value"
              and "Value" not in own and (len(node.args) > 2 or any(k.arg and k.arg.startswith("_")
                                                                    for k in node.keywords))):
            say("builds a Value from its parents and local derivatives (this engine's internals)")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in
              ("getattr", "setattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            name = node.args[1].value
            if name.startswith("_") and not name.startswith("__") and name not in PUBLIC | own:
                say(f"reads {name} (this engine's internals)")
    return reasons


def applies_in_order(codes, Value=None):
    """applies() for a page's blocks in page order (list[str] -> list[list[str]]): a block that
    calls a function or class a block that does not apply defined (build_topo, a subclass of
    Value) does not apply either, and says which name. A block that uses an operation `Value`
    lacks stops there, so the names it binds are never made: a later block reading them does
    not apply either (not a NameError carried on)."""
    tainted, unmade, found = set(), set(), []
    missing = lacks(Value)
    for code in codes:
        reasons = list(applies(code, Value))
        try:
            tree = ast.parse(_code_of(code))
        except SyntaxError:
            found.append(reasons)
            continue
        bound = _bound(tree)
        loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        gone = sorted((loaded & unmade) - (bound - _read_before_bound(tree)))
        used = sorted((loaded & tainted) - (bound - _read_before_bound(tree)) - set(gone))
        if used:
            reasons.append(f"uses {', '.join(used)}, which a block that does not apply defines")
        if gone:
            reasons.append(f"uses {', '.join(gone)}, left unmade by a block that does not apply")
        if reasons:
            tainted |= _defined(tree)
            tainted |= _computed_by(tree, tainted)  # data a tainted function made: its engine's, not the page's
        stops = [_first_use(tree, missing)] if any(r.endswith(LACKS) for r in reasons) else []
        stops += [_first_load(tree, gone)] if gone else []
        stops += [_first_load(tree, set(used))] if used else []  # a call may fail where that code did
        if stops:  # it stops there: what it binds or sets from that line on is never made
            unmade |= _bound(tree, min(stops), attributes=True)
        elif not reasons:
            tainted -= bound  # made again by a block that applies
            unmade -= bound
        found.append(reasons)
    return found


def _read_before_bound(tree):
    """Names a block reads on a line before (or on) the first line where it binds them
    (`x = x + 1`): they come from an earlier block."""
    first = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            first[node.id] = min(first.get(node.id, node.lineno), node.lineno)
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
            and node.id in first and node.lineno <= first[node.id]}


def _bound(tree, after=0, attributes=False):
    """The names a block binds (assigned, defined) on line `after` or later: from the line where
    a block stops, what it leaves unmade; attributes: and the names whose attributes it sets
    (`n.grad = ...`), whose values it leaves other than the page's."""
    names = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", after) < after:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (attributes and isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name)):
            names.add(node.value.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _first_load(tree, names):
    """The first line of the block that reads one of these names."""
    lines = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in names
             and isinstance(node.ctx, ast.Load)]
    return min(lines, default=0)


def _first_use(tree, names):
    """The first line of the block that reads one of these attributes (where it stops)."""
    lines = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in names]
    return min(lines, default=0)


def _computed_by(tree, functions):
    """Names a block's top-level statements bind from a call of one of `functions`
    (`graphs = {w: kept(w) for w in widths}`): numbers that code made on the reader's engine."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            calls = {n.func.id for n in ast.walk(node.value)
                     if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            if calls & functions:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _defined(tree):
    """The functions and classes a block defines (and names it binds to them): code that reads
    what its block read when it is called. Values a block makes are data, whatever it printed."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


# ---- comparing graphs ----

def _number(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _close(a, b, rel_tol=1e-9):
    a, b = _number(a), _number(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-12)


def _distinct(parents):
    seen, out = set(), []
    for p in parents:
        if id(p) not in seen:
            seen.add(id(p))
            out.append(p)
    return out


def _signatures(order):
    """{id(node): a structural hash}: a leaf by its data and label, a node by its operation and
    its distinct parents' hashes, sorted (a set of parents has no order)."""
    sig = {}
    for node in order:
        parents = _distinct(_parents(node))
        if parents:
            key = (str(getattr(node, "_op", "")).strip().lower(), tuple(sorted(sig[id(p)] for p in parents)))
        else:
            key = ("leaf", repr(_number(node.data)), str(getattr(node, "label", "") or ""))
        sig[id(node)] = hash(key)
    return sig


def _match(ref_root, got_root):
    """{id(reference node): reader's node}, paired from the roots down by structure."""
    rs = _signatures(topological_order(ref_root))
    gs = _signatures(topological_order(got_root))
    pairs = {id(ref_root): got_root}
    stack = [(ref_root, got_root)]
    while stack:
        r, g = stack.pop()
        waiting = {}
        for p in sorted(_distinct(_parents(g)), key=lambda n: gs[id(n)]):
            waiting.setdefault(gs[id(p)], []).append(p)
        for p in sorted(_distinct(_parents(r)), key=lambda n: rs[id(n)]):
            candidates = waiting.get(rs[id(p)])
            if candidates and id(p) not in pairs:
                pairs[id(p)] = candidates.pop(0)
                stack.append((p, pairs[id(p)]))
    return pairs


def _reference_order(root):
    """The order draw_dot numbers the reference graph's nodes by (n0, n1, ...)."""
    return _ORIGINAL[("micrograd.engine", "topological_order")](root) if isinstance(root, BOOK) \
        else topological_order(root)


def first_difference(expected_root, got_root, rel_tol=1e-9):
    """See the module docstring. expected_root: the reference graph's root (micrograd), got_root:
    the reader's; grads compared as numbers, within rel_tol (NaN equals NaN)."""
    pairs = _match(expected_root, got_root)
    order = _reference_order(expected_root)
    for i in range(len(order) - 1, -1, -1):
        node = order[i]
        got = pairs.get(id(node))
        if got is not None and not _close(node.grad, got.grad, rel_tol):
            expected, mine = _number(node.grad), _number(got.grad)  # a buggy engine's may be inf or NaN
            return {"id": f"n{i}", "label": str(getattr(node, "label", "") or ""),
                    "op": str(getattr(node, "_op", "") or ""), "expected": for_json(expected),
                    "got": for_json(mine), "shown": {"expected": shown(expected), "got": shown(mine)}}
    return None


# ---- the classic mistakes ----

MISTAKES = [
    ("assign", "= instead of +=: a value used twice must add each edge's share (parent.grad += ...)"),
    ("upstream", "the upstream factor left out: each edge adds local * node.grad, not the local "
                 "derivative alone"),
    ("order", "a wrong visit order: visit the nodes in reverse topological order, so each node's "
              "grad is complete before it is passed on"),
    ("depth first", "a wrong visit order: visit the nodes in reverse topological order, so each "
                    "node's grad is complete before it is passed on"),
    ("tanh", "tanh's local derivative taken from the input: it is 1 - t**2 with t = tanh(x), "
             "the output"),
]


def _probes():
    """The exercises' graphs (scripts/reader/exercise_checks.py): builders cls -> (leaves, root)."""
    from scripts.reader.exercise_checks import diamond, kite, neuron

    return [lambda V: _split(diamond(V)), lambda V: _split(kite(V)), neuron]


def _split(nodes):
    return [nodes[0]], nodes[-1]


def _by_rule(root, leaves, mistake, flip=False):
    """The leaves' grads a backward pass with `mistake` gives on a micrograd graph; flip: the
    topological sort explores a node's last parent first (with = for +=, which share is kept
    depends on it, and engines sort either way)."""
    order = topological_order(root, flip)
    for node in order:
        node.grad = 0.0
    root.grad = 1.0
    if mistake == "order":
        visits = order
    elif mistake == "depth first":  # from the root, each node passed on as soon as reached
        visits, seen, stack = [], {id(root)}, [root]
        while stack:
            node = stack.pop()
            visits.append(node)
            for parent in _parents(node):
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append(parent)
    else:
        visits = reversed(order)
    for node in visits:
        for parent, local in zip(node._prev, node._local):
            if mistake == "tanh" and node._op == "tanh":
                local = 1.0 - parent.data ** 2
            share = local * (1.0 if mistake == "upstream" else node.grad)
            parent.grad = share if mistake == "assign" else parent.grad + share
    return [leaf.grad for leaf in leaves]


def likely_cause(Value):
    """See the module docstring: the message of the first classic mistake whose gradients equal
    the engine's on every probe graph, or None (correct there, or no mistake matches)."""
    from scripts.reader.reader_code import take_graphs_apart

    probes = []
    for build in _probes():
        try:
            leaves, root = build(Value)
            root.backward()
            got = [_number(leaf.grad) for leaf in leaves]
        except Exception:  # the reader's engine may fail on a probe: judge by the others
            continue
        with installed(BOOK):  # the engine's own methods read micrograd.engine.Value
            ref_leaves, ref_root = build(BOOK)
        probes.append((got, ref_leaves, ref_root))
    try:
        if not probes or all(_all_close(got, _by_rule(r, ls, None)) for got, ls, r in probes):
            return None
        for mistake, message in MISTAKES:
            if all(_all_close(got, _by_rule(r, ls, mistake)) or _all_close(got, _by_rule(r, ls, mistake, True))
                   for got, ls, r in probes):
                return message
        return None
    finally:
        take_graphs_apart([r for _, _, r in probes])


def _all_close(a, b):
    return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))


# ---- the reader's own backward pass, recorded ----

def _slot(cls, name):
    """The descriptor that holds `name` on instances of cls (a __slots__ member), or None (the
    instance's __dict__ holds it)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            held = vars(klass)[name]
            return held if hasattr(held, "__set__") else None
    return None


def recorded_backward(root, nodes, zero=True):
    """Run the reader's own root.backward() and record what it does, for a replay.

    nodes: every node of root's graph (its topological order). Returns a list of events in the
    order they happened: ("visit", i) when the pass visits nodes[i] (it reads the node's
    _local, this book's shape, or calls its _backward, the lecture's), and ("write", i, value)
    for each assignment to nodes[i].grad. Every grad is set to 0 first (as before a first
    backward()), unless zero is False (a second backward() on the same graph); the class and
    the nodes are restored after, even on an error, which is raised again (the reader's engine may raise anything).
    """
    cls = type(root)
    index = {id(node): i for i, node in enumerate(nodes)}
    events, on = [], [False]
    grad_slot, local_slot = _slot(cls, "grad"), _slot(cls, "_local")
    own = {name: vars(cls)[name] for name in ("grad", "_local") if name in vars(cls)}

    def get(slot, name):
        return (lambda self: slot.__get__(self, cls)) if slot else (lambda self: self.__dict__[name])

    def set_grad(self, value):
        if on[0] and id(self) in index:
            events.append(("write", index[id(self)], value))
        if grad_slot:
            grad_slot.__set__(self, value)
        else:
            self.__dict__["grad"] = value

    read_grad, read_local = get(grad_slot, "grad"), get(local_slot, "_local")

    def local(self):
        if on[0] and id(self) in index and events[-1:] != [("visit", index[id(self)])]:
            events.append(("visit", index[id(self)]))
        return read_local(self)

    closures = []
    for node in nodes:
        step = getattr(node, "_backward", None)
        if callable(step) and not hasattr(cls, "_backward"):
            closures.append((node, step))
    try:
        for node in nodes if zero else ():
            node.grad = 0.0
        cls.grad = property(read_grad, set_grad)
        if hasattr(nodes[0], "_local") and "_local" not in vars(cls) or local_slot:
            cls._local = property(local)
        for node, step in closures:
            def visit(node=node, step=step):
                if on[0]:
                    events.append(("visit", index[id(node)]))
                return step()
            node._backward = visit
        on[0] = True
        root.backward()
    finally:
        on[0] = False
        for node, step in closures:
            node._backward = step
        for name in ("grad", "_local"):
            if name in own:
                setattr(cls, name, own[name])
            elif name in vars(cls):
                delattr(cls, name)
    return events


# ---- outputs compared as numbers ----

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")


def same_output(want, got, rel_tol=1e-9):
    """True if two printed outputs (str) differ at most in how numbers are written and in the
    last digits: text the same (trailing whitespace aside), numbers within rel_tol. A correct
    engine of the lecture's shape prints `1` where the page prints `1.0`."""
    want = re.sub(r"[ \t]+$", "", want, flags=re.MULTILINE)
    got = re.sub(r"[ \t]+$", "", got, flags=re.MULTILINE)
    got = re.sub(r"np\.float(?:64|32)\(([^()]*)\)", r"\1", got)  # a data NumPy gave, kept as given
    if want == got:
        return True
    if _NUMBER.split(want) != _NUMBER.split(got):
        return False
    return all(_close(a, b, rel_tol) for a, b in zip(_NUMBER.findall(want), _NUMBER.findall(got)))

"""The reader's own engine in place of micrograd's: load it, install it, and find where its
backward pass first parts from micrograd's (issue 28, "Your engine runs the book").

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
        graph), "label", "op", "expected": float, "got": float}; None if none differs.
    likely_cause(Value) -> str | None
        the classic mistake the engine's gradients match, found by running it on the
        exercises' graphs (the kite, the diamond, chapter 3's neuron): "=" for "+=", the
        upstream factor left out, a wrong visit order, tanh's derivative from the input.
    diagnose(blocks, upto, edits, source) -> dict
        a chapter's blocks 0..upto (blocks.json's "blocks", run as scripts/reader/run_blocks.py
        runs them) on micrograd and on the reader's engine: {"ok": True, "difference":
        first_difference(...) or None, "cause": likely_cause(...) or None, "dot": the
        reference graph's DOT with the differing node lit and both numbers on it, "name":
        the variable}, or {"ok": True, "difference": None} when no Value's grads differ.
        {"ok": False, "message"} if the source has no usable Value.

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

import sys

from micrograd.formatting import field
from scripts.reader.engine_swap import (
    BOOK,
    LIT,
    MISTAKES,
    EngineError,
    _reference_order,
    applies,
    backward_steps,
    first_difference,
    installed,
    likely_cause,
    load,
    same_output,
    shape,
    topological_order,
)
from scripts.reader.reader_code import no_input, take_graphs_apart
from scripts.reader.run_blocks import _name, _run_block

__all__ = ["BOOK", "LIT", "MISTAKES", "EngineError", "applies", "backward_steps", "diagnose",
           "diagnose_blocks", "first_difference", "installed", "likely_cause", "load", "same_output",
           "shape", "topological_order"]



def _is_value(x):
    return hasattr(x, "grad") and hasattr(x, "data") and hasattr(x, "_prev")


def diagnose_blocks(blocks, indexes, edits, Value):
    """{index: diagnosis} for each block index in `indexes`: blocks 0..index run on micrograd and
    on `Value` (both once, side by side), then compared as diagnose() does."""

    edits = {int(k): v for k, v in (edits or {}).items()}
    wanted = set(int(i) for i in indexes)
    ref, got, out, cause = {}, {}, {}, []
    try:
        with no_input():
            for index, block in enumerate(blocks[: max(wanted, default=-1) + 1]):
                name = _name(blocks, index)
                for namespace, engine in ((ref, BOOK), (got, Value)):
                    with installed(engine):
                        _run_block(block, index, edits.get(index), namespace, name)
                if index in wanted:
                    out[index] = _compare(ref, got, Value, cause)
    finally:
        take_graphs_apart(list(ref.values()) + list(got.values()))
        ref.clear()
        got.clear()
    return out


def _compare(ref, got, Value, cause):
    found = []
    for name, r in ref.items():
        g = got.get(name)
        if isinstance(r, BOOK) and _is_value(g):
            try:
                difference = first_difference(r, g)
            except Exception:  # a graph the reader's engine built otherwise
                continue
            if difference is not None:
                found.append((len(topological_order(r)), name, r, difference))
    if not found:
        return {"ok": True, "difference": None}
    _, name, root, difference = max(found, key=lambda f: f[0])
    if not cause:
        cause.append(likely_cause(Value))
    return {"ok": True, "difference": difference, "cause": cause[0], "dot": _lit_dot(root, difference),
            "name": name}


def _lit_dot(root, difference):
    """draw_dot(root)'s DOT with the differing node filled and both grads on it; None without
    graphviz."""
    draw = sys.modules.get("micrograd.draw")
    if draw is None:
        return None
    with installed(BOOK):
        dot = draw.draw_dot(root)
    order = _reference_order(root)
    node = order[int(difference["id"][1:])]
    fields = [draw._escape(node.label)] if node.label else []
    fields += [f"data {field(node.data)}", f"grad {field(difference['expected'])}",
               f"your engine: grad {field(difference['got'])}"]  # as draw_dot writes its records
    dot.node(difference["id"], " | ".join(fields), shape="record", id=difference["id"],
             style="filled", fillcolor=LIT)
    return dot.source


def diagnose(blocks, upto, edits=None, source=""):
    """See the module docstring."""
    try:
        Value = load(source)
    except EngineError as error:
        return {"ok": False, "message": str(error)}
    return diagnose_blocks(blocks, [int(upto)], edits, Value)[int(upto)]



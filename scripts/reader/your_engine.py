"""The reader's own engine in place of micrograd's (issue 28, "Your engine runs the book"): the
door the page and `pytest --engine` use. It re-exports scripts/reader/engine_swap.py (load,
shape, installed, applies, first_difference, likely_cause: their inputs, outputs and errors are
documented there, once) and adds diagnose.

    diagnose(blocks, upto, edits, source) -> dict
        a chapter's blocks 0..upto (blocks.json's "blocks", run as scripts/reader/run_blocks.py
        runs them) on micrograd and on the reader's engine: {"ok": True, "difference":
        first_difference(...) with "name", the node as a reader knows it (its label, else the
        expression that made it: scripts/reader/engine_cause.py), "diagnosis": the cause
        decided at that node (engine_cause.cause's text, with the numbers), "cause": that text
        when it names a classic mistake, else None (each was tested there and none fits),
        "mistake", "operation", "operand" (engine_cause.cause's), "dot": the reference graph's
        DOT with the differing node lit and both numbers on it, "name": the variable}, or
        {"ok": True, "difference": None, "compared", "uncompared", "status" and "error" (how
        the block went on the reader's engine: a block that failed is never said to agree, and
        its cause is read on the exercises' graphs: "cause", "mistake", "operation", "operand")}
        when no Value's grads differ. An engine whose _prev is a set is run up to RUNS times
        before that (its walk's order changes from run to run); "runs" says how many it took.
        {"ok": False, "message"} if the source has no usable Value.

    varies(blocks, source, runs=2, first=None) -> dict
        the blocks run `runs` times on the reader's engine, as the map runs them; first: the
        statuses of a run already made (the map's: one per block, None where it did not apply),
        counted as the first, and then only an engine whose _prev is a set runs again
        (run_blocks.run): {"set": whether its _prev is a set, "blocks": [{"index", "line",
        "statuses": one per run}] for each block that applies and did not go the same way
        in every run, "statuses": each block's statuses, None for one that does not apply}.
        A _prev that is a set is walked in another order from run to run (it follows where
        the nodes sit in memory), so an engine whose grads depend on that order (= for +=
        keeps one share, whichever comes last) passes in one run and fails in the next.

Stdlib and micrograd only: runs in Pyodide (the site's Python zip) and in CPython.
"""

import sys

from micrograd.formatting import field
from scripts.reader.engine_cause import cause, node_names, on_probes
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
from scripts.reader.reader_code import clip, no_input, take_graphs_apart
from scripts.reader.run_blocks import _name, _run_block, run

__all__ = ["BOOK", "LIT", "MISTAKES", "EngineError", "applies", "backward_steps", "diagnose",
           "diagnose_blocks", "first_difference", "installed", "likely_cause", "load", "same_output",
           "set_prev", "shape", "topological_order", "varies"]



def _is_value(x):
    return hasattr(x, "grad") and hasattr(x, "data") and hasattr(x, "_prev")


def diagnose_blocks(blocks, indexes, edits, Value):
    """{index: diagnosis} for each block index in `indexes`: blocks 0..index run on micrograd and
    on `Value` (both once, side by side), then compared as diagnose() does."""

    edits = {int(k): v for k, v in (edits or {}).items()}
    wanted = set(int(i) for i in indexes)
    ref, got, out = {}, {}, {}
    try:
        with no_input():
            for index, block in enumerate(blocks[: max(wanted, default=-1) + 1]):
                name = _name(blocks, index)
                before = {key: id(value) for key, value in ref.items()} if index in wanted else {}
                for namespace, engine in ((ref, BOOK), (got, Value)):
                    with installed(engine):
                        result = _run_block(block, index, edits.get(index), namespace, name)
                if index in wanted:  # the names this block bound: its own graphs come first
                    own = {key for key, value in ref.items() if before.get(key) != id(value)}
                    out[index] = _compare(ref, got, own)
                    if out[index]["difference"] is None:  # how the block went on the reader's engine
                        out[index].update(status=result["status"], error=_last_line(result))
                        if result["status"] in ("error", "differs"):
                            out[index].update(_on_probes(Value))
    finally:
        take_graphs_apart(list(ref.values()) + list(got.values()))
        ref.clear()
        got.clear()
    return out


def _last_line(result):
    """What a block's error says (its lines after the traceback, joined), or the last line of the
    first example that printed otherwise; "" if none."""
    if result.get("error"):
        lines = result["error"].strip().splitlines()
        start = max((i + 1 for i, line in enumerate(lines) if line.startswith(" ")), default=0)
        return clip(" ".join(lines[start:] or lines[-1:]), "error")
    wrong = [s for s in result.get("transcript", []) if s.get("output") and not s.get("same")]
    return wrong[0]["text"].strip().splitlines()[-1] if wrong and wrong[0]["text"].strip() else ""


def _compare(ref, got, own=frozenset()):
    """The diagnosis of one block: {"ok": True, "difference": None, "compared": [names],
    "uncompared": [names]} when no graph differs, "compared" naming the graphs walked node by
    node and "uncompared" those micrograd built but the reader's engine left no Value for, or
    whose graph could not be walked (a block that raised builds none: saying its grads all agree
    would be false, a new reader's audit); else the first difference, as diagnose() gives it:
    in the largest differing graph among the names the block bound (own), else among all (an
    audit: an earlier block's larger graph was drawn for this one)."""
    found, compared, uncompared = [], [], []
    for name, r in ref.items():
        if not isinstance(r, BOOK):
            continue
        g = got.get(name)
        if not _is_value(g):
            uncompared.append(name)
            continue
        try:
            difference = first_difference(r, g)
        except Exception:  # a graph the reader's engine built otherwise
            uncompared.append(name)
            continue
        if difference is not None:
            found.append((len(topological_order(r)), name, r, difference, g))
        else:
            compared.append(name)
    if not found:
        return {"ok": True, "difference": None, "compared": compared, "uncompared": uncompared}
    _, name, root, difference, mine = max(found, key=lambda f: (f[1] in own, f[0]))
    difference = {**difference, "name": node_names(root)[id(_reference_order(root)[int(difference["id"][1:])])]}
    verdict = cause(root, mine)  # decided where the difference is, from the reader's own pass
    if verdict["difference"] is None:  # a fresh pass from root agrees: the grads came from a graph above it
        verdict = on_probes(type(mine), name) or verdict
    return {"ok": True, "difference": difference, "cause": verdict["text"] if verdict["mistake"] else None,
            "diagnosis": verdict["text"], "mistake": verdict["mistake"], "operation": verdict["operation"],
            "operand": verdict["operand"], "dot": _lit_dot(root, difference), "name": name}


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


RUNS = 4  # runs of the blocks diagnose makes for an engine whose _prev is a set, before it says none differs


def set_prev(Value):
    """Whether the engine keeps a node's parents in a set (micrograd 0.1.0, the lecture)."""
    node = Value(2.0) * Value(3.0)
    return isinstance(getattr(node, "_prev", ()), (set, frozenset))


def varies(blocks, source, runs=2, first=None):
    """See the module docstring."""
    Value = load(source)
    if first is not None and not set_prev(Value):  # a tuple is walked in the same order every time
        return {"set": False, "blocks": [], "statuses": [None if s is None else [s] for s in first]}
    seen = [run(blocks, len(blocks) - 1, {}, None, source) for _ in range(runs - (first is not None))]
    if first is not None:  # a run the map already made: its statuses, None where a block did not apply
        seen.insert(0, [{"status": s, "applies": ["-"] if s is None else [], "line": b["line"]}
                        for s, b in zip(first, blocks)])
    out, every = [], []
    for index, results in enumerate(zip(*seen)):
        statuses = [r["status"] for r in results]
        every.append(None if results[0].get("applies") else statuses)
        if every[-1] and len(set(statuses)) > 1:
            out.append({"index": index, "line": results[0]["line"], "statuses": statuses})
    return {"set": set_prev(Value), "blocks": out, "statuses": every}


def diagnose(blocks, upto, edits=None, source=""):
    """See the module docstring."""
    try:
        Value = load(source)
    except EngineError as error:
        return {"ok": False, "message": str(error)}
    runs = RUNS if set_prev(Value) else 1  # a tuple is walked in the same order every time
    for run_number in range(1, runs + 1):
        found = diagnose_blocks(blocks, [int(upto)], edits, Value)[int(upto)]
        found["runs"] = run_number
        if found["difference"] is not None:
            return found
    return found


def _on_probes(Value):
    """For a block that failed while no graph it names differs: the graph it failed on was built
    inside a function (gradcheck's lambda, a loss_fn), so the classic mistakes are tried on the
    exercises' graphs. {"cause", "mistake", "operation", "operand"}, or {} when none fits there."""
    verdict = on_probes(Value, "", why="the graph where the block failed was built inside a function (a "
                        "gradcheck's lambda, say), which keeps no name to read its grads by")
    if not verdict:
        return {}
    return {"cause": verdict["text"], "mistake": verdict["mistake"], "operation": verdict["operation"],
            "operand": verdict["operand"]}



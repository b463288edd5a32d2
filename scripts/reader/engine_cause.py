"""Why a reader's engine gives another grad than micrograd, decided at the node where it does
(issue 44): names a reader knows for nodes, and the classic mistake read off the reader's own
backward pass.

    node_names(root) -> {id(node): str}
        every node of root's graph (micrograd's or a reader's) named as a reader knows it: by
        its label, else by the expression that made it from its parents' names (`a + b`,
        `n.tanh()`, `x**2`, a constant by its number), never by draw_dot's ids (n0, n1…).
    cause(ref_root, got_root) -> dict
        both graphs' backward() run again from zero (every grad restored after): micrograd's
        on ref_root, the reader's on got_root, recorded (engine_swap.recorded_backward); at
        the first node whose grad differs, each share the reader's pass wrote into it (who
        wrote it, its grad at that moment, the grad before and after) against micrograd's
        share on the same edge. {"mistake": "assign" | "upstream" | "tanh" | "local" |
        "order" | "unvisited" | None, "operation": the op whose backward holds it (None for
        the visit order), "operand": "left" | "right" | None, "node": the differing node's
        name, "difference": engine_swap.first_difference of this run or None, "text": a
        sentence with the numbers}. mistake None: each mistake was tested at that node and
        none fits (the text gives each share on both engines), or no grad differs in this
        run (the text says so).

Stdlib and micrograd only: runs in Pyodide and in CPython.
"""

import math

from micrograd.formatting import shown
from scripts.reader.engine_swap import (
    _close,
    _distinct,
    _match,
    _number,
    _parents,
    _reference_order,
    first_difference,
    recorded_backward,
    topological_order,
)
from scripts.reader.reader_code import describe

MAX_NAME = 40  # characters of a node's name: past it, inner parts are written (…)
OPERAND = ("left", "right")  # a node's parents in the order its operation took them: self, other
FIX = {
    "assign": "a node used twice must add each edge's share: parent.grad += …, not =",
    "upstream": "each edge adds local × the node's own grad (the upstream factor), not the local "
                "derivative alone",
    "tanh": "tanh's local derivative is 1 − t² with t = tanh(x), the output",
    "order": "visit the nodes in reverse topological order, so each node's grad is complete "
             "before it is passed on",
}


# ---- names ----

_PRECEDENCE = {"+": 1, "*": 2, "**": 3, "call": 4, "leaf": 5}
_METHODS = {"tanh": "tanh", "exp": "exp", "relu": "relu"}


def node_names(root):
    """See the module docstring."""
    found = {}
    for node in topological_order(root):
        found[id(node)] = _name(node, found)
    return {key: text for key, (text, _) in found.items()}


def _name(node, found):
    """(text, precedence) of one node, its parents already named in `found`."""
    label = str(getattr(node, "label", "") or "")
    if label:
        return label, _PRECEDENCE["leaf"]
    parents = _parents(node)
    op = str(getattr(node, "_op", "") or "")
    if not parents:
        return shown(_number(node.data)), _PRECEDENCE["leaf"]
    names = [found[id(p)] for p in parents]
    if len(parents) == 1 and op in ("+", "*"):
        names = names * 2  # a + a, a * a: a lecture engine's _prev, a set, holds one parent
    full = _compose(op, names, None)
    if len(full[0]) <= MAX_NAME:
        return full
    return _compose(op, names, MAX_NAME // 3)  # long parts written (…)


def _compose(op, names, longest):
    def part(name, level):
        text, precedence = name
        if longest is not None and len(text) > longest:
            return "(…)"
        return f"({text})" if precedence < level else text

    method = op.lower()
    if method in _METHODS and len(names) == 1:
        return f"{part(names[0], _PRECEDENCE['call'])}.{_METHODS[method]}()", _PRECEDENCE["call"]
    if op.startswith("**") and len(names) == 1:
        return f"{part(names[0], _PRECEDENCE['**'] + 1)}{op}", _PRECEDENCE["**"]
    if op in ("+", "*") and len(names) == 2:
        level = _PRECEDENCE[op]
        return f"{part(names[0], level)} {op} {part(names[1], level + 1)}", level
    return f"{op or 'op'}({', '.join(part(n, 0) for n in names)})", _PRECEDENCE["call"]


# ---- the cause ----

def cause(ref_root, got_root):
    """See the module docstring."""
    ref_nodes = _reference_order(ref_root)
    got_nodes = topological_order(got_root)
    saved = [(n, n.grad) for n in ref_nodes] + [(n, n.grad) for n in got_nodes]
    try:
        for node in ref_nodes:
            node.grad = 0.0
        ref_root.backward()
        try:
            events = recorded_backward(got_root, got_nodes)
            if first_difference(ref_root, got_root) is not None:
                return _decide(ref_root, got_root, ref_nodes, got_nodes, events)
            # One pass agrees. The block's grads may hold more than one (backward() again, or a new
            # graph on the same leaves, without zero_grad): a second pass on this graph shows
            # whether the engine adds to what is there.
            start = [_number(n.grad) for n in got_nodes]
            ref_root.backward()
            events = recorded_backward(got_root, got_nodes, zero=False)
        except Exception as error:  # the reader's backward() may raise anything
            return _verdict(None, None, None, "", None, f"your engine's backward() raised {describe(error)}")
        return _decide(ref_root, got_root, ref_nodes, got_nodes, events, start)
    finally:
        for node, grad in saved:
            node.grad = grad


def on_probes(Value, name, why=None):
    """cause() on the exercises' graphs (the diamond, the kite, chapter 3's neuron), for a node
    `name` whose graph the block does not give: the first verdict that names a mistake, its text
    saying where it was seen, or None. why: why the block's own graph was not read (str), else a
    backward() from `name` alone gave micrograd's grads."""
    # engine_swap's BOOK, not micrograd.engine.Value, which pytest --engine replaces for the session
    from scripts.reader.engine_swap import BOOK, _probes, installed

    for number, build in enumerate(_probes()):
        try:
            with installed(BOOK):
                _, ref = build(BOOK)
            with installed(Value):
                _, got = build(Value)
                got.backward()
            ref.backward()
            verdict = cause(ref, got)
        except Exception:  # the reader's engine may fail on a probe: judge by the others
            continue
        if verdict["mistake"]:
            verdict["text"] += (f" (Seen on the exercises' {PROBES[number]} graph: " + (why or (
                f"a backward() from {name} alone gives micrograd's grads, so its grad came from a graph above "
                "it that the block gives no name")) + ".)")
            return verdict
    return None


PROBES = ("diamond", "kite", "neuron")  # engine_swap._probes, in order


def _verdict(mistake, operation, operand, node, difference, text):
    return {"mistake": mistake, "operation": operation, "operand": operand, "node": node,
            "difference": difference, "text": text}


def _decide(ref_root, got_root, ref_nodes, got_nodes, events, start=None):
    """The verdict from one recorded pass (start: every grad before it, for a second pass)."""
    difference = first_difference(ref_root, got_root)
    names = node_names(ref_root)
    if difference is None:
        return _verdict(None, None, None, "", None,
                        f"one and two backward() passes from zero on the graph of {names[id(ref_root)]} give "
                        "micrograd's grad at every node, so the block's grads differ for another reason: grads "
                        "it set itself, or, with a _prev that is a set, another order of the walk than in the "
                        "block's run")
    verdict = _at_node(ref_nodes, got_nodes, events, start, difference, names, ref_root, got_root)
    if start is not None and verdict["mistake"]:
        verdict["text"] += (" (Seen on a second backward() on the same graph: the block's grads hold more than "
                            "one pass, and one pass alone gives micrograd's.)")
    return verdict


def _at_node(ref_nodes, got_nodes, events, start, difference, names, ref_root, got_root):
    node = ref_nodes[int(difference["id"][1:])]
    name = names[id(node)]
    pairs = _match(ref_root, got_root)
    index = {id(n): i for i, n in enumerate(got_nodes)}
    mine = pairs.get(id(node))
    writes, visits = _writes(events, index.get(id(mine)), got_nodes, start)
    expected, got = _number(node.grad), _number(mine.grad)
    edges = [(c, k) for c in ref_nodes for k, p in enumerate(c._prev) if p is node]
    said = []  # each consumer's share on both engines, for the sentence when no mistake fits
    for consumer in _distinct(c for c, _ in edges):
        ks = [k for c, k in edges if c is consumer]
        yours = pairs.get(id(consumer))
        cname, op = names[id(consumer)], str(consumer._op)
        share = sum(consumer._local[k] for k in ks) * consumer.grad
        if yours is None or id(yours) not in index:
            said.append(f"{cname}: micrograd {shown(share)}, your engine's graph has no such node")
            continue
        at = index[id(yours)]
        if at not in visits:
            return _verdict("unvisited", None, None, name, difference,
                            f"your backward() never visited {cname}: its share {shown(share)} never reached "
                            f"{name} (micrograd gives {name} grad {shown(expected)}, your engine {shown(got)}); "
                            + FIX["order"])
        upstream = visits[at]
        if not _close(upstream, consumer.grad):
            return _verdict("order", None, None, name, difference,
                            f"a wrong visit order: your backward() visited {cname} while its grad was "
                            f"{shown(upstream)}, before every node that uses it had passed it a share (it ends as "
                            f"{shown(consumer.grad)}); so {name} gets grad {shown(got)}, micrograd "
                            f"{shown(expected)}. " + _sentence(FIX["order"]))
        own = [w for w in writes if w[0] == at]
        for j, (_, before, after) in enumerate(own):
            k = ks[j] if len(own) == len(ks) else (ks[0] if len(ks) == 1 else None)
            local = consumer._local[k] if k is not None else sum(consumer._local[i] for i in ks)
            right = local * consumer.grad
            operand = _operand(consumer, k)
            where = f"{_op_name(op)}'s backward" + (f", for its {operand} operand" if operand else "")
            if not _close(before, 0.0) and _close(after, right) and not _close(after, before + right):
                return _verdict("assign", _op_name(op), operand, name, difference,
                                f"= instead of += in {where}: {cname} set the grad of {name} to its share "
                                f"{shown(after)}, dropping the {shown(before)} already there (micrograd: "
                                f"{shown(before)} + {shown(right)} = {shown(before + right)}). "
                                + _sentence(FIX["assign"]))
            added = after - before
            if _close(added, right):
                continue
            if not _close(consumer.grad, 1.0) and _close(added, local):
                return _verdict("upstream", _op_name(op), operand, name, difference,
                                f"the upstream factor left out of {where}: {cname} added {shown(added)} to "
                                f"the grad of {name}, its local derivative alone, not {shown(local)} × "
                                f"{shown(consumer.grad)} (the grad of {cname}) = {shown(right)}. "
                                + _sentence(FIX["upstream"]))
            yours_local = added / upstream if upstream else math.nan
            if op == "tanh" and _close(yours_local, 1.0 - _number(node.data) ** 2):
                return _verdict("tanh", "tanh", None, name, difference,
                                f"tanh's local derivative taken from the input: {cname} used 1 − x² = "
                                f"{shown(yours_local)} with x = {shown(_number(node.data))}, its input; micrograd "
                                f"uses 1 − t² = {shown(local)} with t = {shown(_number(consumer.data))}, its output. "
                                + _sentence(FIX["tanh"]))
            if not math.isnan(yours_local):
                return _verdict("local", _op_name(op), operand, name, difference,
                                f"a wrong local derivative in {where}: {cname} passed {name} {shown(added)}, "
                                f"{shown(yours_local)} × {shown(upstream)} (its grad); micrograd's local derivative "
                                f"there is {shown(local)}{_formula(consumer, node)}, which gives {shown(right)}")
        got_share = sum(after - before for _, before, after in own)
        said.append(f"{cname} passed {shown(got_share)} (micrograd {shown(share)})")
    return _verdict(None, None, None, name, difference,
                    f"none of the classic mistakes (= for +=, the upstream factor left out, tanh's derivative "
                    f"from the input, a wrong local derivative, a wrong visit order) fits at {name}: its grad is "
                    f"{shown(got)} in your engine, {shown(expected)} in micrograd's; the shares it got: "
                    + ("; ".join(said) if said else "none (it is the root)"))


def _sentence(text):
    return text[0].upper() + text[1:] + "."


def _writes(events, target, nodes, start=None):
    """The writes into nodes[target].grad [(visitor, before, after)] and, for each visited node,
    its grad when first visited {index: grad}, from recorded_backward's events (start: every
    grad before the pass, else 0)."""
    grads, visits, writes, visitor = list(start or [0.0] * len(nodes)), {}, [], None
    for event in events:
        if event[0] == "visit":
            visitor = event[1]
            visits.setdefault(visitor, _number(grads[visitor]))
        else:
            _, i, value = event
            if i == target:
                writes.append((visitor, _number(grads[i]), _number(value)))
            grads[i] = value
    return writes, visits


def _operand(consumer, k):
    """"left" or "right" for a two-parent operation's parent k, else None."""
    if k is None or len(consumer._prev) != 2:
        return None
    return OPERAND[k]


def _op_name(op):
    return "**" if op.startswith("**") else op


def _formula(consumer, node):
    op = str(consumer._op)
    if op.startswith("**"):
        n = op[2:]
        return f" (n·x**(n − 1) with n = {n}, x = {shown(_number(node.data))})"
    return ""


__all__ = ["cause", "node_names"]

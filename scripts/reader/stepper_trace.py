"""A stepper's replay, and the same replay again with the reader's leaf values.

replay(root) is everything a stepper shows for one graph, as plain data: each node's
data, each step's grads, a caption per step, each edge's local derivative with its
rule, every number already written out (scripts/pages/widgets.py exports it while the site is
built; docs/javascripts/widgets/stepper.js does no arithmetic). It also carries the graph's
structure ("graph": each node's op, label and parents, a leaf's data) and its labelled
leaves ("leaves"), so that the reader's browser can build the page's own expression
again from micrograd Values with new leaf data:

    live(graph, values) -> {"ok", "preset", "dot"} or {"ok": False, "message"}

runs in the reader's Python (Pyodide; the site's Python zip holds this module,
scripts/build/site_python.py): the graph rebuilt with the engine's own operators, in the same
topological order, so draw_dot gives it the build's ids; then replay() on it, the real
engine's trace. A value that is not a finite number is refused with the leaf's name.
Stdlib and micrograd only.
"""

import math
import operator

import micrograd.engine
import micrograd.trace
from micrograd.draw import draw_dot
from micrograd.formatting import caption as number
from micrograd.formatting import field, for_json, read, rounded, shown, sign
from micrograd.trace import trace
from scripts.reader.engine_swap import BOOK, EngineError, installed, load, recorded_backward
from scripts.reader.reader_code import describe

RANKDIR = "TB"  # a widget's graph top to bottom: narrow, for a phone; wider ones scroll
RANKSEP = "0.5"  # inches between ranks: room on each edge for its upstream × local = contribution


def draw(root):
    graph = draw_dot(root, rankdir=RANKDIR)
    graph.attr(ranksep=RANKSEP)
    return graph


def replay(root):
    """Everything a stepper shows for one graph, as plain data (see the module docstring).

    On a reader's engine (installed as micrograd.engine.Value: scripts/reader/engine_swap.py),
    the backward steps are the ones its own backward() took, recorded (recorded_backward), so
    a mistake in its loop shows in the steps and the grads, not only one in its local
    derivatives."""
    if type(root) is BOOK:
        t = trace(root)
    else:  # the trace's nodes, edges and forward pass; its backward steps, the reader's own, recorded
        held = micrograd.trace.backward_steps
        micrograd.trace.backward_steps = _by_the_rule
        try:
            t = trace(root)
        finally:
            micrograd.trace.backward_steps = held
        t["backward"] = _recorded_steps(root, t)
    nodes = {node["id"]: node for node in t["nodes"]}
    names = {node["id"]: name(node) for node in t["nodes"]}
    parents = {}
    for edge in t["edges"]:
        parents.setdefault(edge["child"], []).append(edge)
    forward = [_forward_caption(nodes[i], names, parents.get(i, []), nodes) for i in t["forward"]]
    backward = [_backward_caption(step, names, step["node"] in parents) for step in t["backward"]]
    return {
        "nodes": [{"id": node["id"], "name": names[node["id"]], "data": f"data {field(node['data'])}"}
                  for node in t["nodes"]],
        "forward": t["forward"],
        "forwardCaptions": forward,
        "backward": [{"node": step["node"], "edges": [u["edge"] for u in step["updates"] if u["edge"]],
                      "parents": sorted({u["parent"] for u in step["updates"]}),
                      "grads": [f"grad {field(g)}" for g in step["grads"]],
                      "contributions": {u["edge"]: _contribution(u) for u in step["updates"] if u["edge"]}}
                     for step in t["backward"]],
        "backwardCaptions": backward,
        "graph": structure(root),
        "leaves": leaves(root),
        "zeroGrads": [f"grad {field(0.0)}"] * len(t["nodes"]),
        # an edge's local derivative is known from the step that computes its child
        "edges": {edge["id"]: {"text": _edge_text(edge, names, nodes),
                               "pending": _edge_pending(edge, names, nodes),
                               "from": t["forward"].index(edge["child"]) + 1}
                  for edge in t["edges"]},
    }


def _by_the_rule(root, order=None):
    """micrograd.engine.backward_steps on a reader's graph, each edge adding local × upstream as
    micrograd's loop does: trace() checks its record against these grads, and the reader's own pass,
    which may write others (= for +=), is recorded apart (_recorded_steps). A trace of the reader's
    pass stopped there: "trace: step n2 left n0.grad = 2.0, the record says 7.0", ids a reader never sees."""
    root.grad = 1.0
    yield root
    for node in reversed(micrograd.engine.topological_order(root)) if order is None else order:
        for parent, local in zip(node._prev, node._local):
            parent.grad += local * node.grad
        yield node


def _recorded_steps(root, t):
    """The trace's backward steps as the reader's engine took them: a seed, then one step per
    node its backward() visited, each with the grads it wrote (matched to the node's edges in
    order; a grad written that is not the node's parent is still in the step's grads)."""
    nodes = micrograd.engine.topological_order(root)
    saved = [node.grad for node in nodes]
    try:
        events = recorded_backward(root, nodes)
    finally:
        for node, grad in zip(nodes, saved):
            node.grad = grad
    ids = [node["id"] for node in t["nodes"]]
    into = {}
    for edge in t["edges"]:
        into.setdefault(edge["child"], []).append(edge)
    grads = [0.0] * len(nodes)
    steps = [{"node": t["root"], "seed": None, "updates": [], "grads": [for_json(g) for g in grads]}]
    unused, upstream = [], 0.0
    for event in events:
        if event[0] == "visit":
            unused, upstream = list(into.get(ids[event[1]], [])), grads[event[1]]
            if t["nodes"][event[1]]["op"] in ("+", "*") and len(unused) == 1:  # a set of parents: a·a has one
                unused = []  # its one edge's local is both operands' together: a write is not one edge's
            steps.append({"node": ids[event[1]], "updates": [], "upstream": for_json(upstream),
                          "grads": [for_json(g) for g in grads]})
            continue
        _, i, value = event
        edge = next((e for e in unused if e["parent"] == ids[i]), None) if len(steps) > 1 else None
        if edge is None:
            steps[-1]["updates"].append({"edge": None, "parent": ids[i], "before": for_json(grads[i]),
                                         "after": for_json(value)})
        else:
            unused.remove(edge)
            steps[-1]["updates"].append({
                "edge": edge["id"], "parent": ids[i], "upstream": for_json(upstream), "local": edge["local"],
                "contribution": for_json(float(edge["local"]) * upstream), "before": for_json(grads[i]),
                "after": for_json(value)})
        grads[i] = value
        steps[-1]["grads"] = [for_json(g) for g in grads]
    steps[0]["seed"] = steps[0]["grads"][ids.index(t["root"])]
    return steps


def name(node):
    return node["label"] or number(node["data"])


def _ref(name):
    """A node's name where a caption uses it: a label like x1*w1 + x2*w2 in parentheses, so
    that (x1*w1 + x2*w2).grad cannot be read as x1*w1 + (x2*w2.grad)."""
    return name if name.isidentifier() else f"({name})"


OPS = {"+": "{0} + {1}", "*": "{0} · {1}", "tanh": "tanh({0})", "exp": "exp({0})", "ReLU": "relu({0})"}
# The same operations on floats, to check a caption's arithmetic on its numbers as written.
FUNCTIONS = {"+": operator.add, "*": operator.mul, "tanh": math.tanh, "exp": math.exp,
             "ReLU": lambda x: max(0.0, x)}


def _as_written(op, values):
    """`op` done on a caption's numbers as written ("0.0201", "(−3)"): a float, NaN if it fails."""
    xs = [read(v) for v in values]
    try:
        value = xs[0] ** float(op[2:]) if op.startswith("**") else FUNCTIONS[op](*xs)
    except (ArithmeticError, ValueError):  # exp overflowing, 0 ** -1
        return math.nan
    return value if isinstance(value, float) else math.nan  # (−8) ** (1/3) is complex in Python


def _expression(op, operands):
    if op.startswith("**"):
        return f"{operands[0]}^{op[2:]}"
    return OPS[op].format(*operands)


def _forward_caption(node, names, edges, nodes):
    name = _ref(names[node["id"]])
    if not edges:  # the reader's own input: written in full (10 significant digits), not rounded
        data = node["data"]
        return f"{name} is a leaf: its data, {shown(data) if rounded(data) else number(data)}, is given."
    symbols = [_ref(names[e["parent"]]) for e in edges]
    # a negative operand in parentheses where a sign would run into the operator: 2 · (−3), (−2)^2;
    # tanh(−0.25) has its own (a reader's audit saw "tanh((−0.25))")
    wrap = _paren if node["op"] in ("+", "*") or node["op"].startswith("**") else str
    values = [wrap(number(nodes[e["parent"]]["data"])) for e in edges]
    if node["op"] in ("+", "*") and len(edges) == 1:  # a set of parents (the lecture's): a·a has one
        symbols, values = symbols * 2, values * 2
    result = sign(node["data"], _as_written(node["op"], values))
    return (f"Forward: {name} = {_expression(node['op'], symbols)} = "
            f"{_expression(node['op'], values)} {result} {number(node['data'])}.")


def _backward_caption(step, names, has_parents=True):
    name = _ref(names[step["node"]])
    if "seed" in step:
        return f"Seed: {name}.grad = {number(step['seed'])}, because ∂{name}/∂{name} = 1."
    if not step["updates"]:
        return (f"Visit {name}: it passes nothing to its parents." if has_parents else
                f"Visit {name}: a leaf, with no parents to pass its gradient to.")
    upstream = number(grads_of(step))
    pushes = [_push(u, names) for u in step["updates"]]
    return f"Visit {name}, upstream gradient {name}.grad = {upstream}: " + "; ".join(pushes) + "."


def grads_of(step):
    """The upstream gradient of a visit: the node's grad when it was visited."""
    return step["upstream"] if "upstream" in step else step["updates"][0]["upstream"]


def _push(update, names):
    """One parent's update as a caption says it; an engine that wrote another grad than += gives
    (a reader's engine, recorded) is said to have done so."""
    parent = _ref(names[update["parent"]])
    if update["edge"] is None:  # a write the engine made that is no edge's
        return f"{parent}.grad became {number(update['after'])}"
    local, upstream = _paren(number(update["local"])), _paren(number(update["upstream"]))
    added = float(update["before"]) + float(update["contribution"])
    if math.isclose(float(update["after"]), added, rel_tol=1e-12, abs_tol=1e-300) or added != added:
        product = sign(update["contribution"], read(local) * read(upstream))
        return (f"{parent}.grad += {local} × {upstream} {product} {number(update['contribution'])}, "
                f"now {number(update['after'])}")
    before = _paren(number(update["before"]))
    total = sign(added, read(before) + read(local) * read(upstream))
    return (f"{parent}.grad became {number(update['after'])}, not {before} + "
            f"{local} × {upstream} {total} {number(added)}")


def _edge_text(edge, names, nodes):
    value = number(edge["local"])
    rule = edge["formula"]
    shown = rule if rule.endswith(f"= {value}") else f"{rule} = {value}"
    op = nodes[edge["child"]]["op"]
    return (f"Edge {_ref(names[edge['parent']])} → {_ref(names[edge['child']])} ({op}): "
            f"local derivative {shown}.")


def _edge_pending(edge, names, nodes):
    """What an edge says before the forward pass has computed its child: the rule, no number."""
    child = _ref(names[edge["child"]])
    return (f"Edge {_ref(names[edge['parent']])} → {child} ({nodes[edge['child']]['op']}): local "
            f"derivative {edge['formula']}, a number once the forward pass has computed {child}.")


def _contribution(update):
    """upstream × local = contribution, as the figure shows it on the edge being used."""
    upstream, local = _paren(number(update["upstream"])), _paren(number(update["local"]))
    product = sign(update["contribution"], read(upstream) * read(local))
    return f"{upstream} × {local} {product} {number(update['contribution'])}"


def _paren(text):
    return f"({text})" if text.startswith("−") else text




def structure(root):
    """root's graph in topological order (draw_dot's n0, n1, …): [{op, label, parents, data}]
    with parents as indices into the list, and data on leaves only."""
    order = micrograd.engine.topological_order(root)  # the installed engine's (engine_swap.installed)
    index = {id(node): i for i, node in enumerate(order)}
    return [{"op": node._op, "label": getattr(node, "label", ""), "parents": [index[id(p)] for p in node._prev],
             **({} if node._prev else {"data": node.data})} for node in order]


def leaves(root):
    """The leaves a reader may change: the labelled ones, [{id, label, value}] (value: the
    build's data as Python writes it, so an unchanged leaf goes back exactly)."""
    return [{"id": f"n{i}", "label": node["label"], "value": repr(node["data"])}
            for i, node in enumerate(structure(root)) if not node["parents"] and node["label"]]


def rebuild(graph, values):
    """The Values of `graph` (structure()'s list) with the data `values` {node id: float}
    gives its leaves; the others keep theirs. Built with the engine's operators, the installed
    engine's (micrograd.engine.Value: a reader's, in engine_swap.installed)."""
    Value = micrograd.engine.Value
    made = []
    for i, node in enumerate(graph):
        parents = [made[p] for p in node["parents"]]
        op = node["op"]
        if not parents:
            value = Value(values.get(f"n{i}", node["data"]))
        elif op == "+":
            value = parents[0] + parents[1]
        elif op == "*":
            value = parents[0] * parents[1]
        elif op.startswith("**"):
            exponent = float(op[2:])
            value = parents[0] ** (int(exponent) if exponent.is_integer() and "." not in op else exponent)
        elif op in ("tanh", "exp"):
            value = getattr(parents[0], op)()
        elif op == "ReLU":
            value = parents[0].relu()
        else:
            raise ValueError(f"no operation {op!r} in the engine")
        if value._op != op:
            raise ValueError(f"node n{i} was built as {value._op!r}, not {op!r}")
        value.label = node["label"]
        made.append(value)
    return made[-1]


def parse_value(text, label):
    """A leaf's value as the reader typed it (a true minus is fine): a finite float."""
    cleaned = str(text).strip().replace("\u2212", "-")
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"{label}: “{text}” is not a number (write it like 2, -3 or 0.5)") from None
    if not math.isfinite(value):
        raise ValueError(f"{label}: give a finite number, not “{text}”")
    return value


def live(graph, values, engine=None):
    """The replay of the page's graph (the export's "graph") with the reader's leaf values
    ({node id: text}), as the page reads it (scripts/reader/calls.py: trace_stepper).

    engine: None (micrograd) or the reader's engine source (scripts/reader/engine_swap.py: load):
    its Value builds and traces the graph, and the steps are its own backward()'s. Returns
    {"ok": true, "preset": replay, "dot": draw_dot's DOT source, "engine": "micrograd" | "your
    engine" (which one ran it)} or {"ok": false, "message": why} (a value refused, an engine
    without a usable Value, an error the reader's engine raised). The preset's "graph" and
    "leaves" are the page's graph's, so a next Run names the same leaves.
    """
    Value = BOOK
    if engine is not None:
        try:
            Value = load(engine)
        except EngineError as error:
            return {"ok": False, "message": str(error)}
    ran = "micrograd" if engine is None else "your engine"
    try:
        labels = {f"n{i}": node["label"] or f"n{i}" for i, node in enumerate(graph)}
        parsed = {i: parse_value(text, labels.get(i, i)) for i, text in values.items()
                  if i in labels and not graph[int(i[1:])]["parents"]}
        with installed(Value):
            root = rebuild(graph, parsed)
            data = replay(root)
            dot = draw(root).source
    except (ValueError, ArithmeticError) as error:
        return {"ok": False, "message": str(error)}
    except Exception as error:  # the reader's engine may raise anything
        if engine is None:
            raise
        return {"ok": False, "message": f"your engine raised {describe(error)}"}
    if engine is not None:
        data["graph"] = [dict(node, **({"data": parsed.get(f"n{i}", node.get("data"))} if not node["parents"] else {}))
                         for i, node in enumerate(graph)]
        data["leaves"] = [{"id": f"n{i}", "label": node["label"], "value": repr(node["data"])}
                          for i, node in enumerate(data["graph"]) if not node["parents"] and node["label"]]
    return {"ok": True, "preset": data, "dot": dot, "engine": ran}

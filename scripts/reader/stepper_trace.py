"""A stepper's replay, and the same replay again with the reader's leaf values.

replay(root) is everything a stepper shows for one graph, as plain data: each node's
data, each step's grads, a caption per step, each edge's local derivative with its
rule, every number already written out (scripts/pages/widgets.py exports it while the site is
built; docs/javascripts/stepper.js does no arithmetic). It also carries the graph's
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

from micrograd.draw import draw_dot
from micrograd.engine import Value, topological_order
from micrograd.formatting import caption as number
from micrograd.formatting import field
from micrograd.trace import trace

RANKDIR = "TB"  # a widget's graph top to bottom: narrow, for a phone; wider ones scroll
RANKSEP = "0.5"  # inches between ranks: room on each edge for its upstream × local = contribution


def draw(root):
    graph = draw_dot(root, rankdir=RANKDIR)
    graph.attr(ranksep=RANKSEP)
    return graph


def replay(root):
    """Everything a stepper shows for one graph, as plain data (see the module docstring)."""
    t = trace(root)
    nodes = {node["id"]: node for node in t["nodes"]}
    names = {node["id"]: name(node) for node in t["nodes"]}
    parents = {}
    for edge in t["edges"]:
        parents.setdefault(edge["child"], []).append(edge)
    forward = [_forward_caption(nodes[i], names, parents.get(i, []), nodes) for i in t["forward"]]
    backward = [_backward_caption(step, names) for step in t["backward"]]
    return {
        "nodes": [{"id": node["id"], "name": names[node["id"]], "data": f"data {field(node['data'])}"}
                  for node in t["nodes"]],
        "forward": t["forward"],
        "forwardCaptions": forward,
        "backward": [{"node": step["node"], "edges": [u["edge"] for u in step["updates"]],
                      "parents": sorted({u["parent"] for u in step["updates"]}),
                      "grads": [f"grad {field(g)}" for g in step["grads"]],
                      "contributions": {u["edge"]: _contribution(u) for u in step["updates"]}}
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


def name(node):
    return node["label"] or number(node["data"])


def _ref(name):
    """A node's name where a caption uses it: a label like x1*w1 + x2*w2 in parentheses, so
    that (x1*w1 + x2*w2).grad cannot be read as x1*w1 + (x2*w2.grad)."""
    return name if name.isidentifier() else f"({name})"


OPS = {"+": "{0} + {1}", "*": "{0} · {1}", "tanh": "tanh({0})", "exp": "exp({0})", "ReLU": "relu({0})"}


def _expression(op, operands):
    if op.startswith("**"):
        return f"{operands[0]}^{op[2:]}"
    return OPS[op].format(*operands)


def _forward_caption(node, names, edges, nodes):
    name = _ref(names[node["id"]])
    if not edges:
        return f"{name} is a leaf: its data, {number(node['data'])}, is given."
    symbols = [_ref(names[e["parent"]]) for e in edges]
    values = [_paren(number(nodes[e["parent"]]["data"])) for e in edges]
    return (f"Forward: {name} = {_expression(node['op'], symbols)} = "
            f"{_expression(node['op'], values)} = {number(node['data'])}.")


def _backward_caption(step, names):
    name = _ref(names[step["node"]])
    if "seed" in step:
        return f"Seed: {name}.grad = {number(step['seed'])}, because ∂{name}/∂{name} = 1."
    if not step["updates"]:
        return f"Visit {name}: a leaf, with no parents to pass its gradient to."
    upstream = number(step["updates"][0]["upstream"])
    pushes = [f"{_ref(names[u['parent']])}.grad += {_paren(number(u['local']))} × {_paren(upstream)} "
              f"= {number(u['contribution'])}, now {number(u['after'])}"
              for u in step["updates"]]
    return f"Visit {name}, upstream gradient {name}.grad = {upstream}: " + "; ".join(pushes) + "."


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
    return (f"{_paren(number(update['upstream']))} × {_paren(number(update['local']))} = "
            f"{number(update['contribution'])}")


def _paren(text):
    return f"({text})" if text.startswith("−") else text




def structure(root):
    """root's graph in topological order (draw_dot's n0, n1, …): [{op, label, parents, data}]
    with parents as indices into the list, and data on leaves only."""
    order = topological_order(root)
    index = {node: i for i, node in enumerate(order)}
    return [{"op": node._op, "label": node.label, "parents": [index[p] for p in node._prev],
             **({} if node._prev else {"data": node.data})} for node in order]


def leaves(root):
    """The leaves a reader may change: the labelled ones, [{id, label, value}] (value: the
    build's data as Python writes it, so an unchanged leaf goes back exactly)."""
    return [{"id": f"n{i}", "label": node["label"], "value": repr(node["data"])}
            for i, node in enumerate(structure(root)) if not node["parents"] and node["label"]]


def rebuild(graph, values):
    """The Values of `graph` (structure()'s list) with the data `values` {node id: float}
    gives its leaves; the others keep theirs. Built with the engine's operators."""
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


def live(graph, values):
    """The replay of the page's graph (the export's "graph") with the reader's leaf values
    ({node id: text}), as the page reads it (scripts/reader/calls.py: trace_stepper): {"ok": true,
    "preset": replay, "dot": draw_dot's DOT source} or {"ok": false, "message": why}."""
    try:
        labels = {f"n{i}": node["label"] or f"n{i}" for i, node in enumerate(graph)}
        parsed = {i: parse_value(text, labels.get(i, i)) for i, text in values.items()
                  if i in labels and not graph[int(i[1:])]["parents"]}
        root = rebuild(graph, parsed)
        data = replay(root)
    except (ValueError, ArithmeticError) as error:
        return {"ok": False, "message": str(error)}
    return {"ok": True, "preset": data, "dot": draw(root).source}

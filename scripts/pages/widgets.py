"""Widgets that replay what micrograd did, exported while the site is built.

    ```python
    draw_dot(f)
    ```
    <!-- figure: the graph of f = (a + b)·c after the forward pass -->
    <!-- stepper: {"(a + b)·c": f, "the neuron": o} -->

    <!-- visit-order: d -->

stepper: EXPR gives a Value, or a dict {title: Value} of presets. For each
preset the build draws the graph (micrograd.draw_dot, ids on every node and
edge) and records a trace of its forward and backward pass
(micrograd.trace.trace, the engine's own loop), with every number the widget
shows already written out: each node's data, each step's grads, a caption
per step, and each edge's local derivative with the rule it comes from.
docs/javascripts/widgets/stepper.js replays it: its view is a function of (preset,
step) and does no arithmetic.

visit-order: EXPR gives the root of a small graph (at most 5 labelled
nodes). For every order of its labelled nodes, the build runs the backward
pass in that order (trace(root, order=...)) and records the grads it leaves
and, for a wrong order, which contributions came too late and which paths
were lost. docs/javascripts/widgets/visit-order.js lets the reader place an order
and shows the recorded result.

Both write a JSON file (and SVGs) next to the page and an empty, hidden
<div> that their script fills; without JavaScript the figure above stays.
"""

import html
import itertools
import json

from micrograd.engine import Value
from micrograd.trace import trace
from scripts.pages.directives import Directive, DirectiveError, Output
from scripts.pages.figures import to_svg
from scripts.reader.stepper_trace import draw as _draw
from scripts.reader.stepper_trace import field, number, replay
from scripts.reader.stepper_trace import name as _name

MAX_VISIT_NODES = 5  # 5! = 120 orders, each a full backward pass
__all__ = ["StepperParser", "VisitOrderParser", "field", "number", "orders", "replay"]



class StepperParser(Directive):
    """`<!-- stepper: EXPR -->`: a step-through of the forward and backward pass."""

    kind = "stepper"

    def build(self, example, at, page):
        value = eval(compile(example.parsed, example.path, "eval"), example.namespace)
        presets = _presets(value, at)
        n = page.number(self.kind)
        files, exported = {}, []
        for i, (title, root) in enumerate(presets, start=1):
            svg = page.asset(f"stepper-{n}-{i}.svg")
            files[svg] = to_svg(_draw(root))
            exported.append({"title": title, "svg": page.url(svg), **replay(root)})
        data = page.asset(f"stepper-{n}.json")
        files[data] = json.dumps({"presets": exported}, ensure_ascii=False, sort_keys=True)
        return Output(self.kind, example.line, _container("bv-stepper", page.url(data), n), files)


class VisitOrderParser(Directive):
    """`<!-- visit-order: EXPR -->`: place the backward pass's visit order, see what it loses."""

    kind = "visit-order"

    def build(self, example, at, page):
        root = eval(compile(example.parsed, example.path, "eval"), example.namespace)
        if not isinstance(root, Value):
            raise DirectiveError(f"{at}: visit-order needs a Value, not {type(root).__name__}")
        n = page.number(self.kind)
        svg = page.asset(f"visit-order-{n}.svg")
        data = page.asset(f"visit-order-{n}.json")
        exported = {"svg": page.url(svg), **orders(root, at)}
        files = {svg: to_svg(_draw(root)),
                 data: json.dumps(exported, ensure_ascii=False, sort_keys=True)}
        return Output(self.kind, example.line, _container("bv-visit-order", page.url(data), n), files)


def orders(root, at):
    """Every order of root's labelled nodes, each run through the engine: plain data."""
    right = trace(root)
    placed = [node for node in right["nodes"] if node["label"]]
    if not 2 <= len(placed) <= MAX_VISIT_NODES:
        raise DirectiveError(f"{at}: visit-order needs 2 to {MAX_VISIT_NODES} labelled nodes, "
                             f"not {len(placed)}")
    values = dict(zip((node["id"] for node in right["nodes"]), _graph(root)))
    results = {}
    for order in itertools.permutations(node["id"] for node in placed):
        run = trace(root, order=[values[i] for i in order])
        results[",".join(order)] = _verdict(run, order, right, values, placed)
    seed = right["backward"][0]
    return {"nodes": [{"id": node["id"], "label": node["label"]} for node in placed],
            "names": {node["id"]: _name(node) for node in right["nodes"]},
            "seed": {"node": seed["node"], "field": f"grad {field(seed['seed'])}"},
            "orders": results}


def _verdict(run, order, right, values, placed):
    """{grads, right, message} for one visit order; every number from a trace."""
    names = {node["id"]: _name(node) for node in run["nodes"]}
    grads = {node["id"]: node["grad"] for node in run["nodes"]}
    correct = {node["id"]: node["grad"] for node in right["nodes"]}
    wrong = [node["id"] for node in placed if grads[node["id"]] != correct[node["id"]]]
    if not wrong:
        if _reverse_topological(order, run):
            message = ("Right: every node was visited after all the nodes it feeds, so each one "
                       "passed on its complete gradient.")
        else:
            early = [names[i] for i in order if not _has_parents(i, run)]
            message = (f"Right, though this is not a reverse topological order: {', '.join(early)} "
                       f"{'has' if len(early) == 1 else 'have'} no parents, so visiting "
                       f"{'it' if len(early) == 1 else 'them'} early pushes nothing.")
    else:
        parts = []
        for node, child, share in _late(run):
            below = trace(values[node])  # d node / d x for every x below it, by the engine
            slopes = {n["id"]: n["grad"] for n in below["nodes"]}
            lost = [f"the path {' → '.join(names[i] for i in path)}, worth "
                    f"{number(share * slopes[path[0]])} to {names[path[0]]}.grad"
                    for leaf in wrong if leaf in slopes and slopes[leaf] != 0
                    for path in [_path(run, leaf, node) + _path(run, child, run["root"])]]
            parts.append(f"{names[node]} was visited before {names[child]}, so it passed on "
                         f"{names[node]}.grad = {number(_grad_at_visit(run, node))}; the "
                         f"{number(share)} from {names[child]} came after its turn. Lost: "
                         + "; ".join(lost) + ".")
        results = [f"{names[i]}.grad is {number(grads[i])}, not {number(correct[i])}" for i in wrong]
        message = " ".join(parts) + " So " + " and ".join(results) + "."
    return {"grads": {node["id"]: number(grads[node["id"]]) for node in placed},
            "fields": {i: f"grad {field(g)}" for i, g in grads.items()},
            "right": not wrong, "message": message}


def _late(run):
    """(node, child, share) for every share that reached a node after the node's own visit."""
    visited_at = {step["node"]: k for k, step in enumerate(run["backward"]) if k > 0}
    return [(u["parent"], step["node"], u["contribution"])
            for k, step in enumerate(run["backward"]) for u in step["updates"]
            if visited_at.get(u["parent"], len(run["backward"])) < k and _has_parents(u["parent"], run)]


def _path(run, start, end):
    """Node ids of one path from `start` up to `end` (parent to child), both included."""
    children = {}
    for edge in run["edges"]:
        children.setdefault(edge["parent"], []).append(edge["child"])
    stack = [[start]]
    while stack:
        path = stack.pop()
        if path[-1] == end:
            return path
        stack.extend(path + [child] for child in children.get(path[-1], []))
    raise ValueError(f"no path from {start} to {end}")


def _grad_at_visit(run, node):
    for k, step in enumerate(run["backward"]):
        if k > 0 and step["node"] == node:
            ids = [n["id"] for n in run["nodes"]]
            before = run["backward"][k - 1]["grads"]
            return before[ids.index(node)]
    raise ValueError(node)


def _has_parents(node_id, run):
    return any(edge["child"] == node_id for edge in run["edges"])


def _reverse_topological(order, run):
    """True if every node of `order` comes before each of its parents that is in `order`."""
    position = {node: k for k, node in enumerate(order)}
    return all(position[e["child"]] < position[e["parent"]] for e in run["edges"]
               if e["child"] in position and e["parent"] in position)


def _graph(root):
    from micrograd.engine import topological_order

    return topological_order(root)


def _presets(value, at):
    if isinstance(value, Value):
        return [(value.label or "the graph", value)]
    if isinstance(value, dict) and value and all(isinstance(v, Value) for v in value.values()):
        return list(value.items())
    raise DirectiveError(f"{at}: a stepper needs a Value or a dict {{title: Value}}, "
                         f"not {type(value).__name__}")


def _container(kind, url, n):
    label = {"bv-stepper": "Step through the forward and backward pass",
             "bv-visit-order": "Place the visit order of the backward pass"}[kind]
    return (f'<div class="bv-widget {kind}" id="{kind[3:]}-{n}" data-src="{html.escape(url)}" '
            f'role="group" aria-label="{label}" hidden></div>')

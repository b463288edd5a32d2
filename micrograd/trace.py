"""What a forward and a backward pass do, exported as plain data: a trace.

A trace lists the nodes of a graph, its edges with their local derivatives,
the forward pass and every step of the backward pass, so that a page can
replay the pass step by step. It is recorded from the engine's own loop
(`micrograd.engine.backward_steps`, the loop `backward()` runs), so a replay
cannot drift from the engine. Ids are the ones `draw_dot` puts on the SVG:

    node          n{i}                 i = position in topological order
    operation     n{i}op               the small circle of node n{i}'s op
    edge          {parent}-{child}-{k} k = position among child's parents
    op to output  {child}op-{child}

    >>> from micrograd import Value
    >>> from micrograd.trace import trace
    >>> a = Value(3.0, label="a")
    >>> t = trace(a * a)
    >>> [(s["node"], [(u["edge"], u["before"], u["after"]) for u in s["updates"]]) for s in t["backward"]]
    [('n1', []), ('n1', [('n0-n1-0', 0.0, 3.0), ('n0-n1-1', 3.0, 6.0)]), ('n0', [])]
    >>> a.grad  # left as it was
    0.0
"""

import math

from micrograd.engine import backward_steps, topological_order
from micrograd.formatting import for_json

# The local-derivative rule of each operation, one per parent, as text.
FORMULAS = {
    "+": ("∂(x+y)/∂x = 1", "∂(x+y)/∂y = 1"),
    "*": ("∂(x·y)/∂x = y", "∂(x·y)/∂y = x"),
    "**": ("∂(xⁿ)/∂x = n·xⁿ⁻¹",),
    "tanh": ("∂tanh(x)/∂x = 1 − tanh²(x)",),
    "exp": ("∂eˣ/∂x = eˣ",),
    "ReLU": ("∂relu(x)/∂x = 1 if x > 0 else 0",),
}


def node_ids(order):
    """{Value: "n{i}"} for a list of Values in topological order (as draw_dot names them)."""
    return {node: f"n{i}" for i, node in enumerate(order)}


def edge_id(parent_id, child_id, k):
    """The id of the edge from a parent into child's operation; k: the parent's position."""
    return f"{parent_id}-{child_id}-{k}"


def formula(op, k):
    """The local-derivative rule of parent k of operation `op` (a Value's _op), as text.

    "**3" gives "∂(xⁿ)/∂x = n·xⁿ⁻¹ with n = 3". Raises ValueError naming the
    operation if the engine has no such rule (an op from another engine).
    """
    rules = FORMULAS.get("**" if op.startswith("**") else op, ())
    if k >= len(rules):
        raise ValueError(f"trace: no local-derivative rule for parent {k} of the operation "
                         f"{op!r}; the engine's operations are {', '.join(FORMULAS)}")
    return rules[k] + (f" with n = {op[2:]}" if op.startswith("**") else "")


def trace(root, order=None):
    """Run the backward pass from `root`, recording each step; leave every .grad as it was.

    root: a Value. order: None (the engine's reverse topological order) or an
    iterable of Values of root's graph, visited in that order instead, as a
    reader might choose them (leaving a node out, or visiting it twice, shows
    what goes wrong). Returns a dict that json.dumps turns into identical
    bytes run to run:

      root      id of root
      nodes     [{id, label, op, data, grad}] in topological (= forward) order,
                grad as after the traced pass
      edges     [{id, parent, child, index, local, formula}]: local is the
                number the engine stored; formula the rule it comes from
      forward   node ids in the order the forward pass computed them
      backward  steps: first {node: root, seed: 1.0, updates: [], grads},
                then one per visited node {node, updates, grads}; each update
                {edge, parent, upstream, local, contribution, before, after}
                is one parent.grad += local * node.grad, and grads lists
                every node's grad after the step, aligned with nodes

    Numbers are floats; inf and NaN are written as the strings "Infinity",
    "-Infinity" and "NaN", so the trace is strict JSON (JavaScript's Number()
    reads them back). With a grads list per step, a trace of n nodes holds
    about n² numbers: it is meant for the small graphs of a page. The steps
    come from micrograd.engine.backward_steps, the loop backward() runs; the
    record of each += is checked against the grads the engine left.

    Raises ValueError for a node of `order` outside root's graph, or an
    operation with no known rule (see formula); RuntimeError if a record
    disagrees with the engine. Every .grad is restored even then.
    """
    nodes = topological_order(root)
    ids = node_ids(nodes)
    position = {node: i for i, node in enumerate(nodes)}
    visits = None if order is None else list(order)
    for node in visits or ():
        if node not in ids:
            raise ValueError(f"trace: {node!r} in order is not part of the graph of {root!r}")
    edges, edges_into = [], {}
    for node in nodes:
        edges_into[node] = []
        for k, (parent, local) in enumerate(zip(node._prev, node._local)):
            edge = {"id": edge_id(ids[parent], ids[node], k), "parent": ids[parent],
                    "child": ids[node], "index": k, "local": for_json(local),
                    "formula": formula(node._op, k)}
            edges.append(edge)
            edges_into[node].append((parent, local, edge["id"], position[parent]))

    saved = [node.grad for node in nodes]
    steps = []
    try:
        for node in nodes:
            node.grad = 0.0
        before = [0.0] * len(nodes)  # every grad before the step about to run
        for number, node in enumerate(backward_steps(root, visits)):
            step = {"node": ids[node]}
            if number == 0:
                step["seed"] = for_json(root.grad)
            step["updates"] = [] if number == 0 else _updates(node, edges_into[node], ids, before)
            before = [n.grad for n in nodes]
            step["grads"] = [for_json(g) for g in before]
            steps.append(step)
        final = [n.grad for n in nodes]
    finally:
        for node, grad in zip(nodes, saved):
            node.grad = grad
    return {
        "root": ids[root],
        "nodes": [{"id": ids[n], "label": n.label, "op": n._op, "data": for_json(n.data),
                   "grad": for_json(g)} for n, g in zip(nodes, final)],
        "edges": edges,
        "forward": [ids[n] for n in nodes],
        "backward": steps,
    }


def _updates(node, edges, ids, before):
    """The += of one step, edge by edge, checked against the grads the engine left."""
    running = {}
    updates = []
    for parent, local, edge, position in edges:
        old = running.get(parent, before[position])
        contribution = local * node.grad
        running[parent] = old + contribution
        updates.append({"edge": edge, "parent": ids[parent], "upstream": for_json(node.grad),
                        "local": for_json(local), "contribution": for_json(contribution),
                        "before": for_json(old), "after": for_json(running[parent])})
    for parent, grad in running.items():
        if not _same(grad, parent.grad):  # the record must be what the engine did
            raise RuntimeError(f"trace: step {ids[node]} left {ids[parent]}.grad = "
                               f"{parent.grad!r}, the record says {grad!r}")
    return updates


def _same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


__all__ = ["FORMULAS", "edge_id", "formula", "node_ids", "trace"]

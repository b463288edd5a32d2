"""Draw a computation graph with Graphviz.

The layout follows the figures of Karpathy's micrograd lecture (2022): one
record per Value (label | data | grad) and one small node per operation.
"""

import graphviz

from micrograd.engine import topological_order
from micrograd.formatting import field
from micrograd.trace import edge_id, node_ids


def draw_dot(root, rankdir="LR", local_derivatives=False, fmt="svg"):
    """Return a graphviz.Digraph of every node `root` depends on.

    root: a Value. rankdir: "LR" (inputs on the left) or "TB".
    local_derivatives: if True, label each edge into an operation with the
    local derivative d(output)/d(input) stored on that edge.
    Each Value is a record of label, data and grad (4 decimals, or powers of
    ten for a number 4 decimals would write as 0.0000 or one of a million or
    more: micrograd.formatting.field), its fields
    stacked across the flow; each operation is a small circle. Node names
    follow topological order (n0, n1, ...), never id(), so the same graph
    gives byte-identical output. The names are also the SVG ids, the ones
    micrograd.trace uses: record "n{i}", operation "n{i}op", edge from a
    parent into an operation "{parent}-{child}-{k}" (k: the parent's
    position), edge from an operation to its result "{child}op-{child}".
    A node used twice by one operation (a * a) gets its two edges from and to
    opposite corners, so they never lie on top of each other.
    The graph's redraw(rankdir) draws the same root again in the other
    direction, with the same ids (the site lays a figure out twice: wide, and
    top to bottom for a phone).
    Raises ValueError for any other rankdir.
    """
    if rankdir not in ("LR", "TB"):
        raise ValueError(f"rankdir must be 'LR' or 'TB', not {rankdir!r}")
    dot = graphviz.Digraph(format=fmt, graph_attr={
        "rankdir": rankdir, "bgcolor": "white", "nodesep": "0.15", "ranksep": "0.3"})
    # little room beside a record's text: four records side by side fit a phone's column
    dot.attr("node", fontname="Helvetica", fontsize="11", margin="0.05,0.055")
    dot.attr("edge", fontname="Helvetica", fontsize="11")  # as the nodes: 11 pt reads at 14.7 px
    order = topological_order(root)
    name = node_ids(order)
    for node in order:
        fields = [_escape(node.label)] if node.label else []
        fields += [f"data {field(node.data)}", f"grad {field(node.grad)}"]
        # fields stacked across the direction of flow: narrow figures that fit a text column
        record = " | ".join(fields) if rankdir == "LR" else "{ " + " | ".join(fields) + " }"
        dot.node(name[node], record, shape="record", id=name[node])
        if node._op:
            op = name[node] + "op"
            dot.node(op, node._op, shape="circle", width="0.4", fixedsize="false", id=op)
            dot.edge(op, name[node], id=f"{op}-{name[node]}")
            twice = len(set(node._prev)) < len(node._prev)
            for k, (parent, local) in enumerate(zip(node._prev, node._local)):
                label = field(local) if local_derivatives else None
                ports = PORTS[rankdir][k] if twice else {}
                dot.edge(name[parent], op, label=label, id=edge_id(name[parent], name[node], k), **ports)
    dot.redraw = lambda rankdir: draw_dot(root, rankdir, local_derivatives, fmt)
    return dot


# corners for the two edges of a node used twice: one on each side of the flow
PORTS = {"TB": ({"tailport": "sw", "headport": "nw"}, {"tailport": "se", "headport": "ne"}),
         "LR": ({"tailport": "ne", "headport": "nw"}, {"tailport": "se", "headport": "sw"})}


def _escape(text):
    # characters with a meaning inside a Graphviz record label
    for ch in "\\{}|<>\"":
        text = text.replace(ch, "\\" + ch)
    return text

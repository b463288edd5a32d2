"""Traces: the engine's own backward loop exported as data, with the ids draw_dot
puts on the SVG, any visit order, and every .grad left as it was found."""

import itertools
import json
import math
import xml.etree.ElementTree as ET

import pytest

from micrograd import Value, draw_dot
from micrograd.engine import backward_steps, topological_order
from micrograd.trace import FORMULAS, formula, trace


def build_L():
    a, b, c, f = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c"), Value(-2.0, label="f")
    e = a * b
    d = e + c
    return d * f


def diamond():
    a = Value(2.0, label="a")
    b = a + 1
    b.label = "b"
    c = 3 * a
    c.label = "c"
    d = b * c
    d.label = "d"
    return a, b, c, d


def every_op():
    """One graph with each operation the engine has."""
    x, y = Value(0.5, label="x"), Value(-1.5, label="y")
    return ((x + y) * x + (x**3).tanh() + y.exp() + (x - y).relu()).tanh()


def svg_ids(root):
    """{class: set of ids} of the <g> elements in the SVG Graphviz draws."""
    svg = ET.fromstring(draw_dot(root).pipe(format="svg"))
    ids = {}
    for g in svg.iter("{http://www.w3.org/2000/svg}g"):
        ids.setdefault(g.get("class"), set()).add(g.get("id"))
    return ids


def test_shape_of_a_trace_of_L():
    L = build_L()
    t = trace(L)
    order = topological_order(L)
    assert list(t) == ["root", "nodes", "edges", "forward", "backward"]
    assert t["root"] == f"n{len(order) - 1}"
    assert [n["id"] for n in t["nodes"]] == [f"n{i}" for i in range(len(order))] == t["forward"]
    assert [n["label"] for n in t["nodes"]] == [v.label for v in order]
    assert [n["data"] for n in t["nodes"]] == [v.data for v in order]
    assert len(t["edges"]) == sum(len(v._prev) for v in order)
    seed, *steps = t["backward"]
    assert seed == {"node": t["root"], "seed": 1.0, "updates": [],
                    "grads": [0.0] * (len(order) - 1) + [1.0]}
    assert [s["node"] for s in steps] == t["forward"][::-1]
    fresh = build_L()
    fresh.backward()
    assert [n["grad"] for n in t["nodes"]] == [v.grad for v in topological_order(fresh)]
    assert steps[-1]["grads"] == [n["grad"] for n in t["nodes"]]


def test_every_step_is_the_engine_step_it_records():
    L = build_L()
    t = trace(L)
    order = topological_order(L)
    engine_grads = [[v.grad for v in order] for _ in backward_steps(L)]  # the engine's own walk
    assert [s["grads"] for s in t["backward"]] == engine_grads
    locals_ = {e["id"]: e["local"] for e in t["edges"]}
    for step in t["backward"][1:]:
        for u in step["updates"]:
            assert u["local"] == locals_[u["edge"]]
            assert u["contribution"] == u["local"] * u["upstream"]
            assert u["after"] == u["before"] + u["contribution"]


def test_a_node_used_twice_gets_two_updates_in_one_step():
    a = Value(3.0, label="a")
    t = trace(a * a)
    step = t["backward"][1]
    assert [(u["edge"], u["before"], u["after"]) for u in step["updates"]] == [
        ("n0-n1-0", 0.0, 3.0), ("n0-n1-1", 3.0, 6.0)]
    assert [e["id"] for e in t["edges"]] == ["n0-n1-0", "n0-n1-1"]


def test_trace_leaves_every_grad_as_it_found_it():
    L = build_L()
    L.backward()
    L.backward()  # accumulated, unusual grads: they must survive
    nodes = topological_order(L)
    before = [v.grad for v in nodes]
    t = trace(L)
    assert [v.grad for v in nodes] == before
    assert t["backward"][0]["grads"][:-1] == [0.0] * (len(nodes) - 1)  # the trace itself starts from zero
    with pytest.raises(ValueError, match="not part of the graph"):
        trace(L, order=[L, Value(1.0)])
    assert [v.grad for v in nodes] == before


def test_same_graph_same_bytes():
    dumps = [json.dumps(trace(build_L()), ensure_ascii=False) for _ in range(2)]
    L = build_L()
    dumps += [json.dumps(trace(L), ensure_ascii=False) for _ in range(2)]
    assert len(set(dumps)) == 1


def test_ids_are_the_ones_draw_dot_puts_on_the_svg():
    for root in (build_L(), every_op(), Value(3.0) * Value(3.0), diamond()[3]):
        t = trace(root)
        ids = svg_ids(root)
        ops = {f"{n['id']}op" for n in t["nodes"] if n["op"]}
        assert ids["node"] == {n["id"] for n in t["nodes"]} | ops
        assert ids["edge"] == {e["id"] for e in t["edges"]} | {f"{o}-{o[:-2]}" for o in ops}


@pytest.mark.parametrize("order", list(itertools.permutations("abcd")), ids="".join)
def test_each_of_the_24_visit_orders_of_the_diamond(order):
    a, b, c, d = diamond()
    nodes = dict(zip("abcd", (a, b, c, d)))
    t = trace(d, order=[nodes[name] for name in order])
    assert [s["node"] for s in t["backward"]] == [t["root"]] + [
        t["nodes"][topological_order(d).index(nodes[name])]["id"] for name in order]
    grad_a = t["nodes"][0]["grad"]
    complete = order.index("d") < min(order.index("b"), order.index("c"))
    assert (grad_a == 15.0) == complete
    assert grad_a in {15.0, 9.0, 6.0, 0.0}
    assert a.grad == 0.0  # left as found
    d.backward()  # backward() itself still walks in reverse topological order
    assert a.grad == 15.0


def test_each_op_has_its_formula_and_the_engines_number():
    root = every_op()
    t = trace(root)
    order = topological_order(root)
    by_id = {f"n{i}": v for i, v in enumerate(order)}
    seen = set()
    for edge in t["edges"]:
        child = by_id[edge["child"]]
        assert edge["local"] == child._local[edge["index"]]
        assert edge["formula"] == formula(child._op, edge["index"])
        seen.add(child._op.rstrip("0123456789-.") or child._op)
    assert seen == {"+", "*", "**", "tanh", "exp", "ReLU"} == set(FORMULAS)
    assert formula("**3", 0) == "∂(xⁿ)/∂x = n·xⁿ⁻¹ with n = 3"
    assert formula("*", 1) == "∂(x·y)/∂y = x"


def test_the_local_derivative_is_read_not_recomputed():
    x = Value(0.7, label="x")
    t = x.tanh()
    t._local = (123.0,)  # a broken engine (chapter 7): the trace must show what it stored
    record = trace(t)
    assert record["edges"][0]["local"] == 123.0
    assert record["backward"][1]["updates"][0]["contribution"] == 123.0


def test_an_unknown_operation_is_named():
    x = Value(0.5)
    y = Value(math.sin(0.5), _prev=(x,), _local=(math.cos(0.5),), _op="sin")
    with pytest.raises(ValueError, match="'sin'"):
        trace(y)


def test_infinities_and_nan_are_strict_json():
    big = Value(1e308, label="big")
    y = big * 10 + Value(math.nan)  # inf, then NaN
    t = trace(y)
    text = json.dumps(t, allow_nan=False)  # raises on a float inf or nan
    assert [n["data"] for n in t["nodes"]] == [1e308, 10.0, "Infinity", "NaN", "NaN"]
    assert t["edges"][1]["local"] == 1e308
    assert json.loads(text) == t

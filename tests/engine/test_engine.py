"""The engine: worked numbers from the chapters, the steps of backward, bad input, deep
graphs. tests/engine/test_engine_numerics.py checks its gradients against finite differences and
PyTorch."""

import copy
import gc
import math
import pickle
import random

import pytest

from micrograd import numerical_grad
from micrograd.engine import Value, backward_steps, topological_order
from micrograd.nn import MLP, Layer, Neuron

NEURON_BIAS = 6.8813735870195432


def build_L():
    a, b, c, f = (Value(x, label=n) for x, n in [(2.0, "a"), (-3.0, "b"), (10.0, "c"), (-2.0, "f")])
    e = a * b
    d = e + c
    return (a, b, c, f, e, d), d * f


def build_neuron():
    x1, w1, x2, w2 = Value(2.0), Value(-3.0), Value(0.0), Value(1.0)
    b = Value(NEURON_BIAS)
    n = x1 * w1 + x2 * w2 + b
    return (x1, w1, x2, w2, b), n, n.tanh()


# --- worked numbers ------------------------------------------------------------------


def test_sum_times_c_is_minus_10():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    f = (a + b) * c
    f.backward()
    assert f.data == -10.0
    assert (a.grad, b.grad, c.grad) == (10.0, 10.0, -1.0)


def test_L_example_and_every_gradient():
    (a, b, c, f, e, d), L = build_L()
    assert (e.data, d.data, L.data) == (-6.0, 4.0, -8.0)
    L.backward()
    assert (d.grad, f.grad, c.grad, e.grad, a.grad, b.grad) == (-2.0, 4.0, -2.0, -2.0, 6.0, -4.0)


def test_one_step_along_the_gradient_moves_L_towards_minus_7_29():
    (a, b, c, f, _, _), L = build_L()
    L.backward()
    for leaf in (a, b, c, f):
        leaf.data += 0.01 * leaf.grad
    new_L = ((a * b) + c) * f
    assert -8.0 < new_L.data < -7.28
    assert round(new_L.data, 2) == -7.29


def test_neuron_forward_and_backward():
    (x1, w1, x2, w2, b), n, o = build_neuron()
    assert round(n.data, 4) == 0.8814
    assert round(o.data, 4) == 0.7071
    o.backward()
    assert math.isclose(n.grad, 0.5, rel_tol=1e-12)
    assert math.isclose(w1.grad, 1.0, rel_tol=1e-12)
    assert math.isclose(x1.grad, -1.5, rel_tol=1e-12)
    assert math.isclose(x2.grad, 0.5, rel_tol=1e-12)
    assert w2.grad == 0.0


def test_a_node_used_twice_gets_both_contributions():
    a = Value(3.0)
    (a * a).backward()
    assert a.grad == 6.0


def diamond():
    """a = 2, b = a + 1, c = 3a, d = b·c: two paths from a to d."""
    a = Value(2.0)
    return a, (a + 1) * (3 * a)


def test_diamond_sums_both_paths():
    a, d = diamond()
    d.backward()
    assert d.data == 18.0
    assert a.grad == 15.0


def test_backward_steps_seed_first_then_reverse_topological_order():
    a, d = diamond()
    order = topological_order(d)
    visited = []
    for node in backward_steps(d):
        visited.append(node)
        if len(visited) == 1:
            assert d.grad == 1.0 and all(n.grad == 0.0 for n in order[:-1])  # only the seed so far
    assert visited == [d] + order[::-1]
    assert a.grad == 15.0


def test_backward_is_the_steps_run_to_the_end():
    _, by_steps = build_L()
    _, by_backward = build_L()
    for _ in backward_steps(by_steps):
        pass
    by_backward.backward()
    assert [n.grad for n in topological_order(by_steps)] == [n.grad for n in topological_order(by_backward)]


def test_backward_steps_follows_a_chosen_order_and_backward_does_not():
    a = Value(2.0)
    b, c = a + 1, 3 * a
    d = b * c
    list(backward_steps(d, order=[b, d, c]))  # b before d: the path through b is lost
    assert (a.grad, b.grad, c.grad) == (9.0, 6.0, 3.0)
    for node in topological_order(d):
        node.grad = 0.0
    d.backward()
    assert a.grad == 15.0


def tracked_per_node(make, n=2000):
    """Objects the garbage collector tracks per node, over n nodes made by make(x)."""
    x = Value(0.5)
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        y = x
        for _ in range(n):
            y = make(y)
        return (len(gc.get_objects()) - before) / n
    finally:
        gc.enable()


@pytest.mark.parametrize("make", [lambda y: y * 0.5, lambda y: y + 1.0, lambda y: y.tanh(),
                                  lambda y: y**2, lambda y: y.relu(), lambda y: y.exp() * 0.1],
                         ids=["mul", "add", "tanh", "pow", "relu", "exp-mul"])
def test_a_node_is_the_only_object_it_adds_to_the_collector(make):
    # a constant operand is a node too: y * 0.5 adds two nodes per step
    nodes_per_step = len(topological_order(make(Value(0.5)))) - 1
    assert tracked_per_node(make) == pytest.approx(nodes_per_step, abs=0.01)


def test_prev_and_local_read_and_write_the_slots():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    y = a * b
    assert y._prev == (a, b) and y._local == (-3.0, 2.0)
    assert y.tanh()._prev == (y,) and len(y.tanh()._local) == 1
    assert a._prev == () and a._local == ()
    rebuilt = Value(y.data, "y", y._prev, y._local, y._op)  # chapter 7 re-wraps nodes like this
    rebuilt.backward()
    assert (a.grad, b.grad) == (-3.0, 2.0)
    y._local = (10.0, 20.0)  # writable, for deliberately broken engines
    assert y._local == (10.0, 20.0)
    with pytest.raises(ValueError, match="at most two parents"):
        Value(1.0, _prev=(a, b, a), _local=(1.0, 1.0, 1.0))


def test_backward_twice_accumulates_and_zero_grad_resets():
    random.seed(0)
    neuron = Neuron(2)
    x = [1.5, -0.5]
    neuron.zero_grad()
    neuron(x).backward()
    once = [p.grad for p in neuron.parameters()]
    neuron(x).backward()
    neuron(x).backward()
    assert [p.grad for p in neuron.parameters()] == pytest.approx([3 * g for g in once])
    neuron.zero_grad()
    assert all(p.grad == 0.0 for p in neuron.parameters())


def test_chain_rule_car_bicycle_human():
    x = Value(1.0)
    z = 2 * (4 * x)
    z.backward()
    assert x.grad == 8.0


def test_derivative_of_the_quadratic_at_3():
    f = lambda x: 3 * x**2 - 4 * x + 5  # noqa: E731
    x = Value(3.0)
    y = f(x)
    y.backward()
    assert y.data == 20.0
    assert x.grad == 14.0
    assert numerical_grad(lambda: f(x), [x], h=1e-6)[0] == pytest.approx(14.0, rel=1e-8)


def test_each_local_derivative():
    x = Value(0.5)
    cases = [
        (x**3, 3 * 0.5**2),
        (x.tanh(), 1 - math.tanh(0.5) ** 2),
        (x.exp(), math.exp(0.5)),
        (x.relu(), 1.0),
        ((-x).relu(), 0.0),
        (x / 4, 0.25),
        (4 / x, -4 / 0.5**2),
        (1 - x, -1.0),
    ]
    for out, expected in cases:
        x.grad = 0.0
        out.backward()
        assert x.grad == pytest.approx(expected, rel=1e-12), out._op


def test_mlp_has_337_parameters_and_the_0_1_0_api():
    model = MLP(2, [16, 16, 1])
    assert len(model.parameters()) == 337
    assert isinstance(model([1.0, 2.0]), Value)
    assert len(Layer(2, 3)([1.0, 2.0])) == 3
    assert repr(Neuron(3, nonlin=False)) == "LinearNeuron(3)"


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad, name", [("3", "str"), (None, "NoneType"), (1j, "complex")])
def test_value_rejects_non_numbers_naming_the_type(bad, name):
    with pytest.raises(TypeError, match=name):
        Value(bad)


def test_value_exponent_is_refused_naming_the_operation():
    with pytest.raises(TypeError, match=r"\*\*.*only int/float exponents are supported"):
        Value(2.0) ** Value(3.0)
    with pytest.raises(TypeError, match=r"\*\*: str"):
        Value(2.0) ** "2"


def test_exp_overflow_names_the_input():
    with pytest.raises(OverflowError, match=r"exp\(1000.0\)"):
        Value(1000.0).exp()


def test_division_by_a_zero_value():
    for divide in (lambda: Value(1.0) / Value(0.0), lambda: 2.0 / Value(0.0),
                   lambda: Value(1.0) / 0, lambda: Value(1.0) / Value(-0.0)):
        with pytest.raises(ZeroDivisionError, match="division by"):
            divide()
    with pytest.raises(OverflowError, match="division by"):  # 1 / 1e-310 is past the largest float
        Value(1.0) / 1e-310


# The operation you wrote, not Value(): "unsupported operand for + ..."
@pytest.mark.parametrize("op, apply", [
    ("+", lambda v, o: v + o), ("+", lambda v, o: o + v if o is None else v + o),
    ("-", lambda v, o: v - o), ("-", lambda v, o: o - v),
    ("*", lambda v, o: v * o), ("*", lambda v, o: o * v if o is None else v * o),
    ("/", lambda v, o: v / o), ("/", lambda v, o: o / v),
])
@pytest.mark.parametrize("other", ["a", None, 1j, [1.0]], ids=["str", "None", "complex", "list"])
def test_a_bad_operand_is_named_with_the_operation(op, apply, other):
    with pytest.raises(TypeError) as error:
        apply(Value(2.0), other)
    message = str(error.value)
    if isinstance(other, str) and op == "+":
        return  # str + Value is Python's own concatenation error, raised before Value is asked
    assert f"for {op}" in message and type(other).__name__ in message
    assert "Value()" not in message


# --- deep graphs -----------------------------------------------------------------------------


def test_backward_handles_a_chain_of_a_million_operations():
    x = Value(1.0)
    one = Value(1.0)
    y = x
    for _ in range(1_000_000):
        y = y + one
    y.backward()
    assert y.data == 1_000_001.0
    assert x.grad == 1.0
    assert one.grad == 1_000_000.0


def chapter_6_loss():
    """The loss graph of chapter 6 on a quarter of its points: MLP(2, [16, 16, 1]), the hinge
    loss and L2 on 25 two-moons points (its shape: shared parameters, every op, 15,000 nodes)."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=25, noise=0.1, random_state=1)
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    scores = [model([Value(float(a)), Value(float(b))]) for a, b in X]
    hinge = [(1 - (2.0 * t - 1.0) * s).relu() for t, s in zip(y, scores)]
    loss = sum(hinge) / len(hinge) + 1e-4 * sum(p * p for p in model.parameters())
    return model, loss


def test_pickle_and_deepcopy_the_chapter_6_loss_graph():
    model, loss = chapter_6_loss()
    assert len(topological_order(loss)) > 15_000
    loss.backward()
    for copied in (pickle.loads(pickle.dumps(loss)), copy.deepcopy(loss)):
        nodes, original = topological_order(copied), topological_order(loss)
        assert [(n.data, n.grad, n.label, n._op, n._local) for n in nodes] == [
            (n.data, n.grad, n.label, n._op, n._local) for n in original]
        assert not set(map(id, nodes)) & set(map(id, original))  # a copy, not the same nodes
    model2, loss2 = copy.deepcopy((model, loss))  # the model's parameters stay the loss's leaves
    leaves = {id(n) for n in topological_order(loss2) if not n._prev}
    assert {id(p) for p in model2.parameters()} <= leaves
    for node in topological_order(loss2):
        node.grad = 0.0
    loss2.backward()
    assert [p.grad for p in model2.parameters()] == [p.grad for p in model.parameters()]


def test_pickle_and_copy_a_chain_far_deeper_than_the_recursion_limit():
    x = Value(1.0, label="x")
    y = x
    for _ in range(5_000):  # 15,000 nodes deep: 15 times the recursion limit
        y = y * 1.0 + 0.5
    for copied in (pickle.loads(pickle.dumps(y)), copy.deepcopy(y), copy.copy(y)):
        assert copied.data == y.data
        copied.backward()
        assert topological_order(copied)[0].grad == 1.0
    leaf = pickle.loads(pickle.dumps(x))
    assert (leaf.data, leaf.label, leaf._prev) == (1.0, "x", ())


def test_topological_order_puts_parents_first():
    _, d = diamond()
    order = topological_order(d)
    position = {node: i for i, node in enumerate(order)}
    assert order[-1] is d and len(order) == len(set(order))
    for node in order:
        for parent in node._prev:
            assert position[parent] < position[node]

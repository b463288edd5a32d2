"""The engine: worked numbers from the chapters, gradients against finite
differences and PyTorch, bad input, deep graphs."""

import copy
import gc
import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from micrograd import gradcheck, numerical_grad, relative_error
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


# --- gradients against finite differences (hypothesis) --------------------------------

# Random expressions over three leaves, from smooth ops whose finite-difference
# estimate is reliable (relu and division are kept away from their kinks/poles).
leaf = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False)


@st.composite
def expressions(draw):
    ops = draw(st.lists(st.sampled_from(["+", "-", "*", "tanh", "exp", "**2", "**3", "/"]),
                        min_size=1, max_size=12))
    picks = draw(st.lists(st.integers(0, 2), min_size=len(ops), max_size=len(ops)))

    def build(xs):
        y = xs[0]
        for op, k in zip(ops, picks):
            other = xs[k]
            if op == "+": y = y + other
            elif op == "-": y = y - other
            elif op == "*": y = y * other
            elif op == "tanh": y = y.tanh()
            elif op == "exp": y = (y * 0.1).exp()
            elif op == "**2": y = y**2 * 0.5
            elif op == "**3": y = y.tanh() ** 3
            elif op == "/": y = y / (other * other + 1.0)
        return y

    return build


@settings(max_examples=150, deadline=None)
@given(expressions(), leaf, leaf, leaf)
def test_backward_matches_centered_differences(build, x0, x1, x2):
    xs = [Value(x0, label="x0"), Value(x1, label="x1"), Value(x2, label="x2")]
    y = build(xs)
    if abs(y.data) > 1e6:
        return  # finite differences lose their digits on huge values
    y.backward()
    numeric = numerical_grad(lambda: build(xs), xs, h=1e-6)
    for x, n in zip(xs, numeric):
        assert x.grad == pytest.approx(n, rel=1e-4, abs=1e-6)


def test_gradcheck_passes_on_an_mlp_and_names_a_wrong_gradient():
    random.seed(3)
    model = MLP(3, [4, 1])
    params = model.parameters()
    assert gradcheck(lambda: model([0.5, -1.0, 2.0]), params) < 1e-6

    class WrongTanh(Value):
        __slots__ = ()

        def tanh(self):
            out = Value.tanh(self)
            out._local = (1 - self.data**2,)  # derivative from the input: the bug
            return out

    x = WrongTanh(0.7, label="x")
    with pytest.raises(AssertionError, match="x: backward"):
        gradcheck(lambda: x.tanh(), [x])


def test_relative_error_and_step_checks():
    assert relative_error(0.0, 0.0) == 0.0
    assert relative_error(1.0, 1.1) == pytest.approx(0.1 / 1.1)
    with pytest.raises(ValueError, match="positive"):
        numerical_grad(lambda: Value(1.0), [Value(1.0)], h=0)


# --- against PyTorch, float64 ------------------------------------------------------------


def test_matches_pytorch_in_float64():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (it is optional)")

    def expression(a, b, relu):
        c = a + b
        d = a * b + b**3
        c = c + c + 1
        c = c + 1 + c + (-a)
        d = d + d * 2 + relu(b + a)
        d = d + 3 * d + relu(b - a)
        e = c - d
        f = e**2
        g = f / 2.0
        return g + 10.0 / f

    a, b = Value(-4.0), Value(2.0)
    g = expression(a, b, lambda v: v.relu())
    g.backward()
    ta = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    tg = expression(ta, tb, torch.relu)
    tg.backward()
    assert abs(g.data - tg.item()) < 1e-12
    assert abs(a.grad - ta.grad.item()) < 1e-12
    assert abs(b.grad - tb.grad.item()) < 1e-12


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


# --- edge cases: IEEE 754 values, as PyTorch gives them, or an error naming the op -----------------

NAN, INF = math.nan, math.inf
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -8.0, 2.5, 1e-300, -1e-300, 1e300, INF, -INF, NAN]
EXPONENTS = [0, 0.0, 1, 2, 3, -1, -2, 0.5, -0.5, 1 / 3, 2.5, INF]


def same(a, b):
    """Equal as IEEE doubles: NaN equals NaN, and a zero's sign counts."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def same_grad(a, b):
    """Equal, but for the sign of a zero: grads start at +0.0 and grow by +=,
    so a zero gradient is +0.0 where PyTorch may give -0.0 (documented)."""
    return same(a, b) or a == b


def within_ulp(a, b):
    return same_grad(a, b) or math.isclose(a, b, rel_tol=2**-52)


def within_ulps(n):
    """Equal as same_grad, or at most n units in the last place apart (finite values)."""
    def close(a, b):
        return same_grad(a, b) or (math.isfinite(a) and math.isfinite(b)
                                   and abs(a - b) <= n * math.ulp(max(abs(a), abs(b))))
    return close


# exp and tanh come from libm (glibc: under 1 ulp, not correctly rounded) and PyTorch's
# vectorised kernels (SLEEF's u10 functions: at most 1.0 ulp), and which one a CPU runs
# depends on its vector units: tanh(0.5) differs by one ulp on some x86-64 machines. Two
# results each within 1 ulp of the truth are within 2 ulp of each other.
LIBM_ULPS = 2


def value_and_grad(f, x):
    """f(Value(x)).data and x's gradient."""
    v = Value(x)
    out = f(v)
    out.backward()
    return out.data, v.grad


def test_power_at_zero_has_a_value_and_an_ieee_derivative():
    root = Value(0.0) ** 0.5  # forward 0.0 (micrograd 0.1.0 and PyTorch agree); slope inf
    assert root.data == 0.0 and root._local == (INF,)
    one = Value(0.0) ** 0
    assert one.data == 1.0 and one._local == (0.0,)  # x ** 0 is the constant 1
    assert value_and_grad(lambda x: x ** 0.5, 0.0) == (0.0, INF)
    assert value_and_grad(lambda x: x ** 1.5, 0.0) == (0.0, 0.0)
    assert value_and_grad(lambda x: x ** -1, 1e-300)[1] == -INF  # the slope overflows, the value does not


@pytest.mark.parametrize("x, n, error", [
    (0.0, -1, ZeroDivisionError), (-0.0, -0.5, ZeroDivisionError),
    (-8.0, 1 / 3, ValueError), (-1.0, 0.5, ValueError),
    (1e300, 2, OverflowError), (1e-300, -2, OverflowError),
])
def test_power_errors_name_the_operation(x, n, error):
    with pytest.raises(error, match=r"\*\*"):
        Value(x) ** n


def test_nan_propagates_through_relu_and_minus_zero_stays():
    r = Value(NAN).relu()
    assert math.isnan(r.data) and r._local == (1.0,)  # PyTorch's local derivative at NaN
    assert same(Value(-0.0).relu().data, -0.0)
    assert Value(-0.0).relu()._local == (0.0,) == Value(0.0).relu()._local


def test_inf_and_nan_inputs_propagate():
    assert value_and_grad(lambda x: x.tanh(), INF) == (1.0, 0.0)
    assert value_and_grad(lambda x: x.exp(), -INF) == (0.0, 0.0)
    assert value_and_grad(lambda x: x.exp(), INF) == (INF, INF)
    assert all(math.isnan(v) for v in value_and_grad(lambda x: x * x + 1, NAN))
    assert math.isnan((Value(INF) - Value(INF)).data)


def test_changing_data_after_the_forward_pass_does_not_change_backward():
    # Local derivatives are computed in the forward pass (micrograd 0.1.0 reads
    # .data in backward() instead, and would give x.grad == 5.0 here).
    w, x = Value(2.0), Value(3.0)
    y = w * x
    w.data = 5.0
    y.backward()
    assert y.data == 6.0
    assert x.grad == 2.0  # the w the forward pass saw
    y2 = w * x  # a rebuilt graph sees the new w
    x.grad = 0.0
    y2.backward()
    assert x.grad == 5.0


def torch_value_and_grad(torch, f, x):
    t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    out = f(t)
    out.backward()
    return out.item(), t.grad.item()


def ours_or_error(f, x):
    try:
        return value_and_grad(f, x)
    except (ZeroDivisionError, OverflowError, ValueError) as error:
        return error


def check_against_torch(torch, ours, theirs, x, where, value=same, grad=same_grad):
    """Equal to PyTorch (by `value` and `grad`), or one of our deliberate errors
    where PyTorch gives inf or NaN."""
    result = ours_or_error(ours, x)
    expected = torch_value_and_grad(torch, theirs, x)
    if isinstance(result, Exception):
        assert not math.isfinite(expected[0]), f"{where}: we raise {result!r}, PyTorch gives {expected}"
        return
    assert value(result[0], expected[0]) and grad(result[1], expected[1]), f"{where}: {result} vs PyTorch {expected}"


@pytest.mark.parametrize("x", SPECIAL, ids=repr)
@pytest.mark.parametrize("n", EXPONENTS, ids=repr)
def test_power_matches_pytorch_in_float64(x, n):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (it is optional)")
    if n in (0.5, -0.5) and (x == -INF or same(x, -0.0)):
        pytest.skip("documented: PyTorch computes x ** ±0.5 as a square root, C's pow differs in sign or NaN here")
    # PyTorch's sqrt (and 1/sqrt) for ±0.5 may differ from C's pow in the last digit
    close = within_ulp if n in (0.5, -0.5) else same
    check_against_torch(torch, lambda v: v**n, lambda t: t**n, x, f"{x!r} ** {n!r}",
                        value=close, grad=within_ulp if n in (0.5, -0.5) else same_grad)


@pytest.mark.parametrize("x", SPECIAL + [709.0, 710.0, -710.0, 20.0], ids=repr)
@pytest.mark.parametrize("op", ["tanh", "exp", "relu"])
def test_unary_ops_match_pytorch_in_float64(x, op):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (it is optional)")
    value, grad = same, same_grad  # relu: exact
    if op == "exp":  # its local derivative is its value
        value = grad = within_ulps(LIBM_ULPS)
    if op == "tanh":
        # the value within LIBM_ULPS; the local derivative 1 - t*t moves by about 2t times t's
        # error (at most 2 * 2**-53 per ulp of t, as |t| < 1), and t*t is rounded before the
        # subtraction where PyTorch fuses it (documented): 2**-52 for each of the three
        value = within_ulps(LIBM_ULPS)

        def grad(a, b):
            return same_grad(a, b) or abs(a - b) <= (LIBM_ULPS + 1) * 2**-52
    check_against_torch(torch, lambda v: getattr(v, op)(), getattr(torch, op), x, f"{op}({x!r})",
                        value=value, grad=grad)


@pytest.mark.parametrize("a", [0.0, -0.0, 1.5, -2.0, 1e300, INF, -INF, NAN], ids=repr)
@pytest.mark.parametrize("b", [0.0, -0.0, 3.0, -0.25, 1e300, INF, NAN], ids=repr)
@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_binary_ops_match_pytorch_in_float64(a, b, op):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (it is optional)")
    apply = {"+": lambda x, y: x + y, "-": lambda x, y: x - y,
             "*": lambda x, y: x * y, "/": lambda x, y: x / y}[op]
    try:
        va, vb = Value(a), Value(b)
        out = apply(va, vb)
        out.backward()
        ours = (out.data, va.grad, vb.grad)
    except (ZeroDivisionError, OverflowError) as error:
        assert op == "/" and str(error).startswith("division by")  # deliberate: PyTorch gives ±inf or NaN
        return
    # a / b is a * b**-1 here (chapter 4): the same as PyTorch's a * b**-1, and
    # within one rounding of its a / b where b**-2 does not underflow (documented)
    formulas = {"same": apply}
    if op == "/":
        formulas = {"same": lambda x, y: x * y**-1}
        if math.isfinite(a) and math.isfinite(b) and abs(b) < 1e150:
            formulas["close"] = apply
    for kind, formula in formulas.items():
        ta, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (a, b))
        out = formula(ta, tb)
        out.backward()
        theirs = (out.item(), ta.grad.item(), tb.grad.item())
        value, grad = (same, same_grad) if kind == "same" else (within_ulp, within_ulp)
        assert value(ours[0], theirs[0]) and all(grad(o, t) for o, t in zip(ours[1:], theirs[1:])), (
            f"{a!r} {op} {b!r}: {ours} vs PyTorch {theirs} ({kind})")


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

"""The engine's gradients checked: against centered finite differences on random expressions
(hypothesis), against PyTorch in float64, and at IEEE 754's edge values (zeros, infinities,
NaN), where each result is PyTorch's or an error naming the operation."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from micrograd import gradcheck, numerical_grad, relative_error
from micrograd.engine import Value
from micrograd.nn import MLP

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

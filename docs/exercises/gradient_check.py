"""A gradient check of your own

`numerical_grad` and the gradient check have been black boxes so far. Build
both.

`numerical_gradient(f, inputs, h)` estimates the derivative of the output
with respect to each input by the centered difference: move the input's
`.data` up by `h`, rebuild, move it down by `h`, rebuild, and divide the
change of the output by the width of the step. `f()` takes no arguments: it
rebuilds the expression from the inputs' current `.data` and returns a
Value. Put every `.data` back as you found it, before you nudge the next
input.

`gradient_check(f, inputs, h)` zeroes the inputs' grads, runs one forward
and one backward pass, and returns the largest relative error between a
grad and its estimate (`relative_error` is imported for you). Below
$10^{-6}$, the check passes.
"""

# ---- kind: build ----

# ---- starter ----
from micrograd import relative_error


def numerical_gradient(f, inputs, h=1e-6):
    """Centered-difference estimates of d f() / d x for each x in inputs, as a list of floats."""
    estimates = []
    for x in inputs:
        original = x.data
        ...
    return estimates


def gradient_check(f, inputs, h=1e-6):
    """The largest relative error between backward()'s grads and the estimates, a float."""
    for x in inputs:
        x.grad = 0.0
    ...

# ---- solution ----
from micrograd import relative_error


def numerical_gradient(f, inputs, h=1e-6):
    """Centered-difference estimates of d f() / d x for each x in inputs, as a list of floats."""
    estimates = []
    for x in inputs:
        original = x.data
        x.data = original + h
        up = f().data
        x.data = original - h
        down = f().data
        x.data = original                        # put it back before the next input moves
        estimates.append((up - down) / (2 * h))  # the step is 2h wide
    return estimates


def gradient_check(f, inputs, h=1e-6):
    """The largest relative error between backward()'s grads and the estimates, a float."""
    for x in inputs:
        x.grad = 0.0
    f().backward()
    estimates = numerical_gradient(f, inputs, h)
    return max(relative_error(x.grad, e) for x, e in zip(inputs, estimates))

# ---- tests ----
from micrograd import Value, numerical_grad, relative_error

from scripts.reader.exercise_checks import Fail, expect

H = 1e-3  # a step wide enough that the classic mistakes show (the expressions are at most quadratic
          # in each input, so the centered difference is exact up to round-off at any h)
CENTERED = "(f() with x.data + h) minus (f() with x.data - h), divided by 2h"
NOT_BACK = ("the first input's .data was not put back after its nudge, so every later estimate "
            "was taken at the wrong point")


def estimates_of(user, f, inputs, what):
    """The reader's numerical_gradient(f, inputs, H), checked to be a list of one number per input."""
    result = user.numerical_gradient(f, inputs, H)
    if not isinstance(result, list) or len(result) != len(inputs):
        raise Fail(f"numerical_gradient for {what} returned {result!r}, expected a list of "
                   f"{len(inputs)} numbers, one per input")
    return result


def wrong_ways(f, x):
    """The estimates two classic mistakes give for input x, from micrograd's own Values."""
    original = x.data
    x.data = original + H
    up = f().data
    x.data = original - H
    down = f().data
    x.data = original
    centre = f().data
    return [((up - centre) / H, "that is the forward difference, (f(x + h) - f(x)) / h: step to both "
                                "sides instead, so the errors of the two sides cancel"),
            ((up - down) / H, "the step from x - h to x + h is 2h wide: divide by 2h, not h")]


def compare(what, estimate, expected, likely):
    if not isinstance(estimate, (int, float)) or relative_error(estimate, expected) > 1e-9:
        expect(what, estimate, expected, likely=likely, check=CENTERED)


def test_one_input(user):
    """3x**2 - 4x + 5 at x = 3, h = 0.001: the estimate of the slope"""
    x = Value(3.0)

    def f():
        return 3 * x**2 - 4 * x + 5

    right, likely = numerical_grad(f, [x], H)[0], wrong_ways(f, x)  # before the reader's code moves x
    (estimate,) = estimates_of(user, f, [x], "3x**2 - 4x + 5")
    compare("the estimate for 3x**2 - 4x + 5 at x = 3", estimate, right, likely)


def test_data_put_back(user):
    """every input's .data is the same after the estimate as before"""
    a, b = Value(2.0), Value(-3.0)
    estimates_of(user, lambda: a * b + a, [a, b], "a * b + a")
    expect("[a.data, b.data] after numerical_gradient", [a.data, b.data], [2.0, -3.0],
           likely=[([2.0 - H, -3.0 - H], "each input's .data was not put back: it was left at x - h")],
           check="set x.data = original after the two rebuilds, before the next input")


def test_two_inputs(user):
    """a * b + a at a = 2, b = -3: one estimate per input"""
    a, b = Value(2.0), Value(-3.0)

    def f():
        return a * b + a

    right = numerical_grad(f, [a, b], H)  # all of it before the reader's code moves a and b
    likely = [wrong_ways(f, a), wrong_ways(f, b)]
    a.data -= H  # where a stays when it is not put back: the slope in b is a, read there
    likely[1].insert(0, (numerical_grad(f, [b], H)[0], NOT_BACK))
    a.data += H
    mine = estimates_of(user, f, [a, b], "a * b + a")
    for name, estimate, expected, wrong in zip("ab", mine, right, likely):
        compare(f"the estimate for {name} in a * b + a", estimate, expected, wrong)


H_CHECK = 1e-4  # the step the tests give gradient_check


def test_the_check_passes_a_right_gradient(user):
    """gradient_check on a squared error is below 1e-6"""
    w, x, t = Value(0.5), Value(2.0), Value(4.0)
    error = user.gradient_check(lambda: (w * x - t) ** 2, [w, x, t], H_CHECK)
    if not isinstance(error, float):
        raise Fail(f"gradient_check returned {error!r}, expected a float: the largest relative error")
    if not error < 1e-6:
        raise Fail(f"gradient_check found a relative error of {error:.3g} on a right gradient, "
                   f"expected below 1e-6: compare each x.grad with its own estimate")


def test_the_check_catches_a_wrong_local_derivative(user):
    """a square that stores x instead of 2x: the check reports a relative error of 0.5"""
    x = Value(3.0)

    def wrong_square():  # x * x with a wrong local derivative: x, not 2x
        return Value(x.data ** 2, "", (x,), (x.data,), "**2")

    error = user.gradient_check(wrong_square, [x], H_CHECK)
    expected = relative_error(x.data, 2 * x.data)
    if not isinstance(error, float) or relative_error(error, expected) > 1e-6:
        expect("gradient_check for a square whose local derivative is x, not 2x, at x = 3", error, expected,
               check="max of relative_error(x.grad, estimate) over the inputs")


def test_the_check_zeroes_the_grads_first(user):
    """a grad left over from an earlier pass does not count"""
    w = Value(0.5)
    w.grad = 10.0  # from an earlier backward pass
    error = user.gradient_check(lambda: w * w, [w], H_CHECK)
    if isinstance(error, float) and error < 1e-6:
        return
    kept = relative_error(10.0 + 2 * w.data, 2 * w.data)
    expect("gradient_check of w * w with w = 0.5 and w.grad = 10 left over", error, 0.0,
           likely=[(kept, "the 10 left over was added to: zero every input's grad before the backward pass")],
           check="the grads of one fresh backward pass against the estimates")

# ---- hints ----
# - How far apart are the two points where you evaluate the output, and where must each
#   input be standing when you nudge the next one?
# - For each input: save its number, evaluate the output a step h above it and a step h
#   below it, restore the number, and divide the difference of the two outputs by the full
#   distance between the points, two h. The check then compares each input's gradient from
#   one backward pass with its estimate, and keeps the worst relative error.
# - In the loop: `x.data = original + h; up = f().data; x.data = original - h; down = f().data;
#   x.data = original; estimates.append((up - down) / (2 * h))`. In the check: `f().backward()`,
#   then `max(relative_error(x.grad, e) for x, e in zip(inputs, numerical_gradient(f, inputs, h)))`.

# ---- mistake: divided by h ----
# message: divide by 2h, not h
# replace: estimates.append((up - down) / (2 * h))  # the step is 2h wide
# with: estimates.append((up - down) / h)

# ---- mistake: not put back ----
# message: was not put back
# replace: x.data = original                        # put it back before the next input moves
# with:

# ---- mistake: forward difference ----
# message: that is the forward difference
# replace:
#     x.data = original - h
#     down = f().data
# with:
#     x.data = original
#     down = f().data
# replace: estimates.append((up - down) / (2 * h))  # the step is 2h wide
# with: estimates.append((up - down) / h)

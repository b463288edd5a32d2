"""Gradient checking with centered finite differences.

    f'(x) ≈ (f(x + h) - f(x - h)) / 2h

The error of this estimate shrinks like h² (truncation error, from Taylor's
theorem), until floating-point round-off, which grows like ε/h with ε ≈ 2.2e-16,
takes over; h = 1e-6 is near the sweet spot for numbers of order 1.
"""


def numerical_grad(f, inputs, h=1e-6):
    """Estimate d f() / d x for each leaf x in `inputs` by centered differences.

    f: a callable with no arguments that rebuilds the graph from the inputs'
    current .data and returns a Value (or a float). inputs: list[Value].
    h: the step, in the units of the inputs (float > 0).
    Returns list[float], one estimate per input; every .data is restored.
    Raises ValueError if h <= 0.
    """
    if not h > 0:
        raise ValueError(f"the step h must be positive, got {h!r}")
    estimates = []
    for x in inputs:
        original = x.data
        try:
            x.data = original + h
            up = _number(f())
            x.data = original - h
            down = _number(f())
        finally:
            x.data = original
        estimates.append((up - down) / (2 * h))
    return estimates


def relative_error(a, b):
    """|a - b| / max(|a|, |b|) for two floats; 0.0 when both are 0."""
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def gradcheck(f, inputs, h=1e-6, tol=1e-6):
    """Compare backward() with centered differences for every input.

    Zeroes the inputs' .grad, builds f(), calls backward(), then estimates each
    gradient numerically with step h. Returns the largest relative error
    (float). Raises AssertionError naming each input whose relative error
    exceeds tol, with both numbers.
    """
    for x in inputs:
        x.grad = 0.0
    f().backward()
    analytic = [x.grad for x in inputs]
    numeric = numerical_grad(f, inputs, h)
    errors = [relative_error(a, n) for a, n in zip(analytic, numeric)]
    bad = [
        f"{x.label or f'input {i}'}: backward {a:.10g}, finite differences {n:.10g}, "
        f"relative error {e:.2e}"
        for i, (x, a, n, e) in enumerate(zip(inputs, analytic, numeric, errors))
        if e > tol
    ]
    if bad:
        raise AssertionError(f"gradient check failed (tol {tol:.0e}):\n" + "\n".join(bad))
    return max(errors, default=0.0)


def _number(y):
    return y.data if hasattr(y, "data") else float(y)

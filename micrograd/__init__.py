"""micrograd: a scalar autodiff engine small enough to read in one sitting.

    >>> from micrograd import Value
    >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    >>> y = a * b + a
    >>> y.backward()
    >>> y.data, a.grad, b.grad
    (-4.0, -2.0, 2.0)
"""

from micrograd.engine import Value
from micrograd.gradcheck import gradcheck, numerical_grad, relative_error

__all__ = ["Value", "draw_dot", "gradcheck", "numerical_grad", "relative_error"]


def __getattr__(name):
    # draw_dot needs the graphviz package; import it only when asked for.
    if name == "draw_dot":
        from micrograd.draw import draw_dot

        return draw_dot
    raise AttributeError(f"module 'micrograd' has no attribute {name!r}")

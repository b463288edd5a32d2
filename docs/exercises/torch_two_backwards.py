"""Predict: `backward()` twice, in micrograd and in PyTorch

Both libraries add into `.grad` and never reset it on their own. They
differ in which nodes keep one. Here is the same program in both:

```text
micrograd                PyTorch
x = Value(2.0)           tx = torch.tensor(2.0, dtype=torch.float64,
                                       requires_grad=True)
sq = x * x               tsq = tx * tx
y = sq + 3 * x           ty = tsq + 3 * tx
y.backward()             ty.backward(retain_graph=True)
first = x.grad
y.backward()             ty.backward()
second = x.grad          torch_second = tx.grad.item()
sq_grad = sq.grad        torch_sq_grad = tsq.grad
```

(`retain_graph=True` lets PyTorch walk the same graph a second time.) Work
out the five values by hand, from the rules of this chapter and of
chapter 7, and write
them in place of the blanks: numbers, or `None` where PyTorch gives no
number. Run grades all five.
"""

# ---- kind: predict ----

# ---- starter ----
first = ...          # x.grad after one y.backward()
second = ...         # x.grad after two
sq_grad = ...        # sq.grad after two
torch_second = ...   # tx.grad.item() after two ty.backward() calls
torch_sq_grad = ...  # tsq.grad after two

# ---- solution ----
first = 7.0          # x.grad after one y.backward()
second = 21.0        # x.grad after two
sq_grad = 2.0        # sq.grad after two
torch_second = 14.0  # tx.grad.item() after two ty.backward() calls
torch_sq_grad = None  # tsq.grad after two

# ---- tests ----
from micrograd import Value
from micrograd.engine import topological_order

from scripts.reader.exercise_checks import expect, predicted

ONE_CALL = "that is the gradient after one backward()"
INNER = ("micrograd keeps every node's grad: the second call seeds y again, adds a second share into sq "
         "and into 3 * x, and they pass their grown totals on to x")
LEAVES_ONLY = ("PyTorch keeps .grad on leaves only: each call starts the inner nodes afresh, so the second "
               "call adds one more dy/dx to tx.grad")


def micrograd_run():
    """The program's micrograd side: (first, second, sq_grad)."""
    x = Value(2.0)
    sq = x * x
    y = sq + 3 * x
    y.backward()
    first = x.grad
    y.backward()
    return first, x.grad, sq.grad


def torch_rule(calls):
    """What PyTorch holds after `calls` backward() calls, by its rule, on micrograd's graph: the
    inner nodes start each call at 0 (PyTorch keeps no .grad on them), the leaves keep adding.
    Returns (x.grad, sq's .grad as PyTorch shows it: None, as for every non-leaf)."""
    x = Value(2.0)
    sq = x * x
    y = sq + 3 * x
    for _ in range(calls):
        for node in topological_order(y):
            if node._prev:
                node.grad = 0.0
        y.backward()
    return x.grad, (None if sq._prev else sq.grad)


def test_first(user):
    """first: x.grad after one call"""
    first, second, _ = micrograd_run()
    expect("first", predicted(user, "first"), first, likely=[(second, "that is after the second call; the first call gives dy/dx")],
           check="after one call, x.grad is dy/dx = 2x + 3")


def test_second(user):
    """second: x.grad after two calls in micrograd"""
    first, second, _ = micrograd_run()
    expect("second", predicted(user, "second"), second,
           likely=[(first, "backward() adds into .grad, it does not reset it: the second call adds more"),
                   (torch_rule(2)[0], f"that is PyTorch's number; {INNER}")],
           check=INNER)


def test_sq_grad(user):
    """sq_grad: the inner node's grad after two calls in micrograd"""
    _, _, sq_grad = micrograd_run()
    expect("sq_grad", predicted(user, "sq_grad"), sq_grad,
           likely=[(sq_grad / 2, f"{ONE_CALL}; sq's grad grows by 1 with each call")],
           check="each call seeds y with 1, and y = sq + 3x passes that 1 on to sq")


def test_torch_second(user):
    """torch_second: tx.grad after two calls in PyTorch"""
    first, second, _ = micrograd_run()
    expect("torch_second", predicted(user, "torch_second"), torch_rule(2)[0],
           likely=[(second, f"that is micrograd's number; {LEAVES_ONLY}"),
                   (first, "PyTorch adds into .grad too (+=): the second call adds to the first")],
           check=LEAVES_ONLY)


def test_torch_sq_grad(user):
    """torch_sq_grad: the inner tensor's .grad in PyTorch"""
    _, _, sq_grad = micrograd_run()
    expect("torch_sq_grad", predicted(user, "torch_sq_grad"), torch_rule(2)[1],
           likely=[(sq_grad, "that is micrograd's; PyTorch fills .grad on leaves only, unless retain_grad() "
                             "was called, and shows None for tsq"),
                   (1.0, "PyTorch keeps no .grad on an inner tensor, not even one call's: it shows None")],
           check="PyTorch fills .grad on leaves only; an inner tensor's .grad is None")

# ---- hints ----
# - After the first call both libraries agree. On the second call, which nodes still hold the
#   gradient of the first call, in micrograd and in PyTorch?
# - The first call gives $dy/dx = 2x + 3$ at $x = 2$. In micrograd every node keeps its gradient:
#   the second call seeds the root with 1 again, the two products now hold 2 instead of 1, and so
#   they pass on twice what they passed the first time. In PyTorch only the leaf keeps one: the
#   second call computes $dy/dx$ afresh and adds it once more. An inner tensor shows no gradient.
# - `first = 7.0`, `sq_grad = 2.0` (each call adds 1 to it), `second = 7.0 + 2 * 7.0`: the products
#   pass on twice what they passed the first time. `torch_second = 7.0 + 7.0`, `torch_sq_grad = None`.

# ---- mistake: PyTorch's rule in micrograd ----
# message: that is PyTorch's number
# replace: second = 21.0        # x.grad after two
# with: second = 14.0

# ---- mistake: micrograd's rule in PyTorch ----
# message: that is micrograd's number
# replace: torch_second = 14.0  # tx.grad.item() after two ty.backward() calls
# with: torch_second = 21.0

# ---- mistake: an inner tensor's grad ----
# message: that is micrograd's
# replace: torch_sq_grad = None  # tsq.grad after two
# with: torch_sq_grad = 2.0

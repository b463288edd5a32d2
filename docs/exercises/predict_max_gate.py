"""Predict: where add, multiply and max send the gradient

This circuit has one gate of each kind and a leaf, `z`, that it uses twice.
`maximum` is the page's max gate. Predict the four grads the program
prints, gate by gate, without running it.

```python
from micrograd import Value


def maximum(a, b):
    a_wins = a.data > b.data
    return Value(max(a.data, b.data), "", (a, b), (1.0, 0.0) if a_wins else (0.0, 1.0), "max")


x, y, z = Value(3.0), Value(-1.0), Value(2.0)
a = x * y
b = x + z
m = maximum(a, b)
out = m * z
out.backward()
print(b.grad)  # line 1
print(x.grad)  # line 2
print(y.grad)  # line 3
print(z.grad)  # line 4
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
b_grad = ...  # line 1
x_grad = ...  # line 2
y_grad = ...  # line 3
z_grad = ...  # line 4

# ---- solution ----
# a = 3 * -1 = -3 and b = 3 + 2 = 5: the max routes all of its gradient to b.
# m gets z = 2 from the last product, and passes all of it to b
b_grad = 2.0
# b passes it to x (and z) unchanged
x_grad = 2.0
# a lost the max: nothing reaches y
y_grad = 0.0
# z is used twice: m's value 5 from the product, 2 through b
z_grad = 5.0 + 2.0

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_max_gate"  # this exercise, whose program the tests run

MAX_RULE = "the max routes all of its gradient to the larger input, b, and none to a"


def test_line_1(user):
    """line 1: b.grad, the input that won the max"""
    lines, n = program(NAME)
    expect("b_grad", predicted(user, "b_grad"), lines[0],
           likely=[(1.0, "that is the max's local derivative alone; times m's gradient, which the last "
                         "product sets to z's value")],
           check="m's gradient is what the last product sends it; the max passes it on")


def test_line_2(user):
    """line 2: x.grad, through the add that won the max"""
    lines, n = program(NAME)
    upstream = n["z"].data  # what the last product sends m
    both = n["y"].data * upstream + upstream  # as if the max sent its gradient to a as well
    expect("x_grad", predicted(user, "x_grad"), lines[1],
           likely=[(both, f"that counts the path through a as well; {MAX_RULE}")],
           check="x reaches out through a and through b; only the larger of the two gets m's gradient")


def test_line_3(user):
    """line 3: y.grad, behind the input that lost the max"""
    lines, n = program(NAME)
    through_a = n["x"].data * n["z"].data  # multiply swaps: x times m's gradient
    expect("y_grad", predicted(user, "y_grad"), lines[2],
           likely=[(through_a, f"that is what y would get if a had won the max; {MAX_RULE}")],
           check="y reaches out only through a; does a get any of m's gradient?")


def test_line_4(user):
    """line 4: z.grad, a leaf used twice"""
    lines, n = program(NAME)
    product_only = n["m"].data
    expect("z_grad", predicted(user, "z_grad"), lines[3],
           likely=[(product_only, "that is only the edge from the last product, m's value 5; z also feeds b, "
                                  "which won the max: add that path's share")],
           check="z feeds the last product and b: add the shares of both edges")

# ---- hints ----
# - Which of the max's two inputs is larger here, and what does the smaller one get back? And
#   which leaf feeds two gates?
# - Compute $a = x y$ and $b = x + z$ first. The last product hands $m$ the value of $z$, and
#   hands $z$ the value of $m$. The max gives all of $m$'s gradient to the larger of $a$ and
#   $b$, and the add passes what it gets to both of its inputs unchanged. A leaf used twice
#   adds the shares of both of its edges.
# - `a` is -3 and `b` is 5, so `b` wins: `b_grad = 2.0`, `x_grad = 2.0`, `y_grad = 0.0`
#   and `z_grad = 5.0 + 2.0`.

# ---- mistake: the max routed to both inputs ----
# message: that counts the path through a as well
# replace: x_grad = 2.0
# with: x_grad = -1.0 * 2.0 + 2.0

# ---- mistake: the upstream gradient left out ----
# message: the max's local derivative alone
# replace: b_grad = 2.0
# with: b_grad = 1.0

# ---- mistake: the losing input gets a gradient ----
# message: if a had won the max
# replace: y_grad = 0.0
# with: y_grad = 3.0 * 2.0

# ---- mistake: one path of z forgotten ----
# message: z also feeds b
# replace: z_grad = 5.0 + 2.0
# with: z_grad = 5.0

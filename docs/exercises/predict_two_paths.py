"""Predict: gradients when a value is used twice

In this program `a` reaches `z` along two paths and `b` along two others.
Predict the four numbers it prints, by hand: multiply the local derivatives
along each path, then add the paths.

```python
from micrograd import Value

a = Value(2.0, label="a")
b = Value(-1.0, label="b")
p = a * b
z = p * a + b
z.backward()
print(z.data)  # line 1
print(p.grad)  # line 2
print(a.grad)  # line 3
print(b.grad)  # line 4
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
z_data = ...  # line 1
p_grad = ...  # line 2
a_grad = ...  # line 3
b_grad = ...  # line 4

# ---- solution ----
# p = a * b = -2, then z = p * a + b
z_data = 2.0 * -1.0 * 2.0 + -1.0
# z = p * a + b: the edge from p into * carries a
p_grad = 2.0
# through p: b times p.grad; straight into *: p
a_grad = -1.0 * 2.0 + -2.0
# through p: a times p.grad; straight into +: 1
b_grad = 2.0 * 2.0 + 1.0

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_two_paths"  # this exercise, whose program the tests run


def test_line_1(user):
    """line 1: z.data, the forward pass"""
    lines, names = program(NAME)
    expect("z_data", predicted(user, "z_data"), lines[0],
           likely=[(names["p"].data, "that is p = a * b; z multiplies p by a again, then adds b")],
           check="p = a * b first, then z = p * a + b")


def test_line_2(user):
    """line 2: p.grad"""
    lines, names = program(NAME)
    expect("p_grad", predicted(user, "p_grad"), lines[1],
           likely=[(1.0, "1 is the seed, z.grad; p enters a product with a, so its edge carries a")],
           check="z.grad is 1; the edge from p into p * a carries the other factor")


def test_line_3(user):
    """line 3: a.grad, the sum of two paths"""
    lines, names = program(NAME)
    a, b = names["a"].data, names["b"].data
    expect("a_grad", predicted(user, "a_grad"), lines[2],
           likely=[(a * b, "that is one path only: a reaches z through p (b times p.grad) and straight "
                           "into p * a (the other factor, p); each gives a times b, and a.grad adds both")],
           check="each path multiplies its local derivatives; a.grad adds the paths")


def test_line_4(user):
    """line 4: b.grad, the sum of two paths"""
    lines, names = program(NAME)
    a = names["a"].data
    expect("b_grad", predicted(user, "b_grad"), lines[3],
           likely=[(a * a, "that is only the path through p; b also enters the sum directly, "
                           "whose edge carries 1"),
                   (1.0, "that is only the path straight into the sum; add the path through p")],
           check="each path multiplies its local derivatives; b.grad adds the paths")

# ---- hints ----
# - Along how many paths does a reach z, and what does each path multiply? Does b have just
#   one path?
# - Start with the seed 1 at z. The sum copies it to both of its inputs; the product p times
#   a hands each factor the other factor's value. A node's gradient is the sum, over its
#   paths, of the product of the local derivatives along each.
# - `z_data = 2.0 * -1.0 * 2.0 + -1.0`, `p_grad = 2.0`, `a_grad = -1.0 * 2.0 + -2.0`,
#   `b_grad = 2.0 * 2.0 + 1.0`.

# ---- mistake: one path for a ----
# message: that is one path only
# replace: a_grad = -1.0 * 2.0 + -2.0
# with: a_grad = -1.0 * 2.0

# ---- mistake: the direct path of b forgotten ----
# message: b also enters the sum directly
# replace: b_grad = 2.0 * 2.0 + 1.0
# with: b_grad = 2.0 * 2.0

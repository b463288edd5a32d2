"""Predict: what the seed does to a backward pass

A function with two outputs, $y_0 = ab$ and $y_1 = a + b$, seeded with a
vector $v$ the way this section does it in micrograd: a backward pass from
$v_0 y_0 + v_1 y_1$. The second half runs it again on fresh leaves with
the whole sum multiplied by 10. Predict the five numbers it prints.

```python
from micrograd import Value

a, b = Value(3.0), Value(-2.0)
y0 = a * b
y1 = a + b
v = [2.0, -1.0]
L = v[0] * y0 + v[1] * y1
L.backward()
print(y0.grad)  # line 1
print(y1.grad)  # line 2
print(a.grad)   # line 3
print(b.grad)   # line 4

a2, b2 = Value(3.0), Value(-2.0)
L2 = 10 * (v[0] * (a2 * b2) + v[1] * (a2 + b2))
L2.backward()
print(a2.grad)  # line 5
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
y0_grad = ...  # line 1
y1_grad = ...  # line 2
a_grad = ...   # line 3
b_grad = ...   # line 4
a2_grad = ...  # line 5

# ---- solution ----
# the outputs' grads are the seed v itself
y0_grad = 2.0
y1_grad = -1.0
# vᵀJ: J's rows are (b, a) = (-2, 3) for y0 and (1, 1) for y1
a_grad = 2.0 * -2.0 + -1.0 * 1.0
b_grad = 2.0 * 3.0 + -1.0 * 1.0
# ten times the seed: ten times every grad
a2_grad = 10 * a_grad

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_seed"  # this exercise, whose program the tests run

SEED = "the outputs' grads are the seed: L = Σ v_i y_i hands y_i exactly v_i"


def test_line_1(user):
    """line 1: y0.grad, the seed of the first output"""
    lines, n = program(NAME)
    expect("y0_grad", predicted(user, "y0_grad"), lines[0],
           likely=[(1.0, f"1 is the seed of L, the root; {SEED}")], check=SEED)


def test_line_2(user):
    """line 2: y1.grad, the seed of the second output"""
    lines, n = program(NAME)
    expect("y1_grad", predicted(user, "y1_grad"), lines[1],
           likely=[(1.0, f"1 is the seed of L, the root; {SEED}")], check=SEED)


def test_lines_3_and_4(user):
    """lines 3 and 4: a.grad and b.grad, the vector-Jacobian product vᵀJ"""
    lines, n = program(NAME)
    a, b, v = n["a"].data, n["b"].data, n["v"]
    column_sums = (b + 1.0, a + 1.0)  # v = (1, 1): each column of J summed
    own_values = (v[0] * a + v[1], v[0] * b + v[1])  # the product handing each input its own value
    expect("(a_grad, b_grad)", (predicted(user, "a_grad"), predicted(user, "b_grad")), (lines[2], lines[3]),
           likely=[(column_sums, "those are J's columns summed, as if v were (1, 1); weight row i by v_i"),
                   (own_values, "the product hands a the value of b and b the value of a, not their own")],
           check="a.grad is v0 times ∂y0/∂a plus v1 times ∂y1/∂a, and the same for b")


def test_line_5(user):
    """line 5: a2.grad, with ten times the seed"""
    lines, n = program(NAME)
    yours = user.a_grad if isinstance(user.a_grad, (int, float)) and user.a_grad != lines[2] else None
    expect("a2_grad", predicted(user, "a2_grad"), lines[4],
           likely=[(lines[2], "the backward pass is linear in the seed: ten times the seed gives ten times "
                              "every grad"),
                   *([(10 * yours, "that is ten times your a_grad, which line 3 checks: ten times the seed "
                                   "is right, fix a_grad")] if yours is not None else [])],
           check="L2 is 10 times L, built again on fresh leaves")

# ---- hints ----
# - What gradient does the sum hand each of its terms, and what does a term scaled by a
#   number hand the output inside it? What happens to every grad when the whole sum is scaled?
# - The outputs receive the entries of $v$: that is the seed. Each input then gets $v^\top J$:
#   the Jacobian's rows are $(b, a)$ for the product and $(1, 1)$ for the sum, so the
#   gradient of $a$ is $v_0 b + v_1$ and that of $b$ is $v_0 a + v_1$. Every step of the pass
#   multiplies, so ten times the seed gives ten times each grad.
# - `y0_grad = 2.0`, `y1_grad = -1.0`, `a_grad = 2.0 * -2.0 + -1.0`,
#   `b_grad = 2.0 * 3.0 + -1.0` and `a2_grad = 10 * a_grad`.

# ---- mistake: the root's seed for an output ----
# message: 1 is the seed of L
# replace: y0_grad = 2.0
# with: y0_grad = 1.0

# ---- mistake: v ignored ----
# message: as if v were (1, 1)
# replace: a_grad = 2.0 * -2.0 + -1.0 * 1.0
# b_grad = 2.0 * 3.0 + -1.0 * 1.0
# with: a_grad = -2.0 + 1.0
# b_grad = 3.0 + 1.0

# ---- mistake: each input its own value ----
# message: the product hands a the value of b
# replace: a_grad = 2.0 * -2.0 + -1.0 * 1.0
# b_grad = 2.0 * 3.0 + -1.0 * 1.0
# with: a_grad = 2.0 * 3.0 + -1.0
# b_grad = 2.0 * -2.0 + -1.0

# ---- mistake: the seed's scale ignored ----
# message: linear in the seed
# replace: a2_grad = 10 * a_grad
# with: a2_grad = a_grad

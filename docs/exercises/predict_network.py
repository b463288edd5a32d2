"""Predict: one forward and backward pass through a small network

This network has one input, two hidden ReLU neurons and a linear output.
The program sets all of its weights, so nothing is random, runs one
forward and one backward pass, and prints five numbers. Predict each one on
paper.

```python
from micrograd.nn import MLP

model = MLP(1, [2, 1])  # 2 hidden ReLU neurons, a linear output
h1, h2 = model.layers[0].neurons
out = model.layers[1].neurons[0]
h1.w[0].data, h1.b.data = 2.0, -1.0
h2.w[0].data, h2.b.data = -1.0, 0.5
out.w[0].data, out.w[1].data, out.b.data = 3.0, -2.0, 0.1

o = model([2.0])
o.backward()
print(len(model.parameters()))  # line 1
print(o.data)                   # line 2
print(out.w[0].grad)            # line 3
print(h1.w[0].grad)             # line 4
print(h2.w[0].grad)             # line 5
```

Write your predictions in place of the blanks, then check them: the tests
run the program and compare each line it prints with your prediction.
"""

# ---- kind: predict ----

# ---- starter ----
# What does each line print? Replace every ... with your prediction.
n_parameters = ...  # line 1
o_data = ...        # line 2
out_w1_grad = ...   # line 3: out's first weight's gradient
h1_w_grad = ...     # line 4: h1's weight's gradient
h2_w_grad = ...     # line 5: h2's weight's gradient

# ---- solution ----
# 2 hidden neurons of 1 weight and a bias, then 2 weights and a bias
n_parameters = 2 * (1 + 1) + (2 + 1)
# h1 = relu(2 * 2 - 1) = 3; h2 = relu(-1 * 2 + 0.5) = 0
o_data = 3.0 * 3.0 + -2.0 * 0.0 + 0.1
# the output's first weight multiplies h1 = 3
out_w1_grad = 3.0
# o sends 3 (the weight on h1) back, ReLU passes it, times the input 2
h1_w_grad = 3.0 * 2.0
# h2's sum is negative: its ReLU passes no gradient
h2_w_grad = 0.0

# ---- tests ----
from scripts.reader.exercise_checks import expect, predicted, program

NAME = "predict_network"  # this exercise, whose program the tests run


def test_line_1(user):
    """line 1: the number of parameters"""
    lines, names = program(NAME)
    model = names["model"]
    weights_only = sum(len(n.w) for layer in model.layers for n in layer.neurons)
    expect("n_parameters", predicted(user, "n_parameters"), lines[0],
           likely=[(weights_only, "every neuron has a bias too: one per neuron, besides its weights")],
           check="each layer has n_in * n_out weights and n_out biases")


def test_line_2(user):
    """line 2: the output, o.data"""
    lines, names = program(NAME)
    h1, h2, out = names["h1"], names["h2"], names["out"]
    x = 2.0
    no_relu = out.w[0].data * (h1.w[0].data * x + h1.b.data) + out.w[1].data * (h2.w[0].data * x + h2.b.data) \
        + out.b.data
    expect("o_data", predicted(user, "o_data"), lines[1],
           likely=[(no_relu, "h2's sum is negative, and its ReLU outputs 0, not the sum")],
           check="h1 and h2 each apply ReLU to w * x + b; the output is linear")


def test_line_3(user):
    """line 3: the gradient of the output neuron's first weight"""
    lines, names = program(NAME)
    expect("out_w1_grad", predicted(user, "out_w1_grad"), lines[2],
           likely=[(names["out"].w[0].data, "that is the weight itself; its gradient is what it multiplies, h1")],
           check="the output is linear: each of its weights gets the hidden value it multiplies")


def test_line_4(user):
    """line 4: the gradient of h1's weight"""
    lines, names = program(NAME)
    upstream = names["out"].w[0].data
    expect("h1_w_grad", predicted(user, "h1_w_grad"), lines[3],
           likely=[(upstream, "that is the gradient that reaches h1; h1's weight multiplies the input 2, "
                              "so it gets that gradient times 2")],
           check="the gradient reaching h1 is the output weight on it; ReLU passes it where h1 > 0; times the input")


def test_line_5(user):
    """line 5: the gradient of h2's weight"""
    lines, names = program(NAME)
    through = names["out"].w[1].data * 2.0
    expect("h2_w_grad", predicted(user, "h2_w_grad"), lines[4],
           likely=[(through, "h2's sum, -1 * 2 + 0.5, is negative: its ReLU outputs 0 and passes no gradient")],
           check="a ReLU whose input is negative passes no gradient")

# ---- hints ----
# - Which of the two hidden neurons is active for the input 2? What does a ReLU send back
#   when its sum is negative?
# - Compute each hidden sum, weight times input plus bias, and apply ReLU. The output adds
#   its weights times the hidden values and its bias. Going back, each output weight gets
#   the hidden value it multiplies; a hidden neuron receives the output weight on it, passes
#   it on only if its sum was positive, and its weight gets that times the input.
# - `n_parameters = 7`, `o_data = 3.0 * 3.0 + 0.1`, `out_w1_grad = 3.0`,
#   `h1_w_grad = 3.0 * 2.0`, `h2_w_grad = 0.0`.

# ---- mistake: biases not counted ----
# message: every neuron has a bias too
# replace: n_parameters = 2 * (1 + 1) + (2 + 1)
# with: n_parameters = 2 * 1 + 2

# ---- mistake: the closed ReLU ignored ----
# message: passes no gradient
# replace: h2_w_grad = 0.0
# with: h2_w_grad = -2.0 * 2.0

# ---- mistake: the input forgotten ----
# message: times 2
# replace: h1_w_grad = 3.0 * 2.0
# with: h1_w_grad = 3.0

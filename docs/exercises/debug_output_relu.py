"""Debug: a network that cannot say a negative number

This `MyMLP` is built from the package's `Layer`s. It should be the
chapter's network: ReLU in every hidden layer, a linear output layer. One
line is wrong, and for some inputs the network gives the same answer as
`micrograd.nn.MLP`, for others not. Run the tests, read which fail and with
which numbers, then fix that line; change nothing else.

The tests seed the random generator before each network is built, so your
network and micrograd's start from the same weights.
"""

# ---- kind: debug ----

# ---- starter ----
from micrograd.nn import Layer, Module


class MyMLP(Module):
    """nin inputs, then one Layer per size in nouts, in a chain."""

    def __init__(self, nin, nouts):
        sizes = [nin] + nouts
        self.layers = []
        for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
            relu = i != len(nouts)  # every layer but the last
            self.layers.append(Layer(n_in, n_out, nonlin=relu))

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for lay in self.layers for p in lay.parameters()]

# ---- solution ----
from micrograd.nn import Layer, Module


class MyMLP(Module):
    """nin inputs, then one Layer per size in nouts, in a chain."""

    def __init__(self, nin, nouts):
        sizes = [nin] + nouts
        self.layers = []
        for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
            relu = i != len(nouts) - 1  # every layer but the last
            self.layers.append(Layer(n_in, n_out, nonlin=relu))

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for lay in self.layers for p in lay.parameters()]

# ---- tests ----
import random

from micrograd.nn import MLP

from scripts.reader.exercise_checks import expect

OUTPUT_RELU = ("the output layer applied ReLU, which turns every negative output into 0 (and passes "
               "it no gradient): the last layer must be linear, nonlin=False")
HIDDEN_LINEAR = "the hidden layers lost their ReLU: every layer but the last has nonlin=True"
RULE = "ReLU (nonlin=True) in every layer but the last, a linear last layer"
X = [2.0, -1.0]


def pair(user, seed, sizes):
    """The reader's MyMLP(2, sizes) and micrograd's MLP(2, sizes), built from one seed."""
    random.seed(seed)
    mine = user.MyMLP(2, sizes)
    random.seed(seed)
    return mine, MLP(2, sizes)


def test_the_parameters(user):
    """MyMLP(2, [3, 1]) holds the parameters micrograd's MLP(2, [3, 1]) holds, in its order"""
    mine, ref = pair(user, 3, [3, 1])
    expect("the parameters of MyMLP(2, [3, 1])", [p.data for p in mine.parameters()],
           [p.data for p in ref.parameters()], check="parameters() lists every layer's parameters, in order")


def test_which_neurons_use_relu(user):
    """MyMLP(2, [3, 3, 1]): ReLU in every hidden neuron, not in the output neuron"""
    mine, ref = pair(user, 3, [3, 3, 1])
    uses_relu = [sum(n.nonlin for n in layer.neurons) for layer in mine.layers]
    expected = [sum(n.nonlin for n in layer.neurons) for layer in ref.layers]
    sizes = [len(layer.neurons) for layer in ref.layers]
    expect("the number of neurons that use ReLU, layer by layer", uses_relu, expected,
           likely=[(sizes, OUTPUT_RELU), ([0] * len(sizes), HIDDEN_LINEAR)], check=RULE)


def test_a_positive_output(user):
    """seed 1, x = (2, -1): a positive output"""
    mine, ref = pair(user, 1, [3, 1])
    expect("the output of MyMLP(2, [3, 1]) with seed 1 on x = (2, -1)", mine(X).data, ref(X).data, check=RULE)


def test_a_negative_output(user):
    """seed 3, x = (2, -1): an output below 0"""
    mine, ref = pair(user, 3, [3, 1])
    expect("the output of MyMLP(2, [3, 1]) with seed 3 on x = (2, -1)", mine(X).data, ref(X).data,
           likely=[(0.0, OUTPUT_RELU)], check=RULE)


def test_the_gradient_reaches_the_output_layer(user):
    """seed 3: the loss (o + 1)**2 sends a gradient to every output weight"""
    mine, ref = pair(user, 3, [3, 1])
    for model in (mine, ref):
        ((model(X) + 1) ** 2).backward()
    got = [p.grad for p in mine.layers[-1].parameters()]
    expect("the grads of the output neuron's weights and bias, seed 3, loss (o + 1)**2", got,
           [p.grad for p in ref.layers[-1].parameters()], likely=[([0.0] * len(got), OUTPUT_RELU)], check=RULE)

# ---- hints ----
# - Which of the tests pass, and what do the failing outputs have in common? Which activation
#   can never give a number below zero?
# - The output layer of a network that predicts any number must be linear; only the hidden
#   layers use ReLU. Check the condition that picks each layer's activation for every index
#   the loop takes: counting from zero, the last layer's index is one less than the number of
#   layers.
# - `relu = i != len(nouts) - 1`: false for the last layer only.

# ---- mistake: ReLU at the output ----
# message: the output layer applied ReLU
# replace: relu = i != len(nouts) - 1  # every layer but the last
# with: relu = i != len(nouts)  # every layer but the last

# ---- mistake: no ReLU at all ----
# message: the hidden layers lost their ReLU
# replace: relu = i != len(nouts) - 1  # every layer but the last
# with: relu = False

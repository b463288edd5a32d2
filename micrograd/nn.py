"""Neurons, layers and multi-layer perceptrons built from `Value`s.

Same classes, constructor arguments and methods as micrograd 0.1.0 (Andrej
Karpathy, MIT, 2020), so code written for it runs unchanged. Weights are drawn
from Python's global `random` module: call random.seed(k) first for
repeatable networks.
"""

import random

from micrograd.engine import Value


class Module:
    """Anything with parameters: a Neuron, a Layer or an MLP."""

    def zero_grad(self):
        """Set every parameter's .grad back to 0.0 (backward() accumulates)."""
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        """The trainable Values, as a list[Value]."""
        return []


class Neuron(Module):
    """Neuron(nin: int, nonlin: bool = True): relu(w · x + b), or w · x + b.

    Weights start uniform in [-1, 1], the bias at 0. Called on a list of nin
    numbers or Values it returns one Value.
    """

    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1), label=f"w{i + 1}") for i in range(nin)]
        self.b = Value(0, label="b")
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    """Layer(nin: int, nout: int, nonlin: bool = True): nout neurons side by side.

    Called on nin inputs it returns a list of nout Values, or one Value when
    nout is 1.
    """

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """MLP(nin: int, nouts: list[int]): layers of sizes nouts, ReLU on all but the last.

    MLP(2, [16, 16, 1]) maps 2 inputs to 1 output through two hidden layers
    of 16 and has 2*16+16 + 16*16+16 + 16+1 = 337 parameters.
    """

    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [
            Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

"""Find the bug: an initialisation that forgets the fan-in

`he_network` draws the weights of a ReLU network by He's rule: each weight
of a layer with $n$ inputs uniform in $[-a, a]$ with $a = \\sqrt{6/n}$, so
its variance is $2/n$. It runs, and on a network of 2 inputs it even gets
the first layer right. But a 20-layer network built with it explodes, as
this section's $[-1, 1]$ network did.

One line is wrong. Find it and fix it, keeping the order in which the
weights are drawn. The tests draw networks with a seeded `random.Random`,
compare each layer's variance with $2/n$, and run a deep network forward
and backward.
"""

# ---- kind: debug ----

# ---- starter ----
import math

from micrograd import Value


def he_network(sizes, rng):
    """The weights of a ReLU network whose layers have the sizes `sizes` (inputs first), as
    list (layer) of list (neuron) of list (input) of Value, drawn in that order with rng.uniform:
    for a layer of n inputs, uniform in [-a, a] with a = sqrt(6 / n), variance 2 / n (He)."""
    a = math.sqrt(6 / sizes[0])  # uniform in [-a, a] has variance a² / 3
    layers = []
    for n, m in zip(sizes, sizes[1:]):  # n inputs, m neurons
        layers.append([[Value(rng.uniform(-a, a)) for _ in range(n)] for _ in range(m)])
    return layers

# ---- solution ----
import math

from micrograd import Value


def he_network(sizes, rng):
    """The weights of a ReLU network whose layers have the sizes `sizes` (inputs first), as
    list (layer) of list (neuron) of list (input) of Value, drawn in that order with rng.uniform:
    for a layer of n inputs, uniform in [-a, a] with a = sqrt(6 / n), variance 2 / n (He)."""
    layers = []
    for n, m in zip(sizes, sizes[1:]):  # n inputs, m neurons
        a = math.sqrt(6 / n)  # each layer its own fan-in; uniform in [-a, a] has variance a² / 3
        layers.append([[Value(rng.uniform(-a, a)) for _ in range(n)] for _ in range(m)])
    return layers

# ---- tests ----
import math
import random
import statistics

from micrograd import Value

from scripts.reader.exercise_checks import Fail, expect, same

SIZES = [2, 16, 16, 16, 1]
DEEP = [2] + [16] * 20 + [1]
X = [2.0, -1.0]
RULES = {  # the bound a of a layer of n inputs and m neurons, in the network whose inputs are n0
    "he": lambda n, m, n0: math.sqrt(6 / n),
    "first": lambda n, m, n0: math.sqrt(6 / n0),
    "tanh": lambda n, m, n0: math.sqrt(3 / n),
    "fan-out": lambda n, m, n0: math.sqrt(6 / m),
}
FIRST = "every layer gets the first layer's bound, computed once from its 2 inputs: each layer needs its own fan-in"
TANH = "that is the tanh rule, variance 1 / n: ReLU passes back half its inputs and needs 2 / n"
FAN_OUT = "the bound comes from the layer's neurons, its fan-out: He's rule counts its inputs, the fan-in"
RULE = "for each layer, a = sqrt(6 / n) with n that layer's number of inputs"


def drawn(sizes, rule, seed=0):
    """The weights of `sizes` by one of RULES, in he_network's order, as floats per layer."""
    rng = random.Random(seed)
    return [[rng.uniform(-a, a) for _ in range(m) for _ in range(n)]
            for n, m in zip(sizes, sizes[1:]) for a in [RULES[rule](n, m, sizes[0])]]


def built(user, sizes, seed=0):
    """The reader's weights of `sizes`, checked for shape, as list (layer) of list (neuron) of list of Value."""
    layers = user.he_network(sizes, random.Random(seed))
    shape = [(len(layer), {len(row) for row in layer}) for layer in layers]
    if shape != [(m, {n}) for n, m in zip(sizes, sizes[1:])]:
        raise Fail(f"he_network({sizes}) has layers of (neurons, inputs) {shape}, expected "
                   f"{[(m, {n}) for n, m in zip(sizes, sizes[1:])]}")
    return layers


WRONG = (("first", FIRST), ("tanh", TANH), ("fan-out", FAN_OUT))


def likely(measure, sizes):
    """(the value `measure` gives for each wrong rule's weights, its cause) pairs."""
    return [(measure(drawn(sizes, rule)), why) for rule, why in WRONG]


def variance_of_layer(k):
    return lambda layers: statistics.pvariance(layers[k])


def check_layer(user, k):
    layers = [[w.data for row in layer for w in row] for layer in built(user, SIZES)]
    n = SIZES[k]
    measure = variance_of_layer(k)
    expect(f"the variance of layer {k + 1}'s {len(layers[k])} weights (fan-in {n}; 2 / n = {2 / n:.3g})",
           measure(layers), measure(drawn(SIZES, "he")), likely=likely(measure, SIZES), check=RULE)


def test_the_first_layer(user):
    """layer 1, 2 inputs: the weights' variance is He's"""
    check_layer(user, 0)


def test_the_hidden_layers(user):
    """layers 2 and 3, 16 inputs each: the weights' variance is He's"""
    check_layer(user, 1)
    check_layer(user, 2)


def forward_and_back(layers):
    """(the output, the rms of layer 1's weight gradients) of a ReLU network on X."""
    h = [Value(v) for v in X]
    for k, layer in enumerate(layers):
        h = [sum((w * v for w, v in zip(row, h)), Value(0.0)) for row in layer]
        h = h if k == len(layers) - 1 else [z.relu() for z in h]
    h[0].backward()
    grads = [w.grad for row in layers[0] for w in row]
    return h[0].data, math.sqrt(sum(g * g for g in grads) / len(grads))


def as_values(weights, sizes):
    """drawn()'s floats as he_network's nested lists of Values."""
    return [[[Value(w) for w in flat[i * n:(i + 1) * n]] for i in range(m)]
            for flat, n, m in zip(weights, sizes, sizes[1:])]


_DEEP = {}


def deep(rule):
    """forward_and_back of the 20-layer network drawn by `rule`, computed once per run."""
    if rule not in _DEEP:
        _DEEP[rule] = forward_and_back(as_values(drawn(DEEP, rule), DEEP))
    return _DEEP[rule]


def check_deep(what, actual, k):
    """expect() on item k of forward_and_back, its likely causes worked out only when it is wrong."""
    right = deep("he")[k]
    causes = [] if same(actual, right) else [(deep(rule)[k], why) for rule, why in WRONG]
    expect(what, actual, right, likely=causes, check=RULE)


def test_a_deep_network_stays_small(user):
    """20 hidden layers of 16: the output stays the size of He's"""
    check_deep("the output of the 20-layer network on (2, -1)", forward_and_back(built(user, DEEP))[0], 0)


def test_the_first_layers_gradient(user):
    """20 hidden layers of 16: layer 1's gradients are the size of He's"""
    check_deep("the rms of layer 1's weight gradients in the 20-layer network",
               forward_and_back(built(user, DEEP))[1], 1)

# ---- hints ----
# - He's rule gives each layer a range from its own number of inputs. Where is the bound computed,
#   and how many times, for a network of several layers?
# - The bound is worked out once, before the loop, from the first entry of the sizes: the 2 inputs
#   of the first layer. Every later layer, with 16 inputs, gets that wide range too, a variance of
#   $2/2 = 1$ instead of $2/16$. Work it out inside the loop, from that layer's own fan-in $n$.
# - Move the line into the loop and use its `n`: `a = math.sqrt(6 / n)`, just before the layer's
#   weights are drawn.

# ---- mistake: the first layer's bound for every layer ----
# message: every layer gets the first layer's bound
# replace:
#     layers = []
#     for n, m in zip(sizes, sizes[1:]):  # n inputs, m neurons
#         a = math.sqrt(6 / n)  # each layer its own fan-in; uniform in [-a, a] has variance a² / 3
# with:
#     a = math.sqrt(6 / sizes[0])
#     layers = []
#     for n, m in zip(sizes, sizes[1:]):  # n inputs, m neurons

# ---- mistake: tanh's rule for ReLU ----
# message: that is the tanh rule
# replace: a = math.sqrt(6 / n)  # each layer its own fan-in; uniform in [-a, a] has variance a² / 3
# with: a = math.sqrt(3 / n)

# ---- mistake: the fan-out for the fan-in ----
# message: its fan-out
# replace: a = math.sqrt(6 / n)  # each layer its own fan-in; uniform in [-a, a] has variance a² / 3
# with: a = math.sqrt(6 / m)

"""Build it: a checkpoint every few layers

This section checkpointed one segment. Chen and others cut a deep network
into many: the forward pass runs segment after segment on plain numbers and
keeps only each segment's input; the backward pass then takes the segments
from the last to the first, rebuilds each one's graph from its kept input,
and runs its backward pass. No graph larger than one segment's is ever
built.

`checkpointed` below does all of this but the hand-off between segments.
The last segment's graph ends in the loss. Every other segment's graph must
end in one `Value` whose backward pass gives each of its outputs the
gradient that the segment after it found for that output, and the segment
must then hand its own inputs' gradients on to the segment before it. Fill
in the two blanks.

The tests run a network of tanh layers with `every` set to 1, 2 and 3, and
compare every weight's gradient with one backward pass over the whole graph.
"""

# ---- kind: build ----

# ---- starter ----
from micrograd import Value
from micrograd.engine import topological_order


def checkpointed(layers, x, loss_of, every):
    """One forward and one backward pass through `layers`, keeping `every` layers' graph at most.

    layers: a list of functions, each from a list of Values to a list of Values (its own
    weights, Values, get the gradients); x: the input, a list of floats; loss_of: the last
    layer's outputs to a Value. Fills in every weight's .grad as backward() over the whole
    graph would. Returns (the loss, a float; the most nodes of one graph built at a time).
    """
    # forward: segment after segment on plain numbers, keeping only each segment's input
    starts = list(range(0, len(layers), every))
    inputs, h = [], list(x)
    for start in starts:
        inputs.append(h)
        out = [Value(v) for v in h]
        for layer in layers[start : start + every]:
            out = layer(out)
        h = [v.data for v in out]  # numbers: the segment's graph goes here
    # backward: the last segment first, each rebuilt from its kept input
    loss, largest, upstream = None, 0, None
    for start, numbers in reversed(list(zip(starts, inputs))):
        leaves = [Value(v) for v in numbers]
        out = leaves
        for layer in layers[start : start + every]:
            out = layer(out)
        if upstream is None:  # the last segment: its graph ends in the loss
            root = loss_of(out)
            loss = root.data
        else:  # any other: one Value that hands each output its upstream gradient
            root = ...
        largest = max(largest, len(topological_order(root)))
        root.backward()
        upstream = ...  # what this segment hands to the one before it
    return loss, largest

# ---- solution ----
from micrograd import Value
from micrograd.engine import topological_order


def checkpointed(layers, x, loss_of, every):
    """One forward and one backward pass through `layers`, keeping `every` layers' graph at most.

    layers: a list of functions, each from a list of Values to a list of Values (its own
    weights, Values, get the gradients); x: the input, a list of floats; loss_of: the last
    layer's outputs to a Value. Fills in every weight's .grad as backward() over the whole
    graph would. Returns (the loss, a float; the most nodes of one graph built at a time).
    """
    # forward: segment after segment on plain numbers, keeping only each segment's input
    starts = list(range(0, len(layers), every))
    inputs, h = [], list(x)
    for start in starts:
        inputs.append(h)
        out = [Value(v) for v in h]
        for layer in layers[start : start + every]:
            out = layer(out)
        h = [v.data for v in out]  # numbers: the segment's graph goes here
    # backward: the last segment first, each rebuilt from its kept input
    loss, largest, upstream = None, 0, None
    for start, numbers in reversed(list(zip(starts, inputs))):
        leaves = [Value(v) for v in numbers]
        out = leaves
        for layer in layers[start : start + every]:
            out = layer(out)
        if upstream is None:  # the last segment: its graph ends in the loss
            root = loss_of(out)
            loss = root.data
        else:  # any other: one Value that hands each output its upstream gradient
            # each output times the number its leaf got: d root / d output = that number
            root = sum(o * g for o, g in zip(out, upstream))
        largest = max(largest, len(topological_order(root)))
        root.backward()
        # the gradients of this segment's input leaves: the next segment's upstream
        upstream = [leaf.grad for leaf in leaves]
    return loss, largest

# ---- tests ----
import random

from micrograd import Value
from micrograd.engine import topological_order

from scripts.reader.exercise_checks import Fail, expect, same

DEPTH, WIDTH, X = 6, 3, [0.8, -0.5]
RULE = ("the hand-off is the sum of each output times the upstream gradient of its leaf, and the "
        "upstream handed on is the gradients of this segment's input leaves")
UNWEIGHTED = ("each output must be weighted by the gradient its leaf got in the segment after it: "
              "a plain sum hands every output a gradient of 1")
OUTPUTS = ("the gradients handed on are those of this segment's outputs, which it received: hand on "
           "those of its input leaves, which its backward pass has just computed")


def network(seed=3):
    """(layers, weights): DEPTH tanh layers of WIDTH neurons on 2 inputs, weights uniform in [-1, 1]."""
    rng = random.Random(seed)
    layers, weights = [], []
    for n in [len(X)] + [WIDTH] * (DEPTH - 1):
        rows = [[Value(rng.uniform(-1, 1)) for _ in range(n)] for _ in range(WIDTH)]
        weights += [w for row in rows for w in row]
        layers.append(lambda h, rows=rows: [sum((w * v for w, v in zip(row, h)), Value(0.0)).tanh()
                                            for row in rows])
    return layers, weights


def loss_of(out):
    return sum((o - 0.5) ** 2 for o in out)


def whole():
    """(loss, nodes, gradients) of one backward pass over the whole graph."""
    layers, weights = network()
    h = [Value(v) for v in X]
    for layer in layers:
        h = layer(h)
    loss = loss_of(h)
    loss.backward()
    return loss.data, len(topological_order(loss)), [w.grad for w in weights]


def handed(every, handoff):
    """The gradients and the largest graph of a checkpointed pass whose hand-off is `handoff`:
    "weighted" (right), "plain sum" or "outputs" (the outputs' grads handed on)."""
    layers, weights = network()
    starts = list(range(0, DEPTH, every))
    inputs, h = [], list(X)
    for start in starts:
        inputs.append(h)
        out = [Value(v) for v in h]
        for layer in layers[start : start + every]:
            out = layer(out)
        h = [v.data for v in out]
    upstream, largest = None, 0
    for start, numbers in reversed(list(zip(starts, inputs))):
        leaves = [Value(v) for v in numbers]
        out = leaves
        for layer in layers[start : start + every]:
            out = layer(out)
        if upstream is None:
            root = loss_of(out)
        else:
            root = sum(o if handoff == "plain sum" else o * g for o, g in zip(out, upstream))
        largest = max(largest, len(topological_order(root)))
        root.backward()
        upstream = [v.grad for v in (out if handoff == "outputs" else leaves)]
    return [w.grad for w in weights], largest


def run(user, every):
    """(loss, largest, gradients) of the reader's checkpointed pass on a fresh network."""
    layers, weights = network()
    answer = user.checkpointed(layers, list(X), loss_of, every)
    if not (isinstance(answer, tuple) and len(answer) == 2):
        raise Fail(f"checkpointed returned {answer!r}, expected a pair: (the loss, the most nodes at a time)")
    return answer[0], answer[1], [w.grad for w in weights]


def check_gradients(user, every):
    """Compare the reader's gradients with the whole graph's; name the first weight that differs."""
    _, _, grads = run(user, every)
    right = whole()[2]
    plain_sum, outputs = handed(every, "plain sum")[0], handed(every, "outputs")[0]
    off = [i for i, (g, r) in enumerate(zip(grads, right)) if not same(g, r)]
    if not off:
        return
    i = off[0]
    layer = 1 if i < 2 * WIDTH else 2 + (i - 2 * WIDTH) // (WIDTH * WIDTH)
    where = "after every layer" if every == 1 else f"every {every} layers"
    expect(f"with a checkpoint {where}, the gradient of weight {i + 1} (layer {layer}; {len(off)} of the "
           f"{len(right)} differ)", grads[i], right[i],
           likely=[(plain_sum[i], UNWEIGHTED), (outputs[i], OUTPUTS)], check=RULE)


def test_every_two_layers(user):
    """a checkpoint every 2 layers: every weight's gradient is the whole graph's"""
    check_gradients(user, 2)


def test_every_layer(user):
    """a checkpoint after every layer: every weight's gradient is the whole graph's"""
    check_gradients(user, 1)


def test_every_three_layers(user):
    """a checkpoint every 3 layers: every weight's gradient is the whole graph's"""
    check_gradients(user, 3)


def test_the_loss_and_the_graph_kept(user):
    """the loss is the whole graph's, and one graph at a time is smaller than the whole"""
    loss, largest, _ = run(user, 2)
    right, nodes, _ = whole()
    expect("the loss", loss, right)
    expect("the most nodes of one graph built at a time, every 2 layers", largest, handed(2, "weighted")[1],
           check=f"the largest graph is one segment's, well below the whole graph's {nodes} nodes")

# ---- hints ----
# - What does the segment after this one know about this segment's outputs once its backward pass
#   has run? And how can one backward pass deliver a different gradient to each output?
# - The next segment's backward pass left a number $g_i$ on each of its input leaves: the
#   derivative of the loss with respect to output $i$ of this segment. A root $r = \sum_i o_i g_i$,
#   with the $g_i$ plain numbers, has $\partial r / \partial o_i = g_i$, so its backward pass hands
#   each output exactly that; this segment's own input leaves then hold what the one before needs.
# - `root = sum(o * g for o, g in zip(out, upstream))`, and after `root.backward()`,
#   `upstream = [leaf.grad for leaf in leaves]`.

# ---- mistake: the plain sum ----
# message: each output must be weighted by the gradient its leaf got
# replace: root = sum(o * g for o, g in zip(out, upstream))
# with: root = sum(out)

# ---- mistake: the outputs' gradients handed on ----
# message: the gradients handed on are those of this segment's outputs
# replace: upstream = [leaf.grad for leaf in leaves]
# with: upstream = [o.grad for o in out]

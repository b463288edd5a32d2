"""Debug: one wrong line in a backward pass by hand

This function does the chapter's backward pass for
$L = (a \\cdot b + c) \\cdot f$, with $e = a \\cdot b$ and $d = e + c$, one
line per gradient, from the output back. One line is wrong. Run the tests,
see which gradient they say is off and by how much, then fix that line.
Change nothing else.

The tests call it on the chapter's numbers and on others, and compare every
`.grad` with the one `backward()` gives.
"""

# ---- kind: debug ----

# ---- starter ----
def backward_by_hand(a, b, c, f, e, d, L):
    """Fill in the .grad of the 7 nodes of L = (a * b + c) * f."""
    L.grad = 1.0                # dL/dL = 1: the seed
    d.grad = f.data * L.grad    # L = d * f
    f.grad = d.data * L.grad
    c.grad = 1.0 * d.grad       # d = e + c
    e.grad = 1.0 * d.grad
    a.grad = a.data * e.grad    # e = a * b
    b.grad = a.data * e.grad

# ---- solution ----
def backward_by_hand(a, b, c, f, e, d, L):
    """Fill in the .grad of the 7 nodes of L = (a * b + c) * f."""
    L.grad = 1.0                # dL/dL = 1: the seed
    d.grad = f.data * L.grad    # L = d * f
    f.grad = d.data * L.grad
    c.grad = 1.0 * d.grad       # d = e + c
    e.grad = 1.0 * d.grad
    a.grad = b.data * e.grad    # e = a * b: a gets b
    b.grad = a.data * e.grad

# ---- tests ----
from micrograd import Value

from scripts.reader.exercise_checks import expect

NAMES = ["a", "b", "c", "f", "e", "d", "L"]
SWAP = "each input of a product gets the other input's value, times the upstream gradient"
RULE = "a node's grad is the upstream gradient (the grad of the node it feeds) times the local derivative"


def graph(a, b, c, f):
    """The seven nodes of L = (a * b + c) * f, in the order of NAMES, every grad 0."""
    a, b, c, f = Value(a), Value(b), Value(c), Value(f)
    e = a * b
    d = e + c
    return [a, b, c, f, e, d, d * f]


def run(user, numbers):
    """The reader's grads and backward()'s, as two dicts by name, and the reader's nodes."""
    mine, ref = graph(*numbers), graph(*numbers)
    user.backward_by_hand(*mine)
    ref[-1].backward()
    nodes = dict(zip(NAMES, mine))
    return {n: v.grad for n, v in nodes.items()}, {n: v.grad for n, v in zip(NAMES, ref)}, nodes


def likely(name, nodes, right):
    """The wrong grads the classic slips give for node `name`, from the reader's own nodes."""
    a, b, c, f, e, d, L = (nodes[n] for n in NAMES)
    slips = {
        "a": [(a.data * e.grad, f"a got its own value; {SWAP}")],
        "b": [(b.data * e.grad, f"b got its own value; {SWAP}")],
        "d": [(d.data * L.grad, f"d got its own value; {SWAP}")],
        "f": [(f.data * L.grad, f"f got its own value; {SWAP}")],
        "e": [(L.grad, "e feeds d, so its upstream gradient is d.grad, not L.grad")],
        "c": [(L.grad, "c feeds d, so its upstream gradient is d.grad, not L.grad")],
    }
    return [(value, why) for value, why in slips.get(name, []) if value != right]


def check(user, numbers, names):
    mine, ref, nodes = run(user, numbers)
    where = "a = {:g}, b = {:g}, c = {:g}, f = {:g}".format(*numbers)
    for name in names:
        expect(f"{name}.grad with {where}", mine[name], ref[name], likely=likely(name, nodes, ref[name]),
               check=RULE)


def test_the_last_product(user):
    """L, d and f: the seed, then L = d * f"""
    check(user, (2.0, -3.0, 10.0, -2.0), ["L", "d", "f"])


def test_the_sum(user):
    """c and e: d = e + c copies d.grad"""
    check(user, (2.0, -3.0, 10.0, -2.0), ["c", "e"])


def test_the_first_product(user):
    """a and b: e = a * b"""
    check(user, (2.0, -3.0, 10.0, -2.0), ["a", "b"])


def test_other_numbers(user):
    """every grad, at a = 1.5, b = 4, c = -2, f = 3, from the output back"""
    check(user, (1.5, 4.0, -2.0, 3.0), ["L", "d", "f", "c", "e", "a", "b"])

# ---- hints ----
# - Which gradients do the tests say are wrong? Of the product that made that node, what
#   should each input receive?
# - A product swaps and scales: each input's gradient is the value of the other input times
#   the gradient of the product's output. Read the line for each input of each product and
#   check that it uses the other input.
# - `a.grad = b.data * e.grad`.

# ---- mistake: a gets its own value ----
# message: a got its own value
# replace: a.grad = b.data * e.grad    # e = a * b: a gets b
# with: a.grad = a.data * e.grad

# ---- mistake: the upstream gradient skipped ----
# message: its upstream gradient is d.grad, not L.grad
# replace: e.grad = 1.0 * d.grad
# with: e.grad = 1.0 * L.grad

# ---- mistake: d gets its own value ----
# message: d got its own value
# replace: d.grad = f.data * L.grad    # L = d * f
# with: d.grad = d.data * L.grad

"""The reviewed list of sentences that state something without a claim, each with its reason.

scripts/pages/sentences.py finds the sentences of a page's prose whose words compare, order,
count or say "same", "always", "never", "every", "any", "only", "at most" or "wins" about
something the page computes. Each needs a `<!-- claim: EXPR -->` after it that the page's code
proves (scripts/pages/claims.py), or an entry here: page -> {a phrase of the sentence, as
written: the reason it needs none}. tests/pages/test_claims.py fails on a sentence with
neither, and on an entry whose sentence is gone, has a claim, or no longer needs one.
"""

# The reasons, one per kind of sentence that states no result of the page's code.
DEFINITION = "a definition: it says what a term or a name means"
CALCULUS = "a general fact of calculus or arithmetic, true whatever the numbers"
ADVICE = "advice to the reader"
GOAL = "what the page sets out to show; the sections below show it"
QUESTION = "a question to the reader (a quiz or an exercise): it asks, it does not state"
ELSEWHERE = "about another library, lecture or chapter, not a result of this page's code"
API = "what a function of micrograd or the standard library does: its docstring, and tests/engine/"
LEADS_IN = "leads into the block, figure or widget right below it, whose printed output, assert or test shows it"
ANALOGY = "an analogy's made-up numbers (Wikipedia's speeds), not a result of code"
READS_ABOVE = "reads the doctest output right above it line by line; the doctest checks every line"
RECAP = "a recap: it repeats a sentence of the page that a claim checks where the page first says it"
HISTORY = "says what the page did so far, not a result"
DESIGN = "how micrograd is built, as its source (micrograd/engine.py) and chapter 4 show"

UNCLAIMED = {
    "01-computational-graphs.md": {
        "read the local derivative stored on every edge": GOAL,
        "Build $g = a \\cdot b + a$ from the same": QUESTION,
        "`micrograd` finds one for any root": API,
        "Karpathy's micrograd 0.1.0 stores": ELSEWHERE,
        "Each stage below uses `y` twice": LEADS_IN,
        "A topological order lists the two leaves of each product": LEADS_IN,
        "Step through both graphs below": LEADS_IN,
    },
    "02-chain-rule.md": {
        "We call its `backward()` as a black box for now": ELSEWHERE,
        "Do not make $h$ as small as you can.": ADVICE,
        "Suppose a bicycle goes 4 times as fast": ANALOGY,
        "Then the car goes $2 \\times 4 = 8$ times as fast": CALCULUS,
        "Its two edges carry $\\partial e/\\partial a = 1$": LEADS_IN,
        "Finite differences do not know about paths at all": LEADS_IN,
        "The same rule explains the slope 14 of the first section.": LEADS_IN,
        "the input `x` is used twice, so it reaches the output by two paths": LEADS_IN,
        "They pass the gradient check this site uses everywhere": LEADS_IN,
        "Forward-mode automatic differentiation picks *one* input": DEFINITION,
        "Here it is in a few lines, for comparison only": DESIGN,
        "That is why backpropagation is reverse-mode automatic differentiation": DEFINITION,
        "has one output and 337 parameters": LEADS_IN,
    },
    "03-backprop-by-hand.md": {
        "Here you do that on a real graph, one node at a time": GOAL,
        "No `backward()` until the end, and only to compare.": GOAL,
        "`x.grad` always means one thing": DEFINITION,
        "We check each gradient we write by hand with `numerical_grad`": API,
        "Why is `c.grad` equal to `d.grad`": QUESTION,
        "One last check compares all seven hand gradients": LEADS_IN,
        "The figure below labels every edge with its local derivative": LEADS_IN,
        "If we move every leaf a little in the direction of its own gradient": LEADS_IN,
        "Take a step of 0.01 times each grad, on fresh leaves": LEADS_IN,
        "This nudge is what training does in": ELSEWHERE,
        "Finite differences agree, within the same relative error": LEADS_IN,
        "`backward()` does exactly that walk; the stepper above replayed it.": LEADS_IN,
        "It never clears a grad by itself": API,
        "`numerical_grad` checks any gradient": API,
    },
    "04-engine.md": {
        "A `Value` wraps one number.": DEFINITION,
        "is the picture of [chapter 1](01-computational-graphs.md) in code": DESIGN,
        "The figure labels every edge with its local derivative, straight from": LEADS_IN,
        "Finite differences ([chapter 2](02-chain-rule.md)) agree": LEADS_IN,
        "Both parents of the multiplication are `a`": LEADS_IN,
        "`+=` sums the contributions, but only if they have all arrived.": LEADS_IN,
        "node `a` reaches the output along two paths": LEADS_IN,
        "A `visited` set appends a node reached along two paths": LEADS_IN,
        "The package's `backward()` runs the same steps in `backward_steps`": DESIGN,
        "Because of `+=`, `backward()` never resets a gradient.": API,
        "A training loop runs three steps (forward pass, backward pass)": QUESTION,
        "The fix is one call per step, `Module.zero_grad()`": API,
        "Three `backward()` calls on the *same* `out` are worse": LEADS_IN,
        "as his later microgpt does": DESIGN,
        "computes the same gradients, plus what this site needs": DESIGN,
        "Where in `micrograd/engine.py` is the chain rule applied": QUESTION,
        "Gradients accumulate across backward passes: call `zero_grad()`": ADVICE,
    },
    "05-neurons-layers-networks.md": {
        "differentiates any expression built from `Value`s": ELSEWHERE,
        "collect every trainable number of a network with `parameters()`": GOAL,
        "count the parameters of any MLP with the formula": GOAL,
        "Then we show that `micrograd.nn` holds the same classes": GOAL,
        "Every parameter is a `Value`, so the whole neuron becomes part": DESIGN,
        "all of them need the same `zero_grad()`": API,
        "`random.seed(0)` fixes the random weights": API,
        "The inputs get gradients too (`x1.grad` is $w_1$)": LEADS_IN,
        "Give the same neuron the input $x = (-2, 1)$.": QUESTION,
        "The package ships the same four classes in `micrograd/nn.py`": LEADS_IN,
        "They have the same constructor arguments and the same methods as micrograd 0.1.0": LEADS_IN,
        "They draw their weights from the global `random` module in the same order": DESIGN,
        "So with the same seed, the package's network and `MyMLP` hold exactly": LEADS_IN,
        "The bias starts at 0, and so does every": LEADS_IN,
        "The 2-2-1 network of this chapter has 9 parameters.": LEADS_IN,
        "Doubling both hidden layers to 32 more than triples the count": LEADS_IN,
        "Now the smallest network that still has a hidden layer": DEFINITION,
        "We seed the random generator so the weights are fixed": API,
        "`model(x)` does exactly the same": LEADS_IN,
        "One call to `backward()` fills in the gradient of $o$": LEADS_IN,
        "Training never minimises $o$ itself, but a loss such as": QUESTION,
        "its `tanh` receives $2(t - 1)$ from above": LEADS_IN,
        "Training repeats one step: forward, `zero_grad()`, backward, update.": DEFINITION,
        "showed why the `zero_grad()` is there": ELSEWHERE,
    },
    "06-training.py": {
        "Chapters 1 to 5 built every piece": HISTORY,
        "A fixed `random_state` gives the same points on every run.": API,
        "only the sign of the score decides the class": DEFINITION,
        "The **SVM max-margin loss** (hinge loss) asks only for a margin": DEFINITION,
        "It is computed from `.data`, so it is not part of the graph": DEFINITION,
        "No number on this page changes, only the waiting": ELSEWHERE,
        "**Backward pass**: `loss.backward()` fills in": DEFINITION,
        "**Update**: step every parameter against its gradient": DEFINITION,
        "The cell below does it with the same expression the loop used": LEADS_IN,
        "we ask it for a score at every point of a 40 × 40 grid": LEADS_IN,
        "The solid line is where the score is exactly 0": DEFINITION,
        "**The margin**: the hinge loss is zero only for points with": CALCULUS,
        "is zero only if every weight is zero": CALCULUS,
        "Its gradient is $2\\alpha p$, so if training went on": CALCULUS,
        "Training is a loop of four steps": DEFINITION,
        "only pushes on points that are wrong or inside the margin": CALCULUS,
    },
    "07-check-break-fix.md": {
        "This chapter sets the one rule this site uses to test gradients": GOAL,
        "A float holds $f(x+h)$ only to a relative precision": DEFINITION,
        "this **round-off error** grows like $1/h$": CALCULUS,
        "The best $h$ is where the two meet; balancing them predicts": LEADS_IN,
        "These two differ by only 0.000000001, yet one is twice the other.": CALCULUS,
        "zeroes the inputs' gradients, runs `f().backward()`": API,
        "Now all 41 parameters of `MLP(3, [4, 4, 1])` on one input": LEADS_IN,
        "Run the same network check with a much too small step": QUESTION,
        "Each bug below is a **subclass** of `Value`": LEADS_IN,
        "`Variant` re-wraps each result, same data": LEADS_IN,
        "showed why `backward()` adds with `+=`": ELSEWHERE,
        "A check only tests the paths its graph contains": LEADS_IN,
        "This walk no longer skips edges": QUESTION,
        "Compare the gradients the loop uses with a fresh estimate instead": LEADS_IN,
        "Call `y.backward()` a third time on the same": QUESTION,
        "All four fail with the same relative error, 0.554": LEADS_IN,
        "Test at generic points, never only at 0, 1": ADVICE,
    },
    "08-pytorch.md": {
        "run the same expressions in both libraries and check that values": GOAL,
        "Every block that uses it is skipped, with a reason": DESIGN,
        "Every comparison below asserts that the two libraries differ": LEADS_IN,
        "record every operation on it, so `backward()` can reach it": DEFINITION,
        "A micrograd `Value` always records the operations done to it.": DESIGN,
        "A PyTorch tensor does so only if it was created with": ELSEWHERE,
        "micrograd fills `.grad` on every node": DESIGN,
        "PyTorch fills it only on leaves": ELSEWHERE,
        "After `z.backward()`, and without any `retain_grad()`": QUESTION,
        "`w.grad` is $c = 5$, and `c`, never tracked": ELSEWHERE,
        "The check below compares them at full precision": LEADS_IN,
        "so both libraries give exactly $L = -8$": LEADS_IN,
        "A neuron uses only `*`, `+` and `tanh`.": DESIGN,
        "The next two expressions use most of what micrograd has": LEADS_IN,
        "Both libraries overload the same operators": LEADS_IN,
        "The first is the expression from the test suite of Karpathy's": ELSEWHERE,
        "The full check compares all seven numbers": LEADS_IN,
        "They need not agree to the last bit": ELSEWHERE,
        "How many of the 39 nodes of `g`'s graph are leaves?": QUESTION,
        "So far every PyTorch leaf had `dtype=torch.float64`.": HISTORY,
        "GPUs also do float32 arithmetic much faster than float64.": ELSEWHERE,
        "The float64 nearest 0.1 is off by only about": LEADS_IN,
        "PyTorch tracks only tensors that ask for it": ELSEWHERE,
    },
    "09-tensors.md": {
        "check every formula, entry by entry, against the scalar engine": GOAL,
        "This is the bridge to [PyTorch](08-pytorch.md) and every other tensor library": ELSEWHERE,
        "The entries below are multiples of $1/4$": LEADS_IN,
        "**broadcasts** it: NumPy adds the same bias row": API,
        "Before the batch, the smallest layer there is": DEFINITION,
        "Below $y$ it is only multiplied by local derivatives": LEADS_IN,
        "It sums over the batch, which makes sense": CALCULUS,
        "The same game for $\\partial L/\\partial X$": CALCULUS,
        "The smallest example: three inputs, one shared bias": LEADS_IN,
        "A weight is copied too, to every row of the batch": CALCULUS,
        "micrograd refuses a large exponent rather than return infinity": LEADS_IN,
        "The standard fix is the **log-sum-exp** trick": CALCULUS,
        "Every exponent is then at most 0, so nothing overflows.": CALCULUS,
        "is the same as seeding with $-1/p_3$": CALCULUS,
        "What do the entries of $p - y$ add up to, for any logits?": QUESTION,
        "run the same chain rule, one array operation per node": ELSEWHERE,
    },
    "10-under-the-hood.md": {
        "every training step keeps the Python interpreter busy with tens of thousands": GOAL,
        "How many multiplication nodes would one step build on 200 points": QUESTION,
        "That is why the engine keeps `._x`, `._y`, `._dx`, `._dy` in slots": DESIGN,
        "micrograd 0.1.0 stores a `_backward` **closure** on every node": ELSEWHERE,
        "builds its weights by calling the name `Value`": LEADS_IN,
        "Counted over a chain of 1,000 multiplications": LEADS_IN,
        "It can time a step with the collector off": LEADS_IN,
        "switches the collector off while it trains": ELSEWHERE,
        "What would happen if micrograd 0.1.0's training loop switched": QUESTION,
        "A training loop never notices, since it builds a new graph": ADVICE,
        "A loop that adds 5,000 numbers builds a chain 5,000 operations deep.": LEADS_IN,
        "A chain of 3 additions looks like this": LEADS_IN,
        "`x` went on the stack twice": READS_ABOVE,
        "One step of chapter 6 builds 69,018 nodes and does 127,054": RECAP,
        "Arrays drop the per-number bookkeeping": RECAP,
    },
    "your-engine.md": {
        "This page runs the book on it: every chapter's blocks": GOAL,
    },
}

UNCLAIMED["08-pytorch.md"].update({
    "called `backward()` three times on one graph": ELSEWHERE,
    "`detach()` gives the same numbers cut from the graph": LEADS_IN,
})
UNCLAIMED["13-what-reverse-mode-costs.md"] = {
    "counted sweeps: reverse mode gets the gradient": ELSEWHERE,
    "The function below times each on its own": LEADS_IN,
    "How many edges would its backward pass walk": QUESTION,
    "keeps only each point's 16 outputs, as leaves": LEADS_IN,
    "`torch.utils.checkpoint` does the same": ELSEWHERE,
    "Chen and others (in the sources)": ELSEWHERE,
    "The graph keeps every node until the backward pass": RECAP,
    "A checkpoint keeps a segment's outputs only": RECAP,
}
UNCLAIMED["14-deep-networks.md"] = {
    "`MLP` has ReLU only, and draws every weight": DESIGN,
    "First `tanh`, with weights uniform in three ranges": LEADS_IN,
    "The backward pass reaches layer $k$ through every layer": CALCULUS,
    "At each one the upstream gradient is multiplied": CALCULUS,
    "Here is the smallest case, three `tanh` neurons": LEADS_IN,
    "Its local derivative is small, as in chapter 3": LEADS_IN,
    "ReLU never saturates on the positive side": CALCULUS,
    "It has 3 layers, so the factor per layer": ELSEWHERE,
    "A `tanh` whose sum is far from 0 saturates": RECAP,
    "Fan-in ranges, $\\pm\\sqrt{3/n}$ for `tanh`": RECAP,
}


def reasons(page):
    """{phrase: reason} for the page (its file name, e.g. "04-engine.md")."""
    return UNCLAIMED.get(page, {})

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
}


def reasons(page):
    """{phrase: reason} for the page (its file name, e.g. "04-engine.md")."""
    return UNCLAIMED.get(page, {})

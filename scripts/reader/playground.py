"""The playground (docs/playground.md): the reader's own expression through the real engine.

The reader types an expression over named leaves, `(a + b) * c`, and their values,
`a = 2, b = -3, c = 10`. Both are parsed with Python's `ast` and checked against a
whitelist: numbers, leaf names, `+ - * / **` (a constant exponent, as the engine's `**`
takes), unary minus and plus, and the calls `tanh(...)`, `exp(...)`, `relu(...)`. Anything
else is refused with a message that names its column (1 = the first character typed). The
expression is then built from micrograd `Value`s, one per leaf, with the engine's own
operators, so the graph is exactly what the same Python code would build.

run() gives everything the page shows, as plain data: the graph's DOT source
(micrograd.draw_dot; the page draws it with Graphviz as WebAssembly, so its SVG carries
draw_dot's ids), the forward and backward pass step by step (micrograd.trace, the engine's
own loop) with every number written out, and each leaf's grad beside its estimate by
centered finite differences (micrograd.gradcheck's), one-sided where the engine refuses one
side (x − h outside the function's domain), none where it refuses both: the engine's
result is always shown, and the check says what it could not take. The page does no arithmetic and
formats no number: every text it shows, the table's included, is written here.

A shared link carries only the two texts: they are data, parsed by the whitelist here,
never evaluated. Stdlib and micrograd only: this module runs in CPython (tests/
test_playground.py) and in the reader's browser (Pyodide), where the site's Python zip
holds it (scripts/build/site_python.py), and the page calls run() through scripts/reader/calls.py.
"""

import ast
import math
import operator

import micrograd.engine
from micrograd.draw import draw_dot
from micrograd.formatting import exponent, field, for_json, shown
from micrograd.gradcheck import relative_error
from scripts.reader.engine_cause import cause as cause_at
from scripts.reader.engine_swap import BOOK, LIT, EngineError, _match, installed, load
from scripts.reader.engine_swap import first_difference as _first_difference
from scripts.reader.reader_code import clip, describe
from scripts.reader.stepper_trace import replay

OPERATORS = {ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
             ast.Div: ("/", operator.truediv), ast.Pow: ("**", operator.pow)}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
FUNCTIONS = ("tanh", "exp", "relu")  # the Value methods the expression may call
ALLOWED = "numbers, leaf names, + - * / ** (a number as the exponent), tanh(…), exp(…) and relu(…)"
MAX_LENGTH = 300  # characters of an expression, or of its values
MAX_NODES = 60  # a trace holds about n² numbers, and the graph must fit a phone
LABEL_LENGTH = 16  # a node made by a part of the expression shows that part if it is this short, else t1, t2…
H = 1e-6  # the finite-difference step, as micrograd.gradcheck's default
TOL = 1e-6  # relative error that passes, as micrograd.gradcheck's default ...
ABS_TOL = 1e-9  # ... or this absolute difference: near 0 a relative error means nothing
ONE_SIDED_TOL = 1e-3  # a one-sided difference's error is about h·|f''|/2: looser, and the page says so
# What the view needs of scripts.reader.stepper_trace.replay: the steps, captions and edge texts a
# stepper shows, written the same way by construction.
VIEW = ("nodes", "forward", "forwardCaptions", "backward", "backwardCaptions", "zeroGrads", "edges")
RANKDIR = "TB"  # top to bottom: the graph must fit a phone, as the steppers' graphs do


class PlaygroundError(ValueError):
    """A text the playground refuses: `field` ("expression" or "values"), `column` (1-based)."""

    def __init__(self, message, field, column):
        super().__init__(f"{field}, column {column}: {message}")
        self.message, self.field, self.column = message, field, column


def parse(expression):
    """The expression's ast (an ast.Expression) and its leaf names in order of appearance.

    Raises PlaygroundError, naming the column, for anything outside the whitelist.
    """
    text = _clean(expression, "expression")
    if not text.strip():
        raise PlaygroundError("type an expression, for example (a + b) * c", "expression", 1)
    tree = _parse(text, "eval", "expression")
    tree._text = text  # the reader's text: columns and each node's label come from it
    for node in ast.walk(tree.body):  # breadth first: a node is checked before its parts
        _allowed(node, text)
    names = []
    for node in sorted((n for n in ast.walk(tree.body) if isinstance(n, ast.Name) and not _called(n, tree)),
                       key=lambda n: n.col_offset):  # in the order the reader typed them
        if node.id not in names:
            names.append(node.id)
    if not names:
        raise PlaygroundError("the expression has no leaf: name at least one (a, x1, w…)", "expression", 1)
    return tree, names


def parse_values(values):
    """{name: float} from `a = 2, b = -3, c = 10` (commas between, a number each).

    Raises PlaygroundError, naming the column, for anything else.
    """
    return {name: value for name, (value, _) in _values(values).items()}


def _values(values):
    """{name: (float, column)} of parse_values."""
    text = _clean(values, "values")
    if not text.strip():
        return {}
    text = f"f({text})"  # name = number, read as keyword arguments; columns shift by 2
    call = _parse(text, "eval", "values", shift=2).body
    if call.args:
        raise PlaygroundError("give each leaf as name = number", "values", _column(call.args[0], text, 2))
    found = {}
    for keyword in call.keywords:
        column = _column(keyword, text, 2)
        if keyword.arg is None:
            raise PlaygroundError("give each leaf as name = number", "values", column)
        if keyword.arg in FUNCTIONS:
            raise PlaygroundError(f"{keyword.arg} is an operation, not a leaf", "values", column)
        if keyword.arg in found:
            raise PlaygroundError(f"{keyword.arg} is given twice", "values", column)
        found[keyword.arg] = (_number(keyword.value, text), column)
    return found


def build(tree, leaves):
    """The expression's root Value, built from `leaves` ({name: Value}) with the engine's operators.

    Raises PlaygroundError naming the column of the operation the engine refused
    (a division by 0, an overflow).
    """
    return _build(tree.body, leaves, _source(tree), labels=None)


def run(expression, values, engine=None, against="differences"):
    """Everything the page shows for one expression, as a dict (json.dumps gives strict JSON).

    engine: None (micrograd) or the reader's engine source (scripts/reader/engine_swap.py: load):
    its Value builds, traces and differentiates the expression. against: "differences" (each
    leaf's grad beside centered finite differences) or "micrograd" (with an engine only: each
    leaf's grad beside micrograd's, and the first node, in reverse topological order, whose
    grad differs lit on the graph with both numbers, and the likely cause). Raises ValueError
    for another `against`, or "micrograd" without an engine (the page's mistake).

    {"ok": True, "expression", "values", "result", "leaves": [{name, grad, numeric (None: no
    estimate), passed (None: not checked), kind ("centered", "one-sided" or None), shown (the
    table's row)}], "check": {passed, complete (every leaf checked by centered differences), text},
    "caption", "dot", and the steps as the view replays them: "nodes" [{id, name, data}],
    "edges" {edge id: text}, "forward", "forwardCaptions", "backward" [{node, edges, parents,
    grads}], "backwardCaptions", "zeroGrads", "columns" (the table's headers), "engine" ("micrograd"
    or "your engine": which one ran it), "against", and against micrograd, or where the reader's steps
    cannot be replayed (against finite differences too), "difference" (None, or
    {id: draw_dot's id in this graph, label, op, expected: micrograd's grad, got: the engine's})
    and "cause" (scripts/reader/engine_cause.py: the classic mistake decided at that node, or
    None when none fits there; "check"'s text says what differs, with the numbers), and
    "steps" ("yours", or "micrograd's": your engine's pass wrote grads that its own local
    derivatives times upstream do not give, so the steps and the graph are micrograd's, the
    node lit with both grads)}; or {"ok": False, "field", "column",
    "message"} for a text the playground refuses or an operation the engine refuses, with
    field and column None for an engine that fails otherwise (no usable Value, an error in its
    backward()).
    """
    if against not in ("differences", "micrograd"):
        raise ValueError(f"against is 'differences' or 'micrograd', not {against!r}")
    if against == "micrograd" and engine is None:
        raise ValueError("against 'micrograd' needs the reader's engine: micrograd against itself checks nothing")
    Value = BOOK
    if engine is not None:
        try:
            Value = load(engine)
        except EngineError as error:
            return {"ok": False, "field": None, "column": None, "message": str(error)}
    try:
        with installed(Value):
            return _run(expression, values, engine is not None, against == "micrograd")
    except PlaygroundError as error:
        return {"ok": False, "field": error.field, "column": error.column, "message": error.message}
    except Exception as error:  # the reader's engine may raise anything, in backward() too
        if engine is None:
            raise
        return {"ok": False, "field": None, "column": None,
                "message": f"your engine raised {describe(error)}"}


def _run(expression, values, yours=False, against_micrograd=False):
    Value = micrograd.engine.Value  # the installed engine's: the reader's, in engine_swap.installed
    tree, names = parse(expression)
    columns = _values(values)
    given = {name: value for name, (value, _) in columns.items()}
    missing = [name for name in names if name not in given]
    if missing:
        raise PlaygroundError(f"give {', '.join(missing)} a value, for example {missing[0]} = 1.0", "values",
                              len(_clean(values, "values")) + 1)
    unused = [name for name in given if name not in names]
    if unused:
        raise PlaygroundError(f"{unused[0]} has a value but the expression does not use it", "values",
                              columns[unused[0]][1])
    leaves = {name: Value(given[name]) for name in names}
    for name, leaf in leaves.items():
        leaf.label = name  # micrograd 0.1.0's Value takes no label argument
    text = _source(tree)
    root = _build(tree.body, leaves, text, labels=[])
    if not isinstance(root, Value):
        raise PlaygroundError("the expression has no leaf", "expression", 1)
    if not math.isfinite(root.data):  # as ** refuses: a float overflowed (1e200 * 1e200), or inf - inf
        raise PlaygroundError(f"out = {shown(root.data)}: the forward pass went past the largest float (about "
                              "1.8e308), so neither its grads nor finite differences mean anything here; try "
                              "smaller values", "values", 1)
    count = len(micrograd.engine.topological_order(root))
    if count > MAX_NODES:
        raise PlaygroundError(f"its graph has {count} nodes; the playground draws at most {MAX_NODES}",
                              "expression", 1)
    graph = draw_dot(root, rankdir=RANKDIR)
    try:
        steps = {key: value for key, value in replay(root).items() if key in VIEW}  # as a stepper shows it
    except RuntimeError as error:  # micrograd.trace: the reader's pass wrote another grad than local × upstream
        if not (yours and str(error).startswith("trace: ")):
            raise
        steps = None
    root.backward()
    ran = {"engine": "your engine" if yours else "micrograd", "against": "differences"}
    if against_micrograd:
        found = _against_micrograd(tree, names, given, leaves, root, graph, steps is None)
        return {**found, **(steps or {}), **ran, "against": "micrograd"}
    # The reader's steps cannot be replayed (their pass wrote grads that local × upstream does not give):
    # micrograd's graph and steps, with the first node whose grad differs lit and the cause there
    lit = None
    if steps is None:
        lit = _against_micrograd(tree, names, given, leaves, root, graph, theirs=True)
        steps = {key: lit[key] for key in (*VIEW, "steps")}
    report = [_check(leaves[name], lambda: _build(tree.body, leaves, text, labels=None), root.data)
              for name in names]
    passed = all(r["passed"] is not False for r in report)
    complete = all(r["kind"] == "centered" for r in report)
    check = (f"Every leaf's grad agrees with centered finite differences (h = {exponent(H)}): relative error "
             f"at most {exponent(TOL)}, or an absolute difference under {exponent(ABS_TOL)}." if passed else
             "Some grads differ from finite differences. Where the function has a kink (relu at 0), an "
             "infinite slope or a large curvature, the estimate itself is off; otherwise the engine would be "
             "wrong.")
    if not complete:
        check = (check.replace("Every leaf's grad agrees with centered", "Every grad that could be checked "
                               "agrees with") + " " + " ".join(r["why"] for r in report if r["why"]))
    if yours and lit is None and not passed:  # the reader's graph, with the node where it parts from micrograd lit
        lit = _against_micrograd(tree, names, given, leaves, root, graph)
    if lit:  # micrograd's grads say where the engine is wrong: the hedge about the estimate goes
        passed = passed and lit["check"]["passed"]
        if not passed and lit["difference"] is not None:
            check = "Some grads differ from finite differences."
        check += " " + lit["check"]["text"]
    dot = lit["dot"] if lit else graph.source
    return {"ok": True, "expression": text, "values": ", ".join(f"{n} = {_plain(given[n])}" for n in names),
            "result": for_json(root.data), "leaves": [{k: v for k, v in r.items() if k != "why"} for r in report],
            "check": {"passed": passed, "complete": complete, "text": check},
            "caption": f"out = {shown(root.data)}. Each leaf's grad from {YOURS if yours else ''}backward(), and "
                       "its estimate by finite differences (micrograd.gradcheck's, centered where both sides can be "
                       "taken)",
            "columns": ["leaf", "grad (backward)", "finite differences", "relative error", "check"],
            "dot": dot, **({"difference": lit["difference"], "cause": lit["cause"]} if lit else {}), **steps, **ran}


YOURS = "your engine's "
SAME = 1e-9  # relative difference between two engines' grads that still agree (an ulp or so, as same_output)


def _reference(tree, names, given):
    """micrograd's leaves and root for the same expression, backward() run."""
    with installed(BOOK):
        ref_leaves = {name: BOOK(given[name], label=name) for name in names}
        ref_root = _build(tree.body, ref_leaves, _source(tree), labels=[])
        ref_root.backward()
    return ref_leaves, ref_root


def _against_micrograd(tree, names, given, leaves, root, graph, theirs=False):
    """The reader's engine's grads (root.backward() has run) beside micrograd's for the same
    expression: the rows, the check, and the first node whose grad differs, lit on `graph`
    (draw_dot of the reader's graph) with both numbers; theirs: the reader's steps could not be
    replayed, so the graph lit and the steps are micrograd's ("steps": "micrograd's")."""
    ref_leaves, ref_root = _reference(tree, names, given)
    with installed(BOOK):
        reference = micrograd.engine.topological_order(ref_root)
    rows = []
    for name in names:
        got, want = float(leaves[name].grad), ref_leaves[name].grad
        error = relative_error(got, want)
        passed = (got != got and want != want) or bool(error <= SAME or abs(got - want) <= ABS_TOL)
        rows.append({"name": name, "grad": for_json(got), "numeric": for_json(want), "passed": passed,
                     "kind": "micrograd", "shown": [name, shown(got), shown(want), exponent(error, 1),
                                                    "✓ agrees" if passed else "✗ differs"]})
    difference = _first_difference(ref_root, root, SAME)
    cause = None
    steps = {}
    if difference is None:
        check = f"Every node's grad agrees with micrograd's, within a relative difference of {exponent(SAME)}."
    else:
        ref_node = reference[int(difference["id"][1:])]
        mine = _match(ref_root, root).get(id(ref_node))
        verdict = cause_at(ref_root, root)
        cause = verdict["text"] if verdict["mistake"] else None
        if theirs:  # micrograd's graph and steps, the node lit: the reader's steps cannot be replayed
            with installed(BOOK):
                graph = draw_dot(ref_root, rankdir=RANKDIR)
                steps = {key: value for key, value in replay(ref_root).items() if key in VIEW}
            steps["steps"] = "micrograd's"
        else:
            order = micrograd.engine.topological_order(root)  # the reader's graph, as draw_dot numbered it
            difference = {**difference, "id": next(f"n{i}" for i, node in enumerate(order) if node is mine)}
        label = getattr(ref_node, "label", "") or ""
        fields = ([label] if label else []) + [f"data {field(ref_node.data)}", f"grad {field(difference['got'])}",
                                               f"micrograd: grad {field(difference['expected'])}"]
        graph.node(difference["id"], " | ".join(fields), shape="record", id=difference["id"], style="filled",
                   fillcolor=LIT)
        name = label or f"the {difference['op']} node" if difference["op"] else label or "a leaf"
        check = (f"Your engine's grads differ from micrograd's. The first node, in reverse topological order, "
                 f"whose grad differs is {name}, lit on the graph: micrograd gives grad "
                 f"{shown(difference['expected'])}, your engine {shown(difference['got'])}. "
                 + (f"Likely cause: {cause}" if cause else _capital(verdict["text"]) + ".")
                 + (" The steps shown are micrograd's: your engine's backward() wrote grads that its local "
                    "derivatives times upstream do not give." if theirs else ""))
    return {"ok": True, "expression": _source(tree), "values": ", ".join(f"{n} = {_plain(given[n])}" for n in names),
            "result": for_json(root.data), "leaves": rows,
            "check": {"passed": difference is None, "complete": True, "text": check},
            "caption": f"out = {shown(root.data)}. Each leaf's grad from your engine's backward(), and micrograd's "
                       "for the same expression",
            "columns": ["leaf", "your engine's grad", "micrograd's grad", "relative difference", "check"],
            "dot": graph.source, "difference": difference, "cause": cause, "steps": "yours", **steps}


def _capital(text):
    return text[:1].upper() + text[1:]


def _check(x, f, at):
    """One leaf's row: backward()'s grad beside its finite-difference estimate.

    x: the leaf (a Value, its grad set by backward()); f: rebuilds the expression from the
    leaves' data; at: f's value at the leaves' values. The estimate is centered,
    (f(x + h) − f(x − h)) / 2h, as micrograd.gradcheck.numerical_grad takes it. Where the
    engine refuses one side (x − h outside the function's domain: a negative base to a
    fractional power, a division by 0), it is one-sided, (f(x + h) − f(x)) / h or
    (f(x) − f(x − h)) / h, whose error shrinks like h, not h², and passes at ONE_SIDED_TOL.
    Where it refuses both, there is no estimate. Returns {"name", "grad", "numeric",
    "passed" (None: not checked), "kind" ("centered", "one-sided" or None), "why" (a
    sentence for the check, or None), "shown" (the table's row)}.
    """
    sides, refused = {}, {}
    for sign, side in ((1, "x + h"), (-1, "x − h")):
        original = x.data
        try:
            x.data = original + sign * H
            sides[side] = f().data
        except PlaygroundError as error:
            refused[side] = error.message.removeprefix("the engine refused it: ").removeprefix(
                "your engine refused it: ")
        finally:
            x.data = original
    name = x.label
    if not refused:
        kind, estimate, tol = "centered", (sides["x + h"] - sides["x − h"]) / (2 * H), TOL
    elif len(refused) == 1:
        kind, tol = "one-sided", ONE_SIDED_TOL
        estimate = (sides["x + h"] - at) / H if "x + h" in sides else (at - sides["x − h"]) / H
    else:
        kind = estimate = None
    error = passed = None
    if kind is not None:
        error = relative_error(x.grad, estimate)
        if math.isnan(error):  # an infinite grad (x ** 0.5 at 0) beside a finite estimate: as far off as can be
            error = math.inf
        passed = bool(error <= tol or abs(x.grad - estimate) <= ABS_TOL)
    why = None
    if refused:
        outside = " and ".join(f"{name} {side[2:]}" for side in refused)
        why = (f"{outside} {'is' if len(refused) == 1 else 'are'} outside the function's domain: the engine "
               f"refuses {'it' if len(refused) == 1 else 'both'} ({'; '.join(dict.fromkeys(refused.values()))}).")
        # The tolerance, then what this leaf's check gave: the rule alone ("passes at 1e-3 or less")
        # read as a pass beside "relative error ∞, ✗ differs" (issue 44, item 11).
        why += (f" So {name}'s estimate is one-sided, from {name} {next(iter(sides))[2:]} only. Its error shrinks "
                f"like h, not h², so it is held to a relative error of {exponent(ONE_SIDED_TOL)}, not "
                f"{exponent(TOL)}. {name}'s relative error is {exponent(error, 1)}"
                + ((": it agrees." if error <= tol else f", but the difference is under {exponent(ABS_TOL)}: "
                    "it agrees.") if passed else (" (its grad is infinite, the estimate finite): it differs."
                                                  if math.isinf(x.grad) else ": it differs."))
                if kind else f" So {name} is not checked.")
    if kind is None:
        return {"name": name, "grad": for_json(x.grad), "numeric": None, "passed": None, "kind": None, "why": why,
                "shown": [name, shown(x.grad), "none", "—", "not checked: no side in the domain"]}
    verdict = "✓ agrees" if passed else "✗ differs"
    estimated = shown(estimate) + (" (one-sided)" if kind == "one-sided" else "")
    # the table's row, as the page shows it (the leaf's value is in the field above and on
    # the graph: five columns fit a phone, six did not)
    return {"name": name, "grad": for_json(x.grad), "numeric": for_json(estimate), "passed": passed, "kind": kind,
            "why": why, "shown": [name, shown(x.grad), estimated, exponent(error, 1), verdict]}


# --- Parsing ---------------------------------------------------------------------------


def _clean(text, field):
    """The reader's text with a true minus (−) read as -, and newlines as spaces: same columns."""
    text = str(text)
    if len(text) > MAX_LENGTH:
        raise PlaygroundError(f"at most {MAX_LENGTH} characters, not {len(text)}", field, MAX_LENGTH + 1)
    return text.replace("\u2212", "-").replace("\r", " ").replace("\n", " ")


def _parse(text, mode, field, shift=0):
    try:
        return ast.parse(text, mode=mode)
    except SyntaxError as error:
        end = len(text) - shift + 1
        column = error.offset - shift if error.offset and 0 < error.offset - shift <= end else end
        reason = error.msg
        if error.msg == "invalid syntax" and column < end:  # name what stands there
            reason = f"{text[column - 1 + shift]!r} cannot stand here: this is not a Python expression"
        if column == end:
            reason = "it ends too early" if error.msg == "invalid syntax" else reason
        raise PlaygroundError(reason, field, column) from None


def _allowed(node, text):
    """Raise PlaygroundError for an ast node outside the whitelist."""
    if isinstance(node, (ast.operator, ast.unaryop, ast.expr_context)):
        return
    if isinstance(node, ast.Constant):
        if type(node.value) not in (int, float):
            raise PlaygroundError(f"{node.value!r} is not a number", "expression", _column(node, text))
        return
    if isinstance(node, ast.Name):
        return
    if isinstance(node, ast.BinOp):
        if type(node.op) not in OPERATORS:
            raise PlaygroundError(f"{_symbol(node, text)} is not an operation of the engine; it has {ALLOWED}",
                                  "expression", _operator_column(node, text))
        if isinstance(node.op, ast.Pow) and any(isinstance(n, ast.Name) for n in ast.walk(node.right)):
            raise PlaygroundError("the exponent must be a number: the engine's ** takes a constant power "
                                  "(x ** 2, x ** -1, x ** 0.5), not a leaf", "expression",
                                  _column(node.right, text))
        return
    if isinstance(node, ast.UnaryOp):
        if type(node.op) not in UNARY:
            raise PlaygroundError(f"{_symbol(node, text)} is not an operation of the engine; it has {ALLOWED}",
                                  "expression", _column(node, text))
        return
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS:
            raise PlaygroundError(f"{ast.get_source_segment(text, node.func)}(…) is not an operation of the "
                                  f"engine; it has {ALLOWED}", "expression", _column(node.func, text))
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            raise PlaygroundError(f"{name}(…) takes one argument", "expression", _column(node, text))
        return
    raise PlaygroundError(f"{_symbol(node, text)} is not allowed here; the playground takes {ALLOWED}",
                          "expression", _column(node, text))


def _called(name, tree):
    return any(isinstance(n, ast.Call) and n.func is name for n in ast.walk(tree))


def _number(node, text):
    """A value's number: a literal int or float, or one with a sign before it."""
    sign, inner = 1.0, node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign, inner = (-1.0 if isinstance(node.op, ast.USub) else 1.0), node.operand
    if not (isinstance(inner, ast.Constant) and type(inner.value) in (int, float)):
        raise PlaygroundError("a value must be a number, such as 2, -3 or 0.5", "values", _column(node, text, 2))
    value = sign * float(inner.value)
    if not math.isfinite(value):
        raise PlaygroundError("a value must be a finite number", "values", _column(node, text, 2))
    return value


def _column(node, text, shift=0):
    """The 1-based column, in characters of the reader's text, where `node` starts."""
    line = text.split("\n")[node.lineno - 1]
    return len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace")) + 1 - shift


def _operator_column(node, text):
    """The column of a BinOp's operator: the first non-space after its left operand's end."""
    line = text.split("\n")[node.lineno - 1]
    end = len(line.encode("utf-8")[: node.left.end_col_offset].decode("utf-8", "replace"))
    rest = line[end:]
    while rest and rest[0] in " )":
        end, rest = end + 1, rest[1:]
    return end + 1


def _symbol(node, text):
    if isinstance(node, ast.BinOp):
        at = _operator_column(node, text) - 1
        return repr(text[at:at + 2].rstrip(" (").strip() or text[at])
    return repr(ast.get_source_segment(text, node) or type(node).__name__)


def _source(tree):
    return tree._text


# --- Building -----------------------------------------------------------------------


def _build(node, leaves, text, labels):
    """Value (or number, for a part with no leaf) of `node`, with the engine's operators.

    labels: None, or a list: then each Value a part of the expression makes is labelled
    with that part's text (out for the whole), or t1, t2… (appended to the list) if long.
    Value: the installed engine's (micrograd.engine.Value)."""
    Value = micrograd.engine.Value
    who = "the engine" if Value is BOOK else "your engine"
    try:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return leaves[node.id]
        if isinstance(node, ast.BinOp):
            left = _build(node.left, leaves, text, labels)
            right = _build(node.right, leaves, text, labels)
            operands = (left, right)
            out = OPERATORS[type(node.op)][1](left, right)
        elif isinstance(node, ast.UnaryOp):
            operands = (_build(node.operand, leaves, text, labels),)
            out = UNARY[type(node.op)](operands[0])
        else:  # a call the whitelist allowed
            argument = _build(node.args[0], leaves, text, labels)
            operands = (argument if isinstance(argument, Value) else Value(argument),)
            out = getattr(operands[0], node.func.id)()
    except Exception as error:  # ArithmeticError, ValueError, TypeError; anything from a reader's engine
        if isinstance(error, PlaygroundError):
            raise
        raise PlaygroundError(f"{who} refused it: {describe(error)}", "expression", _node_column(node, text)) from None
    if not isinstance(out, Value) and any(isinstance(operand, Value) for operand in operands):
        # A reader's engine whose operation forgot "return out": say which one, not "no leaf"
        what = "None" if out is None else f"an object of type {clip(type(out).__name__, 'name')}"
        raise PlaygroundError(f"{who}'s {_operation(node, text)} returned {what}, not a Value", "expression",
                              _node_column(node, text))
    if labels is not None and isinstance(out, Value) and not getattr(out, "label", ""):
        segment = ast.get_source_segment(text, node) or ""
        if segment.strip("() ") == text.strip("() "):
            out.label = "out"  # the whole expression: its root
        elif len(segment) <= LABEL_LENGTH:
            out.label = segment
        else:
            labels.append(out)
            out.label = f"t{len(labels)}"
    return out


def _node_column(node, text):
    """The column a message about `node` points at: an operator's own, else where the node starts."""
    return _operator_column(node, text) if isinstance(node, ast.BinOp) else _column(node, text)


def _operation(node, text):
    """The operation a node of the expression asks of the engine, as the reader wrote it:
    "tanh(…)", "*", "unary -"."""
    if isinstance(node, ast.BinOp):
        return OPERATORS[type(node.op)][0]
    if isinstance(node, ast.UnaryOp):
        return "unary " + ("-" if isinstance(node.op, ast.USub) else "+")
    return f"{node.func.id}(…)"


def _plain(x):
    return repr(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)



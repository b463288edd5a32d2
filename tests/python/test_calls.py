"""The one door from the page into the reader's Python (scripts/reader/calls.py): a function's name
and JSON arguments in, JSON out. The browser's side is python.js's call()
(tests/playground/test_live.py, tests/widgets/test_stepper_edits.py and
tests/exercises/test_exercises_browser.py click what uses it); the shapes of both sides are
docs/javascripts/python/calls.js's types, which TypeScript checks (tests/tools/test_lint.py)."""

import inspect
import json
import re

import pytest

from scripts import ROOT
from scripts.reader import calls, exercise_format, playground


def answer(fn, args):
    return json.loads(calls.call_json(fn, json.dumps(args)))


def test_every_function_the_page_calls_is_in_the_types_and_no_other():
    """calls.js names the functions (CallArgs) and their arguments as FUNCTIONS takes them."""
    types = (ROOT / "docs" / "javascripts" / "python" / "calls.js").read_text(encoding="utf-8")
    block = re.search(r"@typedef \{\{(.*?)\}\} CallArgs", types, re.S)[1]
    named = dict(re.findall(r"\*\s+(\w+): \{(.*?)\},\n", block))
    assert set(named) == set(calls.FUNCTIONS)
    for fn, fields in named.items():
        taken = [p for p in inspect.signature(calls.FUNCTIONS[fn]).parameters if p != "on_block"]
        assert re.findall(r"(\w+)\??:", fields) == taken, fn


def test_a_call_answers_with_the_functions_value_as_json():
    value = answer("playground", {"expression": "(a + b) * c", "values": "a = 2, b = -3, c = 10"})
    expected = json.loads(json.dumps(playground.run("(a + b) * c", "a = 2, b = -3, c = 10")))
    assert value == {"ok": True, "value": expected}
    graded = answer("run_exercise", {"exercise": "chain_rule", "code": exercise_format.load("chain_rule").solution})
    assert graded["ok"] and all(r["passed"] for r in graded["value"]["results"])


def test_run_blocks_reports_each_block_as_it_starts():
    blocks = [{"line": n, "kind": "code", "hidden": False, "source": f"x = {n}\n", "skip": None, "figure": False}
              for n in range(3)]
    started = []
    value = calls.call("run_blocks", {"blocks": blocks, "upto": 2}, on_block=started.append)
    assert started == [0, 1, 2] and [r["status"] for r in value["results"]] == ["ran"] * 3


def test_a_stepper_trace_comes_back_whole_however_long_its_json():
    """The stepper cut its replay into 9,000-character prints to pass the output's clip; a call's
    value is not output: a 59-node sum's replay (more than 10,000 characters) comes back whole."""
    graph = [{"op": "", "label": f"x{i}", "parents": [], "data": float(i)} for i in range(30)]
    for i in range(29):
        graph.append({"op": "+", "label": "", "parents": [30 + i - 1 if i else 0, i + 1], "data": 0.0})
    value = answer("trace_stepper", {"graph": graph, "values": {"n0": "2"}})
    assert value["ok"] and value["value"]["ok"] and len(json.dumps(value["value"])) > 10_000
    assert value["value"]["dot"].startswith("digraph")


@pytest.mark.parametrize("fn, args, error", [
    ("no_such", {}, "LookupError: no function named 'no_such': the page calls run_blocks, run_exercise, "
                    "trace_stepper, playground, check_engine, diagnose"),
    ("playground", {"expression": "a"}, "TypeError: "),
    ("playground", [1, 2], "TypeError: playground: the arguments are a JSON object, not list"),
])
def test_a_call_the_page_gets_wrong_is_an_error_not_a_crash(fn, args, error):
    got = answer(fn, args)
    assert got["ok"] is False and got["error"].startswith(error), got


def test_an_error_the_readers_code_raises_is_never_the_pages_request():
    """A hostile audit: errors of the reader's code that escaped a runner were answered as the page's
    mistake ("The page asked Python for what it does not do"). A graph object of the reader's whose
    source raises, or whose __dict__ refuses to be read when the namespace is taken apart, is the
    block's error or nothing, with the block's output kept; an engine whose Value is gone by the time
    the Run starts (it passed its check before) is an error raised while the call ran."""
    block = {"line": 1, "kind": "code", "hidden": False, "skip": None, "figure": False, "source": "1\n"}
    edits = {"0": "class G:\n    __module__ = 'graphviz'\n    @property\n    def source(self):\n"
                  "        raise KeyError('my own bug')\nprint('block ran')\nG()\n"}
    got = answer("run_blocks", {"blocks": [block], "upto": 0, "edits": edits})
    (result,) = got["value"]["results"]
    assert got["ok"] and (result["status"], result["output"]) == ("error", "block ran\n"), got
    assert result["error"].endswith("KeyError: 'my own bug'")

    edits = {"0": "class Odd:\n    __module__ = 'micrograd.odd'\n    @property\n    def __dict__(self):\n"
                  "        raise TypeError('my own bug')\nodd = Odd()\nprint('block ran')\n"}
    got = answer("run_blocks", {"blocks": [block], "upto": 0, "edits": edits})
    assert got["ok"] and got["value"]["results"][0]["output"] == "block ran\n", got

    got = answer("run_blocks", {"blocks": [block], "upto": 0, "edits": {}, "engine": "Value = 1\n"})
    assert got == {"ok": False, "raised": True,
                   "error": "EngineError: your engine's Value is an object of type int, not a class"}, got


def test_nothing_composes_python_source_or_a_made_up_block_in_javascript():
    """Issue 26, item 2: the stepper wrote Python in JavaScript and cut JSON into prints; the
    playground sent a block of kind "playground". Both call a function now."""
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "javascripts").rglob("*.js")}
    python = re.compile(r"""["'`](from scripts\.|import \w+\\n)|print\(\w+\[""")  # in a string: source
    assert not [n for n, text in scripts.items() if python.search(text)]
    assert not [n for n, text in scripts.items() if 'kind: "playground"' in text]
    assert "playground" not in (ROOT / "scripts" / "reader" / "run_blocks.py").read_text(encoding="utf-8")


def engine(name):
    from tests import engines

    return engines.source(name)


def a_times_a():
    """Chapter 4's stepper, b = a·a, as the build exports it: a value used twice."""
    from micrograd.engine import Value
    from scripts.reader.stepper_trace import structure

    a = Value(3.0, label="a")
    b = a * a
    b.label = "b"
    return structure(b)


def test_a_stepper_traced_on_the_readers_engine_shows_its_own_backward_pass_and_says_so():
    """Issue 28, item 1: with "Run on: your engine", "Run with these values" ran on micrograd and
    said so. The steps are the reader's own backward()'s: with = for +=, a.grad ends at 3, not 6,
    and the step says what the engine wrote."""
    graph = a_times_a()
    ours = answer("trace_stepper", {"graph": graph, "values": {"n0": "3"}})["value"]
    yours = answer("trace_stepper", {"graph": graph, "values": {"n0": "3"}, "engine": engine("assign")})["value"]
    assert (ours["engine"], yours["engine"]) == ("micrograd", "your engine")
    assert ours["preset"]["backward"][-1]["grads"] == ["grad 6.0000", "grad 1.0000"]
    assert yours["preset"]["backward"][-1]["grads"] == ["grad 3.0000", "grad 1.0000"]
    visit = yours["preset"]["backwardCaptions"][1]
    assert visit == ("Visit b, upstream gradient b.grad = 1: a.grad += 3 × 1 = 3, now 3; "
                     "a.grad became 3, not 3 + 3 × 1 = 6.")
    assert yours["preset"]["leaves"] == [{"id": "n0", "label": "a", "value": "3.0"}]
    # A correct engine in the lecture's shape (a set of parents: a·a has one) ends where micrograd does.
    lecture = answer("trace_stepper", {"graph": graph, "values": {"n0": "3"}, "engine": engine("lecture")})["value"]
    assert lecture["ok"] and sorted(lecture["preset"]["backward"][-1]["grads"]) == ["grad 1.0000", "grad 6.0000"]
    refused = answer("trace_stepper", {"graph": graph, "values": {"n0": "3"}, "engine": "x = 1"})["value"]
    assert refused == {"ok": False, "message": "your engine defines no class Value"}


def test_the_playground_on_the_readers_engine_checked_against_micrograd_lights_the_first_node_and_names_the_cause():
    """Issue 28, items 1 and 3: the playground ran micrograd whatever the switch said; now the
    reader's Value builds it, and "check against: micrograd" compares node by node."""
    args = {"expression": "a * b + a", "values": "a = 2, b = -3", "engine": engine("assign")}
    checked = answer("playground", {**args, "against": "micrograd"})["value"]
    assert (checked["engine"], checked["against"]) == ("your engine", "micrograd")
    assert checked["columns"][1:3] == ["your engine's grad", "micrograd's grad"]
    assert [row["shown"][:3] for row in checked["leaves"]] == [["a", "−3", "−2"], ["b", "2", "2"]]
    assert checked["difference"]["label"] == "a" and (checked["difference"]["expected"],
                                                      checked["difference"]["got"]) == (-2.0, -3.0)
    assert checked["cause"].startswith("= instead of +=")
    assert checked["check"]["text"].startswith("Your engine's grads differ from micrograd's. The first node, in "
                                               "reverse topological order, whose grad differs is a, lit on the graph: "
                                               "micrograd gives grad −2, your engine −3. Likely cause: = instead of +=")
    lit = re.search(rf'{checked["difference"]["id"]} \[label="([^"]*)"[^\]]*fillcolor="#ffb74d"', checked["dot"])
    assert lit and "grad -3.0000" in lit[1] and "micrograd: grad -2.0000" in lit[1], checked["dot"]
    # Against finite differences, the reader's engine's grads are the table's, and fail.
    differences = answer("playground", args)["value"]
    assert differences["engine"] == "your engine" and differences["check"]["passed"] is False
    assert [row["grad"] for row in differences["leaves"]] == [-3.0, 2.0]
    # micrograd alone: as before, and it says so; micrograd against itself is the page's mistake.
    plain = answer("playground", {"expression": "a * b + a", "values": "a = 2, b = -3"})["value"]
    assert plain["engine"] == "micrograd"
    assert answer("playground", {"expression": "a", "values": "a = 1", "against": "micrograd"})["ok"] is False
    good = answer("playground", {**args, "engine": engine("lecture"), "against": "micrograd"})["value"]
    assert good["difference"] is None and good["check"]["passed"], good["check"]

"""The one door from the page into the reader's Python (scripts/reader/calls.py): a function's name
and JSON arguments in, JSON out. The browser's side is python.js's call() (tests/test_live.py,
tests/test_widgets.py and tests/test_browser_python.py click what uses it); the shapes of both
sides are docs/javascripts/calls.js's types, which TypeScript checks (tests/test_lint.py)."""

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
    types = (ROOT / "docs" / "javascripts" / "calls.js").read_text(encoding="utf-8")
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


def test_nothing_composes_python_source_or_a_made_up_block_in_javascript():
    """Issue 26, item 2: the stepper wrote Python in JavaScript and cut JSON into prints; the
    playground sent a block of kind "playground". Both call a function now."""
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "javascripts").glob("*.js")}
    python = re.compile(r"""["'`](from scripts\.|import \w+\\n)|print\(\w+\[""")  # in a string: source
    assert not [n for n, text in scripts.items() if python.search(text)]
    assert not [n for n, text in scripts.items() if 'kind: "playground"' in text]
    assert "playground" not in (ROOT / "scripts" / "reader" / "run_blocks.py").read_text(encoding="utf-8")

"""The reader's engine diagnosed truly (issue 44): never a false all-clear from Node by node (item 2),
an engine whose results vary from run to run caught by the map (item 3), and the engines written for the
tests, one bug in one operation or operand each, named with that operation everywhere (Done when)."""

from scripts.reader import calls, your_engine
from scripts.tools import engine_report
from tests import engines
from tests.your_engine.test_your_engine import BLOCKS, FLIP, STARTS, _page

# ---- issue 44, item 2: never a false all-clear ----

def test_a_block_that_failed_where_no_named_graph_differs_is_not_said_to_agree():
    """Chapter 4's block 9 failed its gradient check ("x: backward 0, finite differences
    2.435169004") while Node by node said every node agreed and "the difference is in what the
    block prints". The graph that failed was built inside gradcheck's lambda: diagnose now says the
    block failed in its run, with the error's last line, and reads the cause on the exercises'
    graphs."""
    blocks = [{**BLOCKS[0], "source": "from micrograd import Value, gradcheck\nx = Value(0.5, label='x')\n"},
              {**BLOCKS[1], "source": "xs = [Value(0.5)]\n"
                                 "assert gradcheck(lambda: xs[0] * xs[0] + xs[0], xs) < 1e-6\n"}]
    found = calls.call("diagnose", {"blocks": blocks, "upto": 1, "edits": {}, "source": engines.source("assign")})
    assert found["difference"] is None and found["compared"] == ["x"], found
    assert found["status"] == "error" and found["error"].startswith("AssertionError: gradient check failed"), found
    assert found["mistake"] == "assign" and found["cause"].startswith(STARTS["assign"]), found
    assert "the graph where the block failed was built inside a function" in found["cause"], found["cause"]
    right = calls.call("diagnose", {"blocks": blocks, "upto": 1, "edits": {}, "source": engines.source("book")})
    assert (right["status"], right["error"], right.get("mistake")) == ("ran", "", None), right


def test_node_by_node_runs_an_engine_whose_prev_is_a_set_again_before_it_says_none_differs():
    """A set's order changes from run to run: one run of the blocks agreed where the map's had failed.
    diagnose runs such an engine's blocks up to RUNS times and says how many it took."""
    source = engines.source("lecture")
    found = calls.call("diagnose", {"blocks": BLOCKS, "upto": 1, "edits": {}, "source": source})
    assert found["difference"] is None and found["runs"] == your_engine.RUNS, found
    found = calls.call("diagnose", {"blocks": BLOCKS, "upto": 1, "edits": {}, "source": engines.source("book")})
    assert found["runs"] == 1, found  # a tuple is walked in the same order every time


def test_the_maps_varies_call_runs_a_set_engine_once_more_against_the_run_it_made(tmp_path):
    """The map runs each chapter once (run_blocks) and then calls varies with that run's statuses:
    an engine whose _prev is a set runs once more, and a block that went otherwise is named; a
    tuple is walked in the same order every time, so the book's shape is not run again."""
    blocks = engine_report.page_blocks(_page(tmp_path))
    source = engines.source("lecture") + FLIP
    first = [r["status"] if not r["applies"] else None
             for r in calls.call("run_blocks", {"blocks": blocks, "upto": len(blocks) - 1, "edits": {},
                                                "engine": source})["results"]]
    found = calls.call("varies", {"blocks": blocks, "source": source, "statuses": first})
    assert found["set"] is True and [b["line"] for b in found["blocks"]] == [3], found
    assert found["blocks"][0]["statuses"][0] == first[0] and len(set(found["blocks"][0]["statuses"])) == 2, found
    book = calls.call("varies", {"blocks": blocks, "source": engines.source("book"), "statuses": ["differs"]})
    assert book == {"set": False, "blocks": [], "statuses": [["differs"]]}, book  # not run: one status only

"""The browser tests' waits wait for what they mean (issue 43, item 6), read from their source.

Two kinds of wait raced in CI: a predicate that read a property of an element not built yet
(Playwright fails a wait at once when its predicate throws, it does not retry: a TypeError of
null), and a fixed time that a loaded machine outlasted. A wait's predicate guards the element
(`?.`, or a check for null); a fixed time stays only where a test proves that nothing happens
within it, or paces a reader, and says so in FIXED below.
"""

import ast
import re

from scripts import ROOT

TESTS = sorted((ROOT / "tests").rglob("*.py"))

# A property read straight off querySelector(...)'s answer: `querySelector('.x').y`
UNGUARDED = re.compile(r"querySelector(?:All)?\((?:[^()]|\([^()]*\))*\)\.(?!length\b)[A-Za-z_]")

# (file, the call's source line, stripped) -> why a fixed time is right there
FIXED = {
    ("tests/python/test_box_browser.py", "time.sleep(0.5)  # the fetches' promises have settled"):
        "proves no request reaches the other origin: nothing to wait for",
    ("tests/python/test_box_browser.py", "time.sleep(0.5)"): "proves a click on a drawn node loads nothing",
    ("tests/python/test_box_browser.py", "time.sleep(0.5)  # an image the browser would load has been asked for"):
        "proves a drawn image is never asked for",
    ("tests/python/test_box_browser.py",
     "time.sleep(0.3)  # the Run's output laid out in the page: its own work, not Graphviz's"):
        "starts the window the page's answers are measured in after the Run's own layout",
    ("tests/python/test_box_browser.py", "time.sleep(seconds)"): "the window the page's answers are measured in",
    ("tests/python/test_box_runs.py", "time.sleep(0.5)  # the timers' moment has passed"):
        "lets the cleared timers' moment pass: the next Run proves they never ran",
    ("tests/python/test_box_python.py", "time.sleep(0.5)"): "proves no request reaches the other origin",
    ("tests/playground/test_live.py", "time.sleep(0.5)"): "delays a stylesheet's answer on purpose (a route)",
    ("tests/site/test_scrolling.py", "page.wait_for_timeout(150)"): "a reader's pace: 600 px per 150 ms",
}


def calls(path, name):
    """(line, source line stripped, call node) of each call of `.name(...)` or `name(...)` in path."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if called == name:
                yield node.lineno, lines[node.lineno - 1].strip(), node


def text_of(node):
    """The literal text of a string argument (an f-string's literal parts)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value for part in node.values if isinstance(part, ast.Constant))
    return ""


def test_no_wait_reads_a_property_of_an_element_that_may_not_be_built():
    found = [f"{path.relative_to(ROOT)}:{line}: {source}"
             for path in TESTS for line, source, node in calls(path, "wait_for_function")
             if node.args and UNGUARDED.search(text_of(node.args[0]))]
    assert found == [], "guard the element (?. or a null check):\n" + "\n".join(found)


def test_the_check_finds_an_unguarded_read():
    assert UNGUARDED.search("() => document.querySelector('.bv-engine-map').engineMap?.chapters")
    assert UNGUARDED.search("() => !document.querySelector(`.x[data-y=\"z\"]`).classList.contains('a')")
    assert not UNGUARDED.search("() => document.querySelector('.bv-engine-map')?.engineMap")
    assert not UNGUARDED.search("() => document.querySelectorAll('.bv-map__node').length > 2")


def test_every_fixed_time_says_why_it_is_not_a_wait():
    fixed = {(str(path.relative_to(ROOT)), source)
             for path in TESTS if path.name != "test_waits.py"
             for name in ("sleep", "wait_for_timeout") for _, source, node in calls(path, name)
             if not (name == "sleep" and isinstance(node.func, ast.Attribute) and node.func.value.id != "time")}
    assert sorted(fixed - set(FIXED)) == [], "wait for what it means, or say why a fixed time is right in FIXED"
    assert sorted(set(FIXED) - fixed) == [], "FIXED names a fixed time that is gone"

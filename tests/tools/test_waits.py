"""The browser tests' waits wait for what they mean (issue 43, item 6), read from their source.

Two kinds of wait raced in CI: a predicate that read a property of an element not built yet
(Playwright fails a wait at once when its predicate throws, it does not retry: a TypeError of
null), and a fixed time that a loaded machine outlasted. A wait's predicate guards the element
(`?.`, or a check for null); a fixed time stays only where a test proves that nothing happens
within it, or paces a reader, and says so in FIXED below; so does a network quiet (NETWORKIDLE).
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

# Playwright's "networkidle" is a fixed time too: it returns once no request has been in flight
# for 500 ms. It stays only where a test proves that a page fetches nothing more (what it loads
# at rest is the assertion); a test that waits for a page to be ready waits for the widgets'
# mark (BOUND, which tests/conftest.py's pages wait for after goto) or the element it reads.
# (file, the line's source, stripped) -> what the quiet proves
NETWORKIDLE = {
    ("tests/chapter_page.py",
     'page.wait_for_load_state("networkidle")  # what the page fetches at load: 500 ms with none'):
        "chapter 4 fetches no editor and no Python at load (tests/exercises/test_exercises_browser.py)",
    ("tests/chapter_page.py",
     'page.wait_for_load_state("networkidle")  # what it fetches before a Run: 500 ms with none'):
        "the editors in place fetch no Python before a Run",
    ("tests/site/test_meta_policy.py", 'page.wait_for_load_state("networkidle")'):
        "no late load (a lazy image, a font, a script) breaks the page's policy",
    ("tests/run/test_run_browser.py", 'page.wait_for_load_state("networkidle")'):
        "a chapter fetches nothing of Python, no editor and no blocks.json at load",
    ("tests/playground/test_live.py", 'page.wait_for_load_state("networkidle")'):
        "the playground fetches no Python and no Graphviz at load",
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


def networkidle(path):
    """(line, source line stripped) of each "networkidle" in path's code."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    return sorted((node.lineno, lines[node.lineno - 1].strip()) for node in ast.walk(ast.parse(text))
                  if isinstance(node, ast.Constant) and node.value == "networkidle")


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


def test_every_network_quiet_proves_that_nothing_more_is_fetched():
    quiet = [(str(path.relative_to(ROOT)), source) for path in TESTS if path.name != "test_waits.py"
             for _, source in networkidle(path)]
    assert sorted(set(quiet) - set(NETWORKIDLE)) == [], \
        "wait for what it means (BOUND, an element, a promise), or say what the quiet proves in NETWORKIDLE"
    assert sorted(set(NETWORKIDLE) - set(quiet)) == [], "NETWORKIDLE names a wait that is gone"
    assert len(quiet) == len(set(quiet)), "two quiets on lines alike: tell them apart by their comments"


def test_the_check_finds_a_network_quiet(tmp_path):
    code = tmp_path / "test_x.py"
    code.write_text('page.goto(url, wait_until="networkidle")\npage.wait_for_load_state("networkidle")\n'
                    'page.wait_for_load_state("load")  # not networkidle\n', encoding="utf-8")
    assert networkidle(code) == [(1, 'page.goto(url, wait_until="networkidle")'),
                                       (2, 'page.wait_for_load_state("networkidle")')]

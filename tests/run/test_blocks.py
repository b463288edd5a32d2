"""Run any example, without a browser: which pages get Run, the export of a page's blocks
(scripts/pages/blocks.py: every Python block, in page order, hidden and skipped ones marked,
lines right), and the runner that runs an export as pytest runs the page
(scripts/reader/run_blocks.py, in CPython here; tests/run/test_run_browser.py runs it in Pyodide)."""

import builtins
import html.parser
import io
import json
import re
import sys
import types
import zipfile

import pytest
from sybil import Document

from scripts import ROOT
from scripts.build import page_build as pages
from scripts.pages import blocks
from scripts.pages.examples import PYTHON_INFO, python_blocks
from scripts.reader import calls, run_blocks

DOCS = ROOT / "docs"
RUNNABLE = [p for p in sorted(DOCS.glob("*")) if blocks.runnable(p.relative_to(DOCS).as_posix())]
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


def exported(site, page):
    return json.loads((site / page.stem / blocks.EXPORT).read_text(encoding="utf-8"))


# --- Which pages ------------------------------------------------------------------


def test_the_chapters_whose_code_runs_in_the_browser_get_run_and_no_other_page():
    """Chapters 1-5, 7, 8, 10 and 11; not chapters 9 and 12, whose every block needs numpy
    (tests/playground/test_live.py runs 7, 8 and 10 there)."""
    assert [p.name for p in RUNNABLE] == ["01-computational-graphs.md", "02-chain-rule.md",
                                          "03-backprop-by-hand.md", "04-engine.md",
                                          "05-neurons-layers-networks.md", "07-check-break-fix.md",
                                          "08-pytorch.md", "10-under-the-hood.md",
                                          "11-gates-and-granularity.md"]
    for other in ["index.md", "playground.md", "06-training.ipynb", "06-training.py", "09-tensors.md",
                  "12-jacobians-and-vjps.md",
                  "exercises/01-x.md", "01-computational-graphs.ipynb", "100-x.md"]:
        assert not blocks.runnable(other), other
    tensors = python_blocks(Document((DOCS / "09-tensors.md").read_text(encoding="utf-8"), "09-tensors.md"))
    assert "import numpy as np" in str(tensors[0].lexemes["source"]), "why chapter 9 has no Run"


# --- The export -------------------------------------------------------------------


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.name)
def test_every_python_block_is_exported_in_page_order_at_its_line(site, page):
    data = exported(site, page)
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert data["page"] == f"docs/{page.name}"
    code = [b for b in data["blocks"] if b["kind"] != "clear-namespace"]
    assert len(code) == len(python_blocks(Document(text, str(page))))
    assert [b["line"] for b in data["blocks"]] == sorted(b["line"] for b in data["blocks"])
    for block in code:
        opening = lines[block["line"] - 1]
        if block["hidden"]:
            assert re.match(r"\s*<!--\s*invisible-code-block:\s*python", opening), block["line"]
            continue
        fence = FENCE.match(opening)
        assert fence and PYTHON_INFO.fullmatch(fence["info"].strip()), (block["line"], opening)
        body = []
        for line in lines[block["line"]:]:
            if line.strip() == fence["fence"]:
                break
            body.append(line[len(fence["indent"]):])
        assert "\n".join(body) + "\n" == block["source"], block["line"]
        assert block["kind"] == ("doctest" if block["source"].startswith(">>>") else "code")


DEMO = '''\
# Demo

<!-- invisible-code-block: python
hidden = 41
-->

```python
x = hidden + 1
```

```python
>>> x
42
```

<!-- skip: next "not part of the demo" -->
```python
raise RuntimeError("the page skips this")
```

<!-- skip: next -->
```python
>>> 1 / 0
>>> x + 1
43
```

<!-- skip: next if(x == 42, reason="x is 42") -->
```python
raise RuntimeError("skipped too")
```

<!-- skip: next if(x != 42, reason="never") -->
```py
y = x
```

??? note "Folded"

    ```python
    from micrograd import Value, draw_dot
    draw_dot(Value(1.0, label="one"))
    ```
    <!-- figure: one node, labelled one -->

<!-- clear-namespace -->

```python
>>> "x" in globals()
False
```
'''


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A page with every kind of block, run as the build runs it; its export."""
    path = tmp_path_factory.mktemp("demo") / "01-demo.md"
    path.write_text(DEMO, encoding="utf-8")
    result = pages.run(path, "01-demo.md")
    return json.loads(result.files["01-demo/blocks.json"])


class RenderedBlocks(html.parser.HTMLParser):
    """The Python code blocks of a built page, outside exercises, as run-blocks.js finds them:
    <div class="language-python highlight"> (or py, pycon, python3), with their code's text."""

    LANGUAGES = {"language-python", "language-python3", "language-py", "language-pycon"}

    def __init__(self):
        super().__init__()
        self.divs = []  # for each open <div>: "exercise", "python" or ""
        self.blocks = []  # the text of each block's <code>
        self.code = False

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "div":
            inside = "exercise" in self.divs
            python = "highlight" in classes and classes & self.LANGUAGES and not inside
            self.divs.append("exercise" if "exercise" in classes else "python" if python else "")
            if python:
                self.blocks.append("")
        elif tag == "code" and self.divs and self.divs[-1] == "python":
            self.code = True

    def handle_endtag(self, tag):
        if tag == "div" and self.divs:
            self.divs.pop()
        elif tag == "code":
            self.code = False

    def handle_data(self, data):
        if self.code:
            self.blocks[-1] += data


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.name)
def test_a_chapters_rendered_python_blocks_are_its_exported_blocks_in_order(site, page):
    """What run-blocks.js relies on, checked here for every chapter: as many rendered Python
    blocks as visible exported ones, each showing the code that runs (but for skipped blocks,
    such as an included listing)."""
    parser = RenderedBlocks()
    parser.feed((site / page.stem / "index.html").read_text(encoding="utf-8"))
    shown = [b for b in exported(site, page)["blocks"] if not b["hidden"]]
    assert len(parser.blocks) == len(shown)
    for text, block in zip(parser.blocks, shown):
        if not block["skip"]:
            assert text.rstrip() == block["source"].rstrip(), block["line"]


def test_a_conditional_skip_is_exported_for_the_browser_to_decide(demo):
    assert [(b["line"], b["when"]) for b in demo["blocks"] if b["when"]] == [
        (29, {"condition": 'if(x == 42, reason="x is 42")', "examples": [0]}),
        (34, {"condition": 'if(x != 42, reason="never")', "examples": [0]}),
    ]


def test_hidden_skipped_figure_and_clear_namespace_blocks_are_marked(demo):
    assert [(b["line"], b["kind"], b["hidden"], b["skip"], b["figure"]) for b in demo["blocks"]] == [
        (3, "code", True, None, False),
        (7, "code", False, None, False),
        (11, "doctest", False, None, False),
        (17, "code", False, {"reason": "not part of the demo", "examples": [0]}, False),
        (22, "doctest", False, {"reason": None, "examples": [0]}, False),  # skip: next skips one example
        (29, "code", False, {"reason": "x is 42", "examples": [0]}, False),
        (34, "code", False, None, False),  # its condition was false: it ran
        (40, "code", False, None, True),  # a figure
        (46, "clear-namespace", True, None, False),
        (48, "doctest", False, None, False),
    ]
    assert demo["blocks"][0]["source"] == "hidden = 41\n"
    assert demo["blocks"][7]["source"].startswith("from micrograd import Value, draw_dot\n")
    assert blocks.visible_lines(demo) == [7, 11, 17, 22, 29, 34, 40, 48]


def test_a_page_that_is_not_a_chapter_exports_nothing(tmp_path):
    path = tmp_path / "09-other.md"
    path.write_text("# Other\n\n```python\nx = 1\n```\n", encoding="utf-8")
    assert not any(name.endswith(blocks.EXPORT) for name in pages.run(path, "09-other.md").files)


# --- The runner, in CPython ---------------------------------------------------------


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.name)
def test_every_chapter_runs_through_the_runner_as_under_pytest(site, page):
    """Every block of the export, run by run_blocks, gives the page's outputs: nothing differs."""
    data = exported(site, page)
    results = run_blocks.run(data["blocks"], len(data["blocks"]) - 1)
    assert len(results) == len(data["blocks"])
    wrong = [(r["name"], r["line"], r["status"], r["error"]) for r in results if r["status"] not in ("ran", "skipped")]
    assert wrong == []
    assert all(s["same"] for r in results for s in r["transcript"])


def test_the_demo_runs_like_pytest_skips_included(demo):
    results = run_blocks.run(demo["blocks"], len(demo["blocks"]) - 1)
    assert [r["status"] for r in results] == ["ran", "ran", "ran", "skipped", "ran", "skipped", "ran", "ran",
                                              "ran", "ran"]
    partly = results[4]
    assert [s["text"] for s in partly["transcript"]] == [">>> 1 / 0\n", "", ">>> x + 1\n", "43\n"]
    assert partly["transcript"][1].get("skipped") and partly["skip"] == {"reason": None, "examples": [0]}
    assert [r["name"] for r in results[:3]] == ["hidden block before block 1", "block 1", "block 2"]


def code(source, line=1, **fields):
    return {"line": line, "kind": "code", "hidden": False, "source": source, "skip": None, "figure": False,
            **fields}


def doctest_block(source, line=1):
    return {**code(source, line), "kind": "doctest"}


def test_an_edit_replaces_the_pages_text_and_runs_after_the_blocks_before_it():
    page = [code("a = 1\n"), doctest_block(">>> a + 1\n2\n"), doctest_block(">>> a * 10\n10\n")]
    same = run_blocks.run(page, 2)
    assert [r["status"] for r in same] == ["ran", "ran", "ran"] and not any(r["edited"] for r in same)
    edited = run_blocks.run(page, 2, {0: "a = 5\n"})
    assert [(r["status"], r["edited"]) for r in edited] == [("ran", True), ("differs", False), ("differs", False)]
    assert edited[1]["transcript"] == [{"text": ">>> a + 1\n", "output": False, "same": True},
                                       {"text": "6\n", "output": True, "same": False, "page": "2\n"}]
    assert run_blocks.run(page, 1, {1: ">>> a + 2\n3\n"})[1]["status"] == "ran"


def test_an_edit_runs_as_its_own_first_characters_say_and_its_result_says_which():
    """A new reader's audit: a doctest edited to start with a line of code ran as code, its
    SyntaxError kept in "error", but the result still said "doctest", and the page showed its
    empty transcript as "every result is the one the page shows". The result's kind is how
    the text ran, as Sybil decides (its first characters), the other way round too."""
    page = [doctest_block(">>> 2 + 2\n4\n"), code("print('hi')\n")]
    as_code, as_doctest = run_blocks.run(page, 1, {0: "x = 1\n>>> 2 + 2\n4\n", 1: ">>> 3 * 3\n9\n"})
    assert (as_code["kind"], as_code["status"], as_code["transcript"]) == ("code", "error", [])
    assert as_code["error"].splitlines()[-1].startswith("SyntaxError"), as_code["error"]
    assert (as_doctest["kind"], as_doctest["status"]) == ("doctest", "ran")
    assert [s["text"] for s in as_doctest["transcript"]] == [">>> 3 * 3\n", "9\n"]
    unread, kept = run_blocks.run(page, 1, {0: ">>>2 + 2\n4\n"})
    assert (unread["kind"], unread["status"], unread["transcript"]) == ("doctest", "error", [])
    assert unread["error"].startswith("ValueError") and kept["kind"] == "code"


def test_an_expected_output_the_reader_wrote_is_theirs_not_the_pages():
    """A hostile audit: an edited doctest whose expected output was changed showed it as "page:".
    An example whose input and expected output the page has keeps "page"; one the reader wrote or
    changed is marked "edit", with what it expects as "expected"."""
    page = [doctest_block(">>> 2 + 2\n4\n>>> 3 * 3\n9\n")]
    (result,) = run_blocks.run(page, 0, {0: ">>> 2 + 2\n5\n>>> 3 * 3\n10\n>>> 1 + 1\n2\n"})
    outputs = [s for s in result["transcript"] if s["output"]]
    assert outputs == [{"text": "4\n", "output": True, "same": False, "edit": True, "expected": "5\n"},
                       {"text": "9\n", "output": True, "same": False, "edit": True, "expected": "10\n"},
                       {"text": "2\n", "output": True, "same": True, "edit": True}]
    (kept,) = run_blocks.run(page, 0, {0: ">>> 2 + 2\n4\n>>> 3 * 4\n9\n"})  # the first example is the page's
    assert [(s["same"], s.get("edit", False), s.get("page"), s.get("expected"))
            for s in kept["transcript"] if s["output"]] == [(True, False, None, None), (False, True, None, "9\n")]


def test_what_a_code_block_prints_is_its_output_and_an_error_does_not_stop_the_run():
    results = run_blocks.run([code("print('one')\nx = 1 / 0\n"), code("print('after')\n")], 1)
    assert results[0]["status"] == "error" and results[0]["output"] == "one\n"
    lines = results[0]["error"].splitlines()  # the runner's own frames left out
    assert lines[:3] == ["Traceback (most recent call last):", '  File "<block 1>", line 2, in <module>',
                         "    x = 1 / 0"]
    assert lines[-1] == "ZeroDivisionError: division by zero"
    assert (results[1]["status"], results[1]["output"]) == ("ran", "after\n")


def test_a_doctest_shows_each_examples_actual_output_and_an_expected_exception_as_the_page():
    page = [doctest_block(">>> print('hi')\nhi\n>>> 1 / 0\nTraceback (most recent call last):\n    ...\n"
                          "ZeroDivisionError: division by zero\n\n>>> 2 + 2\n5\n")]
    (result,) = run_blocks.run(page, 0)
    assert result["status"] == "differs"
    assert "".join(s["text"] for s in result["transcript"]) == page[0]["source"].replace("\n5\n", "\n4\n")
    assert [s["same"] for s in result["transcript"] if s["output"]] == [True, True, False]


def test_an_unexpected_exception_in_a_doctest_is_an_error_with_its_traceback():
    (result,) = run_blocks.run([doctest_block(">>> {}['missing']\n1\n")], 0)
    assert result["status"] == "error"
    wrong = result["transcript"][1]
    assert wrong["exception"] and wrong["text"].endswith("KeyError: 'missing'")


def test_a_doctests_traceback_names_the_block_and_counts_its_examples_from_1():
    """Each example runs as a doctest of its own; its traceback still says which one it is."""
    source = ">>> 1\n1\n>>> def half(x):\n...     return x / 0\n>>> half(3)\n1.5\n"
    (result,) = run_blocks.run([doctest_block(source)], 0)
    text = result["transcript"][-1]["text"]
    assert text == ('Traceback (most recent call last):\n'
                    '  File "<block 1, example 3>", line 1, in <module>\n    half(3)\n'
                    '  File "<block 1, example 2>", line 2, in half\n    return x / 0\n           ~~^~~\n'
                    'ZeroDivisionError: division by zero'), text


def test_input_in_a_block_says_it_is_not_available():
    (result,) = run_blocks.run([code("name = input('?')\n")], 0)
    assert result["error"].splitlines()[-1] == (
        "RuntimeError: input() is not available in the browser: Python here has no keyboard to read from. "
        "Put the value in a variable instead (for example x = 2.0 where you would type 2.0).")
    assert "reader_code.py" not in result["error"]
    assert builtins.input.__module__ == "builtins", "input() is the real one again after the run"


def test_code_blocks_and_doctests_see_the_namespace_as_sybil_gives_it(tmp_path, capsys):
    """__name__, a class's module, __builtins__: the same under Sybil and under the runner."""
    page = tmp_path / "01-names.md"
    page.write_text("```python\nprint(__name__, '__builtins__' in globals())\nclass A: pass\n```\n\n"
                    "```python\nprint(A.__module__, sorted(k for k in globals() if k.startswith('__')))\n```\n\n"
                    "```python\n>>> print(__name__, A.__module__)\n__test__ builtins\n```\n\n"
                    "```python\nprint(sorted(k for k in globals() if k.startswith('__')))\n```\n",
                    encoding="utf-8")
    for example in Document.parse(str(page), *pages.parsers()):
        example.evaluate()
    under_sybil = capsys.readouterr().out
    data = json.loads(pages.run(page, "01-names.md").files["01-names/blocks.json"])
    results = run_blocks.run(data["blocks"], 3)
    assert [r["status"] for r in results] == ["ran"] * 4
    assert "".join(r["output"] for r in results) == under_sybil


def test_a_block_that_needs_a_missing_package_says_why_in_one_line_and_does_not_stop_the_page(monkeypatch):
    page = [code("import no_such_package_for_figures\nfig = 1\nfig\n", figure=True), code("print('next')\n")]
    results = run_blocks.run(page, 1)
    assert results[0]["status"] == "unavailable"
    assert results[0]["error"] == "ModuleNotFoundError: No module named 'no_such_package_for_figures'"
    assert results[0]["why"] == ("Python in your browser has the standard library and micrograd, "
                                 "not no_such_package_for_figures.")
    assert results[1]["output"] == "next\n"
    (plain,) = run_blocks.run([code("import no_such_package_for_figures.sub\n")], 0)  # not a figure: the same
    assert plain["status"] == "unavailable" and plain["module"] == "no_such_package_for_figures"
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as in Pyodide: no matplotlib
    (plot,) = run_blocks.run([code("import matplotlib.pyplot as plt\nplt\n", figure=True)], 0)
    assert plot["why"] == run_blocks.UNAVAILABLE["matplotlib"] and "\n" not in plot["why"]
    assert plot["why"].startswith("Python in your browser has no matplotlib, so this block runs in full only on ")
    assert plot["stopped"] is None  # it stopped at its first line: nothing of it ran
    # Lines before the import ran, and what they printed is kept (a new reader's audit: "Not run")
    (part,) = run_blocks.run([code("xs = [1, 2]\nprint('computed')\n\nimport matplotlib.pyplot as plt\nplt\n")], 0)
    assert (part["status"], part["output"]) == ("unavailable", "computed\n")
    assert part["stopped"] == {"line": 4, "code": "import matplotlib.pyplot as plt"}


def test_a_conditional_skip_is_decided_in_the_readers_namespace(demo):
    """A page built with PyTorch ran its PyTorch blocks; the browser, without it, skips them."""
    when = {"condition": 'if(torch is None, reason="PyTorch is not installed: pip install torch")',
            "examples": [0]}
    page = [code("torch = None\n"), code("torch.tensor(1.0)\n", when=when),
            doctest_block(">>> torch.zeros(1)\n0\n>>> 2\n2\n"), code("print(1)\n", when=when)]
    page[2]["when"] = {**when, "examples": [0]}
    results = run_blocks.run(page, 3)
    assert [r["status"] for r in results] == ["ran", "skipped", "ran", "skipped"]
    assert results[1]["skip"] == {"reason": "PyTorch is not installed: pip install torch", "examples": [0]}
    assert results[2]["transcript"][1].get("skipped") and results[2]["transcript"][3]["same"]
    torch_here = run_blocks.run([code("torch = 1\n"), code("print('ran')\n", when=when)], 1)
    assert torch_here[1]["status"] == "ran" and torch_here[1]["output"] == "ran\n"
    broken = run_blocks.run([code("print('no torch name')\n", when=when)], 0)  # cannot decide: it runs
    assert broken[0]["status"] == "ran"


def test_a_block_ending_in_draw_dot_gives_its_dot_source_as_the_build_draws_it():
    from micrograd import Value, draw_dot

    page = [code("from micrograd import Value, draw_dot\na = Value(2.0, label='a')\nb = a * 3\n"),
            code("b.backward()\ndraw_dot(b)\n", figure=True), code("print('no figure')\n"), code("b\n")]
    results = run_blocks.run(page, 3)
    a = Value(2.0, label="a")
    b = a * 3
    b.backward()
    assert results[1]["dot"] == draw_dot(b).source
    assert results[1]["dot_narrow"] == draw_dot(b, rankdir="TB").source  # for a phone (issue 27)
    assert [r["dot"] for r in (results[0], results[2], results[3])] == [None, None, None]
    assert [r["dot_narrow"] for r in (results[0], results[2], results[3])] == [None, None, None]
    (error,) = run_blocks.run([code("x = 1\ndraw_dot(x)\n")], 0)  # the last expression's error, as exec's
    assert error["status"] == "error" and 'File "<block 1>", line 2' in error["error"]


def test_a_graph_too_big_to_draw_gives_its_size_and_no_dot(monkeypatch):
    """A new reader's audit: a graph over the page's limit gave no DOT and nothing else, and the
    page said the edit "no longer ends in draw_dot(...)"."""
    monkeypatch.setattr(run_blocks, "MAX_DOT", 40)
    source = "import graphviz\ng = graphviz.Digraph()\ng.node('a', 'x' * 50)\ng\n"
    (result,) = run_blocks.run([code(source)], 0)
    assert result["dot"] is None and result["dot_too_big"]["limit"] == 40
    assert result["dot_too_big"]["chars"] > 50
    (small,) = run_blocks.run([code(source.replace("50", "5"))], 0)
    assert small["dot"] and small["dot_too_big"] is None


def test_graphs_are_taken_apart_before_the_namespace_is_freed():
    """In Pyodide, freeing a chain of 2,000 operations at once overflows the browser's stack."""
    ran = []
    page = [code("from micrograd import Value\nchain = [Value(0.0)]\nfor _ in range(3):\n"
                 "    chain.append(chain[-1] + 1)\nimport builtins\nbuiltins._run_blocks_test = chain\n")]
    try:
        run_blocks.run(page, 0, on_block=ran.append)
        assert [node._prev for node in builtins._run_blocks_test] == [(), (), (), ()]
        assert ran == [0]
    finally:
        builtins.__dict__.pop("_run_blocks_test", None)


def test_the_page_calls_run_blocks_with_json_and_reads_json(demo):
    answer = json.loads(calls.call_json("run_blocks", json.dumps({"blocks": demo["blocks"], "upto": 2,
                                                                 "edits": {"1": "x = 2\n"}})))
    assert answer["ok"]
    data = answer["value"]
    assert set(data) == {"results", "seconds", "python", "bits"} and data["bits"] == 64  # this machine's
    assert [r["status"] for r in data["results"]] == ["ran", "ran", "differs"]


# --- The page: the hook puts the export's lines and the script on a chapter ---------------


def test_a_chapter_names_its_export_and_the_lines_of_its_visible_blocks(site):
    page = (site / "01-computational-graphs" / "index.html").read_text(encoding="utf-8")
    # hidden or hidden="", the same attribute to a browser (an HTML parser that rewrites the
    # built page, as mkdocs-glightbox's did on every page, writes a boolean attribute so)
    (marker,) = re.findall(r'<div class="bv-run" hidden(?:="")? [^>]*>', page)
    data = exported(site, DOCS / "01-computational-graphs.md")
    assert f'data-lines="{" ".join(map(str, blocks.visible_lines(data)))}"' in marker
    assert re.search(r'data-blocks="blocks\.json\?v=[0-9a-f]{12}"', marker)
    (runtime,) = re.findall(r'<div class="bv-python" hidden(?:="")? [^>]*>', page)
    assert 'data-runtime="../assets/pyodide/' in runtime
    assert 'data-python="../assets/python/site-python.zip?v=' in runtime
    assert "run-blocks.js" not in page  # widgets.js, on every page, loads it where .bv-run is
    rendered = RenderedBlocks()  # an exercise's starter and solution are not the page's blocks
    rendered.feed(page)
    assert len(rendered.blocks) == len(blocks.visible_lines(data))
    for other in ["09-tensors", "playground", "index"]:
        html = (site / other / "index.html" if other != "index" else site / "index.html").read_text(encoding="utf-8")
        assert "bv-run" not in html and "run-blocks.js" not in html


def test_only_a_visible_block_gets_an_empty_box_after_it_for_its_run():
    """run-blocks.js fills the box (its Run bar, editor, progress, output): added beside the
    block, they changed the article's children, and Chromium styled the whole article again."""
    visible = '<div id="block-2" class="language-python highlight"><pre><span></span><code>x = 1\n</code></pre></div>'
    other = '<div class="language-python highlight"><pre><span></span><code>y = 2\n</code></pre></div>'
    page = f"<p>a</p>\n{visible}\n<p>b</p>\n{other}\n"
    assert blocks.run_slots(page) == f'<p>a</p>\n{visible}<div class="bv-run-slot"></div>\n<p>b</p>\n{other}\n'


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.name)
def test_each_visible_block_of_a_built_chapter_has_its_box_right_after_it(site, page):
    built = (site / page.stem / "index.html").read_text(encoding="utf-8")
    shown = [b for b in exported(site, page)["blocks"] if not b["hidden"]]
    assert built.count('<div class="bv-run-slot"></div>') == len(shown) > 0
    assert built.count('</code></pre></div><div class="bv-run-slot"></div>') == len(shown)


def test_a_chapter_without_its_export_fails_the_build_and_a_page_with_no_visible_block_gets_nothing():
    class Files:
        def __init__(self, content):
            self.content = content

        def get_file_from_path(self, path):
            assert path == "01-x/blocks.json"
            return self.content and types.SimpleNamespace(content_bytes=self.content.encode(), dest_uri=path)

    with pytest.raises(LookupError, match=r"^docs/01-x.md: no blocks.json was exported"):
        blocks.run_markup("01-x.md", "01-x/", Files(None))
    hidden_only = json.dumps({"page": "docs/01-x.md", "blocks": [code("x = 1\n", hidden=True)]})
    assert blocks.run_markup("01-x.md", "01-x/", Files(hidden_only)) == ""
    one = json.dumps({"page": "docs/01-x.md", "blocks": [code("x = 1\n", line=3)]})
    out = blocks.run_markup("01-x.md", "01-x/", Files(one))
    assert out.startswith('<div class="bv-run" hidden data-blocks="blocks.json?v=')
    assert 'data-lines="3"></div>' in out
    assert out.endswith("></div>\n") and "<script" not in out


def test_the_zip_holds_the_runner_and_graphviz_for_draw_dot(site):
    with zipfile.ZipFile(io.BytesIO((site / "assets" / "python" / "site-python.zip").read_bytes())) as archive:
        names = set(archive.namelist())
    assert {"scripts/reader/run_blocks.py", "graphviz/__init__.py", "graphviz/LICENSE.txt"} <= names
    assert not any("__pycache__" in name for name in names)


def test_the_runner_is_stdlib_only():
    """What runs in Pyodide imports only the standard library and the site's zip: the reader's
    package scripts/reader/ (zipped whole) and micrograd. (.importlinter forbids it the build's
    packages too.)"""
    import ast

    in_zip = {f"scripts.reader.{p.stem}" for p in (ROOT / "scripts" / "reader").glob("*.py")} | {"scripts.reader"}
    assert "scripts.reader.run_blocks" in in_zip
    for module in sorted(in_zip - {"scripts.reader"}):
        tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        outside = {name for name in imported if name.split(".")[0] not in sys.stdlib_module_names
                   and name not in in_zip and name.split(".")[0] != "micrograd"}
        assert not outside, f"{module} imports {outside}, which Python in the browser does not have"


def test_every_reader_of_a_block_calls_it_a_doctest_exactly_when_sybil_does():
    """The build, the notebooks, Run and the copy button read a block's kind through one function,
    is_doctest. Six of them had their own test, five with lstrip(): a block whose first line is
    blank or indented, which Sybil runs as code, they read as a doctest."""
    from scripts.pages.examples import PythonFenceParser
    from scripts.reader.reader_code import is_doctest

    fences = [">>> 1 + 1\n2\n", "\n>>> 1 + 1\n2\n", "  >>> 1 + 1\n2\n", "x = 1\n>>> x\n"]
    document = Document("".join(f"```python\n{fence}```\n\n" for fence in fences), "page.md")
    # one region per block here: each doctest block holds one example
    sybil = [type(r.evaluator).__name__ == "DocTestEvaluator" for r in PythonFenceParser()(document)]
    ours = [is_doctest(str(b.lexemes["source"])) for b in python_blocks(document)]
    assert ours == sybil == [True, False, False, False]
    assert not any("lstrip().startswith(\">>>\")" in path.read_text(encoding="utf-8")
                   for path in (ROOT / "scripts").rglob("*.py")), "one decision, in reader_code.is_doctest"

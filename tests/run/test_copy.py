"""Copy gives code that runs: a doctest block's copy button copies its code only (no `>>> `
prompts, no printed results), an ordinary block copies as it is, and on every Markdown page
the copied texts, in page order, run in a fresh interpreter (scripts/pages/copy_code.py)."""

import code
import contextlib
import doctest
import html.parser
import io
import json
import os
import subprocess
import sys
import time

import markdown
import pytest
from sybil import Document

from scripts import ROOT
from scripts.pages import blocks, copy_code
from scripts.pages.copy_code import doctest_code
from scripts.reader.reader_code import is_doctest
from tests.helpers import COPY_BUTTON, MOUNT_BLOCK

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
WITH_CODE = [p for p in PAGES if "```" in p.read_text(encoding="utf-8")]  # not docs/your-engine.md: no code

# --- doctest_code: the text a doctest block copies ------------------------------------------


@pytest.mark.parametrize("source, copied", [
    pytest.param(">>> x = 1\n>>> x + 1\n2\n", "x = 1\nx + 1\n", id="prompts-and-output"),
    pytest.param(">>> for i in range(2):\n...     print(i)\n0\n1\n", "for i in range(2):\n    print(i)\n",
                 id="continuation"),
    pytest.param(">>> def f(x):\n...     y = x * 2\n...\n...     return y\n...\n>>> f(3)\n6\n",
                 "def f(x):\n    y = x * 2\n\n    return y\n\nf(3)\n", id="blank-continuation-lines"),
    pytest.param('>>> print("a\\nb")\na\nb\n>>> (1,\n...  2)\n(1, 2)\n', 'print("a\\nb")\n(1,\n 2)\n',
                 id="outputs-of-several-lines"),
    pytest.param(">>> 1 / 0\nTraceback (most recent call last):\n  ...\nZeroDivisionError: division by zero\n",
                 "1 / 0\n", id="traceback"),
    pytest.param(">>> total = 0\n>>> for v in [1, 2]:\n...     total += v\n>>> total\n3\n"
                 ">>> int('x')\nTraceback (most recent call last):\n...\n"
                 "ValueError: invalid literal for int() with base 10: 'x'\n>>> total  # still 3\n3\n",
                 "total = 0\nfor v in [1, 2]:\n    total += v\n\ntotal\nint('x')\ntotal  # still 3\n", id="mixed"),
    pytest.param("    >>> x = [1,\n    ...      2]\n    >>> x\n    [1, 2]\n", "x = [1,\n     2]\n\nx\n",
                 id="indented"),
    pytest.param(">>> # a comment alone, which doctest drops\n>>> 1\n1\n", "1\n", id="comment-line"),
])
def test_doctest_code_is_the_code_without_prompts_or_outputs(source, copied):
    assert doctest_code(source) == copied


def test_a_malformed_doctest_block_is_a_value_error():
    with pytest.raises(ValueError, match="lacks blank after >>>"):
        doctest_code(">>>x = 1\n")


def test_copied_code_pastes_into_the_interactive_interpreter():
    """A compound statement ends at a blank line there, so one is put after it: pushed line by
    line into code.InteractiveConsole (what pasting into `python` does), the mixed block runs."""
    source = (">>> for v in [1, 2]:\n...     total = v\n>>> total\n2\n"
              ">>> if total:\n...     done = True\n>>> done\nTrue\n")
    console = code.InteractiveConsole({})
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        for line in doctest_code(source).splitlines():
            console.push(line)
        console.push("")
    assert errors.getvalue() == ""
    assert console.locals["done"] is True


def test_the_copy_attribute_is_escaped_for_html_and_only_on_doctest_blocks():
    source = '>>> s = "<a & b>"\n>>> s\n\'<a & b>\'\n'
    (value,) = copy_code.copy_attribute(source).values()
    assert value == "s = &quot;&lt;a &amp; b&gt;&quot;\ns\n"
    assert copy_code.copy_attribute('s = "<a & b>"\ns\n') == {}


# --- The rendered pages: the same HTML, plus data-copy on each doctest block ----------------


@pytest.fixture(scope="module")
def mkdocs_config():
    from mkdocs.config import load_config

    return load_config(str(ROOT / "mkdocs.yml"))


def render(config, text, fences):
    """A page's Markdown as HTML, with mkdocs.yml's extensions (str); fences: the custom fences
    of pymdownx.superfences (the hook's, or [] for SuperFences' own)."""
    configs = {**config.mdx_configs, "pymdownx.superfences": {"custom_fences": fences}}
    return markdown.Markdown(extensions=config.markdown_extensions, extension_configs=configs).convert(text)


class CopyAttributes(html.parser.HTMLParser):
    """The data-copy value (unescaped) of each element that has one, in document order."""

    def __init__(self, page_html):
        super().__init__()
        self.values = []
        self.feed(page_html)

    def handle_starttag(self, tag, attrs):
        self.values += [value for name, value in attrs if name == "data-copy"]


def test_the_hook_registers_the_fences_and_refuses_a_clash():
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    hook = config.plugins["scripts/build/hooks/copy_code.py"]
    config = hook.on_config(config)
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert [f["name"] for f in fences] == list(copy_code.LANGUAGES)
    with pytest.raises(ValueError, match="custom fences for"):
        hook.on_config(config)  # a second time: as if mkdocs.yml gave a python fence of its own


def test_the_fences_join_superfences_own_and_need_it():
    configs = {"pymdownx.superfences": {"custom_fences": [{"name": "mermaid", "class": "mermaid"}]}}
    copy_code.add_custom_fences(["admonition", "pymdownx.superfences"], configs)
    fences = configs["pymdownx.superfences"]["custom_fences"]
    assert [f["name"] for f in fences] == ["mermaid", *copy_code.LANGUAGES]
    assert all(f["format"] is copy_code.format_python for f in fences[1:])
    empty = {}
    copy_code.add_custom_fences(["pymdownx.superfences"], empty)  # no settings of its own: made
    assert [f["name"] for f in empty["pymdownx.superfences"]["custom_fences"]] == list(copy_code.LANGUAGES)
    with pytest.raises(ValueError, match="needs pymdownx.superfences"):
        copy_code.add_custom_fences(["admonition"], {})
    with pytest.raises(ValueError, match=r"custom fences for \['py', 'pycon', 'python', 'python3'\]"):
        copy_code.add_custom_fences(["pymdownx.superfences"], configs)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_page_renders_as_before_with_data_copy_on_each_doctest_block(page, mkdocs_config, monkeypatch):
    """The page's HTML is SuperFences' own but for the attribute (rendered with copy_attribute
    giving nothing, it is byte for byte the same), and the attributes are the page's visible
    doctest blocks' code, in order."""
    monkeypatch.chdir(ROOT)  # pymdownx.snippets' base_path
    text = page.read_text(encoding="utf-8")
    before = render(mkdocs_config, text, [])
    with_copy = render(mkdocs_config, text, copy_code.custom_fences())
    monkeypatch.setattr(copy_code, "copy_attribute", lambda source: {})
    assert render(mkdocs_config, text, copy_code.custom_fences()) == before
    document = Document(text, str(page))
    doctests = [str(r.lexemes["source"]) for r in blocks.python_blocks(document)
                if "directive" not in r.lexemes and is_doctest(str(r.lexemes["source"]))]
    assert CopyAttributes(with_copy).values == [doctest_code(source) for source in doctests]


# --- Running what was copied ------------------------------------------------------------------

# The fresh interpreter: reads [{"where", "code", "raises", "namespace"}] as JSON on stdin and
# runs each code as a .py file would (compiled whole, not line by line), in order. namespace
# "page": the page's one namespace; "own": a namespace of its own (an exercise's code);
# "clear": the page's namespace starts again (Sybil's clear-namespace). raises: None, or the
# last line of the traceback the page shows for it, which it must raise. The first other
# error is printed to stderr, with its traceback, and exits 1.
CHILD = r"""
import json, sys, traceback
page = {"__name__": "__main__"}
for block in json.load(sys.stdin):
    if block["namespace"] == "clear":
        page = {"__name__": "__main__"}
        continue
    namespace = page if block["namespace"] == "page" else {"__name__": "__main__"}
    try:
        exec(compile(block["code"], block["where"], "exec"), namespace)
    except Exception as error:
        shown = traceback.format_exception_only(type(error), error)[-1]
        if shown == block["raises"]:
            continue
        print(f"{block['where']}: the copied code raised"
              + (f" (the page shows {block['raises']!r})" if block["raises"] else "") + ":", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
    if block["raises"]:
        print(f"{block['where']}: the page shows {block['raises']!r}, the copied code raised nothing",
              file=sys.stderr)
        sys.exit(1)
"""


def run_copied(copied, cwd):
    """Run copied code in a fresh interpreter of this venv (which has micrograd installed),
    in folder cwd, with matplotlib's Agg backend and no PYTHONPATH (so not `scripts`).

    copied: a list of {"where": "docs/<page>.md:<line>", "code": str, "raises": str or None,
    "namespace": "page", "own" or "clear"} (see CHILD). Returns the CompletedProcess:
    returncode 0 if every code ran as the page says; else 1, and stderr names the block
    and gives the traceback.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(copied), cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_runner_fails_on_a_copied_doctest_block_with_its_prompts(tmp_path):
    """What Material copied before scripts/pages/copy_code.py: the block as shown. It fails the
    runner; its code (what the button copies now) runs, in one namespace with the next block."""
    shown = ">>> from micrograd import Value\n>>> a = Value(2.0)\n>>> (a * a).data\n4.0"
    failed = run_copied([{"where": "docs/x.md:1", "code": shown, "raises": None, "namespace": "page"}], tmp_path)
    assert failed.returncode == 1
    assert "docs/x.md:1: the copied code raised" in failed.stderr and "SyntaxError" in failed.stderr
    ran = run_copied([{"where": "docs/x.md:1", "code": doctest_code(shown), "raises": None, "namespace": "page"},
                      {"where": "docs/x.md:6", "code": "assert a.data == 2.0", "raises": None,
                       "namespace": "page"}], tmp_path)
    assert ran.returncode == 0, ran.stderr


@pytest.mark.parametrize("code, raises, message", [
    ("1 / 0", "ValueError: no\n", "the page shows 'ValueError: no\\n'"),
    ("1 / 1", "ZeroDivisionError: division by zero\n", "the copied code raised nothing"),
])
def test_the_runner_fails_unless_the_code_raises_what_the_page_shows(tmp_path, code, raises, message):
    result = run_copied([{"where": "docs/x.md:3", "code": code, "raises": raises, "namespace": "page"}], tmp_path)
    assert result.returncode == 1 and message in result.stderr
    right = run_copied([{"where": "docs/x.md:3", "code": "1 / 0", "namespace": "page",
                         "raises": "ZeroDivisionError: division by zero\n"}], tmp_path)
    assert right.returncode == 0, right.stderr


# OPEN shows the fold (<details>) or the tab (pymdownx.tabbed) a block is in, as a reader
# opens it, and says whether the block is shown (not an exercise's starter code that
# exercise.js has put its editor in place of). SHOW scrolls the block's copy button to the
# middle of the window and writes "" to the clipboard; it returns the middle of the button,
# where the mouse clicks, or null if the button is not shown.
# Playwright's locator.click() does the same in about twice the time (its checks of the
# element's stability).
OPEN = """(block) => {
  for (let node = block; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
    if (node.classList.contains("tabbed-block")) {
      const tab = [...node.parentElement.children].indexOf(node);
      node.closest(".tabbed-set").querySelectorAll(":scope > input")[tab].click();
    }
  }
  return block.getClientRects().length > 0;
}"""
SHOW = """([block, selector]) => {
  const button = block.querySelector(selector);
  if (!button.getClientRects().length) return null;  // the page's script hides the block
  button.scrollIntoView({block: "center", behavior: "instant"});  // the top of a long block
  const box = button.getBoundingClientRect();
  return navigator.clipboard.writeText("").then(() => [box.x + box.width / 2, box.y + box.height / 2]);
}"""

# Wait until each exercise editor that exercise.js has begun to load (those near the viewport) is
# in place, or failed: its `loading` promise settles either way (exercise.js: loadEditor).
EDITORS_IN_PLACE = """() => Promise.all([...document.querySelectorAll('.exercise[data-exercise]')]
  .map((block) => block.exerciseState?.loading))"""

# The code blocks, in page order (each gets a copy button once shown), and what each is:
# "python" (a Python block, as run-blocks.js finds them), "exercise" (one inside an exercise)
# or "other".
CODE_BLOCKS = "article div.highlight"
KINDS = """blocks => blocks.map((block) =>
  !["python", "python3", "py", "pycon"].some((l) => block.classList.contains(`language-${l}`)) ? "other"
  : block.closest(".exercise") ? "exercise" : "python")"""


def copy_every_block(browser, url):
    """Click the copy button of every code block of the page at url, in page order, as a
    reader does (opening its fold or tab first); returns [(kind, copied text)], kind "python",
    "exercise" (an exercise's starter or solution code) or "other" (not Python). The text is
    None for an exercise block the page's script hides (no reader can press its button); a
    page's Python block is always shown."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        # the page at rest, as a reader finds it: the exercises' editors (fetched by
        # exercise.js) are in place of their starter code. Material adds a block's copy button
        # when the block comes into view (content.lazy), so each shown block is scrolled to and
        # must get one.
        page.goto(url, wait_until="load")  # returns once the widgets are bound (tests/conftest.py)
        page.evaluate(EDITORS_IN_PLACE)
        kinds = page.eval_on_selector_all(CODE_BLOCKS, KINDS)
        copied = []
        for kind, block in zip(kinds, page.query_selector_all(CODE_BLOCKS), strict=True):
            where = f"{url}: block {len(copied) + 1} ({kind})"
            if not page.evaluate(OPEN, block):  # the page's script hides it
                assert kind == "exercise", f"{where} is not shown"
                copied.append((kind, None))
                continue
            mounted = page.evaluate(MOUNT_BLOCK, block)
            assert mounted != "never", f"{where} is shown and has no copy button"
            position = None
            for _ in range(2 if mounted == "mounted" else 0):  # again if the layout moved under the mouse
                position = page.evaluate(SHOW, [block, COPY_BUTTON])
                if position is None:
                    break
                page.mouse.click(*position)
                text = page.evaluate("navigator.clipboard.readText()")
                if text:
                    break
            if position is None:  # the page's script hid it meanwhile
                assert kind == "exercise", f"{where} is not shown"
                copied.append((kind, None))
                continue
            assert text, f"{where}: its copy button copied nothing"
            copied.append((kind, text))
        return copied
    finally:
        context.close()


def examples_in(block):
    """How many examples Sybil counts in an exported block: one per `>>>` example, one for code."""
    return len(doctest.DocTestParser().get_examples(block["source"])) if block["kind"] == "doctest" else 1


def to_run(path, export, copied):
    """Pair each visible block of the export with the text its copy button gave (same order),
    check the text is the block's code, and return (what run_copied runs, [(line, reason)]
    of the blocks the page skipped, which are not run)."""
    where = path.relative_to(ROOT)
    visible = [b for b in export["blocks"] if not b["hidden"]]
    texts = [text for kind, text in copied if kind == "python"]
    assert len(texts) == len(visible), f"{where}: {len(texts)} Python copy buttons, {len(visible)} Python blocks"
    texts = iter(texts)
    runs, skipped = [], []
    for block in export["blocks"]:
        if block["kind"] == "clear-namespace":
            runs.append({"namespace": "clear"})
            continue
        if block["hidden"]:  # <!-- invisible-code-block -->: not on the page; copied code must not need it
            continue
        text, source = next(texts), block["source"]
        if block["skip"]:
            # The copied block runs whole, so the page must have skipped all of it or none.
            assert len(block["skip"]["examples"]) == examples_in(block), (
                f"{where}:{block['line']}: the page skipped some of this block's examples only")
            skipped.append((block["line"], block["skip"]["reason"]))
            continue
        # What Sybil ran (a skipped block may show other text: chapter 4's included listing)
        expected = doctest_code(source) if block["kind"] == "doctest" else source
        assert text == expected.rstrip(), f"{where}:{block['line']}: the copy button gave other text"
        raises = None
        if block["kind"] == "doctest":
            examples = doctest.DocTestParser().get_examples(source)
            raising = [n for n, e in enumerate(examples) if e.exc_msg is not None]
            # The copied code stops at an error: only the block's last example may show one.
            assert raising in ([], [len(examples) - 1]), (
                f"{where}:{block['line']}: an example shows a traceback and more code follows it in "
                "the block; copied, that code never runs (end the block after the traceback)")
            raises = examples[-1].exc_msg
        runs.append({"where": f"{where}:{block['line']}", "code": text, "raises": raises, "namespace": "page"})
    return runs, skipped


@pytest.mark.parametrize("path", WITH_CODE, ids=lambda p: p.name)
def test_what_every_copy_button_gives_runs_in_page_order(path, browser, origin, fresh_run, tmp_path,
                                                         record_property):
    """For each Markdown page of the built site: click every copy button, in page order; the
    Python blocks' texts run, in order, in one namespace, in a fresh interpreter, with no error
    but the tracebacks the page itself shows. An exercise's starter and solution code each runs
    in a namespace of its own (they are whole programs, not steps of the page). Not run: the
    blocks the page skips, with the page's reason (chapter 8's PyTorch blocks without PyTorch;
    chapter 4's listing of micrograd/engine.py, which pytest does not run either), hidden setup
    (not shown, so the copied code must run without it), an exercise's starter code once its
    editor has replaced it (its button cannot be pressed), and blocks that are not Python (a
    shell command on the home page, a printed trace in chapter 10)."""
    start = time.perf_counter()
    url = origin + ("/" if path.name == "index.md" else f"/{path.stem}/")
    copied = copy_every_block(browser, url)
    export = json.loads(fresh_run(path).blocks)  # the page run as pytest runs it: each block's outcome
    runs, skipped = to_run(path, export, copied)
    exercises = [text for kind, text in copied if kind == "exercise" and text is not None]
    runs += [{"where": f"{path.relative_to(ROOT)}: exercise code {n}", "code": text, "raises": None,
              "namespace": "own"} for n, text in enumerate(exercises, 1)]
    result = run_copied(runs, tmp_path)
    assert result.returncode == 0, result.stderr
    counts = {"buttons": len(copied), "python": sum(kind == "python" for kind, _ in copied),
              "doctest": sum(b["kind"] == "doctest" and not b["hidden"] for b in export["blocks"]),
              "exercise": len(exercises), "exercise hidden": sum(text is None for _, text in copied),
              "other": sum(kind == "other" for kind, _ in copied),
              "ran": sum(r["namespace"] != "clear" for r in runs), "skipped": skipped,
              "seconds": round(time.perf_counter() - start, 1)}
    record_property("copy", counts)

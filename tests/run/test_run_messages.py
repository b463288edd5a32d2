"""What a Run on a chapter block says, checked against what ran (issue 24, item 1), in
Debian's Chromium on the built site: a block that did not run (the page skips it, or the
browser lacks what it needs) says so under itself in one line and is never counted among
the blocks that ran or the results that match the page.

The expected messages are computed from each page's export (blocks.json: which blocks the
page skips, and why), not written out, so a page that skips other blocks tomorrow still
checks the same rule."""

import json
import re

import pytest

from scripts import ROOT
from scripts.pages import blocks
from tests.chapter_page import edit
from tests.helpers import wait_for_text

RUN = "document.querySelector('.bv-run').runState"
SECONDS = r"[0-9.]+ s"


@pytest.fixture(scope="module")
def page(browser, origin):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.origin = origin
    yield page
    page.close()


def visible(site, name):
    """The visible blocks of a chapter's export, with n (their number on the page) and index."""
    exported = json.loads((site / name / blocks.EXPORT).read_text(encoding="utf-8"))["blocks"]
    shown = [dict(b, index=i) for i, b in enumerate(exported) if not b["hidden"]]
    return [dict(b, n=n) for n, b in enumerate(shown, start=1)]


def not_run_here(block):
    """Why the browser's Python does not run `block`, or None: the page skipped it when it was
    built (a build without PyTorch), or it runs only where PyTorch is (`skip: ... if(torch is
    None, reason=...)`: `when`), and the browser's Python never has PyTorch."""
    if block["skip"]:
        return block["skip"]["reason"]
    if block["when"] and "torch is None" in block["when"]["condition"]:
        return re.search(r'reason="([^"]+)"', block["when"]["condition"])[1]
    return None


def open_chapter(page, name):
    if not page.url.endswith(f"/{name}/"):
        page.goto(f"{page.origin}/{name}/", wait_until="load")
        page.wait_for_function(f"() => {RUN}")


def run_block(page, n, timeout=90_000):
    """Run block n from the script (its Run button, which may sit in a closed fold); returns
    (the progress line, the output's text, the output's paragraphs)."""
    page.evaluate(f"n => {{ {RUN}.blocks[n - 1].result = null; {RUN}.blocks[n - 1].run.click(); }}", n)
    page.wait_for_function(f"n => {{ const b = {RUN}.blocks[n - 1]; return !b.running && b.result; }}",
                           arg=n, timeout=timeout)
    return tuple(page.evaluate(f"""n => {{
        const b = {RUN}.blocks[n - 1];
        return [b.progress.textContent, b.output.textContent,
                [...b.output.querySelectorAll(':scope > p')].map(p => p.textContent)];
    }}""", n))


def ran_line(progress):
    """The progress line without the cold start's "Python started in 6.1 s. "."""
    return re.sub(rf"^Python started in {SECONDS}\. ", "", progress)


def numbers(ns):
    """Block numbers as the progress line says them: a run of three or more as "1 to 20" (a new
    reader's audit read 42 numbers in one line on chapter 2)."""
    parts, i = [], 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        parts += [f"{ns[i]} to {ns[j]}"] if j - i >= 2 else [str(n) for n in ns[i:j + 1]]
        i = j + 1
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def expected_progress(ran, not_run):
    """The progress line the rule gives for blocks `ran` and `not_run` (numbers, in order)."""
    them = f"{'block' if len(not_run) == 1 else 'blocks'} {numbers(not_run)} did not run\\."
    if ran == list(range(1, len(ran) + 1)) and len(ran) > 1:
        return rf"Blocks 1 to {len(ran)} ran in {SECONDS}; {them} Ran on micrograd\."
    return rf"{'Block' if len(ran) == 1 else 'Blocks'} {numbers(ran)} ran in {SECONDS}; {them} Ran on micrograd\."


def test_a_skipped_pytorch_block_says_it_did_not_run_and_never_same_results(page, site):
    """Chapter 8's PyTorch doctests, skipped in the browser: one line each, no green 'Same
    results as the page.' above the page's PyTorch output (as blocks 3, 5 and 34 said)."""
    open_chapter(page, "08-pytorch")
    shown = visible(site, "08-pytorch")
    skipped = [b for b in shown if not_run_here(b) and b["kind"] == "doctest"]
    assert len(skipped) >= 3, "chapter 8 has fewer skipped PyTorch doctests than this test needs"
    for block in [skipped[0], skipped[1], skipped[-1]]:
        progress, text, paragraphs = run_block(page, block["n"])
        before = [b for b in shown if b["n"] < block["n"]]
        assert re.fullmatch(expected_progress([b["n"] for b in before if not not_run_here(b)],
                                              [b["n"] for b in before if not_run_here(b)] + [block["n"]]),
                            ran_line(progress)), progress
        assert paragraphs == [f"Not run: the page skips this block ({not_run_here(block)})."], paragraphs
        assert "Same results" not in text and "every result" not in text
        assert not page.evaluate(f"n => !!{RUN}.blocks[n - 1].output.querySelector('pre')", block["n"])


def test_a_block_that_ran_after_skipped_ones_does_not_count_them_as_run(page, site):
    open_chapter(page, "08-pytorch")
    shown = visible(site, "08-pytorch")
    block = next(b for b in shown if not not_run_here(b) and any(not_run_here(o) for o in shown if o["n"] < b["n"]))
    progress, text, _ = run_block(page, block["n"])
    before = [b for b in shown if b["n"] <= block["n"]]
    pattern = expected_progress([b["n"] for b in before if not not_run_here(b)],
                                [b["n"] for b in before if not_run_here(b)])
    assert re.fullmatch(pattern, ran_line(progress)), (pattern, progress)
    assert not re.search(rf"Blocks 1 to {block['n']} ran", progress)


def test_a_doctest_partly_skipped_counts_only_the_examples_that_ran(page, site):
    """Chapter 10 skips, in the browser, a block's examples that need more stack than
    WebAssembly gives: an example the reader adds after them runs, and the summary counts
    that one only, naming the skipped ones and why."""
    open_chapter(page, "10-under-the-hood")
    shown = visible(site, "10-under-the-hood")
    block = next(b for b in shown if b["kind"] == "doctest" and b["when"] and "emscripten" in b["when"]["condition"])
    reason = re.search(r'reason="([^"]+)"', block["when"]["condition"])[1]
    skipped = len(block["when"]["examples"])
    page.evaluate(f"n => {RUN}.blocks[n - 1].edit.click()", block["n"])
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].editor", arg=block["n"])
    page.evaluate(f"([n, text]) => {RUN}.blocks[n - 1].editor.setCode(text)",
                  [block["n"], block["source"] + ">>> 6 * 7\n42\n"])
    progress, text, paragraphs = run_block(page, block["n"])
    # The page has no `6 * 7`: 42 is the result the edit expects (it said "the page shows").
    assert paragraphs[-1] == (f"Your edited block ran: the example that ran gives the result it expects. "
                              f"{skipped} of its {skipped + 1} examples did not run: the page skips "
                              f"{'it' if skipped == 1 else 'them'} ({reason}).")
    assert ">>> 6 * 7\n42" in text
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", block["n"])


def test_a_doctest_edited_into_code_shows_its_error_and_no_pass(page, site):
    """A new reader's audit: a doctest block edited to start with a line of code runs as code
    (as Sybil would run it); its SyntaxError went unshown under a green "Your edited block ran:
    every result is the one the page shows." So did a `>>>x` line's ValueError."""
    open_chapter(page, "04-engine")
    block = next(b for b in visible(site, "04-engine") if b["kind"] == "doctest" and not b["skip"])
    for text, error in [("x = 1\n" + block["source"], "SyntaxError"), (">>>" + block["source"][4:], "ValueError")]:
        edit(page, block["n"], text)
        _, shown, paragraphs = run_block(page, block["n"])
        assert error in shown, shown
        assert not any("every result" in p or "Same results" in p for p in paragraphs), paragraphs
        assert not page.evaluate(f"n => !!{RUN}.blocks[n - 1].output.querySelector('.bv-run-pass')", block["n"])
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", block["n"])


def test_a_skipped_block_after_a_failed_one_does_not_say_it_still_ran(page, site):
    """A new reader's audit: with block 2 edited to raise, a skipped PyTorch block said "A Run
    carries on after a problem, so this block still ran:" and then "Not run: the page skips
    this block"."""
    open_chapter(page, "08-pytorch")
    shown = visible(site, "08-pytorch")
    # The block that fails must not be the one that defines `torch`: in a build with PyTorch the
    # skip's condition reads it (`when`), and the condition cannot be read without it.
    failing, skipped = next((f, s) for s in shown if not_run_here(s) and s["kind"] == "doctest"
                            for f in shown if f["n"] < s["n"] and not not_run_here(f) and f["kind"] == "code"
                            and "torch" not in f["source"])
    edit(page, failing["n"], "raise ValueError('x')\n")
    _, text, paragraphs = run_block(page, skipped["n"])
    assert paragraphs == [f"Not run: the page skips this block ({not_run_here(skipped)})."], paragraphs
    assert "still ran" not in text
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", failing["n"])


def test_chapter_9_says_once_why_it_has_no_run_buttons(site):
    """Issue 27, item 5: chapter 9 had no Run buttons and said nothing about why. Its note's
    reason is checked against the page: its first block imports NumPy, the browser lacks it
    (run_blocks.UNAVAILABLE), and the built page binds no Run."""
    from sybil import Document

    from scripts.pages.examples import python_blocks
    from scripts.reader.run_blocks import UNAVAILABLE

    text = (ROOT / "docs" / "09-tensors.md").read_text(encoding="utf-8")
    first = str(next(iter(python_blocks(Document(text, "09-tensors.md")))).lexemes["source"])
    assert "import numpy" in first and "numpy" in UNAVAILABLE
    assert not blocks.runnable("09-tensors.md")
    built = (site / "09-tensors" / "index.html").read_text(encoding="utf-8")
    assert 'class="bv-run"' not in built
    assert built.count("No Run button on this page") == 1


def test_a_run_stopped_while_it_waits_says_nothing_of_it_ran_and_the_run_before_goes_on(page, site):
    """A Run queued behind another and stopped said 'Stopped. Python was shut down', which it
    was not: the Run before it went on. Each Run bar's Stop (python.js) ends only its own Run."""
    open_chapter(page, "01-computational-graphs")
    shown = [b for b in visible(site, "01-computational-graphs") if b["kind"] == "code" and not b["skip"]]
    first, later = shown[0]["n"], shown[1]["n"]
    page.evaluate(f"""async (n) => {{
        const block = {RUN}.blocks[n - 1];
        block.edit.click();
        while (!block.editor) await new Promise((r) => setTimeout(r, 50));
        block.editor.setCode('import time\\ntime.sleep(4)\\nprint("slept")');
        block.run.click();
    }}""", first)
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].progress.textContent === 'Running…'", arg=first,
                           timeout=60_000)  # its Python up and its code running: the next Run waits
    page.evaluate(f"n => {RUN}.blocks[n - 1].run.click()", later)
    stop = page.locator(".bv-run-bar").nth(later - 1).locator(".bv-stop")
    stop.wait_for()
    stop.click()
    page.wait_for_function(f"n => !{RUN}.blocks[n - 1].running", arg=later)
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].output.textContent", later) == \
        "Stopped before it started: nothing of it ran."
    page.wait_for_function(f"n => !{RUN}.blocks[n - 1].running", arg=first, timeout=60_000)
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].output.textContent", first) == "slept"
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", first)


def test_stop_while_python_loads_says_it_was_loading_not_that_python_was_shut_down(browser, origin):
    """A new reader's audit: Stop, tapped while the status read "Downloading Python…", said
    "Stopped. Python was shut down; the next Run starts it again": no Python had started."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # a Python of its own, not yet loaded
    page.origin = origin
    open_chapter(page, "01-computational-graphs")
    page.evaluate(f"() => {RUN}.blocks[0].run.click()")
    stop = page.locator(".bv-run-bar").nth(0).locator(".bv-stop")
    stop.click()
    page.wait_for_function(f"() => !{RUN}.blocks[0].running")
    assert page.evaluate(f"() => {RUN}.blocks[0].output.textContent") == \
        "Stopped while Python was still loading: nothing of it ran. The next Run starts loading it again."
    page.evaluate(f"""() => {{ const p = {RUN}.blocks[0].progress; window.lines = [];
        new MutationObserver(() => window.lines.push(p.textContent)).observe(p, {{ childList: true,
            characterData: true, subtree: true }}); }}""")
    progress, output, _ = run_block(page, 1)  # and it does
    assert progress.startswith("Python started in ") and "Stopped" not in output, (progress, output)
    # A third read-only audit: the second Python said "first Run only" and "takes a few seconds, once".
    lines = page.evaluate("window.lines")
    assert "Loading Python again…" in lines and not any("first Run" in x or "once" in x for x in lines), lines
    page.close()


# The reader's edit of chapter 4's first block, as a hostile reader's audit tried it: micrograd's
# Value changed for every later Run in the same Python, where the next Run of the page's own,
# unedited code "differed from the page" and blamed the Python version for it.
CHANGES_MICROGRAD = "\nimport micrograd.engine\nmicrograd.engine.Value.__mul__ = lambda self, other: Value(42.0)\n"


def test_the_pages_own_code_never_runs_in_a_python_where_the_readers_code_changed_micrograd(page, site):
    open_chapter(page, "04-engine")
    first, second = [b for b in visible(site, "04-engine") if not b["skip"]][:2]
    assert "a * b" in first["source"] and second["kind"] == "doctest", (first, second)
    _, output, _ = run_block(page, second["n"])
    assert "Same results as the page." in output, output
    page.evaluate(f"""async ([n, code]) => {{
        const block = {RUN}.blocks[n - 1];
        block.edit.click();
        while (!block.editor) await new Promise((r) => setTimeout(r, 50));
        block.editor.setCode(block.editor.getCode() + code);
    }}""", [first["n"], CHANGES_MICROGRAD])
    run_block(page, first["n"])  # the reader's code, in the Python the page's Runs used
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", first["n"])
    progress, output, _ = run_block(page, second["n"])  # the page's own code again
    assert "Same results as the page." in output, output
    assert progress.startswith("Python started afresh: the one before had been given code of yours "), progress
    assert re.search(rf"\. Python started in {SECONDS}\. ", progress), progress
    progress, _, _ = run_block(page, second["n"])  # that Python is the page's: no restart
    assert not progress.startswith("Python started"), progress


def test_hidden_setup_blocks_that_did_not_run_are_counted_and_not_said_to_do_so_either(page):
    """A read-only audit at stop 40: " A hidden setup block did not run either." followed
    "Blocks 1 to 2 ran" (nothing else had failed to run), and said "a block" of two. No page has
    such a block today, so the line is built from results as python.js gives them."""
    open_chapter(page, "04-engine")
    said = page.evaluate("""async () => {
        const { ranLine } = await import('/javascripts/run/run-output.js');
        const state = { n: 2, page: { blocks: [{ index: 1, n: 1 }, { index: 3, n: 2 }] } };
        const hidden = (index) => ({ index, hidden: true, kind: "code", status: "skipped" });
        const shown = (index, status) => ({ index, hidden: false, kind: "code", status });
        return [ranLine(state, [hidden(0), shown(1, "ok"), shown(3, "ok")], 50),
                ranLine(state, [hidden(0), hidden(2), shown(1, "ok"), shown(3, "ok")], 50),
                ranLine(state, [hidden(0), shown(1, "ok"), shown(3, "skipped")], 50)];
    }""")
    assert said == ["Blocks 1 to 2 ran in 0.05 s. A hidden setup block did not run.",
                    "Blocks 1 to 2 ran in 0.05 s. 2 hidden setup blocks did not run.",
                    "Block 1 ran in 0.05 s; block 2 did not run. A hidden setup block did not run either."]


# An engine whose tanh raises: it passes the engine's check (a * b + a), and every block of
# chapter 4 that calls tanh fails on it.
TANH_REFUSED = ("\ndef _refused(self):\n    raise RuntimeError('planted: this tanh refuses')\n\n"
                "Value.tanh = _refused\n")


def test_a_run_far_down_names_failed_blocks_that_never_came_near_and_links_to_them(browser, origin):
    """Issue 44, item 6: chapter 4 opened fresh, the zero_grad quiz's answer open, Run on its
    block gave "The result could not be shown (Cannot read properties of null (reading 'id'))":
    the message names the earlier blocks that failed by their Run bars, and a block that never came
    near the viewport (a reader's page binds bars as they come near) had none. The link makes it."""
    from tests.engines import source

    page = browser.new_page(bind_at_once=False, viewport={"width": 1280, "height": 900})
    page.goto(f"{origin}/", wait_until="load")  # the reader's engine kept, then chapter 4 opened fresh
    engine = source("book") + TANH_REFUSED
    page.evaluate("""text => {
        localStorage.setItem('bv-engine-source', JSON.stringify({ name: 'refuses.py', text }));
        localStorage.setItem('bv-engine', JSON.stringify({ use: 'yours',
            check: { text, ok: true, shape: 'book', message: '' } }));
    }""", engine)
    page.goto(f"{origin}/04-engine/#zero_grad-and-forgetting-it", wait_until="load")
    page.wait_for_function(f"() => {RUN}")
    n = page.evaluate(f"""() => {{
        const fold = [...document.querySelectorAll('details')].find((d) => d.textContent.includes('zero_grad()')
            && d.querySelector(':scope > summary')?.textContent.trim() === 'Answer');
        fold.querySelector(':scope > summary').click();
        const block = {RUN}.blocks.find((b) => fold.contains(b.code));
        block.code.scrollIntoView({{ block: 'center' }});
        return block.n;
    }}""")
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].bar", arg=n)
    unbound = page.evaluate(f"() => {RUN}.blocks.filter((b) => !b.bar).map((b) => b.n)")
    page.evaluate(f"n => {RUN}.blocks[n - 1].run.click()", n)
    page.wait_for_function(f"n => {{ const b = {RUN}.blocks[n - 1]; return !b.running && b.result; }}",
                           arg=n, timeout=90_000)
    progress, named = page.evaluate(f"""n => {{
        const b = {RUN}.blocks[n - 1];
        return [b.progress.textContent, [...b.output.querySelectorAll('.bv-run-earlier a.bv-run-link')]
            .map((a) => Number(a.textContent.replace('Block ', '')))];
    }}""", n)
    assert "could not be shown" not in progress, progress
    output = page.evaluate(f"n => {RUN}.blocks[n - 1].output.textContent", n)
    assert "Ran on your engine." in progress, (progress, output)
    far = [m for m in named if m in unbound]
    assert far, (named, unbound)  # a failed block that had no bar when the Run ended
    page.locator(".bv-run-earlier a.bv-run-link", has_text=f"Block {far[0]}").first.click()
    assert page.evaluate(f"m => document.activeElement === {RUN}.blocks[m - 1].run", far[0])
    page.close()


def test_a_kept_engines_check_is_not_stopped_by_the_readers_first_run(browser, origin):
    """Issue 44, item 13: a kept engine whose check is not kept is checked as the page loads; the
    reader's first Run, on a fresh load, stopped that check as a Run of a page left behind, and the
    switch said "Python could not check it: Stopped..." though nobody pressed Stop. The Run waits
    for the check, which passes."""
    from tests.engines import source

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{origin}/", wait_until="load")
    page.evaluate("""text => {
        localStorage.setItem('bv-engine-source', JSON.stringify({ name: 'book.py', text }));
        localStorage.setItem('bv-engine', JSON.stringify({ use: 'yours' }));  // no check kept
    }""", source("book"))
    page.goto(f"{origin}/01-computational-graphs/", wait_until="load")
    page.wait_for_function(f"() => {RUN}?.blocks[0]?.bar")
    page.evaluate(f"() => {RUN}.blocks[0].run.click()")  # while the switch's check is under way
    page.wait_for_function(f"() => {{ const b = {RUN}.blocks[0]; return !b.running && b.result; }}",
                           timeout=120_000)
    result = page.evaluate(f"() => {RUN}.blocks[0].result")
    assert result["kind"] == "result", result
    status = wait_for_text(page, ".bv-engine__status", r"run on your engine:|did not pass|could not check",
                           timeout=60_000)
    assert "Stopped" not in status and "run on your engine: book.py" in status, status
    page.close()

"""Issue 25 in the browser: the reader's Runs, closed. Chapter 4's blocks and exercises, on the
built site, in Debian's Chromium, with Pyodide in python.js's workers:

- every text of the reader's code reaches the page clipped, and the page says so;
- a Run owns what it starts: a timer or a promise armed by one Run holds no later Run, and
  every chapter Run has Stop;
- an exercise's verdict comes from a Python none of the reader's earlier code ran in;
- bidi and zero-width characters in what the reader's code prints are shown, not obeyed.

One page, opened once (its Python starts on the first Run). Every request is recorded:
a server on another port of 127.0.0.1 that answers anything must receive nothing.
tests/python/test_reader_box.py checks the same texts in CPython.
"""

import re
import time
import types

import pytest

from scripts.reader import exercise_format
from tests.helpers import foreign, recorded

RUN = "document.querySelector('.bv-run').runState"
EXERCISE = '.exercise[data-exercise="{}"]'
measured = {}


@pytest.fixture(scope="module")
def engine(browser, origin, elsewhere):
    """Chapter 4, opened once, every request and error recorded; its first Run starts Python."""
    page = recorded(browser.new_page(viewport={"width": 1280, "height": 800}))
    page.goto(f"{origin}/04-engine/", wait_until="load")
    page.wait_for_function(RUN)
    page.evaluate("() => { window.checks = []; "
                  "document.addEventListener('bv-check', (e) => window.checks.push(e.detail)); }")
    state = types.SimpleNamespace(page=page, origin=origin, elsewhere=elsewhere, first=None)
    state.first = page.evaluate(f"""() => {{
        const blocks = {RUN}.blocks;
        return blocks.find((b) => !b.code.closest('details:not([open])')).n; }}""")
    yield state
    assert foreign(page.requests, origin) == [], "nothing left the site"
    assert elsewhere.seen == []
    page.close()
    print("\n".join(["", "measured:"] + [f"  {key}: {value}" for key, value in measured.items()]))


def edit(page, n, text):
    page.evaluate(f"n => {RUN}.blocks[n - 1].edit.click()", n)
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].editor", arg=n)
    page.evaluate(f"([n, text]) => {RUN}.blocks[n - 1].editor.setCode(text)", [n, text])


def reset(page, n):
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", n)


def click_run(page, n):
    page.evaluate(f"n => {{ {RUN}.blocks[n - 1].result = null; }}", n)
    page.locator(".bv-run-bar").nth(n - 1).locator(".bv-run-run").click()


def wait_result(page, n, timeout=60_000):
    page.wait_for_function(f"n => {{ const b = {RUN}.blocks[n - 1]; return !b.running && b.result; }}",
                           arg=n, timeout=timeout)
    return page.evaluate(f"n => {RUN}.blocks[n - 1].result", n)


def run_block(page, n, timeout=60_000):
    """Run block n with its Run button; (the result, what its output shows, its progress line, seconds)."""
    start = time.perf_counter()
    click_run(page, n)
    result = wait_result(page, n, timeout)
    seconds = time.perf_counter() - start
    output, progress = page.evaluate(f"n => [{RUN}.blocks[n - 1].output.innerText, "
                                     f"{RUN}.blocks[n - 1].progress.textContent]", n)
    return result, output, progress, seconds


def set_code(page, name, code):
    page.locator(EXERCISE.format(name)).scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector('{EXERCISE.format(name)}')?.exerciseState?.editor")
    page.evaluate(f"code => document.querySelector('{EXERCISE.format(name)}').exerciseState.editor.setCode(code)",
                  code)


def run_exercise(page, name, timeout=60_000):
    """Click the exercise's Run; (summary, the report's text, the status line)."""
    box = page.locator(EXERCISE.format(name))
    box.locator(".exercise-run").click()
    exercise = EXERCISE.format(name)
    page.wait_for_function(f"() => document.querySelector('{exercise} .exercise-summary') && "
                           f"document.querySelector('{exercise}')?.classList.contains('is-running') === false",
                           timeout=timeout)
    return (box.locator(".exercise-summary").inner_text(), box.locator(".exercise-report").inner_text(),
            box.locator(".exercise-status").inner_text())


def answers(page, within_ms=1000):
    """True if the page runs a script within `within_ms` (it is not frozen). A page that built a
    10**8-character text takes many seconds or crashes; 100 ms was missed by a page that was fine,
    on a 2-core machine at a load of 12."""
    start = time.perf_counter()
    page.evaluate("() => 1")
    return (time.perf_counter() - start) * 1000 < within_ms


# --- Every text clipped (item 3) ----------------------------------------------------------

CUT = "(message cut: the first 10,000 of its 100,000,000 characters are shown)"


def test_a_huge_error_in_a_block_is_clipped_and_the_page_says_so(engine):
    """Issue 25: raise ValueError("x" * 10**8) in a block crashed the tab after about 10 s."""
    page, n = engine.page, engine.first
    run_block(page, n)  # Python up first: the next Run's time is the error's
    edit(page, n, 'raise ValueError("x" * 10**8)\n')
    result, output, _, seconds = run_block(page, n)
    measured["a 10**8-character error in a block: Run (s)"] = round(seconds, 2)
    error = result["report"]["results"][-1]["error"]
    assert len(error) < 10_400, len(error)
    assert error.endswith(f"\n... {CUT}")
    assert output.rstrip().endswith(CUT) and len(output) < 10_600, len(output)
    assert answers(page)
    reset(page, n)


def test_a_huge_error_in_an_exercise_is_clipped_and_the_page_says_so(engine):
    page = engine.page
    set_code(page, "zero_grad", 'raise ValueError("x" * 10**8)\n')
    start = time.perf_counter()
    summary, text, status = run_exercise(page, "zero_grad")
    measured["a 10**8-character error in an exercise: Run (s)"] = round(time.perf_counter() - start, 2)
    # a new reader's audit: "0 of 1 tests passed." and "The tests ran in 0.02 s.", and none had run
    assert summary == "No test ran: your code has to run without an error first."
    assert re.search(r"(^|; )[Yy]our code ended in an error after [0-9.]+ s, before the tests\.$", status), status
    assert text.rstrip().endswith(CUT) and len(text) < 10_600, len(text)
    assert answers(page)
    # A third read-only audit: code that does not compile "ended in an error after 0.01 s": none of it ran.
    set_code(page, "zero_grad", "def zero_grad(:\n")
    summary, text, status = run_exercise(page, "zero_grad")
    assert summary == "No test ran: your code has to run without an error first."
    assert re.search(r"(^|; )[Yy]our code could not be read \(a syntax error\), so none of it ran\.$", status), status
    set_code(page, "zero_grad", exercise_format.load("zero_grad").starter)


def test_a_text_python_js_passes_on_is_clipped_too(engine):
    """A worker's own error (a fatal one quotes the reader's text) goes through readerText."""
    shown = engine.page.evaluate("""async () => {
        const { readerText } = await import(location.origin + '/javascripts/python/python.js');
        return readerText('y'.repeat(20000) + '\\u202e'); }""")
    assert shown == "y" * 10_000 + "\n... (cut: the first 10,000 of its 20,001 characters are shown)"


# --- A Run owns what it starts (item 5) ------------------------------------------------------

FOREVER = """\
import js
from pyodide.ffi import create_proxy
def forever(*args):
    while True:
        pass
{arm}
print("armed")
"""


def test_a_timer_armed_by_one_run_holds_no_later_run(engine):
    """Issue 25: a setTimeout callback that loops forever, armed during one Run: the next Run
    sat at "Starting…" for 77 s and on. The Run's end clears its timers."""
    page, n = engine.page, engine.first
    edit(page, n, FOREVER.format(arm="js.setTimeout(create_proxy(forever), 50)\n"
                                     "js.setInterval(create_proxy(forever), 60)"))
    result, output, _, _ = run_block(page, n)
    assert output.strip() == "armed"
    time.sleep(0.5)  # the timers' moment has passed
    # the reader's code again: the same Python (the page's own code would get a fresh one)
    reset(page, n)
    edit(page, n, 'print("next")\n')
    result, _, progress, seconds = run_block(page, n, timeout=20_000)
    measured["the Run after one that armed a looping timer (s)"] = round(seconds, 2)
    assert result["kind"] == "result" and "restarted" not in result, result.get("message")
    assert seconds < 5, "no restart needed: the timers never fired"
    assert answers(page)
    reset(page, n)


def test_a_promise_left_looping_by_one_run_is_ended_and_the_next_run_says_why(engine):
    """A promise's callback cannot be cleared: the worker it holds is ended when the next Run
    gets no answer, and that Run starts again in a fresh worker and says why."""
    page, n = engine.page, engine.first
    edit(page, n, FOREVER.format(arm="js.Promise.resolve(0).then(create_proxy(forever))"))
    run_block(page, n)
    reset(page, n)
    edit(page, n, 'print("next")\n')  # the reader's code again: sent to the same Python
    result, _, progress, seconds = run_block(page, n, timeout=60_000)
    reset(page, n)
    measured["the Run after one that left a looping promise (s)"] = round(seconds, 2)
    assert result["kind"] == "result", result
    assert result["restarted"] == ("Python did not answer within 3 s: code an earlier Run left running "
                                   "(a callback that never ends) kept it busy. It was shut down and started again.")
    assert progress.startswith(result["restarted"] + " Python started in "), progress
    assert result["report"]["results"][-1]["status"] in ("ran", "skipped")


def test_js_close_is_refused_and_the_next_run_is_not_told_python_was_busy(engine):
    """Issue 44, item 13: a block ran `js.close()`, which ended the worker without a word, and the
    next Run said Python "did not answer within 3 s: code an earlier Run left running ... kept it
    busy". close() is refused as the other ways out are, and Python carries on."""
    page, n = engine.page, engine.first
    edit(page, n, "import js\njs.close()\n")
    result, output, _, _ = run_block(page, n)
    assert "close() is blocked: it would end the Python this page's Runs share" in output, output
    reset(page, n)
    edit(page, n, 'print("next")\n')
    result, output, progress, _ = run_block(page, n, timeout=60_000)
    reset(page, n)
    assert result["kind"] == "result" and "restarted" not in result, result
    assert output.startswith("next") and "did not answer" not in progress, (output, progress)


def test_a_refused_eval_is_told_in_one_sentence_with_one_full_stop(engine):
    """Issue 44, item 13: the refusal read "... no worker, no eval).." on the page."""
    page, n = engine.page, engine.first
    edit(page, n, 'import js\njs.eval("1 + 1")\n')
    _, output, _, _ = run_block(page, n)
    reset(page, n)
    assert ("eval is blocked: Python on this page can reach this site only (no other host, "
            "no WebSocket, no worker, no eval).") in output, output
    assert ".." not in output, output


REPLACE_MUL = """import micrograd.engine as engine
def mul(self, other, real_mul=engine.Value.__mul__):  # kept with the function: the Run's names go
    out = real_mul(self, other)
    out.data = 42.0
    return out
engine.Value.__mul__ = mul
"""


def test_what_an_earlier_runs_code_left_is_named_as_a_cause_when_an_unedited_block_differs(engine):
    """A hostile audit: an edited Run replaced Value.__mul__; the next Run, whose only edit was a
    comment (so it kept that Python), showed block 2 unedited with 42.0 for -6.0 and no cause."""
    page = engine.page
    first, second = page.evaluate(f"() => {RUN}.blocks.slice(0, 2).map(b => "
                                  "b.code.querySelector('code').textContent)")
    assert " * " in first and "y._op" in second  # block 1 multiplies; block 2 prints the product
    edit(page, 1, REPLACE_MUL)
    run_block(page, 1)
    edit(page, 1, first.rstrip("\n") + "\n# a comment\n")
    result, output, _, _ = run_block(page, 2)
    second_result = result["report"]["results"][1]
    assert second_result["status"] == "differs" and not second_result["edited"], output
    assert ("An earlier Run gave this same Python code of yours, and Python keeps whatever it left (a function "
            "it replaced, a callback still queued): that can change these results. For a fresh Python, reload the "
            "page (this tab keeps your edits, where the browser lets it store them), or Reset your edits and Run "
            "again.") in output, output
    reset(page, 1)  # the page's own code again: a fresh Python, and the page's results
    result, output, progress, _ = run_block(page, 2)
    assert progress.startswith("Python started afresh") and "Same results as the page." in output, progress
    assert "earlier Run" not in output


def test_a_request_python_refuses_after_the_readers_code_changed_it_is_not_blamed_on_the_page(engine):
    """A re-audit: the reader's code removed run_blocks from calls.FUNCTIONS; the next Run said "The
    page asked Python for what it does not do", listing the functions the page calls without it."""
    page = engine.page
    edit(page, 1, 'import scripts.reader.calls as calls\ncalls.FUNCTIONS.pop("run_blocks", None)\n')
    run_block(page, 1)
    result, output, _, _ = run_block(page, 1)  # the edit is still there: the same Python
    assert result["kind"] == "error", result
    assert result["message"].startswith("Python, where your own code had run, refused this Run's request: "
                                        "LookupError: no function named 'run_blocks'"), result["message"]
    reset(page, 1)  # the page's own code: a fresh Python, which does what the page asks
    result, _, progress, _ = run_block(page, 1)
    assert result["kind"] == "result" and progress.startswith("Python started afresh"), progress


def test_a_chapter_run_has_stop(engine):
    """Issue 25: chapter blocks had no Stop: a loop ran until the 20 s limit."""
    page, n = engine.page, engine.first
    edit(page, n, "while True:\n    pass\n")
    click_run(page, n)
    bar = page.locator(".bv-run-bar").nth(n - 1)
    bar.locator(".bv-stop").wait_for(timeout=30_000)
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].progress.textContent === 'Running…'", arg=n,
                           timeout=60_000)
    bar.locator(".bv-stop").focus()
    start = time.perf_counter()
    page.keyboard.press("Enter")
    result = wait_result(page, n, timeout=5_000)
    measured["Stop to stopped (s)"] = round(time.perf_counter() - start, 2)
    assert result["kind"] == "stopped"
    output = page.evaluate(f"n => {RUN}.blocks[n - 1].output.innerText", n)
    assert output.strip() == "Stopped. Python was shut down; the next Run starts it again."
    assert bar.locator(".bv-stop").count() == 0, "Stop goes with the Run"
    assert page.evaluate("() => document.activeElement.classList.contains('bv-run-run')"), "focus back on Run"
    reset(page, n)
    result, _, _, _ = run_block(page, n)
    assert result["kind"] == "result"


# --- A verdict the reader's code cannot change (item 6) --------------------------------------

FORGE = """\
import scripts.reader.exercise_runner as runner
runner._run_test = lambda test, user, Result=runner.Result: Result("forged", True)
print("replaced")
"""


def test_a_chapter_block_cannot_replace_the_grader(engine):
    """Issue 25: a block replacing scripts.reader.exercise_runner._run_test made the next exercise
    say "All tests passed" with `pass` as its code, and progress counted it."""
    page, n = engine.page, engine.first
    edit(page, n, FORGE)
    _, output, _, _ = run_block(page, n)
    assert output.strip() == "replaced"
    set_code(page, "zero_grad", "pass\n")
    summary, text, _ = run_exercise(page, "zero_grad")
    assert summary.startswith("0 of ") and "forged" not in text, (summary, text)
    assert page.evaluate("window.checks") == []
    # The worker that graded it is the chapter's now; the grader is fresh again for the next.
    set_code(page, "zero_grad", "import scripts.reader.exercise_runner as runner\n"
                                "runner._run_test = lambda test, user, Result=runner.Result: Result('forged', True)\n")
    run_exercise(page, "zero_grad")
    set_code(page, "zero_grad", "pass\n")
    summary, text, _ = run_exercise(page, "zero_grad")
    assert summary.startswith("0 of ") and "forged" not in text, (summary, text)
    reset(page, n)
    set_code(page, "zero_grad", exercise_format.load("zero_grad").starter)


# --- Visible controls (item 8) -----------------------------------------------------------

SPOOF = "print('access: \u202eNOT\u202c granted\u200b')\n"


def test_bidi_and_zero_width_characters_are_shown_in_output_errors_and_feedback(engine):
    """Issue 25: U+202E in output made printed text read otherwise than printed."""
    page, n = engine.page, engine.first
    edit(page, n, SPOOF + "raise ValueError('\u2066x')\n")
    _, output, _, _ = run_block(page, n)
    assert "access: <U+202E>NOT<U+202C> granted<U+200B>" in output
    assert "ValueError: <U+2066>x" in output
    assert not any(c in output for c in "\u202e\u202c\u200b\u2066")
    reset(page, n)
    set_code(page, "zero_grad", SPOOF + "raise ValueError('\u202ex')\n")
    _, text, _ = run_exercise(page, "zero_grad")
    assert "ValueError on line 2 of your code: <U+202E>x" in text
    assert "access: <U+202E>NOT<U+202C> granted<U+200B>" in text
    assert not any(c in text for c in "\u202e\u202c\u200b")
    set_code(page, "zero_grad", exercise_format.load("zero_grad").starter)


def test_the_playground_has_stop(browser, origin):
    """Issue 25: the playground had no Stop; python.js gives every Run one (stopIn)."""
    page = recorded(browser.new_page())
    page.goto(f"{origin}/playground/", wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-playground')?.playground")
    page.locator(".bv-pg__draw").click()
    stop = page.locator(".bv-pg__bar .bv-stop")
    stop.wait_for(timeout=10_000)
    stop.click()
    page.wait_for_function("() => { const p = document.querySelector('.bv-playground')?.playground; "
                           "return p && !p.running; }", timeout=5_000)
    # (Python was still loading: the message said it was shut down, a new reader's audit found)
    assert page.locator(".bv-pg__fail").inner_text() == ("Stopped while Python was still loading: nothing of it "
                                                         "ran. The next Run starts loading it again.")
    assert stop.count() == 0
    page.locator(".bv-pg__draw").click()
    page.wait_for_function("() => document.querySelector('.bv-pg__result:not([hidden])')", timeout=60_000)
    assert foreign(page.requests, origin) == []
    page.close()

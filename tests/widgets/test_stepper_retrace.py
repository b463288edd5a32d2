"""A stepper never steps through a trace of other values (issue 24, item 5), in Debian's
Chromium on the built site: while the reader's values are traced by Python, stepping waits
(its buttons disabled, the caption says it is tracing); Reset or another preset cancels the
trace, and its answer, when it comes, is dropped.

Chapter 1's neuron, w1 = -2: before this, "Next forward step" pressed at once stepped
through the page's trace (2 · (−3) = −6, the figure's w1 = −3, the field −2) while Python
started, then went back to step 0 without a word."""

import pytest

from tests.helpers import stepper_view, wait_for_text

STEPS = ("Next forward step", "Next backward step", "Back one step", "Play")


@pytest.fixture(scope="module")
def chapter_1(browser, origin):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(origin + "/01-computational-graphs/")
    yield page
    context.close()


def neuron(page):
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    widget.get_by_role("button", name="the neuron").click()
    return widget


def enabled(widget):
    return {name: widget.get_by_role("button", name=name, exact=True).is_enabled() for name in (*STEPS, "Reset")}


def at_the_end(widget):
    """Step through the whole trace; what the stepper shows then."""
    for name in ("Next forward step", "Next backward step"):
        button = widget.get_by_role("button", name=name, exact=True)
        while button.is_enabled():
            button.click()
    return stepper_view(widget)


def note(widget):
    return widget.locator(".bv-widget__leaf-note").text_content()


def keep_python_busy(page, seconds=3):
    """Run chapter 1's first block, edited to sleep: a trace asked for now waits behind it, as
    one asked for while Python starts does (the one Python runs one thing at a time)."""
    page.evaluate("""async (seconds) => {
        const block = document.querySelector('.bv-run').runState.blocks[0];
        block.edit.click();
        while (!block.editor) await new Promise((r) => setTimeout(r, 50));
        block.editor.setCode(`import time\ntime.sleep(${seconds})`);
        block.run.click();
    }""", seconds)
    page.wait_for_function("() => document.querySelector('.bv-run')?.runState?.blocks[0].progress.textContent"
                           " === 'Running…'", timeout=60_000)  # Python up, the sleep running


def press_run(widget, label, value):
    widget.get_by_label(label, exact=True).fill(value)
    widget.get_by_role("button", name="Run with these values").click()


def test_stepping_waits_while_a_trace_is_on_its_way_then_shows_the_new_values(chapter_1):
    page = chapter_1
    widget = neuron(page)
    page.evaluate("() => { document.querySelector('.bv-stepper').retraceMs = null; }")
    press_run(widget, "w1", "-2")
    state = enabled(widget)  # at once: Python is starting (or running the trace)
    assert not any(state[name] for name in STEPS), state
    assert state["Reset"], "Reset cancels the trace, so it stays enabled"
    assert stepper_view(widget)["caption"].startswith("Tracing your values in Python: the steps wait")
    page.wait_for_function("() => document.querySelector('.bv-stepper')?.retraceMs", timeout=120_000)
    assert "w1 = -2" in note(widget)
    assert enabled(widget)["Next forward step"]
    view = stepper_view(widget)
    assert view["status"].startswith("Step 0 of") and not view["caption"].startswith("Tracing")
    widget.get_by_role("button", name="Reset").click()


def test_reset_cancels_a_trace_on_its_way_and_its_answer_is_dropped(chapter_1):
    page = chapter_1
    widget = neuron(page)
    before = at_the_end(widget)
    widget.get_by_role("button", name="Reset").click()
    keep_python_busy(page)
    press_run(widget, "w1", "-5")
    widget.get_by_role("button", name="Reset").click()
    # and what the stop did: the trace waited behind the busy block, so nothing of it ran
    said = wait_for_text(page, ".bv-stepper .bv-widget__leaf-note", r"Stopped")
    assert said == "Tracing cancelled: back to the page's values. Stopped before it started: nothing of it ran."
    assert widget.get_by_label("w1", exact=True).input_value() != "-5"
    assert enabled(widget)["Next forward step"]
    # A second trace queues behind the cancelled one in the one Python: once it is drawn, the
    # first one's answer has come and gone, and nothing of w1 = -5 was shown.
    page.evaluate("() => { document.querySelector('.bv-stepper').retraceMs = null; }")
    press_run(widget, "x2", "-1.5")
    page.wait_for_function("() => document.querySelector('.bv-stepper')?.retraceMs", timeout=120_000)
    assert "x2 = -1.5" in note(widget) and "w1 = -5" not in note(widget)
    assert widget.get_by_label("w1", exact=True).input_value() != "-5"
    assert at_the_end(widget)["fields"] != before["fields"]  # x2's trace, not the page's
    widget.get_by_role("button", name="Reset").click()
    assert at_the_end(widget)["fields"] == before["fields"]


def test_another_preset_cancels_a_trace_on_its_way(chapter_1):
    page = chapter_1
    widget = neuron(page)
    keep_python_busy(page)
    press_run(widget, "w1", "-7")
    presets = widget.locator(".bv-widget__presets button")
    other = next(i for i in range(presets.count()) if presets.nth(i).get_attribute("aria-pressed") != "true")
    presets.nth(other).click()
    said = wait_for_text(page, ".bv-stepper .bv-widget__leaf-note", r"Stopped")
    assert said == "Tracing cancelled. Stopped before it started: nothing of it ran."
    assert enabled(widget)["Next forward step"]
    presets.filter(has_text="the neuron").click()
    assert widget.get_by_label("w1", exact=True).input_value() != "-7"


def test_a_trace_has_stop_and_stopping_it_says_so_and_frees_the_steps(chapter_1):
    """Issue 25: every Run has Stop, the steppers' too. Stopped while it waits behind another
    Run, nothing of it ran, and the message says so (not that Python was shut down)."""
    page = chapter_1
    widget = neuron(page)
    keep_python_busy(page, seconds=5)
    press_run(widget, "w1", "-9")
    stop = widget.locator("fieldset .bv-stop")
    stop.wait_for()
    stop.click()
    assert note(widget) == "Stopped before it started: nothing of it ran."
    assert enabled(widget)["Next forward step"] and widget.locator(".bv-stop").count() == 0
    assert page.evaluate("() => document.activeElement.dataset.action") == "values"


def test_a_trace_graphviz_could_not_draw_says_it_was_traced_not_that_it_was_not(browser, origin):
    """A second read-only audit: Python traced the new values, then Graphviz failed to load (the
    1.2 MB module loads on first use), and the stepper said "It could not be traced: …"."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route("**/assets/viz/**", lambda route: route.abort())  # offline at Graphviz's first use
    page.goto(origin + "/01-computational-graphs/")
    widget = neuron(page)
    press_run(widget, "w1", "-2")
    wait_for_text(page, ".bv-widget__leaf-note", r"drawn|traced", timeout=90_000)
    said = note(widget)
    assert said.startswith("Traced by micrograd, but the graph could not be drawn: "), said
    assert enabled(widget)["Next forward step"]  # the page's trace steps on
    context.close()


def test_a_trace_cancelled_while_python_loads_says_what_its_stop_did(browser, origin):
    """A third read-only audit: Reset said only "Tracing cancelled: back to the page's values."
    whatever its stop did to Python (here: stopped its load; once running: shut it down, so the
    next Run starts it again and says so, and the note did not)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(origin + "/01-computational-graphs/")
    widget = neuron(page)
    press_run(widget, "w1", "-4")  # the page's first Python: it loads for seconds
    # Reset once the load has begun: pressed before the trace reached python.js (CI, once), the
    # stop rightly said "Stopped before it started"
    wait_for_text(page, ".bv-stepper .bv-widget__leaf-note", r"Loading Python|Downloading Python|Starting Python")
    widget.get_by_role("button", name="Reset").click()
    said = wait_for_text(page, ".bv-stepper .bv-widget__leaf-note", r"Stopped")
    assert said == ("Tracing cancelled: back to the page's values. Stopped while Python was still loading: "
                    "nothing of it ran. The next Run starts loading it again."), said
    context.close()


def test_a_cancelled_trace_is_stopped_not_only_dropped(chapter_1):
    """A third read-only audit: Reset said "Tracing cancelled" but only dropped the answer; the
    trace went on loading and running Python, and held up the Runs after it. stepper.js now aborts
    it (cancelTrace), and retrace hands the signal to python.js: a trace whose signal was aborted
    does not run at all."""
    said = chapter_1.evaluate("""async () => {
        const { retrace } = await import('/javascripts/widgets/stepper-retrace.js');
        const controller = new AbortController();
        controller.abort();
        return retrace({ graph: 'never traced', leaves: [] }, {}, () => {}, document.createElement('div'),
                       controller.signal);
    }""")
    assert said == {"message": "Stopped before it started: nothing of it ran."}, said


def test_a_trace_while_python_is_up_does_not_say_it_is_starting_python(chapter_1):
    """A third read-only audit: each press said "Starting Python…", also with Python up; the next
    line replaced it within milliseconds, but what it said was not so."""
    page = chapter_1
    widget = neuron(page)
    for value, watched in (("-2", False), ("-3", True)):  # the first press may start Python; the second finds it up
        page.evaluate("""() => { const s = document.querySelector('.bv-stepper'); s.retraceMs = null;
            const note = s.querySelector('.bv-widget__leaf-note'); window.noteLines = [];
            new MutationObserver(() => window.noteLines.push(note.textContent)).observe(note,
                { childList: true, characterData: true, subtree: true }); }""")
        press_run(widget, "w1", value)
        page.wait_for_function("() => document.querySelector('.bv-stepper')?.retraceMs", timeout=120_000)
        lines = page.evaluate("window.noteLines")
        if watched:
            assert lines and not any("Starting Python" in line for line in lines), lines
    widget.get_by_role("button", name="Reset").click()

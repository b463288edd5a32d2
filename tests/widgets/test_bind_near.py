"""A reader's page binds each widget as it comes near the viewport, not all at load (issue 27,
item 6): docs/javascripts/shared/dom.js (whenNear), widgets.js, run/run-blocks.js.

Chapter 4 bound 33 Run bars, 8 quizzes, 7 exercises and a stepper while it loaded, and each bind
made Chromium lay out and paint the whole 28,000 px page again: Lighthouse's mobile total
blocking time was 217-259 ms (4 runs), 104-152 ms with no widget bound. These tests open pages as
a reader does (bind_at_once=False; every other browser test binds every widget at load): on a
phone, what is near the top is bound at load and the rest as the reader scrolls to it, or all at
their first Tab; a block in a closed fold gets its bar when the fold opens; a block holding an
edit gets its editor at load however far down it is; a page that instant navigation brings binds
the same way. tests/site/test_scrolling.py scrolls chapters through with them: nothing moves."""

import json

import pytest

from tests.helpers import follow, recorded, wait_for_text

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}

# What is bound, by what each widget's init makes: a Run bar, a quiz's box shown, the stepper
# shown, an exercise's controls. A block in a closed fold has no box until the fold is opened.
STATE = """() => ({
  bars: document.querySelectorAll('.bv-run-bar').length,
  blocks: document.querySelector('.bv-run').runState.blocks.length,
  shownBlocks: document.querySelector('.bv-run').runState.blocks.filter((s) => s.code.checkVisibility()).length,
  quizzes: [...document.querySelectorAll('.bv-quiz')].filter((q) => !q.hidden).length,
  allQuizzes: document.querySelectorAll('.bv-quiz').length,
  stepper: !document.querySelector('.bv-stepper').hidden,
  exercises: document.querySelectorAll('.exercise-controls').length,
  allExercises: document.querySelectorAll('.exercise[data-exercise]').length,
})"""


@pytest.fixture()
def reader(browser):
    """A phone's page that binds as a reader's does; fails the test on any console error."""
    context = browser.new_context(bind_at_once=False, **PHONE)
    page = recorded(context.new_page())
    yield page
    context.close()
    assert page.errors == [], page.errors


def test_a_phone_binds_what_is_near_at_load_and_the_rest_as_the_reader_scrolls_to_it(reader, origin):
    reader.goto(origin + "/04-engine/")
    reader.wait_for_function("() => document.querySelectorAll('.bv-run-bar').length >= 1", timeout=10_000)
    at_load = reader.evaluate(STATE)
    # the first screens hold two Python blocks and no other widget (390 x 844)
    assert 1 <= at_load["bars"] <= 4 < at_load["blocks"], at_load
    assert at_load["quizzes"] == 0 < at_load["allQuizzes"] and not at_load["stepper"], at_load
    assert at_load["exercises"] < at_load["allExercises"], at_load

    # the stepper is hidden until bound: it comes with the element before it
    stepper = reader.locator(".bv-stepper")
    stepper.evaluate("e => e.previousElementSibling.scrollIntoView({block: 'center'})")
    stepper.wait_for(state="visible", timeout=10_000)
    wait_for_text(reader, ".bv-stepper .bv-widget__status", "^Step 0 of", timeout=5_000)
    stepper.get_by_role("button", name="Next forward step").click()
    wait_for_text(reader, ".bv-stepper .bv-widget__status", "^Step 1 of", timeout=5_000)

    # the last shown block's Run bar comes as the reader reaches it
    last = reader.evaluate("""() => document.querySelector('.bv-run').runState.blocks
      .findLast((s) => s.code.checkVisibility()).n""")
    reader.evaluate("n => document.querySelector('.bv-run').runState.blocks[n - 1].code.scrollIntoView()", last)
    bar = reader.locator(f"#bv-block-{last}")
    bar.wait_for(state="visible", timeout=10_000)
    assert bar.get_by_role("button", name=f"Run block {last}").is_visible()
    after = reader.evaluate(STATE)
    assert at_load["bars"] < after["bars"] < after["shownBlocks"], after

    # a block in a closed fold gets its bar when the reader opens the fold
    folded = reader.evaluate("""() => document.querySelector('.bv-run').runState.blocks
      .find((s) => !s.code.checkVisibility() && s.code.closest('details')).n""")
    assert reader.locator(f"#bv-block-{folded}").count() == 0
    reader.evaluate("""n => { const code = document.querySelector('.bv-run').runState.blocks[n - 1].code;
      code.closest('details').scrollIntoView({block: 'center'}); }""", folded)
    reader.evaluate("""n => document.querySelector('.bv-run').runState.blocks[n - 1].code
      .closest('details').querySelector('summary').click()""", folded)
    reader.locator(f"#bv-block-{folded}").wait_for(state="visible", timeout=10_000)


def test_the_first_tab_binds_every_widget_of_the_page(reader, origin):
    reader.goto(origin + "/04-engine/")
    assert reader.evaluate(STATE)["bars"] < reader.evaluate(STATE)["blocks"]
    reader.keyboard.press("Tab")
    reader.wait_for_function(f"() => {{ const s = ({STATE})(); return s.bars === s.blocks"
                             " && s.quizzes === s.allQuizzes && s.stepper && s.exercises === s.allExercises; }",
                             timeout=15_000)


def test_a_block_holding_an_edit_gets_its_editor_at_load_however_far_down(reader, origin):
    reader.goto(origin + "/04-engine/")
    data = reader.evaluate("""async () => {
      const run = document.querySelector('.bv-run');
      const blocks = (await (await fetch(run.dataset.blocks)).json()).blocks.filter((b) => !b.hidden && !b.skip);
      return {source: blocks[blocks.length - 1].source, n: run.runState.blocks.findLastIndex((s) =>
        s.line === blocks[blocks.length - 1].line) + 1};
    }""")
    edit = {str(data["n"]): {"source": data["source"], "code": "print('my edit')"}}
    reader.evaluate("edit => sessionStorage.setItem('bv-run-edits:' + location.pathname, edit)", json.dumps(edit))
    reader.reload()
    assert reader.evaluate("() => scrollY") < 900  # the block is far below what is shown
    wait_for_text(reader, f"#bv-block-{data['n']} + .bv-run-progress", "Your edit from earlier is back",
                  timeout=15_000)
    editor = reader.locator(f".bv-run-slot:has(#bv-block-{data['n']}) .cm-content")
    assert editor.text_content() == "print('my edit')"
    assert reader.evaluate(STATE)["bars"] < data["n"]  # the blocks between it and the top wait


def test_a_page_instant_navigation_brings_binds_near_widgets_and_the_rest_on_the_way(browser, served_site):
    context = browser.new_context(bind_at_once=False, **PHONE)
    page = recorded(context.new_page())
    page.goto(served_site + "03-backprop-by-hand/")
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    follow(page, "a.md-footer__link--next", "/04-engine/")
    # what is near is bound by an IntersectionObserver's callback, which runs after the page is
    # marked bound: wait for the first bar, then read
    page.wait_for_function("() => document.querySelectorAll('.bv-run-bar').length >= 1", timeout=10_000)
    state = page.evaluate(STATE)
    # (what was near where the last page was scrolled to may be bound too: Material scrolls to
    # the top after it swaps the content in)
    assert 1 <= state["bars"] < state["shownBlocks"] and state["quizzes"] < state["allQuizzes"], state
    waiting = page.locator("#" + page.locator(".bv-quiz[hidden]").first.get_attribute("id"))
    waiting.evaluate("e => e.previousElementSibling.scrollIntoView({block: 'center'})")
    waiting.wait_for(state="visible", timeout=10_000)
    context.close()
    assert page.errors == [], page.errors

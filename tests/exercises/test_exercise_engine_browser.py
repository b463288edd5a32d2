"""An exercise on the reader's own engine in the browser (issue 47, item 4): with "Run on: your
engine", an exercise that touches only the engine's public interface (the training step) is
graded on the reader's engine, and its Run says so; one that builds the engine (chain_rule) is
graded on micrograd, as before. tests/exercises/test_exercises_everywhere.py checks the same
in CPython, on three engines."""

import re

from scripts.reader import exercise_format
from tests import engines
from tests.chapter_page import block, run, set_code


def test_the_training_step_runs_on_the_readers_engine_and_the_engine_exercises_on_micrograd(browser, origin):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(origin + "/04-engine/")
    source = engines.source("lecture")  # micrograd 0.1.0's shape: _prev a set, a closure per node
    page.evaluate("""async source => {
        const { pages } = await (await fetch('/progress.json')).json();  // the pass of this version
        localStorage.setItem('bv-progress', JSON.stringify({'04-engine/': { quiz: [], exercise: ['whole_engine'],
            versions: { whole_engine: pages['04-engine/'].versions.whole_engine } }}));
        localStorage.setItem('bv-engine-passed', JSON.stringify({ text: source }));
        localStorage.setItem('bv-engine', JSON.stringify({ use: 'yours',
            check: { text: source, ok: true, shape: 'lecture', message: '' } }));
    }""", source)
    page.reload(wait_until="load")
    for name, on in [("zero_grad", " on your engine"), ("chain_rule", "")]:
        box = block(page, name)
        box.scroll_into_view_if_needed()
        box.locator(".cm-editor").wait_for()
        set_code(page, name, exercise_format.load(name).solution)
        summary, _, _ = run(page, name)
        assert summary.startswith("All "), summary
        status = box.locator(".exercise-status").inner_text()
        assert re.search(rf"(^|; )[Tt]he tests ran{on} in [0-9.]+ s\.$", status), status
    page.close()

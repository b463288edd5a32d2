"""Chapter 4 with the reader's Python, as the browser tests drive it (the `chapter` fixture of
tests/conftest.py opens it): an exercise's code set and Run, its report read as the page shows
it; a chapter block edited, Run, and what it shows; the page's exported blocks. Used by
tests/exercises/test_exercises_browser.py, tests/run/test_run_browser.py and tests/python/test_box_python.py."""

import json
import re
import time
import types

from scripts import ROOT
from scripts.pages import blocks
from scripts.reader import exercise_runner
from tests.helpers import KNOWN_DIFFERENCES, foreign

ORDER = ["local_add_mul", "local_pow_tanh_exp_relu", "chain_rule", "topological_sort", "backward", "zero_grad",
         "whole_engine"]
PYTHON_FILES = re.compile(r"/assets/pyodide/|site-python\.zip|/javascripts/python/python(-worker)?\.js|/blocks\.json")
measured = {}  # numbers for the report, printed at the end (run pytest with -s to see them)
STOPPED = ("Stopped after {seconds} s: the code ran longer than a Run may (an endless loop, a long loop, "
           "or a time.sleep()?). Python was shut down; the next Run starts it again.")


def block(page, name):
    return page.locator(f'.exercise[data-exercise="{name}"]')


def code_of(page, name):
    return page.evaluate("name => document.querySelector(`.exercise[data-exercise=\"${name}\"]`)"
                         ".exerciseState.editor.getCode()", name)


def set_code(page, name, code):
    page.evaluate("([name, code]) => document.querySelector(`.exercise[data-exercise=\"${name}\"]`)"
                  ".exerciseState.editor.setCode(code)", [name, code])


def run(page, name, timeout=60_000):
    """Click Run and wait for the report; returns (summary, [(verdict, test, message)], seconds)."""
    exercise = block(page, name)
    start = time.perf_counter()
    exercise.locator(".exercise-run").click()
    page.wait_for_function("name => document.querySelector(`.exercise[data-exercise=\"${name}\"]`)"
                           "?.classList.contains('is-running') === false", arg=name, timeout=timeout)
    seconds = time.perf_counter() - start
    return report(page, name) + (seconds,)


def report(page, name):
    """The report as the page shows it: (summary, [(verdict, test, message)]), in one round trip."""
    summary, rows = page.evaluate("""name => {
        const box = document.querySelector(`.exercise[data-exercise="${name}"]`);
        const text = (node, selector) => node.querySelector(selector)?.innerText ?? "";
        return [text(box, ".exercise-summary"),
                [...box.querySelectorAll(".exercise-results > li")].map(item => [
                    text(item, ".exercise-verdict").toLowerCase(), text(item, ".exercise-test"),
                    text(item, ".exercise-message")])];
    }""", name)
    return summary, [tuple(row) for row in rows]


def set_scheme(page, scheme):
    """Material's light ("default") or dark ("slate") scheme, with transitions off so colours are final."""
    page.evaluate("""scheme => {
        if (!document.getElementById('no-transitions')) {
            const style = document.createElement('style');
            style.id = 'no-transitions';
            style.textContent = '*, *::before, *::after { transition: none !important; }';
            document.head.append(style);
        }
        document.body.setAttribute('data-md-color-scheme', scheme);
    }""", scheme)


def expected_rows(name, code):
    """What the runner gives in CPython, as the page shows it."""
    return [("passed" if r.passed else "failed", r.name, r.message) for r in exercise_runner.run(name, code).results]


RUN = "document.querySelector('.bv-run').runState"
CHAPTERS = sorted(p.stem for p in (ROOT / "docs").glob("*.md") if blocks.runnable(p.name))


def exported(site, chapter_name):
    return json.loads((site / chapter_name / blocks.EXPORT).read_text(encoding="utf-8"))


def visible(site, chapter_name):
    """The visible blocks of a chapter's export, each with its number n on the page (1, 2, ...)."""
    shown = [dict(b, index=i) for i, b in enumerate(exported(site, chapter_name)["blocks"]) if not b["hidden"]]
    return [dict(b, n=n) for n, b in enumerate(shown, start=1)]


def run_block(page, n, click=True, timeout=60_000):
    """Run block n (1-based) with its Run button; wait for the result. Returns (result, seconds)."""
    page.evaluate(f"n => {{ {RUN}.blocks[n - 1].result = null; }}", n)
    start = time.perf_counter()
    if click:
        page.locator(".bv-run-bar").nth(n - 1).locator(".bv-run-run").click()
    else:  # a block in a closed fold: the same button, clicked from the script
        page.evaluate(f"n => {RUN}.blocks[n - 1].run.click()", n)
    page.wait_for_function(f"n => {{ const b = {RUN}.blocks[n - 1]; return !b.running && b.result; }}",
                           arg=n, timeout=timeout)
    return page.evaluate(f"n => {RUN}.blocks[n - 1].result", n), time.perf_counter() - start


def shown(page, n):
    """What block n shows: (its output's text, its code block's text, the output's first pre's text)."""
    return tuple(page.evaluate(f"""n => {{
        const b = {RUN}.blocks[n - 1];
        return [b.output.textContent, b.code.querySelector('code').textContent,
                b.output.querySelector('pre code')?.textContent ?? null];
    }}""", n))


def edit(page, n, text):
    """Make block n editable (its Edit button) and put `text` in its editor."""
    page.evaluate(f"n => {RUN}.blocks[n - 1].edit.click()", n)
    page.wait_for_function(f"n => {RUN}.blocks[n - 1].editor", arg=n)
    page.evaluate(f"([n, text]) => {RUN}.blocks[n - 1].editor.setCode(text)", [n, text])


def open_on_screen(page, n):
    return page.evaluate(f"n => !{RUN}.blocks[n - 1].code.closest('details:not([open])')", n)


def middle_doctest(page, site):
    """A doctest block in the middle of chapter 4 that is on screen and runs in this Python."""
    candidates = [b for b in visible(site, "04-engine")
                  if b["kind"] == "doctest" and not b["skip"] and b["n"] > 5 and open_on_screen(page, b["n"])
                  and not any(text in b["source"] for (name, text) in KNOWN_DIFFERENCES if name == "04-engine")]
    return candidates[len(candidates) // 2]


def open_chapter_4(browser, origin):
    """Chapter 4 in a new page of `browser`, for the `chapter` fixture (tests/conftest.py: what it
    records, and what it checks once the module's tests are done); a generator, as a fixture is."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    state = types.SimpleNamespace(page=page, origin=origin, requests=[], sizes={}, errors=[], console=[])
    page.on("request", lambda request: state.requests.append(request.url))
    page.on("response", lambda response: state.sizes.__setitem__(
        response.url, int(response.headers.get("content-length") or 0)))
    page.on("pageerror", lambda error: state.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and state.console.append(message.text))
    page.goto(f"{origin}/04-engine/", wait_until="load")  # "networkidle" alone can return mid-parse
    page.wait_for_load_state("networkidle")  # what the page fetches at load: 500 ms with none
    state.at_load = list(state.requests)
    for name in ORDER:
        block(page, name).scroll_into_view_if_needed()
        block(page, name).locator(".cm-editor").wait_for()
    page.wait_for_load_state("networkidle")  # what it fetches before a Run: 500 ms with none
    state.before_run = list(state.requests)
    yield state
    page.close()
    print("\n".join(["", "measured:"] + [f"  {key}: {value}" for key, value in measured.items()]))
    measured.clear()
    # the module's whole visit: nothing left the site, no error (a test that expects one removes it)
    assert foreign(state.requests, origin) == [], foreign(state.requests, origin)
    assert state.errors == [] and state.console == [], (state.errors, state.console)

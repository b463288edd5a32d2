"""Python in the reader's browser, in Debian's Chromium: the exercises of
chapter 4 on the built site, run by Pyodide in a Web Worker.

One strict build, one Chromium, one page and one Pyodide start for the whole
file (the endless-loop test, last, starts a second one on purpose). Every
request the page and its worker make is recorded: nothing may leave the
origin, and nothing of Python may load before the first Run.
"""

import gzip
import re
import time
import types
import urllib.request

import pytest

from scripts import ROOT, exercises

ORDER = ["local_add_mul", "local_pow_tanh_exp_relu", "chain_rule", "topological_sort", "backward", "zero_grad",
         "whole_engine"]
PYTHON_FILES = re.compile(r"/assets/pyodide/|site-python\.zip|/javascripts/python(-worker)?\.js")
measured = {}  # numbers for the report, printed at the end (run pytest with -s to see them)


@pytest.fixture(scope="session")
def chromium(browser):
    """Debian's Chromium (tests/conftest.py); the site is the run's one strict build (`site`)."""
    return browser


@pytest.fixture(scope="session")
def chapter(chromium, origin):
    """Chapter 4, opened once; every exercise scrolled into view, so every editor is loaded.

    Records each request (the page's and its worker's), with the requests made
    at load and before any Run, and every uncaught error.
    """
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    state = types.SimpleNamespace(page=page, origin=origin, requests=[], sizes={}, errors=[])
    page.on("request", lambda request: state.requests.append(request.url))
    page.on("response", lambda response: state.sizes.__setitem__(
        response.url, int(response.headers.get("content-length") or 0)))
    page.on("pageerror", lambda error: state.errors.append(str(error)))
    page.goto(f"{origin}/04-engine/", wait_until="load")  # "networkidle" alone can return mid-parse
    page.wait_for_load_state("networkidle")
    state.at_load = list(state.requests)
    for name in ORDER:
        block(page, name).scroll_into_view_if_needed()
        block(page, name).locator(".cm-editor").wait_for()
    page.wait_for_load_state("networkidle")
    state.before_run = list(state.requests)
    yield state
    page.close()
    print("\n".join(["", "measured:"] + [f"  {key}: {value}" for key, value in measured.items()]))


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
    page.wait_for_function("name => !document.querySelector(`.exercise[data-exercise=\"${name}\"]`)"
                           ".classList.contains('is-running')", arg=name, timeout=timeout)
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
    return [("passed" if r.passed else "failed", r.name, r.message) for r in exercises.run(name, code).results]


# --- Before the first Run ------------------------------------------------------------


def test_the_build_serves_the_runtime_and_the_bundle_not_the_sources(site):
    runtime = site / "assets" / "pyodide" / "314.0.7"
    assert sorted(p.name for p in runtime.iterdir()) == sorted(
        ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"])
    assert not (site / "exercises").exists(), "the exercises reach the browser inside the zip only"
    editor = (site / "javascripts" / "editor.js").read_text(encoding="utf-8")
    assert editor.startswith("/* The exercise editor: CodeMirror 6") and "@codemirror/view" not in editor[:2000]


def test_nothing_of_python_loads_before_the_first_run(chapter):
    assert any(url.endswith("/javascripts/exercise.js") for url in chapter.at_load)
    assert not any(url.endswith("/javascripts/editor.js") for url in chapter.at_load), \
        "the editor loads only when an exercise comes near the screen"
    assert any(url.endswith("/javascripts/editor.js") for url in chapter.before_run)
    early = [url for url in chapter.before_run if PYTHON_FILES.search(url)]
    assert early == []


def test_what_the_page_weighs_before_the_first_run(chapter):
    """HTML, scripts and stylesheets fetched at load, and once the editors are loaded."""
    def weigh(urls):
        kinds = [u for u in dict.fromkeys(urls) if u.split("?")[0].endswith((".js", ".css", "/"))]
        raw = sum(chapter.sizes.get(u, 0) for u in kinds)
        zipped = sum(len(gzip.compress(urllib.request.urlopen(u).read(), 9)) for u in kinds)
        return raw, zipped

    measured["at load"] = weigh(chapter.at_load)
    measured["with editors"] = weigh(chapter.before_run)
    own = sum(chapter.sizes[u] for u in chapter.at_load if u.endswith("/javascripts/exercise.js"))
    editor = sum(chapter.sizes[u] for u in chapter.before_run if u.endswith("/javascripts/editor.js"))
    assert 0 < own < 12_000, own              # what every exercise page adds at load
    assert 200_000 < editor < 420_000, editor  # CodeMirror 6 + Python, minified, one file


def test_the_page_reads_without_javascript(chromium, origin):
    page = chromium.new_page(java_script_enabled=False)
    page.goto(f"{origin}/04-engine/")
    first = block(page, "local_add_mul")
    assert "Exercise 1: The local derivatives of + and *" in first.locator("h3").inner_text()
    assert first.locator(".exercise-starter code").inner_text().strip() == \
        exercises.load("local_add_mul").starter.strip()
    assert first.locator("details summary").all_inner_texts() == ["Hints", "Solution"]
    page.close()


# --- Running --------------------------------------------------------------------------


def test_a_solution_typed_in_the_editor_passes_every_test(chapter):
    page = chapter.page
    exercise = exercises.load("local_add_mul")
    block(page, "local_add_mul").locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(exercise.solution)
    assert code_of(page, "local_add_mul") == exercise.solution
    start = time.perf_counter()
    page.keyboard.press("Control+Enter")  # the editor's run key
    page.wait_for_function("() => document.querySelector('.exercise[data-exercise=\"local_add_mul\"] "
                           ".exercise-summary')", timeout=60_000)
    measured["first run (s)"] = time.perf_counter() - start
    summary, rows = report(page, "local_add_mul")
    assert summary == f"All {len(rows)} tests passed."
    assert rows == expected_rows("local_add_mul", exercise.solution)
    status = block(page, "local_add_mul").locator(".exercise-status").inner_text()
    assert status.startswith("Python started in")
    first_run = [u for u in chapter.requests if PYTHON_FILES.search(u)]
    measured["first run files"] = {u.split("/")[-1]: chapter.sizes.get(u, 0) for u in first_run}
    for name in ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]:
        assert any(u.endswith(f"/assets/pyodide/314.0.7/{name}") for u in first_run), name


def test_assignment_instead_of_plus_equals_gets_its_message(chapter):
    page = chapter.page
    exercise = exercises.load("chain_rule")
    (mistake,) = [m for m in exercise.mistakes if m.name == "= instead of +="]
    set_code(page, "chain_rule", mistake.apply(exercise.solution))
    summary, rows, seconds = run(page, "chain_rule")
    measured["second run (s)"] = seconds
    assert summary.endswith("tests passed.") and not summary.startswith("All")
    assert ("failed", "b = a * a: both edges start at a, and both count",
            "a.grad for b = a * a with a = 3 is 3.0, expected 6.0: "
            "a value used twice needs +=, not =: each edge adds its share") in rows
    assert block(page, "chain_rule").locator(".exercise-status").inner_text().startswith("The tests ran in")


@pytest.mark.parametrize("name", ORDER)
def test_pyodide_grades_like_cpython(chapter, name):
    """Solution, starter and every classic mistake: the page shows what pytest's runner gives."""
    page = chapter.page
    exercise = exercises.load(name)
    versions = [exercise.solution, exercise.starter] + [m.apply(exercise.solution) for m in exercise.mistakes]
    for code in versions:
        set_code(page, name, code)
        summary, rows, _ = run(page, name)
        assert rows == expected_rows(name, code), code
    set_code(page, name, exercise.starter)


def test_print_output_and_blanks_are_shown(chapter):
    page = chapter.page
    set_code(page, "chain_rule", exercises.load("chain_rule").starter + "print('checking', 6 * 7)\n")
    run(page, "chain_rule")
    exercise = block(page, "chain_rule")
    assert exercise.locator(".exercise-output").inner_text() == "checking 42"
    assert exercise.locator(".exercise-note").inner_text() == \
        "Your code still has blanks (...) to fill in, on line 4."


def test_reset_brings_back_the_starter(chapter):
    page = chapter.page
    set_code(page, "backward", "x = 1\n")
    block(page, "backward").locator(".exercise-reset").click()
    assert code_of(page, "backward").strip() == exercises.load("backward").starter.strip()


# --- Keyboard, screen readers, schemes, phones ---------------------------------------


def test_every_control_is_reachable_by_keyboard_and_labelled(chapter):
    page = chapter.page
    exercise = block(page, "topological_sort")
    heading_id = exercise.locator("h3").get_attribute("id")
    assert exercise.get_attribute("role") == "group"
    assert exercise.get_attribute("aria-labelledby") == heading_id
    assert exercise.locator(".cm-content").get_attribute("aria-label") == \
        "Code for Exercise 4: Topological order, without recursion"
    assert exercise.locator(".exercise-status").get_attribute("role") == "status"
    assert exercise.locator(".exercise-report").get_attribute("aria-live") == "polite"
    exercise.locator(".cm-content").click()
    page.keyboard.press("Tab")  # Tab indents inside the editor...
    assert page.evaluate("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Escape")  # ...Escape then Tab moves on
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Run"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused button must show it"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Reset"
    page.keyboard.press("Enter")
    assert code_of(page, "topological_sort").strip() == exercises.load("topological_sort").starter.strip()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_problem_in_the_exercises(chapter, scheme):
    """WCAG 2 A and AA on one exercise (they all have the same parts), with its results shown."""
    page = chapter.page
    set_scheme(page, scheme)
    axe = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    page.add_script_tag(content=axe)  # inline: no request
    violations = page.evaluate("""async () => {
        const result = await axe.run({ include: [['.exercise[data-exercise="chain_rule"]']] },
                                     { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
        return result.violations.map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
    }""")
    set_scheme(page, "default")
    assert violations == []


def test_the_dark_scheme_changes_the_editor_colours(chapter):
    page = chapter.page
    colours = {}
    for scheme in ("default", "slate"):
        set_scheme(page, scheme)
        colours[scheme] = page.evaluate("""() => {
            const editor = document.querySelector('.exercise .cm-editor');
            return [getComputedStyle(editor).backgroundColor, getComputedStyle(editor).color];
        }""")
    set_scheme(page, "default")
    assert colours["default"] != colours["slate"]


def test_a_390px_phone_shows_the_exercise_without_sideways_scrolling(chromium, origin):
    page = chromium.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page.goto(f"{origin}/04-engine/", wait_until="load")
    exercise = block(page, "whole_engine")
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-editor").wait_for()
    widths = page.evaluate("""() => {
        const box = document.querySelector('.exercise[data-exercise="whole_engine"]');
        return [document.documentElement.scrollWidth, box.getBoundingClientRect().right,
                box.querySelector('.exercise-controls').getBoundingClientRect().right];
    }""")
    page.close()
    assert widths[0] <= 390 and widths[1] <= 390 and widths[2] <= 390, widths


# --- Last: a runaway Run, then the whole session's requests ---------------------------


def test_an_endless_loop_is_stopped_and_the_next_run_works(chapter):
    page = chapter.page
    page.evaluate("() => { document.querySelector('.exercise[data-exercise=\"zero_grad\"]')"
                  ".dataset.timeoutMs = '1500'; }")
    set_code(page, "zero_grad", "while True:\n    pass\n")
    summary, rows, seconds = run(page, "zero_grad")
    assert summary == ("Stopped after 1.5 s: your code was still running (an endless loop?). "
                       "Python was shut down; the next Run starts it again.")
    assert rows == [] and 1.5 <= seconds < 10
    solution = exercises.load("zero_grad").solution
    set_code(page, "zero_grad", solution)
    summary, rows, seconds = run(page, "zero_grad")
    measured["restart after a stop (s)"] = seconds
    assert summary == f"All {len(rows)} tests passed." and rows == expected_rows("zero_grad", solution)
    assert block(page, "zero_grad").locator(".exercise-status").inner_text().startswith("Python started in")


def test_no_request_leaves_the_origin_and_no_error_is_thrown(chapter):
    foreign = [url for url in chapter.requests if not url.startswith((chapter.origin, "data:", "blob:"))]
    assert foreign == []
    assert chapter.errors == []

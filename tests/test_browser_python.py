"""Python in the reader's browser, in Debian's Chromium: the exercises of
chapter 4 and Run on every block of a chapter, on the built site, run by
Pyodide in a Web Worker.

One strict build, one Chromium, one page and one Pyodide start for the whole
file (the deep-graph and endless-loop tests, last, start more on purpose);
every chapter's blocks run in that page's Python. Every request the page and
its worker make is recorded: nothing may leave the origin, and nothing of
Python may load before the first Run. Every console error is recorded too.
"""

import gzip
import json
import re
import time
import types
import urllib.request

import pytest

from scripts import ROOT, blocks, exercise_format, exercise_runner

ORDER = ["local_add_mul", "local_pow_tanh_exp_relu", "chain_rule", "topological_sort", "backward", "zero_grad",
         "whole_engine"]
PYTHON_FILES = re.compile(r"/assets/pyodide/|site-python\.zip|/javascripts/python(-worker)?\.js|/blocks\.json")
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
    state = types.SimpleNamespace(page=page, origin=origin, requests=[], sizes={}, errors=[], console=[])
    page.on("request", lambda request: state.requests.append(request.url))
    page.on("response", lambda response: state.sizes.__setitem__(
        response.url, int(response.headers.get("content-length") or 0)))
    page.on("pageerror", lambda error: state.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and state.console.append(message.text))
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
    return [("passed" if r.passed else "failed", r.name, r.message) for r in exercise_runner.run(name, code).results]


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
    assert any(url.endswith("/javascripts/run-blocks.js") for url in chapter.at_load)
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
        exercise_format.load("local_add_mul").starter.strip()
    assert first.locator("details summary").all_inner_texts() == ["Hints", "Solution"]
    page.close()


# --- Running --------------------------------------------------------------------------


def test_a_solution_typed_in_the_editor_passes_every_test(chapter):
    page = chapter.page
    exercise = exercise_format.load("local_add_mul")
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
    exercise = exercise_format.load("chain_rule")
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
    exercise = exercise_format.load(name)
    versions = [exercise.solution, exercise.starter] + [m.apply(exercise.solution) for m in exercise.mistakes]
    for code in versions:
        set_code(page, name, code)
        summary, rows, _ = run(page, name)
        assert rows == expected_rows(name, code), code
    set_code(page, name, exercise.starter)


def test_print_output_and_blanks_are_shown(chapter):
    page = chapter.page
    set_code(page, "chain_rule", exercise_format.load("chain_rule").starter + "print('checking', 6 * 7)\n")
    run(page, "chain_rule")
    exercise = block(page, "chain_rule")
    assert exercise.locator(".exercise-output").inner_text() == "checking 42"
    assert exercise.locator(".exercise-note").inner_text() == \
        "Your code still has blanks (...) to fill in, on line 4."


def test_reset_brings_back_the_starter(chapter):
    page = chapter.page
    set_code(page, "backward", "x = 1\n")
    block(page, "backward").locator(".exercise-reset").click()
    assert code_of(page, "backward").strip() == exercise_format.load("backward").starter.strip()


# --- Run any example: every Python block of a chapter ---------------------------------
#
# Chapter 4's blocks run in the page's Python, started by the exercises above; the
# other chapters' exports run in it too (the worker takes any page's blocks.json).

RUN = "document.querySelector('.bv-run').runState"
CHAPTERS = sorted(p.stem for p in (ROOT / "docs").glob("*.md") if blocks.runnable(p.name))
# Results the browser's Python gives differently from the Python the page ran in, by
# (page, text in the block): why. A fixed page fails this test until its entry goes.
# {(chapter, a snippet of the block): why its browser output differs from the page's}. Empty:
# every block of chapters 1-5 gives in Pyodide's Python exactly what the page shows. An entry
# must still differ (the test fails when one is gone).
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {}


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


def test_a_chapter_binds_run_to_each_python_block_and_loads_nothing_heavy(chromium, origin):
    """Chapter 3 (no exercise on it) at load: Run and Edit under every Python block, the counts
    agree (no console error), and nothing of Python, no editor, no blocks.json is fetched.
    tests/test_blocks.py checks every chapter's rendered blocks against its export."""
    page = chromium.new_page()
    requests, console = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.goto(f"{origin}/03-backprop-by-hand/", wait_until="load")
    page.wait_for_load_state("networkidle")
    bound = page.evaluate("""() => {
        const marker = document.querySelector('.bv-run');
        return [marker.dataset.lines.split(' ').length, marker.runState?.blocks.length,
                document.querySelectorAll('.bv-run-bar').length,
                [...document.querySelectorAll('.bv-run-bar')].every(bar =>
                    bar.querySelector('.bv-run-run').getAttribute('aria-label').startsWith('Run block ')
                    && bar.querySelector('.bv-run-edit').textContent === 'Edit')];
    }""")
    page.close()
    assert bound[0] == bound[1] == bound[2] and bound[3], bound
    assert [u for u in requests if PYTHON_FILES.search(u) or u.endswith("/javascripts/editor.js")] == []
    own = {u.rsplit("/", 1)[1]: len(urllib.request.urlopen(u).read()) for u in requests if "/run-blocks." in u}
    measured["run: added at load (bytes)"] = own
    assert set(own) == {"run-blocks.js", "run-blocks.css"}
    assert own["run-blocks.js"] < 16_000 and own["run-blocks.css"] < 4_000, own
    assert console == []


def test_run_on_a_block_in_the_middle_runs_the_blocks_before_it_and_shows_the_pages_output(chapter, site):
    page = chapter.page
    block = middle_doctest(page, site)
    result, seconds = run_block(page, block["n"])
    measured["run: a chapter block, Python already started (s)"] = round(seconds, 2)
    results = result["report"]["results"]
    assert [r["index"] for r in results] == list(range(block["index"] + 1))  # every block before it ran
    assert all(r["status"] in ("ran", "skipped", "differs") for r in results)
    assert results[-1]["status"] == "ran" and not results[-1]["edited"]
    output, page_text, transcript = shown(page, block["n"])
    assert transcript == page_text.rstrip("\n")  # exactly the doctest as the page shows it
    assert "Same results as the page." in output
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].editor !== null", block["n"]), "Run makes it editable"
    progress = page.evaluate(f"n => {RUN}.blocks[n - 1].progress.textContent", block["n"])
    assert re.fullmatch(rf"(Python started in [0-9.]+ s\. )?Blocks 1 to {block['n']} ran in [0-9.]+ s\.", progress)


def test_an_edit_changes_the_output_edits_before_it_count_and_reset_restores_it(chapter, site):
    page = chapter.page
    block = middle_doctest(page, site)
    first = next(b for b in visible(site, "04-engine") if b["kind"] == "code" and not b["skip"])
    edit(page, first["n"], first["source"] + "edited_before = 6 * 7\n")
    edit(page, block["n"], ">>> edited_before\n41\n")
    result, _ = run_block(page, block["n"])
    mine = result["report"]["results"][-1]
    assert result["report"]["results"][first["index"]]["edited"] and mine["edited"]
    assert mine["status"] == "differs"
    output, _, transcript = shown(page, block["n"])
    assert transcript == ">>> edited_before\n42\npage: 41"
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].output.querySelector('mark').textContent", block["n"]) == "42\n"
    assert "1 of 1 results differ from the page's" in output
    for n in (block["n"], first["n"]):
        page.locator(".bv-run-bar").nth(n - 1).locator(".bv-run-reset").click()
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].editor.getCode()", block["n"]) == block["source"].rstrip("\n")
    result, _ = run_block(page, block["n"])
    output, page_text, transcript = shown(page, block["n"])
    assert not result["report"]["results"][first["index"]]["edited"]
    assert transcript == page_text.rstrip("\n") and "Same results as the page." in output


def test_a_figure_block_keeps_the_builds_figure_and_says_it_shows_the_unedited_code(chapter, site):
    page = chapter.page
    block = next(b for b in visible(site, "04-engine") if b["figure"] and open_on_screen(page, b["n"]))
    run_block(page, block["n"])
    output, _, _ = shown(page, block["n"])
    assert "The figure below shows the unedited code, drawn when the site was built" in output
    figure = page.evaluate(f"""n => {{
        const output = {RUN}.blocks[n - 1].output;
        return output.nextElementSibling?.querySelector('img')?.getAttribute('src');
    }}""", block["n"])
    assert figure and figure.endswith(".svg"), "the build's figure follows the output"
    page.evaluate(f"n => {RUN}.blocks[n - 1].editor.setCode({RUN}.blocks[n - 1].source + '\\n')", block["n"])
    run_block(page, block["n"])
    output, _, _ = shown(page, block["n"])
    assert "The figure below shows the unedited code: Python in your browser has no Graphviz" in output
    page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", block["n"])


def test_a_block_the_page_skips_is_not_run_and_says_why(chapter, site):
    page = chapter.page
    skipped = [b for b in visible(site, "04-engine") if b["skip"]]
    if not skipped:
        pytest.skip("chapter 4 skips no block now")
    block = skipped[0]
    run_block(page, block["n"], click=open_on_screen(page, block["n"]))
    output, _, _ = shown(page, block["n"])
    assert f"Not run: the page skips this block ({block['skip']['reason']})." in output
    assert page.evaluate(f"n => {RUN}.blocks[n - 1].edit.hidden && !{RUN}.blocks[n - 1].editor", block["n"])


def test_every_chapters_blocks_give_the_pages_outputs_in_the_browsers_python(chapter, site):
    """Each chapter's whole export, run by Pyodide (the worker chapter 4 started): every doctest
    gives the page's output, every block runs, but for KNOWN_DIFFERENCES and figures that need
    a package the browser does not have (the build drew them)."""
    page = chapter.page
    found, seconds = {}, {}
    for name in CHAPTERS:
        report = page.evaluate("""async (name) => {
            const marker = document.querySelector('.bv-run');
            const text = await (await fetch(`../${name}/blocks.json`)).text();
            const { runBlocks } = await import(new URL('../javascripts/python.js', location.href).href);
            return runBlocks({ blocks: text, upto: JSON.parse(text).blocks.length - 1, edits: {},
                runtimeURL: new URL(marker.dataset.runtime, location.href).href,
                pythonURL: new URL(marker.dataset.python, location.href).href, timeoutMs: 60000 });
        }""", name)
        assert report["kind"] == "result", (name, report)
        seconds[name] = round(report["runMs"] / 1000, 2)
        source = {b["line"]: b["source"] for b in exported(site, name)["blocks"]}
        for r in report["report"]["results"]:
            if r["status"] in ("ran", "skipped"):
                continue
            if r["status"] == "unavailable" and r["figure"]:
                assert re.fullmatch(r"ModuleNotFoundError: No module named '(matplotlib|numpy)'", r["error"]), r
                continue
            found[name, r["line"]] = (r["status"], source[r["line"]])
    measured["run: every block of each chapter, in the browser (s)"] = seconds
    known = {(name, line): why for (name, line), (_, text) in found.items()
             for (known_name, snippet), why in KNOWN_DIFFERENCES.items() if known_name == name and snippet in text}
    assert sorted(set(found) - set(known)) == [], {k: found[k] for k in set(found) - set(known)}
    assert len(known) == len(KNOWN_DIFFERENCES), "a known difference is gone: remove it from KNOWN_DIFFERENCES"


def test_run_edit_and_reset_are_labelled_buttons_and_the_output_is_announced(chapter, site):
    page = chapter.page
    block = middle_doctest(page, site)
    bar = page.locator(".bv-run-bar").nth(block["n"] - 1)
    assert [bar.locator(sel).evaluate("b => [b.tagName, b.getAttribute('aria-label'), b.textContent]")
            for sel in (".bv-run-run", ".bv-run-reset")] == [
        ["BUTTON", f"Run block {block['n']}", "Run"], ["BUTTON", f"Reset block {block['n']}", "Reset"]]
    assert page.evaluate(f"""n => {{
        const b = {RUN}.blocks[n - 1];
        return [b.output.getAttribute('aria-live'), b.progress.getAttribute('role'),
                b.host.querySelector('.cm-content').getAttribute('aria-label')];
    }}""", block["n"]) == ["polite", "status", f"Block {block['n']}, editable"]
    bar.locator(".bv-run-run").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Reset"
    # Edit, on a block not yet editable, moves the focus into its editor
    fresh = next(b for b in visible(site, "04-engine") if not b["skip"] and open_on_screen(page, b["n"])
                 and not page.evaluate(f"n => {RUN}.blocks[n - 1].editor", b["n"]))
    page.locator(".bv-run-bar").nth(fresh["n"] - 1).locator(".bv-run-edit").click()
    page.wait_for_function("() => document.activeElement?.classList.contains('cm-content')")


def test_a_390px_phone_shows_a_run_block_and_its_output_without_sideways_scrolling(chapter, site):
    page = chapter.page
    block = middle_doctest(page, site)
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        edit(page, block["n"], ">>> raise ValueError('a long message ' * 8)\n")
        run_block(page, block["n"])
        widths = page.evaluate(f"""n => {{
            const b = {RUN}.blocks[n - 1];
            return [document.documentElement.scrollWidth, b.bar.getBoundingClientRect().right,
                    b.output.getBoundingClientRect().right, b.host.getBoundingClientRect().right];
        }}""", block["n"])
        assert all(w <= 390 for w in widths), widths
    finally:
        page.evaluate(f"n => {RUN}.blocks[n - 1].reset.click()", block["n"])
        page.set_viewport_size({"width": 1280, "height": 800})


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
    assert code_of(page, "topological_sort").strip() == exercise_format.load("topological_sort").starter.strip()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_no_problem_in_an_exercise_and_a_run_block(chapter, site, scheme):
    """WCAG 2 A and AA on one exercise (they all have the same parts), with its results shown,
    and on one chapter block that ran (its editor, buttons and output): one axe run each scheme."""
    page = chapter.page
    block = middle_doctest(page, site)
    if not page.evaluate(f"n => {RUN}.blocks[n - 1].output.childElementCount", block["n"]):
        run_block(page, block["n"])
    set_scheme(page, scheme)
    axe = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    page.add_script_tag(content=axe)  # inline: no request
    violations = page.evaluate("""async (n) => {
        const b = document.querySelector('.bv-run').runState.blocks[n - 1];
        const parts = [b.host, b.bar, b.output];
        for (const node of parts) node.setAttribute('data-axe', '');
        try {
            const result = await axe.run({ include: [['.exercise[data-exercise="chain_rule"]'], ['[data-axe]']] },
                                         { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
            return result.violations.map(
                v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
        } finally {
            for (const node of parts) node.removeAttribute('data-axe');
        }
    }""", block["n"])
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


def test_a_390px_phone_shows_the_exercise_without_sideways_scrolling(chapter):
    """The session's chapter page narrowed to a phone's width (as the run block test above)."""
    page = chapter.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        exercise = block(page, "whole_engine")
        exercise.scroll_into_view_if_needed()
        widths = page.evaluate("""() => {
            const box = document.querySelector('.exercise[data-exercise="whole_engine"]');
            return [document.documentElement.scrollWidth, box.getBoundingClientRect().right,
                    box.querySelector('.exercise-controls').getBoundingClientRect().right,
                    box.querySelector('.cm-editor').getBoundingClientRect().right];
        }""")
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})
    assert all(w <= 390 for w in widths), widths


# --- Last: a runaway Run, a deep graph freed, then the whole session's requests -------


def test_an_endless_loop_is_stopped_and_the_next_run_works(chapter):
    page = chapter.page
    page.evaluate("() => { document.querySelector('.exercise[data-exercise=\"zero_grad\"]')"
                  ".dataset.timeoutMs = '1500'; }")
    set_code(page, "zero_grad", "while True:\n    pass\n")
    summary, rows, seconds = run(page, "zero_grad")
    assert summary == ("Stopped after 1.5 s: your code was still running (an endless loop?). "
                       "Python was shut down; the next Run starts it again.")
    assert rows == [] and 1.5 <= seconds < 10
    solution = exercise_format.load("zero_grad").solution
    set_code(page, "zero_grad", solution)
    summary, rows, seconds = run(page, "zero_grad")
    measured["restart after a stop (s)"] = seconds
    assert summary == f"All {len(rows)} tests passed." and rows == expected_rows("zero_grad", solution)
    assert block(page, "zero_grad").locator(".exercise-status").inner_text().startswith("Python started in")


def test_a_block_that_frees_a_deep_graph_says_what_stopped_python(chapter, site):
    """Freeing a chain of 5,000 operations at once overflows the browser's stack (the run's own
    graphs are taken apart first; a block that drops one itself cannot be helped). Last but
    one: it leaves Python stopped, as the endless loop before it did."""
    page = chapter.page
    first = next(b for b in visible(site, "04-engine") if b["kind"] == "code" and not b["skip"])
    errors_before = len(chapter.console)
    edit(page, first["n"], "from micrograd import Value\nx = Value(0.0)\nfor _ in range(5000):\n    x = x + 1\n"
                           "x = None\n")
    result, _ = run_block(page, first["n"])
    assert result["kind"] == "error" and result["block"] == first["index"]
    output, _, _ = shown(page, first["n"])
    assert output.startswith("While this block ran: Python stopped: Maximum call stack size exceeded (freeing "
                             "a computation graph more than about 1,500 operations deep")
    assert output.endswith("The next Run starts it again.")  # it does: the path of the stop above
    # Pyodide itself reports its fatal error on the console: those lines, and only those, are expected
    crashed = chapter.console[errors_before:]
    assert crashed and all(re.search(r"fatal error|Maximum call stack|Pyodide", line) for line in crashed), crashed
    del chapter.console[errors_before:]


def test_no_request_leaves_the_origin_and_no_error_is_thrown(chapter):
    foreign = [url for url in chapter.requests if not url.startswith((chapter.origin, "data:", "blob:"))]
    assert foreign == []
    assert chapter.errors == []
    assert chapter.console == []

"""Live graphs in Debian's Chromium (issue 18): the playground (docs/playground.md) and
Graphviz in the page (docs/javascripts/shared/viz.js), on the built site, with the reader's
Python (Pyodide) started once for the playground's page and once for the chapters' blocks.

Every number the page shows came from micrograd in the browser's Python; these tests
compare them with the same calls in CPython (scripts.reader.playground.run). Screenshots go to
/tmp/shots-live/ (the playground at 1280 and 390 px, light and dark)."""

import html
import json
import math
import re
import time
from urllib.parse import quote

import graphviz
import pytest

from scripts.pages import blocks
from scripts.reader import playground
from tests.helpers import KNOWN_DIFFERENCES, follow, foreign, recorded, report_shot

PYTHON_OR_VIZ = re.compile(r"/assets/pyodide/|site-python\.zip|/assets/viz/|/javascripts/python/python(-worker)?\.js")
NEURON = ("tanh(x1*w1 + x2*w2 + b)", "x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 6.8813735870195432")
PG = "document.querySelector('.bv-playground').playground"
measured = {}


@pytest.fixture(scope="module")
def pg(browser, served_site):
    """The playground's page, opened once: its requests, errors and console errors recorded.
    Served where the site was built for, so Material navigates instantly from it (`follow`) and
    the chapters' tests below use the Python the playground started, as a reader's visit does."""
    origin = served_site.rstrip("/")
    page = recorded(browser.new_page(viewport={"width": 1280, "height": 900}))
    page.goto(f"{origin}/playground/", wait_until="load")
    page.wait_for_load_state("networkidle")
    page.at_load = list(page.requests)
    page.origin = origin
    yield page
    page.close()
    print("\n".join(["", "measured:"] + [f"  {key}: {value}" for key, value in measured.items()]))


def draw(page, expression, values, press="Enter", timeout=90_000):
    """Type both texts with the keyboard, submit with Enter in the values field; wait for the answer."""
    page.fill("#bv-pg-expression", "")
    page.locator("#bv-pg-expression").type(expression)
    page.fill("#bv-pg-values", "")
    page.locator("#bv-pg-values").type(values)
    page.evaluate(f"() => {{ {PG}.data = undefined; }}")
    start = time.perf_counter()
    page.locator("#bv-pg-values").press(press)
    page.wait_for_function(f"() => {PG}.data !== undefined && !{PG}.running", timeout=timeout)
    return time.perf_counter() - start


def shown(page):
    return page.evaluate(f"""() => {{
        const p = {PG};
        return {{ message: p.message.innerText, progress: p.progress.innerText, hidden: p.result.hidden,
                  status: p.result.querySelector('.bv-widget__status')?.innerText,
                  caption: p.result.querySelector('.bv-widget__caption')?.innerText,
                  rows: [...p.result.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.innerText)),
                  summary: p.result.querySelector('.bv-pg__pass, .bv-pg__fail')?.innerText,
                  ids: [...p.result.querySelectorAll('svg g.node, svg g.edge')].map(e => e.dataset.id).sort(),
                  hash: location.hash }};
    }}""")


def test_nothing_of_python_or_graphviz_loads_with_the_page(pg):
    assert any(url.endswith("/javascripts/widgets/playground.js") for url in pg.at_load)
    assert [url for url in pg.at_load if PYTHON_OR_VIZ.search(url)] == []
    assert pg.evaluate(f"() => [{PG}.expression.value, {PG}.values.value]") == [
        "(a + b) * c", "a = 2, b = -3, c = 10"]


def test_chapters_1_to_4_link_to_the_playground(site):
    for chapter in ["01-computational-graphs", "02-chain-rule", "03-backprop-by-hand", "04-engine"]:
        page = (site / chapter / "index.html").read_text(encoding="utf-8")
        content = page[page.index('<article'):page.index('</article>')]  # not the navigation's link
        assert 'href="../playground/"' in content, chapter


def test_the_playground_reads_without_javascript(browser, origin):
    page = browser.new_page(java_script_enabled=False)
    page.goto(f"{origin}/playground/")
    assert "needs JavaScript" in page.locator(".bv-playground").inner_text()
    page.close()


def test_the_neuron_is_drawn_with_draw_dots_ids_stepped_and_every_grad_passes_the_check(pg):
    seconds = draw(pg, *NEURON)
    measured["playground: first press, Python and Graphviz cold (s)"] = round(seconds, 1)
    expected = playground.run(*NEURON)
    view = shown(pg)
    assert view["message"] == "" and not view["hidden"], view
    assert [row[0] for row in view["rows"]] == [leaf["name"] for leaf in expected["leaves"]]
    assert all(row[-1] == "✓ agrees" for row in view["rows"]), view["rows"]
    assert view["summary"].startswith("Every leaf's grad agrees with centered finite differences")
    # The table is CPython's, text for text, in its leaf, grad and check columns. The
    # finite-difference estimates agree to about 1e−10 only: the browser's libm rounds tanh's
    # last bits otherwise, and an estimate divides a difference of last bits by 2h.
    exact = lambda row: [row[0], row[1], row[4]]  # noqa: E731
    assert [exact(row) for row in view["rows"]] == [exact(leaf["shown"]) for leaf in expected["leaves"]]
    for row, leaf in zip(view["rows"], expected["leaves"]):
        assert math.isclose(float(row[2].replace("−", "-")), leaf["numeric"], rel_tol=1e-9, abs_tol=1e-9), row
    assert view["summary"] == expected["check"]["text"]
    data = pg.evaluate(f"() => {PG}.data")
    assert data["dot"] == expected["dot"], "the browser's Python gives CPython's DOT source"
    built = graphviz.Source(expected["dot"]).pipe(format="svg", encoding="utf-8")  # as the build draws
    assert view["ids"] == sorted(html.unescape(i) for i in re.findall(r'<g id="([^"]+)" class="(?:node|edge)"', built))
    total = len(data["forward"]) + len(data["backward"])
    assert view["status"] == f"Step {total} of {total}: backward pass"
    pg.get_by_role("button", name="Back to the start").click()
    assert shown(pg)["status"] == f"Step 0 of {total}: before the forward pass"
    next_step = pg.get_by_role("button", name="Next step")
    next_step.focus()
    for _ in range(len(data["forward"]) + 1):
        pg.keyboard.press("Enter")  # the keyboard steps as the mouse does
    view = shown(pg)
    assert view["status"] == f"Step {len(data['forward']) + 1} of {total}: backward pass"
    assert view["caption"] == "Seed: out.grad = 1, because ∂out/∂out = 1."
    grads = pg.evaluate("() => [...document.querySelectorAll('.bv-pg__graph [data-id=\"n9\"] text')]"
                        ".map(t => t.textContent)")
    assert grads[-1] == "grad 1.0000", grads


def test_a_typed_expression_of_20_nodes_is_drawn_and_checked_within_budget(pg):
    expression = "tanh(a*b + c*d - e/f + exp(g) * relu(h) + a**2)"
    values = "a = 0.5, b = -1, c = 2, d = 0.25, e = 3, f = 1.5, g = 0.1, h = 0.7"
    draw(pg, expression, values)
    timing = pg.evaluate(f"() => {PG}.timing")
    data = pg.evaluate(f"() => {PG}.data")
    assert len(data["nodes"]) >= 20, len(data["nodes"])
    measured["playground: 20+ nodes, Python warm: Python ms, Graphviz ms, total ms"] = (
        round(timing["pythonMs"]), round(timing["drawMs"]), round(timing["totalMs"]))
    assert shown(pg)["summary"].startswith("Every leaf's grad agrees")
    assert data["result"] == playground.run(expression, values)["result"]


def test_where_a_centered_difference_cannot_be_taken_the_engines_result_is_still_shown(pg):
    """x ** 0.5 at x = 0 (issue 24, item 4): graph, steps and the table are shown; the row says
    its estimate is one-sided and the check says why, in CPython's words; the progress line does
    not claim a whole check."""
    draw(pg, "x ** 0.5", "x = 0")
    expected = playground.run("x ** 0.5", "x = 0")
    view = shown(pg)
    assert view["message"] == "" and not view["hidden"], view
    assert view["ids"], "the graph is drawn"
    assert view["status"].startswith("Step ") and view["status"].endswith("backward pass")
    assert view["rows"] == [leaf["shown"] for leaf in expected["leaves"]]
    assert view["rows"][0][2].endswith("(one-sided)")
    assert view["summary"] == expected["check"]["text"]
    assert "x − h is outside the function's domain" in view["summary"]
    assert "engine refused it" not in view["summary"] + view["message"]
    assert "checked, where finite differences could be taken, by micrograd" in view["progress"], view["progress"]


@pytest.mark.parametrize("expression, values, field, text", [
    ("a // b", "a = 1, b = 2", "bv-pg-expression",
     "Expression, column 3: '//' is not an operation of the engine"),
    ("__import__('os').system('x')", "", "bv-pg-expression", "Expression, column 1: "),
    ("a + b", "a = 1, b = x", "bv-pg-values", "Leaf values, column 12: a value must be a number"),
])
def test_a_refused_expression_says_why_with_its_column(pg, expression, values, field, text):
    draw(pg, expression, values)
    view = shown(pg)
    assert view["message"].startswith(text), view["message"]
    assert pg.get_attribute(f"#{field}", "aria-invalid") == "true"
    caret = pg.evaluate(f"() => {PG}.message.querySelector('pre').innerText").split("\n")[1]
    assert len(caret) == int(re.search(r"column (\d+)", text).group(1))


def test_a_bidi_control_in_a_refused_expression_is_shown_as_the_message_names_it(pg):
    """Issue 44, item 13: a parse error said "U+202E" and echoed the text with the raw control in
    it (which reverses what follows it on screen), where every other reader text shows <U+202E>.
    The caret stays under the character the column names."""
    pg.fill("#bv-pg-expression", "a \u202e+ b")
    pg.fill("#bv-pg-values", "a = 1, b = 2")
    pg.evaluate(f"() => {{ {PG}.data = undefined; }}")
    pg.locator(".bv-pg__draw").click()
    pg.wait_for_function(f"() => {PG}.data !== undefined && !{PG}.running", timeout=90_000)
    assert shown(pg)["message"].startswith("Expression, column 3: "), shown(pg)["message"]
    echoed = pg.locator(".bv-pg__caret code").text_content()
    assert "\u202e" not in echoed and echoed == "a <U+202E>+ b\n  ^", echoed



def test_a_shared_link_restores_the_expression_and_a_crafted_one_is_only_data(pg, browser):
    draw(pg, "(a + b) * c", "a = 2, b = −3, c = 10")
    hash_ = shown(pg)["hash"]
    link = pg.evaluate(f"() => {PG}.result.querySelector('.bv-pg__share a').href")
    assert link.endswith(hash_) and hash_.startswith("#e=")
    other = browser.new_page()
    other.goto(link, wait_until="load")  # returns once the widgets are bound (tests/conftest.py)
    assert other.evaluate("() => [document.querySelector('#bv-pg-expression').value, "
                          "document.querySelector('#bv-pg-values').value]") == ["(a + b) * c", "a = 2, b = −3, c = 10"]
    assert "press Draw and check" in other.locator(".bv-pg__progress").inner_text()
    evil, markup = quote('__import__("os")'), quote("<img src=x onerror=alert(1)>")
    crafted = f"{pg.origin}/playground/#e={evil}&v={markup}"
    other.goto(crafted, wait_until="load")  # only the fragment changes: playground.js fills the
    # fields on hashchange, a task of its own, so wait for it rather than read the old values (and
    # for the fields themselves: in CI once, they were not there when the wait first looked)
    other.wait_for_function("v => document.querySelector('#bv-pg-values')?.value === v",
                            arg="<img src=x onerror=alert(1)>")
    assert other.locator("#bv-pg-values").input_value() == "<img src=x onerror=alert(1)>"
    assert other.locator("img[src=x]").count() == 0
    other.close()


def test_the_link_and_graph_are_of_the_texts_drawn_and_a_stop_leaves_no_other_texts_graph(pg):
    """A new reader's audit: the link was made from the fields as they were when the answer came,
    so a text typed during a Run went into the link of a graph drawn from the one before; and a
    Run stopped or timed out left the last text's graph, with its check, under the new text."""
    draw(pg, "(a + b) * c", "a = 2, b = −3, c = 10")
    ids = shown(pg)["ids"]
    pg.evaluate(f"""() => {{ {PG}.data = undefined;
        {PG}.root.querySelector('form').requestSubmit();
        {PG}.expression.value = 'a * b * c'; }}""")  # typed as the Run starts
    pg.wait_for_function(f"() => {PG}.data !== undefined && !{PG}.running", timeout=90_000)
    view = shown(pg)
    drawn = pg.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('e')")
    link = pg.evaluate(f"() => new URL({PG}.result.querySelector('.bv-pg__share a').href).hash")
    assert (drawn, view["ids"], link) == ("(a + b) * c", ids, view["hash"]), (drawn, link, view["hash"])
    stopped = pg.evaluate(f"""async () => {{
        // 'a * b * c' now, stopped as its Stop comes (a microtask: before the worker can answer)
        const watch = new MutationObserver(() => {{
          const stop = {PG}.root.querySelector('.bv-stop');
          if (stop) {{ watch.disconnect(); stop.click(); }}
        }});
        watch.observe({PG}.root, {{ childList: true, subtree: true }});
        {PG}.root.querySelector('form').requestSubmit();
        while ({PG}.running) await new Promise((resolve) => setTimeout(resolve, 20));
        return [{PG}.message.innerText, {PG}.result.hidden];
    }}""")
    assert stopped[0].startswith("Stopped") and stopped[1], stopped


def test_every_control_is_reached_by_keyboard_and_labelled(pg):
    pg.locator("#bv-pg-expression").focus()
    order = []
    for _ in range(6):
        order.append(pg.evaluate("() => { const e = document.activeElement; return e.id || e.textContent; }"))
        pg.keyboard.press("Tab")
    assert order[:4] == ["bv-pg-expression", "bv-pg-values", "Draw and check", "(a + b) · c"], order
    labels = pg.evaluate("() => ['bv-pg-expression', 'bv-pg-values'].map(id => "
                         "document.querySelector(`label[for=${id}]`).textContent)")
    assert labels == ["Expression", "Leaf values"]


VIEWS = [(1280, "default"), (1280, "slate"), (390, "default"), (390, "slate")]


def test_the_playground_reads_at_1280_and_on_a_390px_phone_light_and_dark(pg):
    """The neuron drawn and stepped to step 12, a refused expression, and relu at its kink,
    whose check fails; each at 1280 and 390 px, light and dark (screenshots in BV_SHOTS if set:
    tests/helpers.py). No sideways scrolling, of the page or of the check's table; every control at least 44 px tall
    on the phone."""
    page = pg
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")

    def draw(expression=None, values=None):
        if expression is not None:
            page.locator("#bv-pg-expression").fill(expression)
            page.locator("#bv-pg-values").fill(values)
        page.locator(".bv-pg__draw").click()
        page.wait_for_function(f"() => {PG}.data !== undefined && !{PG}.running", timeout=90_000)

    def look(name):
        for width, scheme in VIEWS:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate("scheme => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
            report_shot(page.locator(".bv-playground"), f"playground-{name}-{width}-{scheme}.png",
                        style=".md-header { visibility: hidden }")  # without Material's sticky header over it
            wide = page.evaluate("() => document.scrollingElement.scrollWidth")
            assert wide <= width, f"{name}, {width} px: the page scrolls sideways: {wide} px"
            if width == 390:
                small = page.evaluate("""() => [...document.querySelectorAll(
                        '.bv-playground button:not([hidden]), .bv-playground input')]
                    .filter(e => e.offsetParent).map(e => [e.textContent || e.id, e.getBoundingClientRect().height])
                    .filter(([, h]) => h < 44)""")
                assert small == [], (name, small)
                if name != "refused":  # the check's table: its ✓ or ✗ in view, not scrolled to
                    table = page.evaluate("() => { const t = document.querySelector('.bv-pg__table table');"
                                          " return [t.scrollWidth, t.clientWidth]; }")
                    assert table[0] <= table[1], f"{name}: the table scrolls sideways on a phone: {table}"

    draw(*NEURON)
    page.get_by_role("button", name="Back to the start").click()
    for _ in range(12):
        page.get_by_role("button", name="Next step").click()
    assert page.locator(".bv-pg__pass").count() == 1
    look("passing")
    draw("(a + b) * c $ 2", "a = 2, b = -3, c = 10")
    assert "column" in page.locator("#bv-pg-message").inner_text()
    assert page.locator(".bv-pg__result").is_hidden(), "the last expression's graph is not shown under it"
    look("refused")
    draw("relu(a) * b", "a = 0, b = 3")
    assert page.locator(".bv-pg__fail").count() == 1
    assert shown(page)["rows"] == [leaf["shown"] for leaf in playground.run("relu(a) * b", "a = 0, b = 3")["leaves"]]
    look("failing")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'default')")


# --- Chapters 7, 8, 10 and 11 in the browser's Python --------------------------------------


# Why a block the page skips on a condition is skipped in the browser, by chapter.
SKIPPED_BECAUSE = {
    "08-pytorch": "PyTorch is not installed: pip install torch",
    "10-under-the-hood":
        "Freeing a graph this deep takes more stack than the browser gives Python: run this in CPython",
    "11-gates-and-granularity": "PyTorch is not installed: pip install torch",
}


def test_chapters_7_8_10_and_11_run_in_the_browser_and_what_cannot_run_says_why(pg, site):
    """Each chapter's whole export, run by Pyodide: every block runs or is skipped, but for the
    matplotlib figures and chapter 10's NumPy step, which say in one line why not (no
    ModuleNotFoundError), and KNOWN_DIFFERENCES. Chapter 10's deepest graphs are skipped with its reason."""
    unavailable, wrong, seconds = {}, {}, {}
    for name in ["07-check-break-fix", "08-pytorch", "10-under-the-hood", "11-gates-and-granularity"]:
        assert blocks.runnable(f"{name}.md")
        report = pg.evaluate("""async (name) => {
            const text = await (await fetch(`../${name}/blocks.json`)).text();
            const { runBlocks } = await import(new URL('../javascripts/python/python.js', location.href).href);
            return runBlocks({ blocks: text, upto: JSON.parse(text).blocks.length - 1, edits: {},
                               timeoutMs: 120000 });
        }""", name)
        assert report["kind"] == "result", (name, report)
        seconds[name] = round(report["runMs"] / 1000, 1)
        exported = {b["line"]: b for b in json.loads((site / name / blocks.EXPORT).read_text())["blocks"]}
        for r in report["report"]["results"]:
            if r["status"] == "unavailable":
                assert (r["module"], r["figure"]) in [("matplotlib", True), ("numpy", False)], r
                assert "\n" not in r["why"], r
                assert "ModuleNotFoundError" not in r["why"]
                unavailable.setdefault(name, []).append(r["line"])
            elif r["status"] not in ("ran", "skipped"):
                wrong[name, r["line"]] = (r["status"], r["error"], [
                    sorted(set(t["text"].splitlines()) ^ set(t.get("page", "").splitlines()))
                    for t in r["transcript"] if not t["same"]])
            if exported[r["line"]]["when"]:  # skipped here whether or not the build skipped them
                assert r["skip"]["reason"] == SKIPPED_BECAUSE[name], r
                assert set(exported[r["line"]]["when"]["examples"]) <= set(r["skip"]["examples"]), r
    measured["chapters 7, 8, 10 and 11: every block in the browser (s)"] = seconds
    assert sorted(unavailable) == ["07-check-break-fix", "10-under-the-hood"], unavailable
    known = {key for key in wrong for (name, snippet) in KNOWN_DIFFERENCES
             if key[0] == name and snippet in source_of(site, *key)}
    assert {k: v for k, v in wrong.items() if k not in known} == {}
    assert len(known) == len(KNOWN_DIFFERENCES), "a known difference is gone: remove it from KNOWN_DIFFERENCES"


def source_of(site, name, line):
    return next(b["source"] for b in json.loads((site / name / blocks.EXPORT).read_text())["blocks"]
                if b["line"] == line)


# --- An edited chapter block that calls draw_dot --------------------------------------------

RUN = "document.querySelector('.bv-run').runState"


def test_an_edited_draw_dot_block_is_drawn_again_in_place_with_the_builds_ids(pg, site):
    """Chapter 1: a = 5 instead of 2 in block 1, then Run on block 3 (draw_dot(f)): the figure
    drawn in the page shows f = 20, carries the build figure's node and edge ids, and takes the
    build's figure's place; Reset brings the build's figure back."""
    page = pg
    follow(page, '.md-nav--primary a[href$="/01-computational-graphs/"]', "/01-computational-graphs/")

    def late(route):  # the stylesheet that hides the build's figure, slower than Graphviz (up already)
        time.sleep(0.5)
        route.continue_()

    page.route("**/stylesheets/live-figure.css", late)
    page.evaluate(f"() => {RUN}.blocks[0].edit.click()")
    page.wait_for_function(f"() => {RUN}.blocks[0].editor")
    page.evaluate(f"() => {RUN}.blocks[0].editor.setCode({RUN}.blocks[0].source.replace('Value(2.0', 'Value(5.0'))")
    page.evaluate(f"() => {RUN}.blocks[2].run.click()")
    page.wait_for_function(f"() => {RUN}.blocks[2].output.querySelector('.bv-run-figure svg')", timeout=90_000)
    drawn = page.evaluate(f"""() => {{
        const b = {RUN}.blocks[2];
        const svg = b.output.querySelector('.bv-run-figure svg');
        const built = b.output.parentElement.nextElementSibling;
        return {{ ids: [...svg.querySelectorAll('g.node, g.edge')].map(g => g.dataset.id).sort(),
                  texts: [...svg.querySelectorAll('text')].map(t => t.textContent),
                  src: new URL(built.querySelector('img.graph').src).pathname,
                  builtShown: getComputedStyle(built).display !== 'none', note: b.output.innerText,
                  label: svg.getAttribute('aria-label') }};
    }}""")
    built_svg = (site / drawn["src"].lstrip("/")).read_text(encoding="utf-8")
    assert drawn["ids"] == sorted(html.unescape(i) for i in
                                  re.findall(r'<g id="([^"]+)" class="(?:node|edge)"', built_svg))
    assert "data 20.0000" in drawn["texts"] and "data 5.0000" in drawn["texts"], drawn["texts"]
    assert "data 20.0000" not in built_svg
    assert not drawn["builtShown"], "the drawing takes the build's figure's place"
    assert "Your figure, drawn in your browser by Graphviz" in drawn["note"]
    assert "ModuleNotFoundError" not in drawn["note"] and "no Graphviz" not in drawn["note"]
    assert "printed nothing" not in drawn["note"], "it drew a figure: a learner read 'printed nothing' above it"
    # Block 2 prints e.data, f.data: unedited, but the edit above it changed what it prints (2.0, 20.0)
    assert re.search(r"Block 2 \(folded away in .*\) \(after your edit\): it printed something other than "
                     r"the page shows", drawn["note"]), drawn["note"]
    assert drawn["label"] == "Your version of the figure: the computation graph block 3 now draws"
    report_shot(page.locator(".bv-run-output").nth(2), "edited-figure-chapter-1.png")
    page.evaluate(f"() => {RUN}.blocks[0].reset.click()")
    page.evaluate(f"() => {RUN}.blocks[2].run.click()")
    page.wait_for_function(f"() => !{RUN}.blocks[2].running && {RUN}.blocks[2].output.innerText.includes("
                           "'drawn from this code when the site was built')", timeout=60_000)
    built = f"{RUN}.blocks[2].output.parentElement.nextElementSibling"  # after the block's Run box
    assert page.evaluate(f"() => getComputedStyle({built}).display") != "none"
    page.unroute("**/stylesheets/live-figure.css", late)


def test_a_matplotlib_block_says_why_in_one_line_and_keeps_the_builds_figure(pg):
    page = pg
    follow(page, '.md-nav--primary a[href$="/07-check-break-fix/"]', "/07-check-break-fix/")
    n = page.evaluate(f"""async () => {{
        const r = {RUN};
        for (const b of r.blocks) if (b.code.textContent.includes('import matplotlib')) return b.n;
    }}""")
    page.evaluate(f"n => {RUN}.blocks[n - 1].run.click()", n)
    page.wait_for_function(f"n => !{RUN}.blocks[n - 1].running && {RUN}.blocks[n - 1].result", arg=n,
                           timeout=90_000)
    text = page.evaluate(f"n => {RUN}.blocks[n - 1].output.innerText", n)
    progress = page.evaluate(f"n => {RUN}.blocks[n - 1].progress.textContent", n)
    started = r"(Python started in [0-9.]+ s\. )?"  # Python starts here when this test runs alone
    # Its first lines compute the errors the next block reads: they ran (it said "did not run").
    assert re.fullmatch(rf"{started}Blocks 1 to {n - 1} ran in [0-9.]+ s; block {n} ran in part\. "
                        r"Ran on micrograd\.", progress), progress
    assert re.fullmatch(r"Ran in your browser up to line \d+, “import matplotlib\.pyplot as plt”, and stopped "
                        r"there: Python in your browser has no matplotlib, so this block runs in full only on your "
                        r"own machine \(pytest, or the page's notebook\)\. The figure below was drawn when the "
                        r"site was built, from the page's code\.", text), text
    assert page.evaluate(f"n => !!{RUN}.blocks[n - 1].output.parentElement.nextElementSibling"
                         ".querySelector('img.graph')", n)


# --- The whole visit ---------------------------------------------------------------------


def test_no_request_left_the_origin_and_no_error_was_thrown_and_graphviz_came_once(pg):
    """Last: the whole visit, the playground and the chapters reached from it."""
    assert foreign(pg.requests, pg.origin) == []
    assert pg.errors == []
    viz = [url for url in pg.requests if "/assets/viz/" in url]
    assert len(viz) == 1 and viz[0].endswith("/dist/viz.js"), viz

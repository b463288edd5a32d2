"""The widgets in Chromium, clicked as a reader would: a stepper shows the exported trace at
every step, an edge tells its local derivative, the diamond's visit order gives 15 or names
the lost path; by keyboard too, with nothing but the site's own files, within the page's script
budget, and on a phone: every control and edge a 44 px target, buttons at AA contrast.
tests/widgets/test_quizzes_browser.py clicks the quizzes, tests/widgets/test_stepper_edits.py edits a stepper's
leaves. `page` (tests/conftest.py) fails a test on any console error or request to another host."""

import json

from scripts import ROOT
from tests.helpers import stepper_view

# Bytes of our own script a widget page may add, before compression: 30,000 until issue 26 put
# docs/javascripts/ in folders, whose longer import paths ("../shared/dom.js") add 92 bytes to
# these six files (29,976 -> 30,068); 34,000 since a graph too big for its column got its
# overview and full-screen view (issue 27: shared/figures.js, 3.5 KB); 35,500 since figures.js
# loads GLightbox itself on a figure's first open (issue 27, item 6: +0.9 KB), which every page
# loaded before, 56 KB of script and 14 KB of style in its <head>; 35,600 since dom.js runs each
# page's work in a task of its own, out of Material's handler (issue 27, item 6: +10 bytes of code
# and the comment that says why); 35,700 since a stepper's Reset stops the trace it cancels (an
# AbortController handed to python.js: +114 bytes with its comment; a read-only audit saw "Tracing
# cancelled" over a trace that ran on); 35,800 since our stylesheets come as one file and dom.js's
# loadStylesheet skips a part it holds (issue 27, item 6: +86 bytes with the comment); 35,950 since
# a cancelled trace says what its stop did to Python (+133 bytes: "Python was shut down" was not said);
# 38,400 since widgets are bound as they come near the viewport (dom.js: whenNear, +2.4 KB with
# its comments; issue 27, item 6: chapter 4's blocking time at load fell from 161-348 to 84-120 ms);
# 42,700 since what the reader keeps goes through shared/store.js (issue 43, item 7), which graph.js
# imports, and a quiz reads its kept answer from shared/done.js: both counted here (+4.1 KB), though
# every page loads them already, through progress.js, so a widget page fetches neither again;
# 44,700 since tsc --strict checks shared/ (jsconfig.strict.json): dom.js, graph.js and figures.js
# carry their JSDoc types, +2.1 KB of comments and no code; 44,800 since widgets.js binds a
# checked sentence's mark too (issue 45), one line.
SCRIPT_BUDGET = 44_800
WIDGET_SCRIPTS = ["widgets.js", "shared/dom.js", "shared/graph.js", "shared/figures.js", "widgets/stepper.js",
                  "widgets/visit-order.js", "widgets/quiz.js", "shared/store.js", "shared/done.js"]


def test_the_stepper_shows_the_exported_trace_at_every_step(page, origin, site):
    page.goto(origin + "/01-computational-graphs/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    data = json.loads((site / "01-computational-graphs" / "stepper-1.json").read_text(encoding="utf-8"))
    for number, preset in enumerate(data["presets"]):
        widget.locator(".bv-widget__presets button").nth(number).click()
        ids = [node["id"] for node in preset["nodes"]]
        forward, total = len(preset["forward"]), len(preset["forward"]) + len(preset["backward"])
        for step in range(total + 1):
            view = stepper_view(widget)
            filled = preset["forward"][:min(step, forward)]
            grads = preset["zeroGrads"] if step <= forward else preset["backward"][step - forward - 1]["grads"]
            for i, node in enumerate(preset["nodes"]):
                data_text = node["data"] if node["id"] in filled else "data —"
                assert view["fields"][node["id"]] == [data_text, grads[i]], (preset["title"], step, node)
            if 0 < step <= forward:
                assert (view["caption"], view["current"]) == (preset["forwardCaptions"][step - 1],
                                                               preset["forward"][step - 1])
            elif step > forward:
                assert view["caption"] == preset["backwardCaptions"][step - forward - 1]
                assert view["current"] == preset["backward"][step - forward - 1]["node"]
            assert view["status"].startswith(f"Step {step} of {total}")
            if step < forward:
                assert widget.get_by_role("button", name="Next backward step").is_disabled()
                widget.get_by_role("button", name="Next forward step").click()
            elif step < total:
                assert widget.get_by_role("button", name="Next forward step").is_disabled()
                widget.get_by_role("button", name="Next backward step").click()
        assert set(ids) == {node for node, texts in view["fields"].items() if texts}  # records, not ops
        widget.get_by_role("button", name="Back one step").click()
        assert stepper_view(widget)["status"].startswith(f"Step {total - 1} of {total}")
        widget.get_by_role("button", name="Reset").click()
        assert stepper_view(widget)["status"].startswith("Step 0 of")


def test_an_edge_tells_its_local_derivative_and_the_step_survives_a_reload(page, origin, site):
    page.goto(origin + "/01-computational-graphs/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    data = json.loads((site / "01-computational-graphs" / "stepper-1.json").read_text(encoding="utf-8"))
    edges = data["presets"][0]["edges"]
    edge = next(e for e, v in edges.items() if "∂(x·y)/∂x = y = 10" in v["text"])  # e into f = e·c
    for _ in data["presets"][0]["forward"]:
        widget.get_by_role("button", name="Next forward step").click()
    widget.locator(f'g.edge[data-id="{edge}"]').click()
    assert widget.locator(".bv-widget__edge").text_content() == edges[edge]["text"]
    assert "local derivative ∂(x·y)/∂x = y = 10" in edges[edge]["text"]
    widget.get_by_role("button", name="Back one step").click()
    page.reload()
    page.locator(".bv-stepper").wait_for(state="visible")
    assert stepper_view(page.locator(".bv-stepper"))["status"].startswith("Step 4 of")


def test_the_stepper_works_from_the_keyboard(page, origin):
    page.goto(origin + "/01-computational-graphs/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    widget.get_by_role("button", name="Next forward step").focus()
    page.keyboard.press("Enter")
    assert stepper_view(widget)["status"].startswith("Step 1 of")
    first_edge = widget.locator("g.edge[role=button]").first
    first_edge.focus()  # edges are in the tab order; focus alone reads them
    assert widget.locator(".bv-widget__edge").text_content() == first_edge.get_attribute("aria-label")
    assert widget.locator("[aria-live=polite]").count() >= 2  # caption and edge note are announced


VISIT_ORDERS = {
    "dbca": "Right: every node was visited after all the nodes it feeds",
    "adcb": "Right, though this is not a reverse topological order: a has no parents",
    "bdca": "b was visited before d, so it passed on b.grad = 0; the 6 from d came after its turn. "
            "Lost: the path a → b → d, worth 6 to a.grad. So a.grad is 9, not 15.",
}


def test_the_visit_order_gives_15_or_names_the_lost_path(page, origin):
    """Three orders placed one after another on one page (Reset between), as a reader tries them."""
    page.goto(origin + "/04-engine/")
    widget = page.locator(".bv-visit-order")
    widget.wait_for(state="visible")
    for order, verdict in VISIT_ORDERS.items():
        assert widget.get_by_role("button", name="Run").is_disabled(), order
        for node in order:
            widget.get_by_role("button", name=f"Visit {node} next").click()
        widget.get_by_role("button", name="Run").click()
        result = widget.locator(".bv-widget__result").inner_text()
        assert verdict in result, order
        assert ("a.grad = 15" in result) == order.startswith(("d", "ad")), order
        grad_a = widget.evaluate("""w => Array.from(w.querySelectorAll("g.node text"))
            .map(t => t.textContent).filter(t => t.startsWith("grad "))""")
        assert ("grad 15.0000" in grad_a) == ("a.grad = 15" in result), order
        widget.get_by_role("button", name="Undo").click()
        assert widget.get_by_role("button", name=f"Visit {order[-1]} next").is_enabled(), order
        widget.get_by_role("button", name="Reset").click()
        assert widget.get_by_role("button", name="Undo").is_disabled(), order


def test_without_javascript_the_widgets_stay_hidden_and_the_figures_stay(browser, origin):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(origin + "/01-computational-graphs/")
    assert page.locator(".bv-stepper").is_hidden() and page.locator(".bv-quiz").first.is_hidden()
    assert page.locator("img.graph").count() >= 3
    context.close()


def test_a_widget_page_stays_within_its_script_budget(site):
    scripts = {name: (site / "javascripts" / name).stat().st_size for name in WIDGET_SCRIPTS}
    print(f"widget scripts: {scripts}, {sum(scripts.values())} bytes in all")
    assert sum(scripts.values()) < SCRIPT_BUDGET, scripts
    sources = {name: (ROOT / "docs" / "javascripts" / name).read_bytes() for name in WIDGET_SCRIPTS}
    assert all((site / "javascripts" / n).read_bytes() == b for n, b in sources.items())


def test_an_edge_read_in_one_preset_is_forgotten_by_the_next_by_reset_and_has_no_number_at_step_0(page, origin, site):
    """Chapter 1: e → f read, then "the neuron": its steps said "Edge e → f"; Reset kept it;
    at step 0, every box "data —", the edge already read "= 10"."""
    page.goto(origin + "/01-computational-graphs/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    note = widget.locator(".bv-widget__edge")
    data = json.loads((site / "01-computational-graphs" / "stepper-1.json").read_text(encoding="utf-8"))
    edges = data["presets"][0]["edges"]
    edge = next(e for e, v in edges.items() if "∂(x·y)/∂x = y = 10" in v["text"])
    widget.locator(f'g.edge[data-id="{edge}"]').click()
    assert "= 10" not in note.text_content() and "once the forward pass has computed f" in note.text_content()
    assert "= 10" not in widget.locator(f'g.edge[data-id="{edge}"]').get_attribute("aria-label")
    for _ in range(len(data["presets"][0]["forward"])):
        widget.get_by_role("button", name="Next forward step").click()
    assert note.text_content() == edges[edge]["text"]  # the number exists once f is computed
    widget.get_by_role("button", name="Reset").click()
    assert note.text_content().startswith("Tap, click or focus an edge")
    widget.locator(f'g.edge[data-id="{edge}"]').click()
    widget.get_by_role("button", name="the neuron").click()
    for _ in range(3):
        widget.get_by_role("button", name="Next forward step").click()
        assert "e → f" not in note.text_content()


def test_keyboard_focus_moves_on_when_its_button_is_disabled(page, origin):
    """Chapter 3, keyboard only: Enter on "Next forward step" to the end of the forward pass; focus
    stays on a control (Next backward step), and Enter keeps going to the end."""
    page.goto(origin + "/03-backprop-by-hand/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    widget.get_by_role("button", name="Next forward step").focus()
    while not widget.get_by_role("button", name="Next forward step").is_disabled():
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Next backward step"
    while not widget.get_by_role("button", name="Next backward step").is_disabled():
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Back one step"
    assert stepper_view(widget)["status"].startswith("Step 15 of 15")


def test_the_backward_pass_writes_upstream_times_local_on_the_edge_it_uses(page, origin, site):
    page.goto(origin + "/03-backprop-by-hand/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    preset = json.loads((site / "03-backprop-by-hand" / "stepper-1.json").read_text(encoding="utf-8"))["presets"][0]
    for _ in range(len(preset["forward"])):
        widget.get_by_role("button", name="Next forward step").click()
    assert widget.locator(".bv-note").count() == 0
    for step in preset["backward"]:
        widget.get_by_role("button", name="Next backward step").click()
        notes = widget.evaluate("""w => Object.fromEntries(Array.from(w.querySelectorAll(".bv-note"))
            .map(n => [n.dataset.edge, n.textContent]))""")
        assert notes == step["contributions"]
    assert "1 × (−2) = −2" in preset["backward"][1]["contributions"].values()  # L.grad × ∂L/∂d


def test_captions_name_a_node_with_a_long_label_in_parentheses(site):
    preset = json.loads((site / "01-computational-graphs" / "stepper-1.json").read_text(encoding="utf-8"))["presets"][1]
    captions = " ".join(preset["backwardCaptions"] + preset["forwardCaptions"])
    assert "(x1*w1 + x2*w2).grad" in captions
    assert "x1*w1 + x2*w2.grad" not in captions.replace("(x1*w1 + x2*w2).grad", "")


def test_the_visit_order_spoils_no_quiz_and_shows_the_seed(page, origin):
    """Chapter 4: the widget printed "a.grad is 9, not 15" above the quiz asking for ∂d/∂a, and
    d read "grad —" though the seed 1 is on it."""
    page.goto(origin + "/04-engine/")
    widget = page.locator(".bv-visit-order")
    widget.wait_for(state="visible")
    after = page.evaluate("""() => {
        const w = document.querySelector(".bv-visit-order");
        return Array.from(document.querySelectorAll(".bv-quiz")).filter(q =>
            /visit|order|path|grad|∂/.test(q.closest(".admonition").textContent)).map(q =>
            [q.dataset.shown, Boolean(w.compareDocumentPosition(q) & Node.DOCUMENT_POSITION_FOLLOWING)]);
    }""")
    assert ("15", False) in [tuple(x) for x in after] and ("6", False) in [tuple(x) for x in after], after
    fields = widget.evaluate("""w => Object.fromEntries(Array.from(w.querySelectorAll("g.node[data-id]"))
        .map(g => [g.querySelector("text").textContent, Array.from(g.querySelectorAll("text"))
        .map(t => t.textContent).find(t => t.startsWith("grad"))]))""")
    assert fields["d"] == "grad 1.0000" and fields["a"] == "grad —", fields


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

def test_every_widget_control_is_a_44_px_target_on_a_phone(browser, origin):
    """Widget buttons were 24 px tall, the quiz's Check 20 px, the visit-order buttons 33 x 24."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    small = []
    for url in ["/01-computational-graphs/", "/04-engine/"]:
        page.goto(origin + url)
        page.wait_for_function("!document.querySelector('.bv-widget[hidden], .bv-quiz[hidden]')")
        small += page.evaluate("""() => Array.from(document.querySelectorAll(
              ".bv-widget button, .bv-quiz button, .bv-quiz input[type=text], .bv-quiz__option"))
            .map(e => [e.textContent.trim() || e.className, e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([name, r]) => `${location.pathname} ${name}: ${r.width.toFixed(0)} x ${r.height.toFixed(0)}`)""")
    context.close()
    assert not small, small


# WCAG contrast of a control's text on what is behind it, from computed styles (axe never
# sees :hover, :focus or :active): the first opaque background up the tree, alpha blended.
CONTRAST = """el => {
  const rgba = (c) => {
    const m = c.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
  const layers = [];
  for (let n = el; n; n = n.parentElement) {
    const bg = rgba(getComputedStyle(n).backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] === 1) break;
  }
  let back = [255, 255, 255];
  for (const layer of layers.reverse()) back = over(layer, back);
  const style = getComputedStyle(el);
  const fg = over(rgba(style.color).map((v, i) => (i === 3 ? v * Number(style.opacity) : v)), back);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


# A button scrolled to the middle of the window: its text and the middle of its box, where the
# mouse goes, which must be the button's own (nothing over it: a hover there is the button's).
# Playwright's hover() and scroll_into_view_if_needed() did as much, with checks of the
# element's stability: 2 s of the test's 21 at a load of 7 (the contrast reads cost the most).
AIM = """(el) => {
  el.scrollIntoView({block: "center", behavior: "instant"});
  const box = el.getBoundingClientRect(), x = box.x + box.width / 2, y = box.y + box.height / 2;
  if (!el.contains(document.elementFromPoint(x, y))) throw new Error(`${el.textContent}: covered at ${x}, ${y}`);
  return [el.textContent, x, y];
}"""


def test_widget_buttons_reach_aa_contrast_at_rest_hovered_focused_and_pressed(browser, origin):
    """Dark mode's hovered button was lavender on amber, about 1.4:1. Each page is read in
    the scheme it opens in and in the other, switched by Material's own toggle, as a reader
    switches it (both pages are read in light and in dark: the test checks it)."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    low, read = [], set()

    def check(button, name, state="*"):
        """The button's contrast, read once it is in `state` (a selector it must match)."""
        ratio, matches = button.evaluate(f"(el) => [({CONTRAST})(el), el.matches('{state}')]")
        assert matches, f"{name}: the button is not {state}"
        if ratio < 4.5:
            low.append(f"{name}: {ratio:.2f}")

    for url in ["/01-computational-graphs/", "/04-engine/"]:
        page.goto(origin + url)
        page.wait_for_function("!document.querySelector('.bv-widget[hidden], .bv-quiz[hidden]')")
        for turn in range(2):  # the scheme the page opened in (Material keeps the last), then the other
            if turn:
                scheme = page.evaluate("document.body.dataset.mdColorScheme")
                page.locator("label.md-header__button[title^='Switch to']:not([hidden])").click()
                page.wait_for_function("s => document.body.dataset.mdColorScheme !== s", arg=scheme)
                page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")
            scheme = page.evaluate("document.body.dataset.mdColorScheme")
            read.add((url, scheme))
            buttons = page.locator(".bv-widget button:enabled, .bv-quiz button:enabled")
            for i in range(min(buttons.count(), 12)):
                button = buttons.nth(i)
                text, x, y = button.evaluate(AIM)
                name = f"{scheme} {url} {text}"
                check(button, f"{name} at rest", ":not(:hover, :focus, :active)")
                page.mouse.move(x, y)  # hovered
                check(button, f"{name} hovered", ":hover")
                button.focus()
                page.keyboard.press("Shift")  # focus-visible, as from the keyboard
                check(button, f"{name} focused", ":focus-visible")
                page.mouse.down()
                check(button, f"{name} pressed", ":active")
                page.mouse.move(0, 0)  # released away from the button: no click, the page stays as it is
                page.mouse.up()
            pressed = page.locator('.bv-widget [aria-pressed="true"]')
            for i in range(pressed.count()):
                check(pressed.nth(i), f"{scheme} {url} {pressed.nth(i).text_content()} (chosen)")
    context.close()
    assert read == {(url, s) for url in ["/01-computational-graphs/", "/04-engine/"] for s in ("default", "slate")}
    assert not low, low


def test_a_tapped_button_keeps_no_hover_colour_on_a_touch_screen(browser, origin):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme="dark")
    page = context.new_page()
    page.goto(origin + "/04-engine/")
    widget = page.locator(".bv-visit-order")
    widget.wait_for(state="visible")
    assert page.evaluate("matchMedia('(hover: none)').matches")  # a phone, as Chromium emulates it
    undo = widget.get_by_role("button", name="Undo")
    rest = undo.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
    widget.get_by_role("button", name="Visit d next").tap()
    undo.tap()  # the pointer stays over Undo, which a touch screen reports as hover
    page.evaluate("document.activeElement.blur()")
    assert undo.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]") == rest
    context.close()


EDGE_REACH = """g => {
  const hit = g.querySelector(".bv-hit");
  g.scrollIntoView({block: "center", inline: "center"});
  const length = hit.getTotalLength();
  const m = hit.getScreenCTM();
  const at = (t) => new DOMPoint(hit.getPointAtLength(t).x, hit.getPointAtLength(t).y).matrixTransform(m);
  const [p, q] = [at(length * 0.45), at(length * 0.55)];
  const mid = at(length * 0.5);
  const norm = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  const [nx, ny] = [-(q.y - p.y) / norm, (q.x - p.x) / norm]; // across the line
  const reach = (d) => document.elementsFromPoint(mid.x + nx * d, mid.y + ny * d).includes(hit);
  let d = 0;
  while (d < 60 && reach(d + 1) && reach(-(d + 1))) d += 1;
  return 2 * d;  // CSS px across the line that a tap reads this edge
}"""


def test_every_edge_a_reader_taps_is_a_44_px_target_on_a_phone(browser, origin):
    """Issue 16: the edges graph.js binds were about 27 px across on a phone (a 20-unit stroke at
    1 pt a unit); each has a hit area of at least 44 CSS px, and a tap 20 px off the line reads it."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    narrow = []
    for url in ["/01-computational-graphs/", "/03-backprop-by-hand/", "/04-engine/"]:
        page.goto(origin + url)
        page.wait_for_function("!document.querySelector('.bv-stepper[hidden]')")
        for widget in page.locator(".bv-stepper").all():
            presets = widget.locator(".bv-widget__presets button")
            for k in range(max(1, presets.count())):
                if presets.count():
                    presets.nth(k).click()
                for g in widget.locator("g.edge[role=button]").all():
                    across = g.evaluate(EDGE_REACH)
                    if across < 44:
                        narrow.append(f"{url} {g.get_attribute('data-id')}: {across} px")
    assert not narrow, narrow
    page.goto(origin + "/01-computational-graphs/")
    widget = page.locator(".bv-stepper")
    widget.wait_for(state="visible")
    edge = widget.locator("g.edge[role=button]").first
    point = edge.evaluate(EDGE_REACH.replace("return 2 * d;", "return {x: mid.x + nx * 20, y: mid.y + ny * 20};"))
    page.touchscreen.tap(point["x"], point["y"])
    assert widget.locator(".bv-widget__edge").text_content() == edge.get_attribute("aria-label")
    context.close()


def test_on_a_phone_a_steppers_graph_caption_and_next_share_one_screen(browser, origin):
    """A new reader's audit: the 190 px leaf-values form sat between the graph and the buttons, so
    on every step the reader scrolled up to the lit node and down to Next. The step's caption and
    buttons follow the graph; the leaf values come after them."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    for url in ["/01-computational-graphs/", "/03-backprop-by-hand/"]:
        page.goto(origin + url)
        page.wait_for_function("!document.querySelector('.bv-stepper[hidden]')")
        widget = page.locator(".bv-stepper").first
        widget.get_by_role("button", name="Next forward step").click()
        box = widget.evaluate("""w => {
            const top = (s) => w.querySelector(s).getBoundingClientRect();
            return {graph: top('.bv-widget__graph'), caption: top('.bv-widget__caption'),
                    next: top('[data-action=forward]'), leaves: top('.bv-widget__leaves')};
        }""")
        assert box["graph"]["bottom"] <= box["caption"]["top"] < box["next"]["top"] < box["leaves"]["top"], (url, box)
        assert box["next"]["bottom"] - box["graph"]["top"] <= PHONE["height"], (url, box)  # one screen
    context.close()

// The playground (docs/playground.md): the reader's own expression through the real engine.
//
// The reader types an expression over named leaves and their values. "Draw and check" sends
// both texts to the reader's Python (python.js: Pyodide in a worker, started on the first
// press; the call "playground"), where scripts/reader/playground.py parses them against its
// whitelist, builds them from micrograd Values, traces and checks by finite differences. This
// script only shows what came back: the graph (its DOT source drawn by Graphviz as
// WebAssembly, viz.js, bound by draw_dot's ids with graph.js), every step of the forward and
// backward pass, and each leaf's grad beside its estimate. It does no arithmetic.
//
// With "Run on: your engine" (engine-switch.js), the reader's Value builds and differentiates
// the expression, and "Check against: finite differences | micrograd" chooses what its grads
// are compared with: micrograd's, node by node, lights the first node whose grad differs on
// the graph, with both numbers, and names the likely cause (all written by playground.py).
//
// The two texts live in the URL's fragment (#e=...&v=...), so a link shares them. A link is
// only data: it fills the two fields, and nothing runs until the reader presses the button.
//
// What loads when: page load, this file, dom.js, graph.js, viz.js (a few KB);
// first press, python.js, its worker and Pyodide, then Graphviz (0.47 MB compressed).

import { element, loadStylesheet } from "../shared/dom.js";
import { engine } from "../python/reader-engine.js";
import { bindGraph, drawStep, edgeAt } from "../shared/graph.js";
import { drawSVG } from "../shared/viz.js";
import { visible } from "../shared/reader-text.js";

const here = import.meta.url;
const TIMEOUT_MS = 20000;
const EXAMPLES = [
  { title: "(a + b) · c", expression: "(a + b) * c", values: "a = 2, b = -3, c = 10" },
  { title: "A neuron", expression: "tanh(x1*w1 + x2*w2 + b)",
    values: "x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 6.8813735870195432" },
  { title: "Division and powers", expression: "a / b + a ** 2 - relu(b - a)", values: "a = 3, b = -1.5" },
];

/** Build the playground in `root` (`.bv-playground`, docs/playground.md); widgets.js calls it. */
export function init(root) {
  loadStylesheet(new URL("../../stylesheets/playground.css", here).href);
  /** @returns {[HTMLLabelElement, HTMLInputElement, HTMLParagraphElement]} */
  const field = (id, label, help) => {
    const input = element("input", { id, type: "text", class: "bv-pg__input", spellcheck: "false",
      autocomplete: "off", autocapitalize: "off", "aria-describedby": `${id}-help bv-pg-message` });
    return [element("label", { for: id, class: "bv-pg__label", text: label }), input,
      element("p", { id: `${id}-help`, class: "bv-pg__help", text: help })];
  };
  const [expressionLabel, expression, expressionHelp] = field("bv-pg-expression", "Expression",
    "Leaves are names (a, x1, w2…); the operations are + − * / and ** with a number as the power, " +
    "and tanh(…), exp(…), relu(…).");
  const [valuesLabel, values, valuesHelp] = field("bv-pg-values", "Leaf values",
    "One number per leaf, commas between: a = 2, b = -3, c = 10");
  const draw = element("button", { type: "submit", class: "md-button md-button--primary bv-pg__draw",
    text: "Draw and check" });
  const examples = element("div", { class: "bv-pg__examples", role: "group", "aria-label": "Examples" },
    element("span", { text: "Examples:" }),
    ...EXAMPLES.map((example) => {
      const button = element("button", { type: "button", class: "md-button bv-pg__example", text: example.title });
      button.addEventListener("click", () => {
        expression.value = example.expression;
        values.value = example.values;
        run();
      });
      return button;
    }));
  // Shown with the reader's engine on: what its grads are checked against.
  const againstRadio = (value, text, checked) => element("label", { class: "bv-pg__against-option" },
    element("input", { type: "radio", name: "bv-pg-against", value, ...(checked ? { checked: "" } : {}) }), ` ${text}`);
  const against = element("fieldset", { class: "bv-pg__against" },
    element("legend", { text: "Check against:" }), againstRadio("differences", "finite differences", true),
    againstRadio("micrograd", "micrograd", false));
  const showAgainst = () => { against.hidden = engine() === null; };
  showAgainst();
  const onEngine = () => { // the switch changed; once another page replaces this one, the listener goes
    if (!root.isConnected) document.removeEventListener("bv-engine", onEngine);
    else showAgainst();
  };
  document.addEventListener("bv-engine", onEngine);
  const bar = element("div", { class: "bv-pg__bar" }, draw); // python.js puts Stop here during a Run
  const form = element("form", { class: "bv-pg__form", novalidate: "" }, expressionLabel, expression,
    expressionHelp, valuesLabel, values, valuesHelp, against, bar, examples);
  const progress = element("p", { class: "bv-pg__progress", role: "status" });
  const message = element("div", { id: "bv-pg-message", class: "bv-pg__message", role: "alert" });
  const result = element("div", { class: "bv-pg__result", hidden: "" });
  root.replaceChildren(form, progress, message, result);

  const state = { root, expression, values, progress, message, result, data: null, running: false, timing: null,
    shown: null }; // shown: the texts the graph in view was drawn from
  root.playground = state; // for the browser tests
  form.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  const fromLink = () => {
    const shared = new URLSearchParams(location.hash.slice(1));
    if (!shared.has("e")) return false;
    expression.value = shared.get("e");
    values.value = shared.get("v") ?? "";
    return true;
  };
  if (fromLink()) {
    progress.textContent = "The link's expression and values are filled in: press Draw and check to run them.";
  } else {
    expression.value = EXAMPLES[0].expression;
    values.value = EXAMPLES[0].values;
  }
  // A shared link opened while the playground is shown; once another page replaces it
  // (instant navigation), the listener goes.
  const onHash = () => {
    if (!root.isConnected) removeEventListener("hashchange", onHash);
    else if (fromLink()) progress.textContent = "The link's expression is filled in.";
  };
  addEventListener("hashchange", onHash);

  async function run() {
    if (state.running) return;
    state.running = true;
    draw.setAttribute("aria-disabled", "true");
    root.classList.add("is-running");
    message.replaceChildren();
    for (const input of [expression, values]) input.removeAttribute("aria-invalid");
    // The texts as they were when Draw was pressed: what runs, and what the link and graph are of
    // (a new reader's audit: a text typed during a Run was put in the link of the graph drawn before)
    const texts = { expression: expression.value, values: values.value };
    // A Run that ends without a graph leaves none of another text's in view, with its check
    const otherShown = () => {
      if (state.shown?.expression !== texts.expression || state.shown?.values !== texts.values) {
        state.data = null;
        result.hidden = true;
      }
    };
    progress.textContent = "Starting…";
    const started = performance.now();
    try {
      const { call } = await import("../python/python.js");
      const source = engine();
      const checked = /** @type {HTMLInputElement | null} */ (against.querySelector("input:checked"));
      /** @type {import("../python/calls.js").CallArgs["playground"]} */
      const args = { ...texts,
        ...(source ? { engine: source, against: checked?.value === "micrograd" ? "micrograd" : "differences" } : {}) };
      const answer = await call("playground", args, {
        timeoutMs: TIMEOUT_MS,
        onProgress: (text) => { progress.textContent = text; },
        stopIn: bar,
        afterStop: draw,
      });
      if (answer.kind !== "result") {
        progress.textContent = "";
        message.append(element("p", { class: "bv-pg__fail", text: answer.message }));
        otherShown();
        return;
      }
      /** @type {import("../python/calls.js").PlaygroundAnswer} */
      const data = answer.report;
      if (!data.ok) {
        progress.textContent = "";
        refuse(data);
        return;
      }
      const drawing = performance.now();
      await show(data, texts);
      const ms = (t) => `${Math.round(t)} ms`;
      state.timing = { pythonMs: answer.runMs, drawMs: performance.now() - drawing,
        totalMs: performance.now() - started, startMs: answer.coldStart ? answer.startMs : 0 };
      progress.textContent = (answer.restarted ? `${answer.restarted} ` : "") +
        (answer.started ? `${answer.started}. ` : "") +
        `Built, traced and ${data.check.complete ? "checked" : "checked, where finite differences could be " +
          "taken,"} by ${data.engine} in ${ms(answer.runMs)}; drawn in ${ms(state.timing.drawMs)}. ` +
        `Ran on ${data.engine}${data.against === "micrograd" ? ", checked against micrograd" : ""}.`;
    } catch (error) {
      progress.textContent = "";
      message.append(element("p", { class: "bv-pg__fail", text: `It could not be drawn: ${error.message ?? error}` }));
      otherShown();
    } finally {
      state.running = false;
      draw.removeAttribute("aria-disabled");
      root.classList.remove("is-running");
    }
  }

  /** A refused text: the message with its column, and the text with a caret under that column. */
  function refuse(data) {
    if (data.field === null) { // the reader's engine failed, not a text: no column to point at
      message.append(element("p", { class: "bv-pg__fail", text: data.message }));
      state.data = null;
      result.hidden = true;
      return;
    }
    const input = data.field === "values" ? values : expression;
    const name = data.field === "values" ? "Leaf values" : "Expression";
    input.setAttribute("aria-invalid", "true");
    // The text as the page shows any of the reader's (<U+202E> for a bidi control, as the message
    // says it: issue 44, item 13), the caret under the column's character as shown.
    const text = [...input.value.replace(/\s/g, " ")];
    const caret = `${" ".repeat([...visible(text.slice(0, Math.max(0, data.column - 1)).join(""))].length)}^`;
    message.append(
      element("p", { class: "bv-pg__fail", text: `${name}, column ${data.column}: ${data.message}` }),
      element("pre", { class: "bv-pg__caret", "aria-hidden": "true" },
        element("code", { text: `${visible(text.join(""))}\n${caret}` })));
    state.data = null;
    result.hidden = true; // the last graph is not this expression's
  }

  async function show(data, texts) {
    state.data = data;
    const svg = await drawSVG(data.dot);
    state.shown = texts;
    const params = new URLSearchParams({ e: texts.expression, v: texts.values });
    history.replaceState(null, "", `#${params}`);
    result.replaceChildren(...view(data, svg, `${location.pathname}#${params}`));
    result.hidden = false;
  }
}

/** The graph, its steps and the leaves' check, for one result of scripts/reader/playground.py. */
function view(data, svg, link) {
  const graph = element("div", { class: "bv-widget__graph bv-pg__graph" });
  const status = element("p", { class: "bv-widget__status" });
  const caption = element("p", { class: "bv-widget__caption", "aria-live": "polite" });
  const edgeNote = element("p", { class: "bv-widget__edge", "aria-live": "polite",
    text: "Tap, click or focus an edge (an arrow into an operation) to read its local derivative." });
  const controls = element("div", { class: "bv-widget__controls bv-pg__controls", role: "group",
    "aria-label": "Steps" });
  const button = (text, label) => controls.appendChild(element("button", { type: "button", class: "md-button",
    "aria-label": label, text }));
  const buttons = { start: button("Start", "Back to the start"), back: button("Back", "Back one step"),
    next: button("Next", "Next step"), end: button("End", "To the end of the backward pass") };
  // The steps, captions and edge texts are scripts/reader/stepper_trace.py's, as a stepper shows them:
  // an edge tells its local derivative once the forward pass has computed its child.
  const edgeIds = Object.keys(data.edges);
  const edgeText = (id) => edgeAt(data.edges[id], step);
  const bound = bindGraph(graph, svg, "bv-pg", data.nodes, edgeIds, (id) => {
    edgeNote.textContent = edgeText(id);
  });
  const total = data.forward.length + data.backward.length;
  let step = 0;

  function show(at) {
    step = Math.max(0, Math.min(total, at));
    const { caption: text, phase } = drawStep(bound, data, step); // as the steppers draw a step
    status.textContent = `Step ${step} of ${total}: ${phase}`;
    caption.textContent = text ?? "Nothing computed yet. Next runs the forward pass, leaves first.";
    buttons.start.disabled = buttons.back.disabled = step === 0;
    buttons.next.disabled = buttons.end.disabled = step >= total;
  }
  buttons.start.addEventListener("click", () => show(0));
  buttons.back.addEventListener("click", () => show(step - 1));
  buttons.next.addEventListener("click", () => show(step + 1));
  buttons.end.addEventListener("click", () => show(total));
  show(total); // the reader asked for the grads: the whole pass, then step back through it

  const rows = data.leaves.map((leaf) => element("tr", {
    class: leaf.passed === null ? "is-unchecked" : leaf.passed ? "is-passed" : "is-failed" },
    element("th", { scope: "row", text: leaf.shown[0] }), // every text written by scripts/reader/playground.py
    ...leaf.shown.slice(1).map((text) => element("td", { text }))));
  const summary = element("p", { class: data.check.passed ? "bv-pg__pass" : "bv-pg__fail", text: data.check.text });
  const table = element("div", { class: "bv-pg__table" }, element("table", {},
    element("caption", { text: data.caption }),
    element("thead", {}, element("tr", {}, ...data.columns.map((h) => element("th", { scope: "col", text: h })))),
    element("tbody", {}, ...rows)));
  const share = element("p", { class: "bv-pg__share" }, "Share: ",
    element("a", { href: link, text: "a link to this expression and its values" }),
    " (the address bar holds it too).");
  return [element("div", { class: "bv-widget bv-pg__widget" }, graph, controls, status, caption, edgeNote),
    summary, table, share];
}

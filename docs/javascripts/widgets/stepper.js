// Step through a forward and a backward pass, replayed from what micrograd recorded as
// the site was built (scripts/pages/widgets.py). What the reader sees is a function of (preset,
// step, the edge they picked) and every number in it is a string the build wrote: this
// script does no arithmetic.
//
// Edit leaf values: stepper-retrace.js (loaded on the first press) traces them with micrograd
// in the reader's Python. Reset brings back the build's trace and figure.

import { element } from "../shared/dom.js";
import { bindGraph, drawStep, edgeAt, remember, recall } from "../shared/graph.js";

const PLAY_MS = 900;
const EDGE_HINT = "Tap, click or focus an edge (an arrow into an operation) to read its local derivative.";

// Where focus goes when its button is disabled by the step it took: to the control needed
// next, never to <body> (a keyboard would start over at the top).
const NEXT_FOCUS = {
  forward: ["backward", "back"],
  backward: ["back", "reset"],
  back: ["forward", "backward"],
  reset: ["forward"],
  play: ["back", "reset"],
};

export async function init(root) {
  const data = await (await fetch(root.dataset.src)).json();
  const svgs = await Promise.all(data.presets.map((p) => fetch(p.svg).then((r) => r.text())));
  const built = { presets: [...data.presets], svgs: [...svgs] }; // what Reset brings back
  let preset = 0;
  let step = 0;
  let edge = null; // the edge the reader picked, in the current preset
  let timer = null;

  const presets = element("div", { class: "bv-widget__presets", role: "group", "aria-label": "Graph" });
  const graph = element("div", { class: "bv-widget__graph" });
  const controls = element("div", { class: "bv-widget__controls" });
  const status = element("p", { class: "bv-widget__status" });
  const caption = element("p", { class: "bv-widget__caption", "aria-live": "polite" });
  const edgeNote = element("p", { class: "bv-widget__edge", "aria-live": "polite" }, EDGE_HINT);
  const button = (action, text) =>
    controls.appendChild(element("button", { type: "button", class: "bv-button", "data-action": action }, text));
  const buttons = {
    forward: button("forward", "Next forward step"),
    backward: button("backward", "Next backward step"),
    back: button("back", "Back one step"),
    reset: button("reset", "Reset"),
    play: button("play", "Play"),
  };
  if (data.presets.length > 1) {
    data.presets.forEach((p, i) => {
      const choice = presets.appendChild(element("button", { type: "button", class: "bv-button" }, p.title));
      choice.addEventListener("click", () => choose(i, 0));
    });
    root.append(presets);
  }
  const leaves = element("form", { class: "bv-widget__leaves", novalidate: "" });
  const leafNote = element("p", { class: "bv-widget__leaf-note", role: "status" });
  // The step's caption and buttons right under the graph, the leaf values after them: on a phone
  // the lit node, what it says and Next then share a screen (a new reader's audit scrolled up and
  // down on every step past a 190 px form).
  root.append(graph, status, caption, controls, edgeNote, leaves, leafNote);
  const edited = () => data.presets[preset] !== built.presets[preset];

  // One labelled input per leaf the reader may change, filled with the current trace's values.
  function leafInputs() {
    const p = data.presets[preset];
    const fields = p.leaves.map((leaf) => {
      const id = `${root.id}-leaf-${leaf.id}`;
      const input = element("input", { id, type: "text", class: "bv-widget__leaf", inputmode: "text",
        spellcheck: "false", autocomplete: "off", "data-node": leaf.id });
      input.value = p.values?.[leaf.id] ?? leaf.value;
      return element("span", { class: "bv-widget__field" }, element("label", { for: id, text: leaf.label }), input);
    });
    const run = element("button", { type: "submit", class: "bv-button", "data-action": "values" },
      "Run with these values");
    leaves.replaceChildren(element("fieldset", {}, element("legend", { text: "Leaf values" }), ...fields, run));
  }
  // The trace on its way, or null: the steps wait for it; Reset or another preset cancels it.
  let tracing = null;
  const settle = (note) => {
    tracing = null;
    leaves.classList.remove("is-running");
    leaves.querySelector("[data-action=values]")?.removeAttribute("aria-disabled");
    if (note !== undefined) leafNote.textContent = note;
  };
  leaves.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (tracing) return;
    const at = preset;
    const values = Object.fromEntries(Array.from(leaves.querySelectorAll("input"), (i) => [i.dataset.node, i.value]));
    const mine = tracing = new AbortController();
    stop();
    leaves.classList.add("is-running");
    leaves.querySelector("[data-action=values]")?.setAttribute("aria-disabled", "true");
    leafNote.textContent = "Waiting for Python…";
    show(step); // the steps wait
    const started = performance.now();
    try {
      const { retrace } = await import("./stepper-retrace.js");
      const answer = await retrace(built.presets[at], values, (text) => {
        if (tracing === mine) leafNote.textContent = text;
      }, leaves.querySelector("fieldset"), mine.signal);
      if (tracing !== mine) { // cancelled by Reset or another preset: and what that did to Python
        if (!tracing && answer.message) leafNote.textContent += ` ${answer.message}`;
        return;
      }
      if (answer.message) { settle(answer.message); show(step); return; }
      settle();
      data.presets[at] = { ...answer.preset, title: built.presets[at].title, values };
      svgs[at] = answer.svg;
      rebind(null);
      show(0);
      leafNote.textContent = answer.note;
      root.retraceMs = performance.now() - started; // press to new trace drawn, for the browser tests
    } catch (error) {
      if (tracing === mine) { settle(`It could not be traced: ${error.message ?? error}`); show(step); }
    }
  });
  /** Drop the trace on its way, if any; true if there was one. */
  function cancelTrace() {
    if (!tracing) return false;
    tracing.abort(); // the trace stops: not only its answer (stepper-retrace.js)
    settle();
    return true;
  }


  let view = null; // the bound SVG of the current preset
  const counts = () => {
    const p = data.presets[preset];
    return { forward: p.forward.length, total: p.forward.length + p.backward.length };
  };

  // A new preset starts with no edge picked: the last preset's edge is not in this graph.
  function choose(index, at, picked = null) {
    stop();
    const cancelled = cancelTrace();
    preset = index;
    rebind(picked);
    leafInputs();
    leafNote.textContent = cancelled ? "Tracing cancelled." : "";
    presets.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-pressed", String(i === preset)));
    show(Math.min(at, counts().total));
  }

  // The current preset's figure (the build's, or the one drawn for the reader's values), bound.
  function rebind(picked) {
    const p = data.presets[preset];
    edge = picked in p.edges ? picked : null;
    view = bindGraph(graph, svgs[preset], `${root.id}-${preset}`, p.nodes, Object.keys(p.edges), (id) => {
      edge = id;
      show(step);
    });
  }

  const edgeText = (id) => edgeAt(data.presets[preset].edges[id], step);

  // The whole view from (preset, step, edge): nothing else is kept between steps.
  function show(at) {
    const focused = Object.keys(buttons).find((name) => buttons[name] === document.activeElement);
    step = at;
    const { forward, total } = counts();
    const { caption: text, phase } = drawStep(view, data.presets[preset], step);
    if (edge === null) view.unread();
    edgeNote.textContent = edge === null ? EDGE_HINT : edgeText(edge);
    const busy = Boolean(tracing);
    status.textContent = `Step ${step} of ${total}: ${phase}`;
    caption.textContent = busy ? "Tracing your values in Python: the steps wait for the new trace. " +
      "Reset cancels it." : text ?? "Nothing computed yet. Next forward step runs the forward pass, leaf nodes first.";
    buttons.forward.disabled = busy || step >= forward;
    buttons.backward.disabled = busy || step < forward || step >= total;
    buttons.back.disabled = busy || step === 0;
    buttons.reset.disabled = !busy && step === 0 && !edited();
    buttons.play.disabled = busy || (step >= total && !timer);
    if (focused && buttons[focused].disabled) {
      const next = NEXT_FOCUS[focused].find((name) => !buttons[name].disabled);
      if (next) buttons[next].focus();
    }
    remember(root.id, { preset, step, edge });
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    buttons.play.textContent = "Play";
  }

  buttons.forward.addEventListener("click", () => show(step + 1));
  buttons.backward.addEventListener("click", () => show(step + 1));
  buttons.back.addEventListener("click", () => { stop(); show(step - 1); });
  buttons.reset.addEventListener("click", () => {
    stop();
    const cancelled = cancelTrace();
    edge = null;
    if (edited() || cancelled) { // back to the build's trace, figure and values
      data.presets[preset] = built.presets[preset];
      svgs[preset] = built.svgs[preset];
      rebind(null);
      leafInputs();
      leafNote.textContent = cancelled ? "Tracing cancelled: back to the page's values." : "Back to the page's values.";
    }
    show(0);
  });
  buttons.play.addEventListener("click", () => {
    if (timer) return stop();
    buttons.play.textContent = "Pause";
    timer = setInterval(() => {
      if (step >= counts().total) return stop(), show(step);
      show(step + 1);
    }, PLAY_MS);
  });

  // shown first: the notes on the figure are placed by its rendered geometry
  root.hidden = false; // the static figure above stays: it shows the page's state at that point
  const saved = recall(root.id);
  const at = saved && saved.preset < data.presets.length ? saved : { preset: 0, step: 0, edge: null };
  choose(at.preset, at.step ?? 0, at.edge ?? null);
}

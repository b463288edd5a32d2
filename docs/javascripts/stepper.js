// Step through a forward and a backward pass, replayed from what micrograd recorded while
// the site was built (scripts/widgets.py). What the reader sees is a function of (preset,
// step, the edge they picked) and every number in it is a string the build wrote: this
// script does no arithmetic.

import { element } from "./dom.js";
import { bindGraph, remember, recall } from "./graph.js";

const PLAY_MS = 900;
const EDGE_HINT = "Click or focus an edge (an arrow into an operation) to read its local derivative.";

// Where focus goes when the button that has it is disabled by the step it took: on to the
// control the reader needs next, never to <body> (a keyboard would start over at the top).
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
    forward: button("forward", "Step forward"),
    backward: button("backward", "Step backward"),
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
  root.append(graph, controls, status, caption, edgeNote);

  let view = null; // the bound SVG of the current preset
  const counts = () => {
    const p = data.presets[preset];
    return { forward: p.forward.length, total: p.forward.length + p.backward.length };
  };

  // A new preset starts with no edge picked: the last preset's edge is not in this graph.
  function choose(index, at, picked = null) {
    stop();
    preset = index;
    const p = data.presets[preset];
    edge = picked in p.edges ? picked : null;
    view = bindGraph(graph, svgs[preset], `${root.id}-${preset}`, p.nodes, Object.keys(p.edges), (id) => {
      edge = id;
      show(step);
    });
    presets.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-pressed", String(i === preset)));
    show(Math.min(at, counts().total));
  }

  // What an edge says at this step: its rule, and its number once the forward pass has
  // computed the edge's child (before that, the number does not exist yet).
  const edgeText = (id) => {
    const e = data.presets[preset].edges[id];
    return step >= e.from ? e.text : e.pending;
  };

  // The whole view from (preset, step, edge): nothing else is kept between steps.
  function show(at) {
    const focused = Object.keys(buttons).find((name) => buttons[name] === document.activeElement);
    step = at;
    const p = data.presets[preset];
    const { forward, total } = counts();
    const filled = new Set(p.forward.slice(0, Math.min(step, forward)));
    let current = null;
    let grads = p.zeroGrads;
    let active = [];
    let updated = [];
    let notes = {};
    let text = "Nothing computed yet. Step forward to run the forward pass, leaf nodes first.";
    if (step > 0 && step <= forward) {
      current = p.forward[step - 1];
      text = p.forwardCaptions[step - 1];
    } else if (step > forward) {
      const s = p.backward[step - forward - 1];
      current = s.node;
      grads = s.grads;
      active = s.edges;
      updated = s.parents;
      notes = s.contributions;
      text = p.backwardCaptions[step - forward - 1];
    }
    p.nodes.forEach((node, i) => {
      view.setField(node.id, "data", filled.has(node.id) ? node.data : "data —");
      view.setField(node.id, "grad", grads[i]);
    });
    for (const id of Object.keys(p.edges)) view.setEdgeLabel(id, edgeText(id));
    view.mark({ current, active, updated });
    view.annotate(notes);
    if (edge === null) view.unread();
    edgeNote.textContent = edge === null ? EDGE_HINT : edgeText(edge);
    const phase = step === 0 ? "before the forward pass" : step <= forward ? "forward pass" : "backward pass";
    status.textContent = `Step ${step} of ${total}: ${phase}`;
    caption.textContent = text;
    buttons.forward.disabled = step >= forward;
    buttons.backward.disabled = step < forward || step >= total;
    buttons.back.disabled = step === 0;
    buttons.reset.disabled = step === 0;
    buttons.play.disabled = step >= total && !timer;
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
  buttons.reset.addEventListener("click", () => { stop(); edge = null; show(0); });
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

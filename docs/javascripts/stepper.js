// Step through a forward and a backward pass, replayed from what micrograd recorded while
// the site was built (scripts/widgets.py). What the reader sees is a function of (preset,
// step) and every number in it is a string the build wrote: this script does no arithmetic.

import { element } from "./dom.js";
import { bindGraph, remember, recall } from "./graph.js";

const PLAY_MS = 900;

export async function init(root) {
  const data = await (await fetch(root.dataset.src)).json();
  const svgs = await Promise.all(data.presets.map((p) => fetch(p.svg).then((r) => r.text())));
  let preset = 0;
  let step = 0;
  let timer = null;

  const presets = element("div", { class: "bv-widget__presets", role: "group", "aria-label": "Graph" });
  const graph = element("div", { class: "bv-widget__graph" });
  const controls = element("div", { class: "bv-widget__controls" });
  const status = element("p", { class: "bv-widget__status" });
  const caption = element("p", { class: "bv-widget__caption", "aria-live": "polite" });
  const edgeNote = element("p", { class: "bv-widget__edge", "aria-live": "polite" },
    "Click or focus an edge (an arrow into an operation) to read its local derivative.");
  const button = (action, text) =>
    controls.appendChild(element("button", { type: "button", class: "md-button", "data-action": action }, text));
  const buttons = {
    forward: button("forward", "Step forward"),
    backward: button("backward", "Step backward"),
    back: button("back", "Back one step"),
    reset: button("reset", "Reset"),
    play: button("play", "Play"),
  };
  if (data.presets.length > 1) {
    data.presets.forEach((p, i) => {
      const choice = presets.appendChild(element("button", { type: "button", class: "md-button" }, p.title));
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

  function choose(index, at) {
    stop();
    preset = index;
    const p = data.presets[preset];
    view = bindGraph(graph, svgs[preset], `${root.id}-${preset}`, p.nodes, p.edges, (text) => {
      edgeNote.textContent = text;
    });
    presets.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-pressed", String(i === preset)));
    show(Math.min(at, counts().total));
  }

  // The whole view from (preset, step): nothing else is kept between steps.
  function show(at) {
    step = at;
    const p = data.presets[preset];
    const { forward, total } = counts();
    const filled = new Set(p.forward.slice(0, Math.min(step, forward)));
    let current = null;
    let grads = p.zeroGrads;
    let active = [];
    let updated = [];
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
      text = p.backwardCaptions[step - forward - 1];
    }
    p.nodes.forEach((node, i) => {
      view.setField(node.id, "data", filled.has(node.id) ? node.data : "data —");
      view.setField(node.id, "grad", grads[i]);
    });
    view.mark({ current, active, updated });
    const phase = step === 0 ? "before the forward pass" : step <= forward ? "forward pass" : "backward pass";
    status.textContent = `Step ${step} of ${total}: ${phase}`;
    caption.textContent = text;
    buttons.forward.disabled = step >= forward;
    buttons.backward.disabled = step < forward || step >= total;
    buttons.back.disabled = step === 0;
    buttons.reset.disabled = step === 0;
    buttons.play.disabled = step >= total && !timer;
    remember(root.id, { preset, step });
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    buttons.play.textContent = "Play";
  }

  buttons.forward.addEventListener("click", () => show(step + 1));
  buttons.backward.addEventListener("click", () => show(step + 1));
  buttons.back.addEventListener("click", () => { stop(); show(step - 1); });
  buttons.reset.addEventListener("click", () => { stop(); show(0); });
  buttons.play.addEventListener("click", () => {
    if (timer) return stop();
    buttons.play.textContent = "Pause";
    timer = setInterval(() => {
      if (step >= counts().total) return stop(), show(step);
      show(step + 1);
    }, PLAY_MS);
  });

  const saved = recall(root.id);
  choose(saved && saved.preset < data.presets.length ? saved.preset : 0, saved ? saved.step : 0);
  root.hidden = false; // the static figure above stays: it shows the page's state at that point
}

// Place the order in which the backward pass visits the nodes, then see what it gives.
// Every order was run through micrograd while the site was built (scripts/pages/widgets.py):
// this script looks the reader's order up, it computes nothing.

import { element } from "../shared/dom.js";
import { bindGraph, remember, recall } from "../shared/graph.js";

export async function init(root) {
  const data = await (await fetch(root.dataset.src)).json();
  const svgText = await (await fetch(data.svg)).text();
  const nodes = Object.entries(data.names).map(([id, name]) => ({ id, name }));
  const label = Object.fromEntries(data.nodes.map((n) => [n.id, n.label]));
  let order = [];
  let ran = false;

  const graph = element("div", { class: "bv-widget__graph" });
  const intro = element("p", {}, "Click the nodes in the order the backward pass should visit them " +
    "(the seed, 1, is already on the output). Then run it.");
  const palette = element("div", { class: "bv-widget__controls", role: "group", "aria-label": "Nodes to place" });
  const placed = element("ol", { class: "bv-widget__order", "aria-label": "Visit order so far" });
  const controls = element("div", { class: "bv-widget__controls" });
  const result = element("div", { class: "bv-widget__result", "aria-live": "polite" });
  const pick = {};
  for (const node of data.nodes) {
    pick[node.id] = palette.appendChild(element("button", { type: "button", class: "bv-button" }, node.label));
    pick[node.id].setAttribute("aria-label", `Visit ${node.label} next`);
    pick[node.id].addEventListener("click", () => { order.push(node.id); ran = false; show(); });
  }
  const undo = controls.appendChild(element("button", { type: "button", class: "bv-button" }, "Undo"));
  const reset = controls.appendChild(element("button", { type: "button", class: "bv-button" }, "Reset"));
  const run = controls.appendChild(element("button", { type: "button", class: "bv-button bv-button--primary" }, "Run"));
  undo.addEventListener("click", () => { order.pop(); ran = false; show(); });
  reset.addEventListener("click", () => { order = []; ran = false; show(); });
  run.addEventListener("click", () => { ran = true; show(); });
  root.append(graph, intro, palette, placed, controls, result);
  const view = bindGraph(graph, svgText, root.id, nodes, [], () => {});

  // The whole view from (order, ran).
  function show() {
    const complete = order.length === data.nodes.length;
    const outcome = complete && ran ? data.orders[order.join(",")] : null;
    for (const node of data.nodes) pick[node.id].disabled = order.includes(node.id);
    placed.replaceChildren(...order.map((id) => element("li", {}, label[id])));
    undo.disabled = order.length === 0;
    reset.disabled = order.length === 0;
    run.disabled = !complete || ran;
    // before a run, only the seed is known: 1 on the output, as the text above says
    const before = (id) => (id === data.seed.node ? data.seed.field : "grad —");
    for (const node of nodes) view.setField(node.id, "grad", outcome ? outcome.fields[node.id] : before(node.id));
    view.mark({});
    if (!outcome) {
      result.replaceChildren(element("p", {}, complete ? "Ready: press Run." :
        `${order.length} of ${data.nodes.length} placed.`));
    } else {
      const verdict = element("p", { class: outcome.right ? "bv-right" : "bv-wrong" },
        `${outcome.right ? "✓" : "✗"} ${data.nodes.map((n) => `${n.label}.grad = ${outcome.grads[n.id]}`).join(", ")}`);
      result.replaceChildren(verdict, element("p", {}, outcome.message));
    }
    remember(root.id, { order, ran });
  }

  root.hidden = false;
  const saved = recall(root.id);
  if (saved && Array.isArray(saved.order) && saved.order.every((id) => id in label)) {
    order = saved.order;
    ran = Boolean(saved.ran);
  }
  show();
}

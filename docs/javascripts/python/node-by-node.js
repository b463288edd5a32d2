// Node by node: where the reader's engine first parts from micrograd, shown in the page. The "Your
// engine" page's map (widgets/engine-map.js) and a chapter's Run on the reader's engine
// (run/run-output.js) both call it: diagnose (scripts/reader/your_engine.py) runs the page's blocks
// on both engines and answers with the first node whose grad differs, the cause decided at that node
// (scripts/reader/engine_cause.py: the mistake, the operation and operand, the numbers) and the
// graph's DOT with that node lit; or, when no grad differs, what was compared and how the block went.
// Nothing here computes a number: every one comes from the reader's Python.

import { element } from "../shared/dom.js";

const DIAGNOSE_TIMEOUT_MS = 20000;
let drawn = 0; // graphs drawn on this page: each one's ids get a prefix of their own

/**
 * What a diagnosis with no difference found says: only what was compared, and how the block went
 * in Node by node's run (your_engine.py: _compare, diagnose). A block that failed there, or in the
 * other run (`mapStatus`: the map's, or the Run's), is never said to agree: its failing graph is
 * elsewhere, or the engine's results vary from run to run.
 * @param {{compared?: string[], uncompared?: string[], status?: string, error?: string, runs?: number}} report
 * @param {string} [mapStatus]
 * @param {string} [ranIn] that run, as a sentence names it
 * @returns {string}
 */
export function agreed({ compared = [], uncompared = [], status = "differs", error = "", runs = 1 }, mapStatus = status,
  ranIn = "the map's run") {
  const names = (/** @type {string[]} */ list) => list.slice(0, 5).join(", ") +
    (list.length > 5 ? ` and ${list.length - 5} more` : "");
  const missing = uncompared.length ? `${uncompared.length === 1 ? "The graph" : "The graphs"} of ` +
    `${names(uncompared)} could not be compared: your engine left no Value there, or its graph could not ` +
    "be walked." : "";
  const failed = status === "error" ? `The block failed in Node by node's run: ${error}` : "";
  if (!compared.length) return [missing || "This block builds no graph to compare.", failed].filter(Boolean).join(" ");
  const every = `every node's grad in the ${compared.length === 1 ? "graph" : "graphs"} of ${names(compared)} is ` +
    "micrograd's";
  const tail = missing ? ` ${missing}` : "";
  if (status === "error") {
    return `${failed}, yet ${every}. The graph that failed is not one the block keeps in a name (it was built ` +
      "inside a function, such as gradcheck's lambda), so Node by node cannot light its node." + tail;
  }
  if (status === "ran" && mapStatus !== "ran") {
    const times = runs === 1 ? "Node by node ran the blocks again" : `Node by node ran the blocks ${runs} times`;
    return `${times}: the block gave the page's results, and ${every}, while it failed in ${ranIn}. Your ` +
      "engine's results vary from run to run" + (runs > 1 ? ": its _prev is a set, which Python walks in another " +
        "order each run, and its grads depend on that order." : ".") + tail;
  }
  return `${every[0].toUpperCase()}${every.slice(1)}` +
    `${uncompared.length ? "." : ": the difference is in what the block prints."}` + tail;
}

/**
 * Call diagnose for block `args.upto` and show in `host` the first node whose grad differs, the cause
 * there, and the graph with that node lit, both numbers on it.
 * @param {HTMLElement} host
 * @param {import("./calls.js").CallArgs["diagnose"]} args
 * @param {string} [mapStatus] how the block went in the run that failed (the map's or the Run's)
 * @param {string} [ranIn] that run, as a sentence names it ("the map's run", "your Run")
 * @returns {Promise<void>}
 */
export async function showDiagnosis(host, args, mapStatus, ranIn) {
  const { call } = await import("./python.js");
  const answer = await call("diagnose", args, { timeoutMs: DIAGNOSE_TIMEOUT_MS, runningText: "Comparing node by node…" });
  if (answer.kind !== "result") {
    host.replaceChildren(element("p", { class: "bv-map__fail", text: answer.message }));
    return;
  }
  const report = answer.report;
  if (report.ok === false) {
    host.replaceChildren(element("p", { text: report.message }));
    return;
  }
  if ("compared" in report) { // no grad differs: what was compared, and a cause read on the exercises' graphs
    host.replaceChildren(element("p", { text: agreed(report, mapStatus, ranIn) }));
    if (report.cause) host.append(element("p", { class: "bv-map__cause", text: `Likely cause: ${report.cause}` }));
    return;
  }
  const { label, op } = report.difference;
  const { expected, got } = report.difference.shown; // written as the site writes a number
  // A node is named by its label; an unlabelled one by what it is (draw_dot's id means nothing to a reader).
  const kind = op ? `${op} node` : "leaf";
  const name = label || `an unlabelled ${kind}`;
  const said = report.diagnosis;
  host.replaceChildren(
    element("p", {}, "The first node, in reverse topological order, whose grad differs" +
      `${report.name ? ` in the graph of ${report.name}` : ""}: `, element("strong", { text: name }),
    `${label ? ` (${op ? `the ${kind}` : "a leaf"})` : ""}, lit below: micrograd gives grad ${expected}, ` +
      `your engine ${got}.`),
    // The cause decided at that node: the mistake, the operation and operand, the numbers; or, when each
    // classic mistake was tested there and none fits, the shares on both engines.
    element("p", { class: "bv-map__cause", text: report.mistake ? `Likely cause: ${said}`
      : `${said[0].toUpperCase()}${said.slice(1)}`.replace(/([^.)])$/, "$1.") }));
  if (!report.dot) return;
  const graph = element("figure", { class: "bv-map__graph" });
  host.append(graph);
  try {
    const { drawSVG } = await import("../shared/viz.js");
    const svg = new DOMParser().parseFromString(await drawSVG(report.dot), "image/svg+xml").documentElement;
    const prefix = `bv-map-${(drawn += 1)}-`; // draw_dot's ids, unique on the page
    svg.querySelectorAll("[id]").forEach((el) => {
      if (el instanceof SVGElement) el.dataset.id = el.id;
      el.id = `${prefix}${el.id}`;
    });
    for (const attribute of ["fill", "stroke"]) { // a gradient's reference follows its id
      svg.querySelectorAll(`[${attribute}^="url(#"]`).forEach((el) => {
        el.setAttribute(attribute, (el.getAttribute(attribute) ?? "").replace("url(#", `url(#${prefix}`));
      });
    }
    svg.querySelectorAll("title").forEach((title) => title.remove());
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `The graph${report.name ? ` of ${report.name}` : ""} with ${name} lit: ` +
      `micrograd's grad ${expected}, your engine's ${got}`);
    graph.append(svg);
    // Never scaled below readable text: a graph as wide as chapter 8's block 23 was shrunk into
    // the column with its text too small to read at 1280 px (issue 44, item 7). Wider than the
    // column, it scrolls sideways (.bv-map__graph), its text at READABLE_PX (shared/figures.js).
    const { READABLE_PX, textPx } = await import("../shared/figures.js");
    const natural = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (svg)).viewBox.baseVal.width;
    const smallest = natural ? textPx(svg, natural) : 0;
    if (smallest > 0 && smallest < Infinity) {
      svg.style.minWidth = `${Math.ceil(natural * READABLE_PX / smallest)}px`;
    }
    // The lit node in view: a graph wider than its column scrolls to it, not to its left edge.
    const lit = svg.querySelector(`[data-id="${report.difference.id}"]`);
    if (lit && graph.scrollWidth > graph.clientWidth) {
      const [box, node] = [graph.getBoundingClientRect(), lit.getBoundingClientRect()];
      graph.scrollLeft = node.left - box.left - (box.width - node.width) / 2;
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    graph.replaceWith(element("p", { text: `The graph could not be drawn: ${text}` }));
  }
}

// Shared by the widgets: a computation graph that Graphviz drew at build time, put into the
// page and bound to by the ids micrograd.draw_dot gave its nodes and edges (never by
// position), plus the page's session state.

import { offerFullScreen } from "./figures.js";
import { read, write } from "./store.js";

// A widget's state survives a reload of the page (sessionStorage), and nothing else does.
/** @param {string} id */
const key = (id) => /** @type {const} */ (`bv:${location.pathname}#${id}`);
/** @param {string} id @param {Object<string, any>} state */
export const remember = (id, state) => write(key(id), state, { session: true });
/** @param {string} id */
export const recall = (id) => read(key(id), true);

// Room around the drawing (in its units, 1 pt) for the hit areas of edges along its sides:
// an edge's hit area is 34 units wide (widgets.css), and hit testing stops at the <svg>'s box.
const HIT_MARGIN = 18;

// Grows the drawing's box by `margin` on every side, at the same scale (viewBox and size).
/** @param {Element} svg @param {number} margin */
function widen(svg, margin) {
  const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  const width = parseFloat(svg.getAttribute("width") ?? "");
  const height = parseFloat(svg.getAttribute("height") ?? "");
  if (box.length !== 4 || box.some(Number.isNaN) || !width || !height) return;
  const [x, y, w, h] = box;
  const unit = (/** @type {string} */ attribute) => String(svg.getAttribute(attribute)).replace(/^[\d.]+/, "");
  svg.setAttribute("viewBox", `${x - margin} ${y - margin} ${w + 2 * margin} ${h + 2 * margin}`);
  svg.setAttribute("width", `${width * (w + 2 * margin) / w}${unit("width")}`);
  svg.setAttribute("height", `${height * (h + 2 * margin) / h}${unit("height")}`);
}

// Puts `svgText` into `container` at Graphviz's size (1 unit = 1 pt), scaled down to fit the
// column, never cut off. Ids get `prefix` (two graphs never clash); data-id keeps the original.
// nodes: [{id, name}]; edges: [edge id], each a button that calls onEdge(id), clicked or focused.
/**
 * @param {Element} container @param {string} svgText @param {string} prefix
 * @param {{id: string, name: string}[]} nodes @param {string[]} edges @param {(id: string) => void} onEdge
 */
export function bindGraph(container, svgText, prefix, nodes, edges, onEdge) {
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  svg.querySelectorAll("[id]").forEach((el) => {
    el.setAttribute("data-id", el.id);
    el.id = `${prefix}-${el.id}`;
  });
  // a group, not an img: an img's content is presentational, and its edges are buttons
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `Computation graph of ${nodes.map((n) => n.name).join(", ")}`);
  svg.querySelectorAll("title").forEach((title) => title.remove()); // n0, n0-n2-0: not for readers
  widen(svg, HIT_MARGIN);

  const byId = (/** @type {string} */ id) => svg.querySelector(`[data-id="${id}"]`);
  /** @type {Object<string, Object<string, Element>>} node id -> {data: <text>, grad: <text>} */
  const fields = {};
  for (const node of nodes) {
    const group = /** @type {Element} */ (byId(node.id));
    fields[node.id] = {};
    for (const text of group.querySelectorAll("text")) {
      const name = String(text.textContent).trim().split(" ")[0];
      if (name === "data" || name === "grad") fields[node.id][name] = text;
    }
  }
  /** @param {Element} group @param {string} id */
  const read = (group, id) => {
    svg.querySelectorAll(".bv-read").forEach((g) => g.classList.remove("bv-read"));
    group.classList.add("bv-read");
    onEdge(id);
  };
  for (const id of edges) {
    const group = /** @type {SVGGElement | null} */ (byId(id));
    if (!group) continue;
    const path = /** @type {SVGPathElement | null} */ (group.querySelector("path"));
    if (path) { // a wide, invisible twin of the line, so a finger can hit it
      const hit = /** @type {SVGPathElement} */ (path.cloneNode());
      hit.setAttribute("class", "bv-hit");
      // as short straight pieces: Chromium hit-tests a wide stroke of a sharply bent curve
      // short of its width (30 of 45 px on chapter 4's a·a), a polyline with round joins fully
      const length = path.getTotalLength();
      const pieces = Math.max(1, Math.ceil(length / 3));
      const at = (/** @type {number} */ k) => path.getPointAtLength((length * k) / pieces);
      hit.setAttribute("d", Array.from({ length: pieces + 1 }, (_, k) =>
        `${k ? "L" : "M"}${at(k).x.toFixed(2)},${at(k).y.toFixed(2)}`).join(""));
      group.prepend(hit);
    }
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.addEventListener("click", () => read(group, id));
    group.addEventListener("focus", () => read(group, id));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); read(group, id); }
    });
  }
  // In the page only now: there each edge's getTotalLength laid the page out again (forced).
  container.replaceChildren(svg);
  offerFullScreen(svg);
  const drawing = /** @type {SVGGraphicsElement} */ (svg.querySelector("g.graph") ?? svg);
  const SVG = "http://www.w3.org/2000/svg";
  return {
    /** @param {string} id @param {string} name @param {string} text */
    setField(id, name, text) {
      const field = fields[id] && fields[id][name];
      if (field) field.textContent = text;
    },
    /** @param {string} id @param {string} text */
    setEdgeLabel(id, text) { // what a screen reader says for the edge
      const group = byId(id);
      if (group) group.setAttribute("aria-label", text);
    },
    unread() {
      svg.querySelectorAll(".bv-read").forEach((g) => g.classList.remove("bv-read"));
    },
    // current: the node of this step (scrolled into a graph wider than the column, as on a phone);
    // active: edges it used; updated: nodes it changed
    /** @param {{current?: string | null, active?: string[], updated?: string[]}} step */
    mark({ current = null, active = [], updated = [] }) {
      svg.querySelectorAll(".bv-current, .bv-active, .bv-updated").forEach((el) =>
        el.classList.remove("bv-current", "bv-active", "bv-updated"));
      if (current) reveal(/** @type {Element} */ (byId(current)));
      active.forEach((id) => byId(id)?.classList.add("bv-active"));
      updated.forEach((id) => /** @type {Element} */ (byId(id)).classList.add("bv-updated"));
    },
    // notes: {edge id: text}, written on the figure on each edge (on a white box, kept
    // inside the drawing, moved down past a note already there); the text is the build's,
    // only its place is computed here
    /** @param {Object<string, string>} notes */
    annotate(notes) {
      svg.querySelectorAll(".bv-note").forEach((note) => note.remove());
      // No note, nothing to measure: step 0, which every stepper draws as its page loads,
      // reads no layout (getBBox would make the browser lay out the whole page there and then)
      if (!Object.keys(notes).length) return;
      const bounds = drawing.getBBox();
      /** @type {DOMRect[]} */
      const placed = [];
      const overlaps = (/** @type {DOMRect} */ a, /** @type {DOMRect} */ b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      for (const [id, text] of Object.entries(notes)) {
        const path = /** @type {SVGPathElement | null} */ (byId(id)?.querySelector("path:not(.bv-hit)"));
        if (!path) continue;
        const at = path.getPointAtLength(path.getTotalLength() * 0.4); // nearer the parent, where edges part
        const note = document.createElementNS(SVG, "g");
        note.setAttribute("class", "bv-note");
        note.dataset.edge = id;
        const box = note.appendChild(document.createElementNS(SVG, "rect"));
        const label = note.appendChild(document.createElementNS(SVG, "text"));
        attributes(label, { "text-anchor": "middle", "dominant-baseline": "central" });
        label.textContent = text;
        drawing.append(note); // above every node and edge
        const width = label.getBBox().width + 6;
        const x = Math.min(Math.max(at.x, bounds.x + width / 2), bounds.x + bounds.width - width / 2);
        let y = at.y;
        attributes(label, { x, y });
        let size = label.getBBox();
        while (placed.some((other) => overlaps(size, other))) {
          y += size.height + 3;
          attributes(label, { y });
          size = label.getBBox();
        }
        placed.push(size);
        attributes(box, { x: size.x - 3, y: size.y - 1, width: size.width + 6, height: size.height + 2, rx: 3 });
      }
    },
  };
}

/** @param {Element} el @param {Object<string, unknown>} values */
const attributes = (el, values) => Object.entries(values).forEach(([k, v]) => el.setAttribute(k, `${v}`));

// Mark a node current and, in a graph that scrolls sideways, bring it into view (no page scroll).
/** @param {Element} node */
function reveal(node) {
  node.classList.add("bv-current");
  const box = node.closest(".bv-widget__graph");
  if (!box || box.scrollWidth <= box.clientWidth) return;
  const at = node.getBoundingClientRect();
  const view = box.getBoundingClientRect();
  if (at.left < view.left || at.right > view.right) box.scrollLeft += (at.left + at.right - view.left - view.right) / 2;
}

// Step `step` of a replay (scripts/reader/stepper_trace.py) on a bound graph (steppers, playground).
// Returns {caption (null at step 0), phase}.
/** @param {ReturnType<typeof bindGraph>} view @param {import("./replay.js").Replay} p @param {number} step */
export function drawStep(view, p, step) {
  const forward = p.forward.length;
  const filled = new Set(p.forward.slice(0, Math.min(step, forward)));
  const s = step > forward ? p.backward[step - forward - 1] : null;
  p.nodes.forEach((node, i) => {
    view.setField(node.id, "data", filled.has(node.id) ? node.data : "data —");
    view.setField(node.id, "grad", (s ? s.grads : p.zeroGrads)[i]);
  });
  for (const [id, e] of Object.entries(p.edges)) view.setEdgeLabel(id, edgeAt(e, step));
  view.mark({ current: s ? s.node : step > 0 ? p.forward[step - 1] : null, active: s?.edges ?? [],
    updated: s?.parents ?? [] });
  view.annotate(s?.contributions ?? {});
  return { caption: s ? p.backwardCaptions[step - forward - 1] : step > 0 ? p.forwardCaptions[step - 1] : null,
    phase: step === 0 ? "before the forward pass" : step <= forward ? "forward pass" : "backward pass" };
}

// What an edge says at `step`: its rule, and its number once the forward pass made its child.
/** @param {import("./replay.js").Edge} e @param {number} step */
export const edgeAt = (e, step) => (step >= e.from ? e.text : e.pending);

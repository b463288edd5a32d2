// Shared by the widgets: a computation graph that Graphviz drew at build time, put into the
// page and bound to by the ids micrograd.draw_dot gave its nodes and edges (never by
// position), plus the page's session state.

// A widget's state survives a reload of the page (sessionStorage), and nothing else does.
const key = (id) => `bv:${location.pathname}#${id}`;
export function remember(id, state) {
  try { sessionStorage.setItem(key(id), JSON.stringify(state)); } catch { /* storage off */ }
}
export function recall(id) {
  try { return JSON.parse(sessionStorage.getItem(key(id))); } catch { return null; }
}

// Puts `svgText` into `container`. Ids get `prefix` so two graphs on a page never clash;
// the original id stays in data-id. nodes: [{id, name}]; edges: {edge id: text}.
// onEdge(text) is called when the reader clicks or focuses an edge.
export function bindGraph(container, svgText, prefix, nodes, edges, onEdge) {
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  svg.querySelectorAll("[id]").forEach((el) => {
    el.dataset.id = el.id;
    el.id = `${prefix}-${el.id}`;
  });
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // a group, not an img: an img's content is presentational, and its edges are buttons
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `Computation graph of ${nodes.map((n) => n.name).join(", ")}`);
  svg.querySelectorAll("title").forEach((title) => title.remove()); // n0, n0-n2-0: not for readers
  container.replaceChildren(svg);

  const byId = (id) => svg.querySelector(`[data-id="${id}"]`);
  const fields = {}; // node id -> {data: <text>, grad: <text>}
  for (const node of nodes) {
    const group = byId(node.id);
    fields[node.id] = {};
    for (const text of group.querySelectorAll("text")) {
      const name = text.textContent.trim().split(" ")[0];
      if (name === "data" || name === "grad") fields[node.id][name] = text;
    }
  }
  for (const [id, text] of Object.entries(edges)) {
    const group = byId(id);
    if (!group) continue;
    const path = group.querySelector("path");
    if (path) { // a wide, invisible twin of the line, so a finger can hit it
      const hit = path.cloneNode();
      hit.setAttribute("class", "bv-hit");
      group.prepend(hit);
    }
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-label", text);
    const read = () => {
      svg.querySelectorAll(".bv-read").forEach((g) => g.classList.remove("bv-read"));
      group.classList.add("bv-read");
      onEdge(text);
    };
    group.addEventListener("click", read);
    group.addEventListener("focus", read);
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); read(); }
    });
  }
  return {
    setField(id, name, text) {
      const field = fields[id] && fields[id][name];
      if (field) field.textContent = text;
    },
    // current: the node of this step; active: edges it used; updated: nodes it changed
    mark({ current = null, active = [], updated = [] }) {
      svg.querySelectorAll(".bv-current, .bv-active, .bv-updated").forEach((el) =>
        el.classList.remove("bv-current", "bv-active", "bv-updated"));
      if (current) byId(current).classList.add("bv-current");
      active.forEach((id) => byId(id) && byId(id).classList.add("bv-active"));
      updated.forEach((id) => byId(id).classList.add("bv-updated"));
    },
  };
}

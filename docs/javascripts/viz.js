// Graphviz in the page: draws the DOT source that draw_dot gave in the reader's Python.
//
// Graphviz is the npm package @viz-js/viz (pinned in package.json), served by the site from
// assets/viz/<version>/ (scripts/site_assets.py): one ES module with Graphviz's WebAssembly
// inside, 1.2 MB raw, 0.47 MB compressed. It loads on the first redraw (an edited block that
// ends in draw_dot, or the playground), never with a page; the page's `.bv-python` element
// names its address (data-viz). Nodes and edges keep the ids draw_dot gave them (n0, n2op,
// n0-n2-0...), the same as in the figures Graphviz drew when the site was built.

let viz = null;

/** Resolves to Viz, loaded once per page. */
export function loadViz() {
  viz ??= (async () => {
    const address = document.querySelector(".bv-python")?.dataset.viz;
    if (!address) throw new Error("this page names no Graphviz (.bv-python data-viz)");
    const { instance } = await import(new URL(address, location.href).href);
    return instance();
  })();
  viz.catch(() => { viz = null; }); // a failed load (offline, say) is tried again next time
  return viz;
}

/** SVG text of `dot`, drawn by Graphviz's dot layout. Throws with Graphviz's own message. */
export async function drawSVG(dot) {
  const result = (await loadViz()).render(dot, { format: "svg", engine: "dot" });
  if (result.status !== "success") {
    throw new Error(result.errors.map((e) => e.message).join(" ") || "Graphviz could not draw this graph");
  }
  return result.output;
}

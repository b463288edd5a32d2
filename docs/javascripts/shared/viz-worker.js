// Graphviz off the page's main thread: a module Web Worker of its own that lays out the DOT
// source viz.js sends and answers with Graphviz's SVG text. viz.js ends this worker
// (worker.terminate()) when the reader presses Stop or a layout runs past its time limit, and
// starts a new one for the next drawing: a layout cannot be interrupted from inside.
//
// Messages in:  {id, dot, module}   module: the address of @viz-js/viz's ES module (viz.js)
// Messages out: {id, type: "started"}              Graphviz is loaded; the layout starts now
//               {id, type: "svg", svg}             the SVG text
//               {id, type: "error", message}       Graphviz's own message, or why it did not load

let viz = null; // Promise of Viz, loaded once per worker
// The most SVG text sent to the page: 2 MB, 55 times the book's largest figure (36 KB, chapter
// 7). A node with peripheries=200000 is 48 characters of DOT and 17 MB of SVG, which the page
// then parses, cleans and parses again on its main thread: 9 s frozen, with Stop out of reach
// (a hostile reader's audit). Measured here, before any of it reaches the page.
const MAX_SVG_CHARACTERS = 2_000_000;

self.addEventListener("message", async ({ data: { id, dot, module } }) => {
  let graphviz;
  try {
    viz ??= import(module).then(({ instance }) => instance());
    graphviz = await viz;
  } catch (error) {
    viz = null; // a failed load (offline, say) is tried again on the next message
    self.postMessage({ id, type: "error", message: `Graphviz could not load: ${error.message ?? error}` });
    return;
  }
  self.postMessage({ id, type: "started" });
  try {
    const result = graphviz.render(dot, { format: "svg", engine: "dot" });
    if (result.status === "success" && result.output.length > MAX_SVG_CHARACTERS) {
      const size = (n) => `${(n / 1e6).toFixed(1)} million characters`;
      self.postMessage({ id, type: "error", message: `Graphviz drew it, but its SVG is ${size(result.output.length)}, ` +
        `more than the page shows (${size(MAX_SVG_CHARACTERS)}): a graph this large draws on your own machine.` });
    } else if (result.status === "success") {
      self.postMessage({ id, type: "svg", svg: result.output });
    } else {
      const message = result.errors.map((e) => e.message).join(" ") || "Graphviz could not draw this graph";
      self.postMessage({ id, type: "error", message });
    }
  } catch (error) {
    self.postMessage({ id, type: "error", message: String(error.message ?? error) });
  }
});

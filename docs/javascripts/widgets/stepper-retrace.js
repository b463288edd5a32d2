// A stepper's graph traced again with the reader's leaf values (stepper.js loads this on the
// first "Run with these values"): the reader's Python rebuilds the page's graph with them and
// replays it (scripts/reader/stepper_trace.py: live, called as "trace_stepper"), on micrograd, or
// with "Run on: your engine" (engine-switch.js) on the reader's own Value, whose backward() the
// steps record; Graphviz (viz.js) draws it with draw_dot's ids. The note says which engine ran it.

const TIMEOUT_MS = 20000;

/**
 * The preset's graph with `values` ({leaf id: text}): {preset, svg, note}, or {message} (a
 * value refused, or Python could not run it). bar: where Stop shows while the Run waits or
 * runs (python.js), its button "values" taking the focus after. signal: an AbortSignal that stops
 * the Run (stepper.js: Reset, or another preset, cancels the trace).
 */
export async function retrace(p, values, onProgress, bar, signal) {
  const { call } = await import("../python/python.js");
  const { drawSVG } = await import("../shared/viz.js");
  const { engine } = await import("../python/reader-engine.js");
  const source = engine();
  /** @type {import("../python/calls.js").CallArgs["trace_stepper"]} */
  const args = { graph: p.graph, values, ...(source ? { engine: source } : {}) };
  const answer = await call("trace_stepper", args, { timeoutMs: TIMEOUT_MS, onProgress, signal,
    stopIn: bar, afterStop: bar.querySelector("[data-action=values]") });
  if (answer.kind !== "result") return { message: answer.message };
  /** @type {import("../python/calls.js").StepperTrace} */
  const reply = answer.report;
  if (reply.ok === false) return { message: reply.message };
  const described = p.leaves.map((leaf) => `${leaf.label} = ${values[leaf.id].trim()}`).join(", ");
  const note = (answer.restarted ? `${answer.restarted} ` : "") + // why Python started again, if it did
    `Traced by ${reply.engine} in your browser with ${described}: step through it, or Reset for the page's values.`;
  try {
    return { preset: reply.preset, svg: await drawSVG(reply.dot), note };
  } catch (error) { // Graphviz could not load or lay it out: traced, not drawn (stepper.js said "not traced")
    return { message: `Traced by ${reply.engine}, but the graph could not be drawn: ${error.message ?? error}` };
  }
}

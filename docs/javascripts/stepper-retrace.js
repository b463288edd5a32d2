// A stepper's graph traced again with the reader's leaf values (stepper.js loads this on the
// first "Run with these values"): the preset's graph and the values go to the reader's Python
// (python.js), where scripts/stepper_trace.py builds it again from micrograd Values and
// replays it with micrograd.trace; Graphviz (viz.js) draws it with draw_dot's ids.

const TIMEOUT_MS = 20000;
const CHUNK = 9000; // characters of the replay's JSON per block (a block prints at most 10,000)

// The preset's graph with `values` through micrograd.trace in the reader's Python:
// {preset, svg, note} or {message} (a value refused, or Python could not run it).
// bar: where Stop shows while the Run waits or runs (python.js), its button `values` after.
export async function retrace(p, values, onProgress, bar) {
  const { runBlocks } = await import("./python.js");
  const { drawSVG } = await import("./viz.js");
  const literal = (text) => JSON.stringify(text); // a JSON string is a Python string literal
  const first = "from scripts.stepper_trace import live\n" +
    `_bv_text, _bv_graph = live(${literal(JSON.stringify(p.graph))}, ${literal(JSON.stringify(values))})\n_bv_graph`;
  const count = Math.ceil((3 * JSON.stringify(p).length) / CHUNK) + 1;
  const blocks = [first, ...Array.from({ length: count }, (_, k) =>
    `print(_bv_text[${k * CHUNK}:${(k + 1) * CHUNK}], end="")`)].map((source) =>
    ({ line: 0, kind: "code", hidden: true, source, skip: null, when: null, figure: false }));
  const answer = await runBlocks({ blocks: JSON.stringify({ blocks }), upto: blocks.length - 1,
    timeoutMs: TIMEOUT_MS, onProgress, stopIn: bar, afterStop: bar.querySelector("[data-action=values]") });
  if (answer.kind !== "result") return { message: answer.message };
  const results = answer.report.results;
  const failed = results.find((r) => r.status !== "ran");
  if (failed) return { message: `Python could not trace it: ${failed.error || failed.status}` };
  if (results[results.length - 1].output) return { message: "The trace is too large to show here." };
  const reply = JSON.parse(results.slice(1).map((r) => r.output).join(""));
  if (!reply.ok) return { message: reply.message };
  const described = p.leaves.map((leaf) => `${leaf.label} = ${values[leaf.id].trim()}`).join(", ");
  const note = (answer.restarted ? `${answer.restarted} ` : "") + // why Python started again, if it did
    `Traced by micrograd in your browser with ${described}: step through it, or Reset for the page's values.`;
  return { preset: reply.preset, svg: await drawSVG(results[0].dot), note };
}

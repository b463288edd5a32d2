// Python for the exercises and the chapters' blocks, in a module Web Worker, so the page
// never freezes.
//
// On the first message it loads Pyodide from the site itself (the runtime
// scripts/hooks/assets.py serves from node_modules/pyodide) and the site's
// Python zip (micrograd/, the exercise and run modules of scripts/, 
// docs/exercises/, graphviz, packed by scripts/hooks/python_runtime.py), then
// calls scripts.exercise_runner.run_json or scripts.run_blocks.run_json. Nothing
// comes from another host and nothing is installed with micropip.
//
// Messages in:  {type: "run", id, exercise, code, runtimeURL, pythonURL}
//               {type: "run-blocks", id, blocks, upto, edits, runtimeURL, pythonURL}
//                 blocks: a page's blocks.json text; edits: JSON {index: text}
// Messages out: {type: "progress", id, text}
//               {type: "started", id, startMs}   the reader's code starts now (the page's timer starts)
//               {type: "result", id, report, runMs}
//               {type: "error", id, message, fatal, block}   fatal: this worker is unusable, end it;
//                 block: the index of the block that was running (run-blocks only)

let ready = null; // Promise of {exercises, blocks}: each module's run_json, made once per worker
let current = null; // id of the run that is loading, for progress messages
let block = null; // index of the chapter block running now (run_blocks calls onBlock)

const post = (message) => self.postMessage(message);
const progress = (text) => post({ type: "progress", id: current, text });
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Count the bytes of Pyodide's own downloads (the .wasm, the standard library, the lock
// file) as they stream in, and say so on the page's progress line.
const downloads = new Map();
let lastReport = 0;
const realFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const total = Number(response.headers.get("content-length")) || 0;
  if (!response.ok || !response.body || !total || response.headers.get("content-encoding")) {
    return response; // sizes unknown (or compressed in transit): pass it through untouched
  }
  const name = new URL(response.url).pathname.split("/").pop();
  const counter = new TransformStream({
    transform(chunk, controller) {
      const entry = downloads.get(name) ?? { loaded: 0, total };
      entry.loaded += chunk.byteLength;
      downloads.set(name, entry);
      const now = Date.now();
      if (now - lastReport > 150 || entry.loaded === total) {
        lastReport = now;
        let loaded = 0;
        let all = 0;
        for (const d of downloads.values()) {
          loaded += d.loaded;
          all += d.total;
        }
        const wasm = downloads.get("pyodide.asm.wasm"); // the big one: after it, compiling and starting
        progress(loaded < all || !wasm
          ? `Downloading Python (first Run only): ${megabytes(loaded)} of ${megabytes(all)} MB`
          : "Starting Python (compiling the interpreter takes a few seconds, once)…");
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers, // keeps Content-Type: application/wasm for streaming compilation
  });
};

async function start(runtimeURL, pythonURL) {
  progress("Loading Python (first Run only: 13 MB, about 6 MB compressed)…");
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtimeURL).href);
  const pyodide = await loadPyodide({
    indexURL: runtimeURL,
    packages: [],
    stdout: () => {}, // the runner captures print() itself, per Run
    stderr: () => {},
  });
  progress("Loading micrograd…");
  const response = await realFetch(pythonURL);
  if (!response.ok) throw new Error(`${pythonURL}: HTTP ${response.status}`);
  pyodide.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", { extractDir: "/home/pyodide" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide')");
  return {
    exercises: pyodide.pyimport("scripts.exercise_runner").run_json,
    blocks: pyodide.pyimport("scripts.run_blocks").run_json,
  };
}

const onBlock = (index) => { block = index; };
const runners = {
  run: (python, data) => python.exercises(data.exercise, data.code),
  "run-blocks": (python, data) => python.blocks(data.blocks, data.upto, data.edits, onBlock),
};

self.onmessage = async ({ data }) => {
  const runner = runners[data.type];
  if (!runner) return;
  const { id } = data;
  current = id;
  block = null;
  const t0 = performance.now();
  let python;
  try {
    ready ??= start(data.runtimeURL, data.pythonURL);
    python = await ready;
  } catch (error) {
    post({ type: "error", id, fatal: true, message: `Python could not start: ${error.message ?? error}` });
    return;
  }
  const t1 = performance.now();
  post({ type: "started", id, startMs: t1 - t0 });
  try {
    const json = runner(python, data);
    post({ type: "result", id, report: JSON.parse(json), runMs: performance.now() - t1 });
  } catch (error) {
    // run_json reports everything the reader's code does; reaching here means Python itself
    // failed (for example a fatal error after a stack overflow): this worker must go.
    const lines = String(error.message ?? error).trim().split("\n");
    const reason = error.type ? lines[lines.length - 1] : lines[0]; // a Python error ends with its message
    const hint = /call stack/i.test(reason)
      ? " (freeing a computation graph more than about 1,500 operations deep takes more stack " +
        "than the browser gives Python)"
      : "";
    post({ type: "error", id, fatal: true, block,
           message: `Python stopped: ${reason}${hint}. The next Run starts it again.` });
  }
};

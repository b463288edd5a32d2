// Runs the reader's Python in a Web Worker (python-worker.js), one Run at a time:
// an exercise's tests (exercise.js) or a chapter's blocks (run-blocks.js).
//
// The worker, and with it Pyodide, starts on the first Run, never before; both
// kinds of Run share it. Code that runs longer than the time limit is stopped
// the only way a static site can stop it: worker.terminate() (Pyodide's
// interrupt buffer needs cross-origin isolation headers a static host may not
// send). The next Run starts a fresh worker.

let worker = null;
let nextId = 1;
let queue = Promise.resolve();

/**
 * Run the reader's code against one exercise's tests.
 *
 * options: { exercise: name, code: str, runtimeURL: the Pyodide directory,
 *   pythonURL: the site's Python zip, timeoutMs, onProgress(text) }.
 * Resolves (never rejects) to one of
 *   { kind: "result", report: {results, output, note}, startMs, runMs, coldStart }
 *   { kind: "timeout", seconds }   the worker was terminated
 *   { kind: "error", message }     Python could not start or stopped; the worker was terminated
 */
export function runExercise({ exercise, code, ...options }) {
  return enqueue({ type: "run", exercise, code }, { ...options, runningText: "Running the tests…" });
}

/**
 * Run a chapter's blocks 0 to `upto` in one fresh namespace, as pytest runs them
 * (scripts/run_blocks.py).
 *
 * options: { blocks: the page's blocks.json text, upto: index, edits: {index: text},
 *   runtimeURL, pythonURL, timeoutMs, onProgress(text) }.
 * Resolves like runExercise, the report being {results, seconds}; an error
 * also names `block`, the index of the block that was running when Python stopped.
 */
export function runBlocks({ blocks, upto, edits, ...options }) {
  return enqueue({ type: "run-blocks", blocks, upto, edits: JSON.stringify(edits ?? {}) },
    { ...options, runningText: "Running…" });
}

function enqueue(request, options) {
  const run = queue.then(() => runOnce(request, options));
  queue = run;
  return run;
}

function runOnce(request, { runtimeURL, pythonURL, timeoutMs, onProgress, runningText }) {
  return new Promise((resolve) => {
    const coldStart = worker === null;
    if (coldStart) {
      worker = new Worker(new URL("./python-worker.js", import.meta.url), { type: "module", name: "python" });
    }
    const w = worker;
    const id = nextId++;
    let timer = null;
    let startMs = 0;

    const finish = (result) => {
      clearTimeout(timer);
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      resolve(result);
    };
    const end = (result) => {
      w.terminate();
      if (worker === w) worker = null;
      finish(result);
    };
    const onMessage = ({ data }) => {
      if (data.id !== id) return;
      if (data.type === "progress") onProgress?.(data.text);
      else if (data.type === "started") {
        startMs = data.startMs;
        onProgress?.(runningText);
        timer = setTimeout(() => end({ kind: "timeout", seconds: timeoutMs / 1000 }), timeoutMs);
      } else if (data.type === "result") {
        finish({ kind: "result", report: data.report, startMs, runMs: data.runMs, coldStart });
      } else if (data.type === "error") {
        const result = { kind: "error", message: data.message, block: data.block };
        if (data.fatal) end(result);
        else finish(result);
      }
    };
    const onError = (event) => {
      event.preventDefault();
      end({ kind: "error", message: `Python could not start: ${event.message || "the worker did not load"}` });
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    w.postMessage({ ...request, id, runtimeURL, pythonURL });
  });
}

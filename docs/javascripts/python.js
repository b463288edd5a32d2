// Runs the reader's Python in a Web Worker (python-worker.js), one Run at a time:
// an exercise's tests (exercise.js) or a chapter's blocks (run-blocks.js).
//
// The worker, and with it Pyodide, starts on the first Run, never before; both
// kinds of Run share it, and the steppers and the playground too. It lives as long as
// this module: across Material's instant navigation (mkdocs.yml: navigation.instant),
// so the next chapter's first Run finds Python up. Code that runs longer than the time limit, or that the
// reader stops (options.signal, an AbortSignal: the exercises' Stop button), or that
// still runs for a page the reader has left when the next page asks for a Run, is
// stopped the only way a static site can stop it: worker.terminate() (Pyodide's
// interrupt buffer needs cross-origin isolation headers a static host may not
// send). The next Run starts a fresh worker.
//
// What the page shows comes over a MessageChannel made with the worker: its port
// goes to the worker in the first message, before any Python exists, and is kept
// where the reader's code cannot reach it (python-worker.js). Messages the worker
// posts to the page itself, which the reader's code can (`js.postMessage`), are
// never read.

import { onEveryPage } from "./dom.js";

let python = null; // {worker, port} while a worker lives
let nextId = 1;
let queue = Promise.resolve();
// Runs queued or running, each with the page it was started on. A Run of a page the reader
// has left shows its output nowhere: the next page's Run stops it rather than wait for it
// (up to a Run's time limit, 20 s). Only then: a Run that ends before the next one is asked
// for keeps Python up.
const runs = new Set(); // {page, controller}
let page = 0; // counts the pages shown (instant navigation brings a new one without a reload)
onEveryPage(() => { page += 1; });

/**
 * Run the reader's code against one exercise's tests.
 *
 * options: { exercise: name, code: str, timeoutMs, onProgress(text) }, and where the
 *   runtime is (pageRuntime(): the page's own, unless runtimeURL, pythonURL, runtimeBytes
 *   are given).
 * Resolves (never rejects) to one of
 *   { kind: "result", report: {results, output, note}, startMs, runMs, coldStart }
 *   { kind: "timeout", seconds, message }   the worker was terminated; message says so
 *   { kind: "stopped", message }   options.signal was aborted: the worker was terminated (or,
 *                                  still queued, the Run never started)
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
 *   timeoutMs, onProgress(text) }, and where the runtime is, as for runExercise.
 * Resolves like runExercise, the report being {results, seconds}; an error
 * also names `block`, the index of the block that was running when Python stopped.
 */
export function runBlocks({ blocks, upto, edits, ...options }) {
  return enqueue({ type: "run-blocks", blocks, upto, edits: JSON.stringify(edits ?? {}) },
    { ...options, runningText: "Running…" });
}

/**
 * Where this page's Python is, from the `.bv-python` element the build puts on every page
 * (scripts/hooks/python_runtime.py): { runtimeURL: the Pyodide directory, pythonURL: the
 * site's Python zip, runtimeBytes: the runtime's size }, as absolute URLs.
 */
export function pageRuntime() {
  const { runtime, python: zip, runtimeBytes } = document.querySelector(".bv-python")?.dataset ?? {};
  if (!runtime || !zip) throw new Error("this page names no Python runtime (.bv-python)");
  return { runtimeURL: new URL(runtime, location.href).href, pythonURL: new URL(zip, location.href).href,
    runtimeBytes: Number(runtimeBytes) || 0 };
}

function enqueue(request, options) {
  if (!options.runtimeURL) options = { ...pageRuntime(), ...options };
  for (const earlier of runs) if (earlier.page !== page) earlier.controller.abort();
  if ([...runs].some((earlier) => earlier.page === page)) {
    options.onProgress?.("Waiting for the Run before this one to finish…");
  }
  const mine = { page, controller: new AbortController() };
  runs.add(mine);
  const { signal } = mine.controller; // the reader's Stop (options.signal) or the next page's Run
  if (options.signal?.aborted) mine.controller.abort();
  options.signal?.addEventListener("abort", () => mine.controller.abort(), { once: true });
  options = { ...options, signal };
  const run = queue.then(() => runOnce(request, options)).finally(() => runs.delete(mine));
  queue = run;
  // Stopped while it waits behind another Run: it answers at once (and never starts).
  const stoppedEarly = new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve(STOPPED_BY_READER), { once: true });
  });
  return Promise.race([run, stoppedEarly]);
}

/** A Run stopped at its time limit: it ran too long, whether it loops or sleeps. */
function stopped(seconds) {
  return { kind: "timeout", seconds, message: `Stopped after ${seconds} s: the code ran longer than a Run ` +
    "may (an endless loop, a long loop, or a time.sleep()?). Python was shut down; the next Run starts it again." };
}

function spawn() {
  const worker = new Worker(new URL("./python-worker.js", import.meta.url), { type: "module", name: "python" });
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: "connect" }, [port2]);
  return { worker, port: port1 };
}

/** A Run the reader stopped (its signal aborted). */
const STOPPED_BY_READER = { kind: "stopped",
  message: "Stopped. Python was shut down; the next Run starts it again." };

function runOnce(request, { runtimeURL, pythonURL, runtimeBytes, timeoutMs, onProgress, runningText, signal }) {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ ...STOPPED_BY_READER, message: "Stopped before it started." });
      return;
    }
    const coldStart = python === null;
    python ??= spawn();
    const current = python;
    const { worker, port } = current;
    const id = nextId++;
    let timer = null;
    let startMs = 0;
    let started = false;

    const finish = (result) => {
      clearTimeout(timer);
      port.onmessage = null;
      worker.removeEventListener("error", onError);
      signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const end = (result) => {
      worker.terminate();
      port.close();
      if (python === current) python = null;
      finish(result);
    };
    port.onmessage = ({ data }) => {
      if (data.id !== id) return;
      if (data.type === "progress") onProgress?.(data.text);
      else if (data.type === "started") {
        started = true;
        startMs = data.startMs;
        onProgress?.(runningText);
        timer = setTimeout(() => end(stopped(timeoutMs / 1000)), timeoutMs);
      } else if (data.type === "result") {
        finish({ kind: "result", report: data.report, startMs, runMs: data.runMs, coldStart });
      } else if (data.type === "error") {
        const result = { kind: "error", message: data.message, block: data.block };
        if (data.fatal) end(result);
        else finish(result);
      }
    };
    // An error the worker did not catch: its script did not load, or (once Python runs)
    // something the reader's code set off outside the run, such as a timer's callback.
    const onError = (event) => {
      event.preventDefault();
      const message = event.message || "the worker did not load";
      end({ kind: "error", message: started ? `Python stopped: ${message}. The next Run starts it again.`
        : `Python could not start: ${message}` });
    };
    worker.addEventListener("error", onError);
    const onAbort = () => end(STOPPED_BY_READER);
    signal?.addEventListener("abort", onAbort, { once: true });
    port.postMessage({ ...request, id, runtimeURL, pythonURL, runtimeBytes });
  });
}

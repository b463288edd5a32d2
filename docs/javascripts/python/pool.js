// The page's Python workers (python-worker.js), apart from what a Run says: python.js asks here
// for the worker a Run goes to, and ends one here. Two at most live at once: the shared one,
// where chapter blocks, steppers and the playground run, and the spare, which has run none of the
// reader's code and loads Python for the next exercise's grading (python.js says why each).
//
// A worker is ended only by end(): terminated, its port closed, and forgotten as shared or
// spare, so nothing hands a Run to a worker that is gone.
//
// A page opened by its address starts with no Python: loading it again takes seconds, mostly the
// interpreter's compile, even with the browser's cache warm. For a reader who has had Python up
// before in this browser ("bv-python", kept when a worker's Python is up), warm() starts the
// shared worker before any Run, as the page's blocks come near: the compile goes on while they
// read, and their first Run finds Python up or nearly (issue 44: a fast first Run). A first
// visit downloads nothing until a Run asks.

import { write } from "../shared/store.js";

/**
 * One worker and what python.js knows of it. port: the MessageChannel's end the page keeps (the
 * worker's goes in its first message, {type: "connect"}); loaded: its Python is up; ran: what of
 * the reader's code it was given (python.js: readerParts); created: performance.now() at its
 * start; again: not the page's first worker, so it loads Python again (python-worker.js says so).
 * @typedef {{worker: Worker, port: MessagePort, loaded: boolean, ended: boolean, ran: Set<string>,
 *   created: number, again: boolean}} PythonWorker
 */

/**
 * A worker's Python is up: kept, so that the pages this reader opens later warm() theirs.
 * @param {PythonWorker} one
 */
export function up(one) {
  one.loaded = true;
  write("bv-python", true);
}

/** @type {PythonWorker | null} the shared worker, while it lives */
let shared = null;
/** @type {PythonWorker | null} a worker that has run none of the reader's code: the next exercise's */
let spare = null;
let spawned = 0; // workers started on this page: each after the first loads Python again

/** @returns {PythonWorker} a new worker, connected, loading nothing yet */
function spawn() {
  const worker = new Worker(new URL("./python-worker.js", import.meta.url), { type: "module", name: "python" });
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: "connect" }, [port2]);
  return { worker, port: port1, loaded: false, ended: false, ran: new Set(), created: performance.now(),
    again: ++spawned > 1 };
}

/**
 * End a worker: terminate it and close its port; it is neither shared nor spare from now on.
 * @param {PythonWorker} one
 */
export function end(one) {
  one.ended = true;
  one.worker.terminate();
  one.port.close();
  if (shared === one) shared = null;
  if (spare === one) spare = null;
}

/**
 * A worker that loads Python now and runs nothing until an exercise asks: `spare`.
 * @param {import("./calls.js").Runtime} runtime
 */
function startSpare(runtime) {
  spare = loading(runtime);
}

/**
 * A new worker, loading Python now for the Runs to come (and importing `imports` once it is up).
 * @param {import("./calls.js").Runtime} runtime
 * @param {string[]} [imports]
 */
function loading(runtime, imports) {
  const mine = spawn();
  mine.port.onmessage = ({ data }) => { if (data?.type === "loaded") up(mine); };
  /** @type {import("./calls.js").Load} */
  const load = { type: "load", ...runtime, again: mine.again, imports };
  mine.port.postMessage(load);
  return mine;
}

/**
 * The shared worker, started now and loading Python, if none lives: a Run will want it soon.
 * @param {import("./calls.js").Runtime} runtime
 * @param {string[]} imports  the modules that Run will import first
 */
export function warm(runtime, imports) {
  shared ??= loading(runtime, imports);
}

/** @returns {PythonWorker | null} the shared worker, if one lives */
export function sharedWorker() {
  return shared;
}

/** @returns {PythonWorker} for an exercise's grading: the spare (loading or up), else a new worker */
export function forExercise() {
  const one = spare ?? spawn();
  spare = null;
  return one;
}

/**
 * The shared worker, started if none lives. afresh: end the one that lives first (it was given
 * code of the reader's that this Run must not meet); the spare, which has run nothing of the
 * reader's and has been loading since the last exercise, takes its place, and a new spare loads.
 * @param {import("./calls.js").Runtime} runtime
 * @param {boolean} afresh
 * @returns {PythonWorker}
 */
export function forPage(runtime, afresh) {
  if (afresh && shared) {
    end(shared);
    if (spare) {
      shared = spare;
      spare = null;
      startSpare(runtime);
    }
  }
  shared ??= spawn();
  return shared;
}

/**
 * After an exercise's Run: its worker, if it lives, is the shared one from now on (the old
 * one ends), and a fresh worker starts loading Python for the next exercise.
 * @param {PythonWorker} used
 * @param {import("./calls.js").Runtime} runtime
 */
export function afterExercise(used, runtime) {
  if (!used.ended && shared !== used) {
    if (shared) end(shared);
    shared = used;
  }
  if (!spare) startSpare(runtime);
}

// Python for the exercises and the chapters' blocks, in a module Web Worker, so the page
// never freezes.
//
// On the first Run it loads Pyodide from the site itself (the runtime
// scripts/build/hooks/assets.py serves from node_modules/pyodide) and the site's
// Python zip (micrograd/, the exercise and run modules of scripts/,
// docs/exercises/, graphviz, packed by scripts/build/hooks/python_runtime.py), confines
// the worker to the site's origin (guard.js), then answers the page's calls with
// scripts/reader/calls.py's call_json: a function's name and JSON arguments in, JSON out. Nothing
// comes from another host and nothing is installed with micropip.
//
// The reader's code runs in this worker and can post messages to the page
// (`js.postMessage`). So the page talks to this module over a MessageChannel
// whose port it sends in its first message, {type: "connect"}, before any Python
// exists; the port lives in this module's scope, which Python's `js` (the
// worker's global object) cannot reach. The page reads nothing else the worker posts.
//
// The messages, in and out on the port, are docs/javascripts/python/calls.js's ToWorker and FromWorker.

import { MAX_TEXT } from "../shared/reader-text.js"; // characters of a text of the reader's code sent on
import { confine } from "./guard.js";

/** @type {MessagePort | null} the page's channel: set once, by the first message */
let port = null;
/** @type {Promise<CallJson> | null} scripts.reader.calls.call_json, made once per worker */
let ready = null;
/** @type {number | null} id of the run that is loading, for progress messages */
let current = null;
/** @type {number | null} index of the chapter block running now (run_blocks calls onBlock) */
let block = null;
/** @type {Set<number> | null} while the reader's code runs: the ids of the timers it arms, to clear when it ends */
let armed = null;
/**
 * call_json as Pyodide hands it to JavaScript: a function's name, its JSON arguments and
 * run_blocks' callback in; calls.py's answer, JSON, out.
 * @typedef {(fn: string, args: string, onBlock: (index: number) => void) => string} CallJson
 */

/**
 * setTimeout and setInterval, replaced where the browser defines them, note each timer armed
 * while the reader's code runs, so the Run's end clears it. Done before Pyodide loads (its
 * asyncio loop arms its timers with these); guard.js wraps these wrappers, and nothing can
 * reach the browser's own after that.
 * @param {any} scope the worker's global (the DOM's types do not describe a worker's)
 */
function ownTimers(scope) {
  for (const name of ["setTimeout", "setInterval"]) {
    let holder = scope;
    while (holder && !Object.getOwnPropertyDescriptor(holder, name)) holder = Object.getPrototypeOf(holder);
    if (!holder) continue;
    const timer = holder[name];
    Object.defineProperty(holder, name, { configurable: true, writable: true, enumerable: true,
      value: function ownedTimer(/** @type {unknown[]} */ ...args) {
        const id = Reflect.apply(timer, scope, args);
        armed?.add(id);
        return id;
      } });
  }
}
ownTimers(self);
// An error or a rejection nobody handled, from a callback the reader's code left behind, ends
// nothing: it would reach the page as this worker's error, during whichever Run is on.
self.addEventListener("error", (event) => event.preventDefault());
self.addEventListener("unhandledrejection", (event) => event.preventDefault());

/** @param {import("./calls.js").FromWorker} message */
const post = (message) => /** @type {MessagePort} */ (port).postMessage(message); // set before any request
/** @param {string} text */
const progress = (text) => post({ type: "progress", id: current, text });
/** @param {number} bytes */
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

self.addEventListener("message", ({ data, ports }) => {
  if (port || data?.type !== "connect" || !ports[0]) return;
  port = ports[0];
  port.onmessage = ({ data: request }) => (request?.type === "load" ? load(request)
    : request?.type === "call" ? run(request) : undefined);
});

/**
 * Start Python for Runs to come, running none: python.js keeps a worker so for an exercise.
 * @param {import("./calls.js").Load} request
 */
async function load({ runtimeURL, pythonURL, runtimeBytes, again, imports }) {
  try {
    ready ??= start(runtimeURL, pythonURL, runtimeBytes, again, imports);
    await ready;
    post({ type: "loaded" });
  } catch {
    // The Run that uses this worker meets the same failure and says it.
  }
}

/**
 * Say how much of Python has arrived: the files the browser has finished receiving
 * (Resource Timing: their sizes as received, after any decompression), of the runtime's
 * total the page knows from the build (data-runtime-bytes). Returns a function that stops.
 * @param {string} runtimeURL
 * @param {number} total
 * @param {boolean | undefined} again
 */
function watchDownloads(runtimeURL, total, again) {
  if (!total || typeof PerformanceObserver === "undefined") return () => {};
  let loaded = 0;
  let downloaded = false; // a file's body came over the network, not from the browser's cache
  const count = (/** @type {PerformanceEntryList} */ entries) => {
    const before = loaded;
    for (const entry of /** @type {PerformanceResourceTiming[]} */ (entries)) {
      if (!entry.name.startsWith(runtimeURL)) continue;
      loaded += entry.decodedBodySize;
      // From the cache, transferSize is 0, or a 304's headers only: less than the body
      if (entry.transferSize >= entry.encodedBodySize && entry.encodedBodySize > 0) downloaded = true;
    }
    if (loaded === before) return;
    // Each page opened by its address (a link from outside, a new tab, a reload) loads Python again:
    // "Downloading Python (first Run only)" said so on every one (issue 44, item 12).
    progress(loaded < total
      ? `${again ? "Loading Python again" : downloaded ? "Downloading Python" : "Loading Python from your " +
        "browser's cache"}: ${megabytes(loaded)} of ${megabytes(total)} MB`
      : "Starting Python (compiling the interpreter takes a few seconds)…");
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ type: "resource", buffered: true });
  return () => {
    count(observer.takeRecords()); // entries not yet delivered: counted before the next line
    observer.disconnect();
  };
}

// again: not the page's first Python (python.js: an exercise's, or one after a Stop), which loads and
// compiles again; "first Run only" and "once" were said of it too (a third read-only audit). Nor is
// the page's first Python the visit's first: a page opened by its address loads one of its own.
/**
 * @param {string} runtimeURL
 * @param {string} pythonURL
 * @param {number} runtimeBytes
 * @param {boolean | undefined} again
 * @param {string[]} [imports] a Run's first imports, done before Python is said to be up: the
 *   page asked for Python before any Run (python.js: warmUp)
 * @returns {Promise<CallJson>}
 */
async function start(runtimeURL, pythonURL, runtimeBytes, again, imports = []) {
  progress(again ? "Loading Python again…"
    : `Loading Python (${megabytes(runtimeBytes || 13.4e6)} MB, less when compressed)…`);
  const stop = watchDownloads(runtimeURL, runtimeBytes, again);
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", runtimeURL).href);
    const py = await loadPyodide({
      indexURL: runtimeURL,
      packages: [],
      stdout: () => {}, // the runner captures print() itself, per Run
      stderr: () => {},
    });
    py.setStdin({ error: true }); // no prompt() in a worker; the runners explain input()
    stop();
    progress("Loading micrograd…");
    const response = await fetch(pythonURL);
    if (!response.ok) throw new Error(`${pythonURL}: HTTP ${response.status}`);
    py.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", { extractDir: "/home/pyodide" });
    py.pyimport("sys").path.insert(0, "/home/pyodide");
    const call = py.pyimport("scripts.reader.calls").call_json;
    confine(self); // from here on, only this site: before any of the reader's code runs
    for (const name of imports) py.pyimport(name);
    post({ type: "loaded" });
    return call;
  } finally {
    stop();
  }
}

const onBlock = (/** @type {number} */ index) => { block = index; };

/**
 * What a thrown value says of itself. Anything can be thrown, null and undefined too: reading
 * `.message` of those threw again inside the catch, and the Run was never answered.
 * @param {unknown} error
 * @returns {{message?: unknown, type?: unknown}}
 */
const said = (error) => (error !== null && typeof error === "object" ? error : {});

/**
 * Answer one call: the function's value, or why Python could not give it.
 * @param {import("./calls.js").Call} data
 */
async function run(data) {
  const { id } = data;
  current = id;
  block = null;
  const t0 = performance.now();
  let python;
  try {
    ready ??= start(data.runtimeURL, data.pythonURL, data.runtimeBytes, data.again);
    python = await ready;
  } catch (error) {
    post({ type: "error", id, fatal: true, message: `Python could not start: ${said(error).message ?? error}` });
    return;
  }
  const t1 = performance.now();
  post({ type: "started", id, startMs: t1 - t0 });
  armed = new Set();
  try {
    const answer = JSON.parse(python(data.fn, data.args, onBlock));
    if (answer.ok) post({ type: "result", id, value: answer.value, runMs: performance.now() - t1 });
    // An error raised while the function ran, which its runners did not catch (the reader's
    // engine failing after its check passed): the Run's, not the page's request.
    else if (answer.raised) post({ type: "error", id, fatal: false, block, message: `This Run stopped on an error: ${answer.error}` });
    // A request Python refused: the page's mistake, unless the reader's code ran in this Python
    // before and changed it (python.js knows which, and says so).
    else post({ type: "error", id, fatal: false, refused: true, message: answer.error });
  } catch (error) {
    // call_json reports everything the reader's code does; reaching here means Python itself
    // failed (for example a fatal error after a stack overflow): this worker must go. The
    // message may hold the reader's text: what goes on is cut (python.js says so).
    const { message, type } = said(error);
    const text = String(message ?? error).trim();
    const lines = (text.length > 4 * MAX_TEXT ? text.slice(0, MAX_TEXT) + text.slice(-MAX_TEXT) : text).split("\n");
    const reason = (type ? lines[lines.length - 1] : lines[0]).slice(0, MAX_TEXT + 1) ||
      String(type ?? "an unknown error");
    const hint = /call stack/i.test(reason)
      ? " (freeing a computation graph more than about 1,500 operations deep takes more stack " +
        "than the browser gives Python)"
      : "";
    // python.js says what comes next: an exercise's Run has the next Python loading at once
    post({ type: "error", id, fatal: true, stopped: true, block, message: `Python stopped: ${reason.replace(/\.$/, "")}${hint}.` });
  } finally {
    for (const timer of armed) clearTimeout(timer); // clearTimeout clears an interval too
    armed = null;
  }
}

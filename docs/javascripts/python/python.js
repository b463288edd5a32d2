// Runs the reader's Python in a Web Worker (python-worker.js), one Run at a time:
// an exercise's tests (exercise.js) or a chapter's blocks (run-blocks.js).
//
// A worker, and with it Pyodide, starts on the first Run, never before. Chapter blocks,
// the steppers and the playground share one. It lives as long as this module: across
// Material's instant navigation (mkdocs.yml: navigation.instant), so the next chapter's
// first Run finds Python up. An exercise is graded where none of the reader's earlier code
// ran: in a worker that has run nothing (a chapter block could otherwise replace the
// grader, and did). Once graded, that worker becomes the shared one, and a fresh one starts
// loading for the next exercise, so it finds Python up too. The other way round, the page's own
// code (a block unedited, a stepper, the playground, on micrograd) never runs in a worker where
// the reader's code ran: what that code changed there (micrograd's Value, a callback left
// queued) stays, so such a Run takes a fresh worker (readerParts, TAINTED), and says so; so does
// a call on the reader's engine alone (its check, a stepper), where other code of theirs ran.
//
// The workers themselves (started, kept as shared or spare, ended) are pool.js's; this module
// decides which one a Run takes, and says what happened.
//
// Code that runs longer than the time limit, or that the reader stops (options.signal, an
// AbortSignal, or the Stop button options.stopIn gets), or that still runs for a page the
// reader has left when the next page asks for a Run, is stopped the only way a static site
// can stop it: worker.terminate() (Pyodide's interrupt buffer needs cross-origin isolation
// headers a static host may not send). The next Run starts a fresh worker. The limit
// counts from the moment a Run is handed to a worker whose Python is up, so it counts
// any time that worker makes the Run wait; a worker that does not even say the Run has
// started within HELD_MS is busy with what an earlier Run's code left behind (a promise's
// callback that loops): it is ended, and the Run starts again in a fresh one, and says so.
//
// What the page shows comes over a MessageChannel made with the worker: its port
// goes to the worker in the first message, before any Python exists, and is kept
// where the reader's code cannot reach it (python-worker.js). Messages the worker
// posts to the page itself, which the reader's code can (`js.postMessage`), are
// never read.

import { element, onEveryPage } from "../shared/dom.js";
import { readerText } from "../shared/reader-text.js";
import { afterExercise, end as endWorker, forExercise, forPage, sharedWorker, up, warm } from "./pool.js";

export { readerText }; // the browser tests clip a text as a Run does (tests/python/test_box_runs.py)

/**
 * A call's options (call() says what each does); runtimeURL, pythonURL and runtimeBytes: a
 * runtime other than the page's (calls.js: Runtime); restarted: why runOnce started Python again.
 * @typedef {{timeoutMs: number, onProgress?: (text: string) => void, signal?: AbortSignal,
 *   stopIn?: Element, afterStop?: HTMLElement | null, runningText?: string, fresh?: boolean,
 *   runtimeURL?: string, pythonURL?: string, runtimeBytes?: number, restarted?: string}} CallOptions
 * @typedef {{type: "call", fn: import("./calls.js").CallName, args: string}} Request  a call, as
 *   the worker gets it but its id and runtime (calls.js: Call)
 * @typedef {CallOptions & {runningText: string}} RunOptions  as call() hands them on
 * @typedef {import("./calls.js").Answer<any>} Answer  what a Run resolves to, whichever function it called
 */

let nextId = 1;
// How long a worker whose Python is up may take to say a Run has started (it answers in
// about a millisecond) before it counts as held by an earlier Run's leftovers.
const HELD_MS = 3000;
/** @type {Promise<unknown>} the last Run asked for: the next one waits for it */
let queue = Promise.resolve();
// Runs queued or running, each with the page it was started on. A Run of a page the reader
// has left shows its output nowhere: the next page's Run stops it rather than wait for it
// (up to a Run's time limit, 20 s). Only then: a Run that ends before the next one is asked
// for keeps Python up.
const runs = new Set(); // {page, controller}
let page = 0; // counts the pages shown (instant navigation brings a new one without a reload)
// Counted as Material shows each page, not later (onEveryPage waits a task): counted later, a call
// made as this module loaded (the switch's check of a kept engine) belonged to "page 0", and the
// reader's first Run stopped it as a Run of a page left, and the switch said "Stopped" (issue 44,
// item 13).
const shownPages = /** @type {any} */ (window).document$; // Material's, untyped
if (shownPages?.subscribe) shownPages.subscribe(() => { page += 1; });
else onEveryPage(() => { page += 1; });

/**
 * Call a function of the reader's Python (scripts/reader/calls.py) with JSON arguments: the one door
 * from the page into Python. Run on chapter blocks, the exercises, the steppers and the
 * playground all come through here.
 *
 * options: { timeoutMs, onProgress(text), signal, stopIn, afterStop, runningText, fresh }, and
 *   where the runtime is (pageRuntime(): the page's own, unless runtimeURL, pythonURL,
 *   runtimeBytes are given). signal: an AbortSignal that stops the Run. stopIn: an element
 *   that holds a Stop button (class bv-stop) while the Run waits or runs; afterStop: the
 *   element that gets the focus when Stop had it and goes. fresh: run in a worker that has
 *   run none of the reader's code (an exercise's grading).
 * Resolves (never rejects) to an Answer (calls.js): the function's value is its `report`.
 *   { kind: "timeout" }: the worker was terminated at the time limit; { kind: "stopped" }:
 *   options.signal was aborted (the worker was terminated, or, still queued, the Run never
 *   started); { kind: "error" }: Python could not start or stopped (the worker was
 *   terminated), or the page asked for what scripts/reader/calls.py does not do.
 *
 * @template {import("./calls.js").CallName} F
 * @param {F} fn
 * @param {import("./calls.js").CallArgs[F]} args
 * @param {CallOptions} options
 * @returns {Promise<import("./calls.js").Answer<import("./calls.js").CallResults[F]>>}
 */
export function call(fn, args, options) {
  return enqueue({ type: "call", fn, args: JSON.stringify(args) }, { runningText: "Running…", ...options });
}

/**
 * The reader's code against one exercise's tests, in a worker that has run nothing else:
 * call("run_exercise"), whose report is {results, output, note, engine}. engine: the reader's engine
 * source, for an exercise their engine can run (scripts/reader/exercise_runner.py: not_on_engine).
 * @param {{exercise: string, code: string, engine?: string | null} & CallOptions} options
 */
export function runExercise({ exercise, code, engine = null, ...options }) {
  return call("run_exercise", engine ? { exercise, code, engine } : { exercise, code },
    { ...options, runningText: "Running the tests…", fresh: true });
}

/**
 * A chapter's blocks 0 to `upto` in one fresh namespace, as pytest runs them
 * (scripts/reader/run_blocks.py): call("run_blocks"), whose report is {results, seconds, python,
 * bits}; an error also names `block`, the index of the block that was running when Python
 * stopped. blocks: the page's blocks.json text; edits: {index: text}.
 * @param {{blocks: string, upto: number, edits?: Object<string, string>} & CallOptions} options
 */
export function runBlocks({ blocks, upto, edits, ...options }) {
  return call("run_blocks", { blocks: JSON.parse(blocks).blocks, upto, edits: edits ?? {} }, options);
}

/**
 * Start the page's Python now, before any Run (pool.js: warm says when and why), and import
 * `imports` once it is up: what the page's first Run will import.
 * @param {string[]} imports
 */
export function warmUp(imports) {
  warm(pageRuntime(), imports);
}

/**
 * Where this page's Python is, from the `.bv-python` element the build puts on every page
 * (scripts/build/hooks/python_runtime.py): { runtimeURL: the Pyodide directory, pythonURL: the
 * site's Python zip, runtimeBytes: the runtime's size }, as absolute URLs.
 */
export function pageRuntime() {
  const marker = /** @type {HTMLElement | null} */ (document.querySelector(".bv-python"));
  const { runtime, python: zip, runtimeBytes } = marker?.dataset ?? {};
  if (!runtime || !zip) throw new Error("this page names no Python runtime (.bv-python)");
  return { runtimeURL: new URL(runtime, location.href).href, pythonURL: new URL(zip, location.href).href,
    runtimeBytes: Number(runtimeBytes) || 0 };
}

/**
 * @param {Request} request
 * @param {RunOptions} asked
 * @returns {Promise<Answer>}
 */
function enqueue(request, asked) {
  let options = asked.runtimeURL ? /** @type {RunOptions & import("./calls.js").Runtime} */ (asked)
    : { ...pageRuntime(), ...asked };
  for (const earlier of runs) if (earlier.page !== page) earlier.controller.abort();
  if ([...runs].some((earlier) => earlier.page === page)) {
    options.onProgress?.("Waiting for the Run before this one to finish…");
  }
  const mine = { page, controller: new AbortController(), started: false };
  runs.add(mine);
  const { signal } = mine.controller; // the reader's Stop (options.signal) or the next page's Run
  if (options.signal?.aborted) mine.controller.abort();
  options.signal?.addEventListener("abort", () => mine.controller.abort(), { once: true });
  options = { ...options, signal };
  const stop = options.stopIn ? stopButton(options.stopIn, mine.controller, options.afterStop) : null;
  if (stop) signal.addEventListener("abort", stop, { once: true });
  const run = queue.then(() => { mine.started = true; return runOnce(request, options); }).finally(() => {
    runs.delete(mine);
    stop?.();
  });
  queue = run;
  // Stopped while it waits behind another Run: it answers at once (and never starts, so no
  // Python of its was shut down); stopped while it runs, its worker is ended (runOnce).
  // (A Run that started answers for itself, runOnce: Python shut down, or still loading.)
  /** @type {Promise<Answer>} */
  const stoppedEarly = new Promise((resolve) => {
    signal.addEventListener("abort", () => { if (!mine.started) resolve(STOPPED_WAITING); }, { once: true });
  });
  return Promise.race([run, stoppedEarly]);
}

/**
 * A Stop button in `host` that aborts `controller`; returns a function that removes it (and,
 * if it had the focus, gives the focus to `after`).
 * @param {Element} host
 * @param {AbortController} controller
 * @param {HTMLElement | null | undefined} after
 */
function stopButton(host, controller, after) {
  const button = element("button", { type: "button", class: "md-button bv-stop", text: "Stop" });
  button.addEventListener("click", () => controller.abort(), { once: true });
  host.append(button);
  return () => {
    if (!button.isConnected) return;
    const focused = document.activeElement === button;
    button.remove();
    if (focused) after?.focus();
  };
}

/**
 * What follows a Python shut down: an exercise's Run ends by starting the next exercise's Python at
 * once (afterExercise), so its messages say that one is loading; "the next Run starts it again" was
 * said there too (a third read-only audit), and the next Run said it had been "loading since before".
 * @param {boolean | undefined} fresh
 */
function next(fresh, capital = false) {
  const said = fresh ? "a fresh Python is already loading for the next Run." : "the next Run starts it again.";
  return capital ? said[0].toUpperCase() + said.slice(1) : said;
}

/**
 * A Run stopped at its time limit: it ran too long, whether it loops or sleeps.
 * @param {number} seconds
 * @param {boolean | undefined} fresh
 * @returns {import("./calls.js").TimedOut}
 */
function stopped(seconds, fresh) {
  return { kind: "timeout", seconds, message: `Stopped after ${seconds} s: the code ran longer than a Run ` +
    `may (an endless loop, a long loop, or a time.sleep()?). Python was shut down; ${next(fresh)}` };
}

/**
 * What of the reader's code a call runs (calls.js's Request), as the keys a worker keeps in its
 * `ran`: "exercise", "edits", "engine:<its source>". What that code leaves in its Python
 * (micrograd's Value changed, a callback still queued) stays there. So a call that brings no
 * edit (the page's own code, or the reader's engine and nothing else: its check, a stepper, the
 * playground, an unedited Run on it) never runs where other code of the reader's ran: a Run of
 * the page's blocks blamed the Python version for what an earlier edit had changed, and an
 * earlier edit made a correct engine fail its check, for good (two hostile audits). A Run with
 * edits keeps its Python, as a session would, and says what ran there before.
 * @param {Request} request
 * @returns {string[]}
 */
function readerParts({ fn, args }) {
  if (fn === "run_exercise") return ["exercise"];
  const parsed = JSON.parse(args);
  const engine = parsed.engine ?? parsed.source; // check_engine's source is an engine too
  return [...(Object.keys(parsed.edits ?? {}).length ? ["edits"] : []),
    ...(typeof engine === "string" ? [`engine:${engine}`] : [])];
}

/** Why a Run with no edit starts a fresh Python (run-output.js shows it first). */
// "Given", not "ran": an edit that does not compile was given and ran nothing (a re-audit).
const TAINTED = "Python started afresh: the one before had been given code of yours (an edit, an exercise " +
  "or another engine), and what that code changed there could change this Run.";

/**
 * A time in ms as a Run's messages say it: "0.05 s", "2.6 s" (two decimals below a second). Here,
 * with the times it measures, not in shared/dom.js, which every widget page loads (its script budget,
 * tests/widgets/test_widgets.py); run-output.js, loaded after python.js, reads it from here.
 * @param {number} ms
 */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;
}

/** What a Run that waited for Python says of it: "Python started in 2.6 s", or, for one that was
 * already loading (the spare), when it was ready: it had started before the Run.
 * @param {number} ms
 * @param {boolean} loadingBefore
 */
function startedText(ms, loadingBefore) {
  return loadingBefore ? `Python, loading since before this Run, was ready in ${seconds(ms)}`
    : `Python started in ${seconds(ms)}`;
}

/**
 * How to get a Python where none of the reader's earlier code ran: Reset throws the edits away, a
 * reload keeps them (a reader's audit: the advice alone would have thrown away the edit that
 * explained the result). run-output.js says it under a result; LEFTOVER under an error.
 */
export const FRESH = "For a fresh Python, reload the page (this tab keeps your edits, where the browser lets " +
  "it store them), or Reset your edits and Run again.";
const LEFTOVER = "An earlier Run gave this same Python code of yours, and Python keeps whatever it left (a " +
  `function it replaced, a callback still queued): that can cause this error. ${FRESH}`;

/** Why a Run started Python again: the worker it was handed to did not answer. */
const BUSY = `Python did not answer within ${HELD_MS / 1000} s: code an earlier Run left running ` +
  "(a callback that never ends) kept it busy.";
const HELD = `${BUSY} It was shut down and started again.`;

/**
 * A Run the reader stopped (its signal aborted).
 * @param {boolean | undefined} fresh
 * @returns {import("./calls.js").Stopped}
 */
const stoppedByReader = (fresh) => ({ kind: "stopped", message: `Stopped. Python was shut down; ${next(fresh)}` });
/** @type {import("./calls.js").Stopped} */
const STOPPED_WAITING = { kind: "stopped", message: "Stopped before it started: nothing of it ran." };
/**
 * Stopped while Python was still loading: nothing was running, so nothing was shut down but the load.
 * @param {boolean | undefined} fresh
 * @returns {import("./calls.js").Stopped}
 */
const stoppedLoading = (fresh) => ({ kind: "stopped", message: "Stopped while Python was still loading: nothing " +
  `of it ran. ${fresh ? next(fresh, true) : "The next Run starts loading it again."}` });

/**
 * @param {Request} request
 * @param {RunOptions & import("./calls.js").Runtime} options
 * @returns {Promise<Answer>}
 */
function runOnce(request, options) {
  const { runtimeURL, pythonURL, runtimeBytes, timeoutMs, onProgress, runningText, signal, fresh, restarted } = options;
  const asked = performance.now();
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(STOPPED_WAITING);
      return;
    }
    let current;
    /** @type {string | null} why this Run starts a fresh Python, if it does */
    let afresh = null;
    const parts = readerParts(request); // read once: run_blocks' arguments hold every block's code
    // Code of the reader's in a worker other than this call's engine (earlier edits, which may
    // not be this Run's, an exercise, another engine): what it left there can change this call.
    const engine = parts.find((key) => key.startsWith("engine:"));
    /** @param {import("./pool.js").PythonWorker | null} one */
    const leftover = (one) => [...(one?.ran ?? [])].some((key) => key !== engine);
    if (fresh) current = forExercise(); // an exercise: a worker that has run nothing of the reader's
    else {
      // No edit: a Python with none of the reader's other code (pool.js: the spare takes its place)
      if (leftover(sharedWorker()) && !parts.includes("edits")) afresh = TAINTED;
      current = forPage({ runtimeURL, pythonURL, runtimeBytes }, afresh !== null);
    }
    const { worker, port } = current;
    const coldStart = !current.loaded;
    // The reader's code of an earlier Run ran in this Python (a Run of theirs keeps it, as a Python
    // session would): what it left there can change this Run's results, which the page then says.
    const afterReaderCode = leftover(current);
    // A Python that was already loading (the spare, started after an exercise) is ready sooner than a
    // start takes: the page says it was ready then, not that it started in that time (a new reader's audit).
    const loadingBefore = coldStart && current.created < asked;
    const id = nextId++;
    /** @type {number | undefined} the time limit's */
    let timer;
    /** @type {number | undefined} HELD_MS's, while Python is up and the Run not yet started */
    let held;
    let startMs = 0;
    let started = false;

    // What this Run set up on its worker, taken down: whatever ends the Run, nothing of it fires after
    const release = () => {
      clearTimeout(timer);
      clearTimeout(held);
      port.onmessage = null;
      worker.removeEventListener("error", onError);
      signal?.removeEventListener("abort", onAbort);
    };
    /** @param {Answer} result */
    const finish = (result) => {
      release();
      for (const key of parts) current.ran.add(key);
      if (fresh) afterExercise(current, { runtimeURL, pythonURL, runtimeBytes });
      const why = restarted ?? afresh;
      const said = afterReaderCode && result.kind === "result" ? { ...result, afterReaderCode } : result;
      resolve(why ? { ...said, restarted: why } : said);
    };
    /** @param {Answer} result */
    const end = (result) => {
      endWorker(current);
      finish(result);
    };
    const limit = () => { timer = setTimeout(() => end(stopped(timeoutMs / 1000, fresh)), timeoutMs); };
    port.onmessage = (/** @type {MessageEvent<import("./calls.js").FromWorker>} */ { data }) => {
      if (data.type === "loaded") up(current); // for no Run: read by the next one
      if (data.type === "loaded" || data.id !== id) return;
      if (data.type === "progress") onProgress?.(data.text);
      else if (data.type === "started") {
        started = true;
        clearTimeout(held);
        startMs = data.startMs;
        onProgress?.(runningText);
        if (timer === undefined) limit();
      } else if (data.type === "result") {
        finish({ kind: "result", report: data.value, startMs, runMs: data.runMs, coldStart,
          ...(coldStart ? { started: startedText(startMs, loadingBefore) } : {}) });
      } else if (data.type === "error") {
        // A refused request is the page's mistake only where none of the reader's code had run: Python
        // checks a request before this Run's code (a re-audit's earlier edit removed run_blocks from
        // calls.FUNCTIONS, and the page was blamed).
        // An error this Run's code raised, where earlier code of the reader's ran: that code may be the
        // cause (a hostile audit: a patch an edit left made every later Run fail on the reader's engine).
        const said = data.refused ? (afterReaderCode
          ? `Python, where your own code had run, refused this Run's request: ${data.message}`
          : `The page asked Python for what it does not do: ${data.message}`)
          : afterReaderCode && !data.fatal ? `${data.message} ${LEFTOVER}`
            : data.stopped ? `${data.message} ${next(fresh, true)}` : data.message;
        /** @type {import("./calls.js").Failed} */
        const result = { kind: "error", message: readerText(said), block: data.block };
        if (data.fatal) end(result);
        else finish(result);
      }
    };
    // An error the worker did not catch: its script did not load (the worker keeps any error
    // of the reader's code, python-worker.js).
    /** @param {ErrorEvent} event */
    const onError = (event) => {
      event.preventDefault();
      const message = readerText(event.message || "the worker did not load");
      end({ kind: "error", message: started ? `Python stopped: ${message.replace(/\.$/, "")}. ${next(fresh, true)}`
        : `Python could not start: ${message}` });
    };
    worker.addEventListener("error", onError);
    const onAbort = () => end(current.loaded ? stoppedByReader(fresh) : stoppedLoading(fresh));
    signal?.addEventListener("abort", onAbort, { once: true });
    if (current.loaded) {
      // Python is up: the limit counts from now, waiting included; a worker that does not
      // answer at once is held by what an earlier Run left, and is replaced.
      limit();
      held = setTimeout(() => {
        endWorker(current);
        release();
        onProgress?.(`${BUSY} Starting it again…`);
        resolve(runOnce(request, { ...options, restarted: HELD }));
      }, HELD_MS);
    }
    port.postMessage({ ...request, id, runtimeURL, pythonURL, runtimeBytes, again: current.again });
  });
}

// Exercises on a page: an editor, Run, Reset, and the results of the hidden tests.
//
// scripts/pages/exercise_directive.py turns each `<!-- exercise: name -->` of a
// page into a <div class="exercise"> holding the title, the instructions, the
// starter code as a plain code block (readable without JavaScript), a hints
// fold and a solution fold; widgets.js loads this module where a page has one.
//
// What loads when:
//   exercise near   this file and exercise.css (a few KB; widgets.js binds it a screen ahead)
//   exercise near   editor.js (CodeMirror 6, bundled at build time; editor-loader.js)
//   the first Run   python.js, its worker and Pyodide with the site's Python zip
// so nothing heavy loads for a reader who only reads.
//
// A Run is stopped after 10 s, or after the exercise's data-timeout-ms, or by its Stop
// button (python.js terminates the worker; the next Run starts a fresh one).
//
// Kept work: the reader's code is saved in this browser (localStorage) under the
// exercise's name and a hash of its starter code (data-starter-hash, made by the build),
// so a changed exercise starts afresh instead of showing code written for the old one.
// Reset puts the starter back and offers Undo.
//
// Hints and the solution (issue 47): exercise-help.js.
//
// Progress (progress.js): a Run whose every test passed dispatches a "bv-check" event, with
// the code that ran (`code`): the whole-engine exercise's becomes the reader's engine
// (engine-switch.js), the code that passed and not any edit made since.
// The tests run in a Python where none of the reader's earlier code ran (python.js gives
// each exercise's Run a worker of its own), so no chapter block or earlier Run can change
// the verdict. The code of this Run runs in the same Python as its tests, so a pass is
// still the reader's own claim (their code could make the tests pass without solving the
// exercise); that is fine for a progress display in their own browser, and it is all it is
// used for.

import { element, loadStylesheet } from "../shared/dom.js";
import { MOD, loadEditor as editorLoader } from "../editor/editor-loader.js";
import { readText, writeText } from "../shared/store.js";

const here = import.meta.url;
const DEFAULT_TIMEOUT_MS = 10000;
const KEEP = "bv-exercise"; // localStorage: `${KEEP}:${name}:${starter hash}` -> the reader's code

const observer = "IntersectionObserver" in window
  ? new IntersectionObserver(onNear, { rootMargin: "400px 0px" })
  : null;

/** Give one exercise (`.exercise[data-exercise]`, scripts/pages/exercise_directive.py) its editor,
 * Run, Stop and Reset. widgets.js calls it for each exercise of each page shown. */
export function init(block) {
  loadStylesheet(new URL("../../stylesheets/exercise.css", here).href);
  const name = block.dataset.exercise;
  const heading = block.querySelector("h1, h2, h3, h4, h5, h6");
  const starterBox = block.querySelector(".exercise-starter");
  const starter = starterBox.querySelector("code").textContent.replace(/\n*$/, "\n");
  const title = heading ? heading.textContent.replace(/¶$/, "").trim() : name;
  const keysId = `exercise-${name}-keys`;

  block.setAttribute("role", "group");
  if (heading?.id) block.setAttribute("aria-labelledby", heading.id);

  const run = element("button", { type: "button", class: "md-button md-button--primary exercise-run",
    "aria-describedby": keysId, text: "Run" });
  const stop = element("button", { type: "button", class: "md-button exercise-stop", text: "Stop", hidden: "" });
  const reset = element("button", { type: "button", class: "md-button exercise-reset", text: "Reset" });
  const undo = element("button", { type: "button", class: "md-button exercise-undo", text: "Undo reset",
    hidden: "" });
  const keys = element("span", { class: "exercise-keys", id: keysId,
    text: `${MOD}+Enter runs. In the editor, Tab indents; Esc then Tab moves on.` });
  const status = element("p", { class: "exercise-status", role: "status" });
  const report = element("div", { class: "exercise-report", "aria-live": "polite" });
  const host = element("div", { class: "exercise-editor" });
  starterBox.after(host, element("div", { class: "exercise-controls" }, run, stop, reset, undo, keys), status, report);

  const key = `${KEEP}:${name}:${block.dataset.starterHash ?? ""}`;
  const state = { block, name, title, starter, starterBox, host, run, stop, reset, undo, status, report, key,
    editor: null, loading: null, running: false, controller: null, beforeReset: null, help: null };
  block.exerciseState = state; // the editor and the run state, for the browser tests
  // a failed load leaves the build's folds, and Run
  state.help = import("./exercise-help.js").then((help) => { help.setUp(state); return help; }, () => null);
  run.addEventListener("click", () => runTests(state));
  stop.addEventListener("click", () => state.controller?.abort());
  reset.addEventListener("click", () => resetCode(state));
  undo.addEventListener("click", () => undoReset(state));
  block.addEventListener("focusin", () => loadEditor(state), { once: true });
  if (observer) observer.observe(block);
  else loadEditor(state);
}

function onNear(entries) {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer.unobserve(entry.target);
    loadEditor(entry.target.exerciseState);
  }
}

/** Replace the static starter block with a CodeMirror editor; resolves to the editor (or null). */
function loadEditor(state) {
  state.loading ??= (async () => {
    try {
      const createEditor = await editorLoader();
      const kept = readText(state.key); // null where storage is off: the code then lives as long as the page
      state.editor = createEditor(state.host, kept ?? state.starter, {
        label: `Code for ${state.title}`,
        onRun: () => runTests(state),
        onChange: (code) => keep(state, code),
      });
      if (kept !== null) state.status.textContent = "Your code from your last visit is back. Reset brings back the starter.";
      state.starterBox.hidden = true;
      state.block.classList.add("has-editor");
    } catch (error) {
      state.status.textContent = `The editor could not load (${error.message}); the code above is the starter code.`;
    }
    return state.editor;
  })();
  return state.loading;
}

/** Save the reader's code for this exercise (and this starter); the starter itself is not kept. */
function keep(state, code) {
  writeText(state.key, code === state.starter || code === state.starter.replace(/\n$/, "") ? null : code);
}

function resetCode(state) {
  if (!state.editor) return;
  const code = state.editor.getCode();
  if (code === state.starter) {
    state.status.textContent = "This is already the starter code.";
    return;
  }
  state.beforeReset = code;
  state.editor.setCode(state.starter);
  state.undo.hidden = false;
  state.status.textContent = "The starter code is back. Undo reset brings your code back.";
}

function undoReset(state) {
  if (state.beforeReset === null) return;
  state.editor.setCode(state.beforeReset);
  state.beforeReset = null;
  state.undo.hidden = true;
  state.reset.focus(); // Undo reset has gone: the focus stays next to where it was
  state.status.textContent = "Your code is back.";
}

async function runTests(state) {
  if (state.running) return;
  state.running = true;
  state.run.setAttribute("aria-disabled", "true");
  state.block.classList.add("is-running");
  state.controller = new AbortController();
  state.stop.hidden = false;
  state.undo.hidden = true;
  state.beforeReset = null;
  state.status.textContent = "Starting…";
  try {
    const editor = await loadEditor(state);
    const code = editor ? editor.getCode() : state.starter;
    const { runExercise } = await import("../python/python.js");
    // "Run on: your engine": the reader's engine, where it applies (exercise_runner.not_on_engine)
    const { engine } = await import("../python/reader-engine.js");
    const result = await runExercise({
      exercise: state.name,
      code,
      engine: engine(),
      timeoutMs: Number(state.block.dataset.timeoutMs) || DEFAULT_TIMEOUT_MS,
      onProgress: (text) => { state.status.textContent = text; },
      signal: state.controller.signal,
    });
    show(state, result, code);
    const graded = result.kind === "result" || result.kind === "timeout";
    if (graded && code !== state.starter) (await state.help)?.countTry(state); // a try
  } catch (error) {
    show(state, { kind: "error", message: String(error.message ?? error) });
  } finally {
    state.running = false;
    state.run.removeAttribute("aria-disabled");
    state.block.classList.remove("is-running");
    const focused = document.activeElement === state.stop;
    state.stop.hidden = true;
    state.controller = null;
    if (focused) state.run.focus(); // Stop has gone: the focus goes back to Run, not to <body>
  }
}

function show(state, result, code = null) {
  const { report, status } = state;
  report.replaceChildren();
  const restarted = result.restarted ? `${result.restarted} ` : ""; // python.js: why Python started again
  if (result.kind === "timeout" || result.kind === "stopped") {
    status.textContent = restarted;
    report.append(element("p", { class: "exercise-summary exercise-fail", text: result.message }));
    return;
  }
  if (result.kind === "error") {
    status.textContent = restarted;
    report.append(element("p", { class: "exercise-summary exercise-fail", text: result.message }));
    return;
  }
  const { results, output, note } = result.report;
  // false when the reader's code ended in an error: its one result, "your code runs", is no test
  const testsRan = result.report.tests_ran !== false;
  const passed = results.filter((r) => r.passed).length;
  // python.js's seconds(), written here: this module loads before python.js, on the page's first sight of an exercise
  const seconds = (ms) => `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;
  // a syntax error: none of the reader's code ran (a third read-only audit: "ended in an error after 0.01 s")
  const on = result.report.engine === "yours" ? " on your engine" : "";
  const took = testsRan ? `the tests ran${on} in ${seconds(result.runMs)}`
    : result.report.code_ran === false ? "your code could not be read (a syntax error), so none of it ran"
      : `your code ended in an error after ${seconds(result.runMs)}, before the tests`;
  status.textContent = restarted + (result.started ? `${result.started}; ${took}.`
    : `${took[0].toUpperCase()}${took.slice(1)}.`);
  const all = testsRan && passed === results.length;
  if (all && results.length) {
    document.dispatchEvent(new CustomEvent("bv-check", { detail: { kind: "exercise", id: state.name, passed: true,
      code, version: state.block.dataset.version } })); // the reader's claim: see the top
  }
  report.append(element("p", { class: `exercise-summary ${all ? "exercise-pass" : "exercise-fail"}`,
    text: result.report.summary })); // exercise_runner.Report.summary: a notebook says the same
  if (note) report.append(element("p", { class: "exercise-note", text: note }));
  const list = element("ul", { class: "exercise-results" });
  for (const r of results) {
    const item = element("li", { class: r.passed ? "exercise-pass" : "exercise-fail" },
      element("span", { class: "exercise-verdict", text: r.passed ? "passed" : "failed" }),
      " ",
      element("span", { class: "exercise-test", text: r.name }));
    if (!r.passed) item.append(element("span", { class: "exercise-message", text: r.message }));
    list.append(item);
  }
  report.append(list);
  if (output) {
    report.append(element("p", { class: "exercise-output-title", text: "Your code printed:" }),
      element("pre", { class: "exercise-output" }, element("code", { text: output.replace(/\n$/, "") })));
  }
}


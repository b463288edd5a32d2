// The reader's engine, for every page: which engine runs (micrograd or theirs), their engine's
// code, and its check in Python (scripts/reader/calls.py: check_engine). engine-switch.js shows
// it on every page; the widgets and Run read it here (engine()). What is kept goes through
// shared/store.js; what only this visit knows (a verdict the browser would not store, a check
// under way) lives in this module, which every page shares across instant navigation.
//
// The reader's engine is the code with which they passed their whole-engine exercise (its
// "bv-check" event carries the code that ran, kept under PASSED; progress.js records the
// pass in "bv-progress"), or a file they pasted or chose on the "Your engine" page
// (docs/your-engine.md, kept under SOURCE). Which one runs is kept in localStorage
// (STORE), so the choice holds on every page, after a reload and in other tabs.
//
// The code that passed, not the exercise's code as it stands: exercise.js keeps every edit as it
// is typed ("bv-exercise:whole_engine:<starter hash>"), and an edit is not checked, so taking it
// made the switch say "your engine" while every Run fell back to micrograd (its check was for
// the code before the edit). An edit becomes the engine when it passes the exercise again.
//
// When the reader switches to their engine, scripts/reader/calls.py's check_engine reads it (in the
// page's one Python, python.js) and says whether it is a Value the book can run, in this
// book's shape or the lecture's; the verdict is kept with the code it is for (the whole text: a
// 32-bit hash let a hostile reader's second text, made to collide, reuse the first one's "passed"),
// so another page does not ask again. With the switch on and the check passed, engine() gives
// the code, and every caller that runs the reader's code passes it as `engine` (run-blocks.js,
// stepper-retrace.js, playground.js): Python installs it as micrograd.engine.Value for that
// Run, and each result says which engine ran it (ranOn()).

import { done } from "../shared/done.js";
import { visible } from "../shared/reader-text.js";
import { read, readText, keys, write as keep } from "../shared/store.js";

/**
 * The reader's engine: its code, where it comes from, and its name as every page shows it.
 * @typedef {{text: string, from: "file" | "exercise", name: string}} ReaderEngine
 * @typedef {import("../shared/kept.js").EngineCheck} EngineCheck  a check's verdict, kept with its text
 * @typedef {EngineCheck | {ok: false, message: string, stopped?: boolean}} Verdict  or Python could not check it
 */

// localStorage (shared/kept.js): {use: "yours" | "micrograd", check: {text, ok, shape, message}}
export const STORE = "bv-engine";
export const SOURCE = "bv-engine-source"; // localStorage: {name, text}: a file the reader gave
export const PASSED = "bv-engine-passed"; // localStorage: {text}: the code that last passed the whole-engine exercise
const EXERCISE = "bv-exercise:whole_engine:"; // exercise.js's key for the whole engine's code, + starter hash
const CHAPTER = "04-engine/"; // where progress.js records the whole engine's pass
const CHECK_TIMEOUT_MS = 20000;

// What this browser would not store (storage full or off) store.js holds for as long as it lives
// (across instant navigation): the choice, the code that passed and a verdict hold for the visit
// (a third read-only audit: with storage refused, the switch said "You have no engine yet" right
// after the whole-engine exercise passed).
/**
 * @template {typeof STORE | typeof SOURCE | typeof PASSED} K
 * @param {K} key
 * @param {import("../shared/kept.js").Kept[K] | null} value
 */
const write = (key, value) => keep(key, value, { hold: true });

/**
 * The code that passed the whole-engine exercise, if the reader passed it (and did not clear
 * chapter 4's progress since): {text, from: "exercise", name} or null.
 * @returns {ReaderEngine | null}
 */
export function exerciseEngine() {
  const passed = done(CHAPTER).exercise ?? []; // as progress.js counts it, kept or not
  if (!passed.includes("whole_engine")) return null;
  const text = read(PASSED)?.text ?? keptBefore();
  return text ? { text, from: "exercise", name: "the code that passed your whole-engine exercise (chapter 4)" }
    : null;
}

/**
 * A pass recorded before the code that passed was kept (PASSED): the exercise's code as kept
 * now, which is what the switch ran on then. It is kept as PASSED from now on, so a later edit
 * does not change the engine either.
 */
function keptBefore() {
  const shown = /** @type {HTMLElement | null} */ (document.querySelector('.exercise[data-exercise="whole_engine"]'));
  const kept = keys(EXERCISE); // [] where storage is off, or not ours to read
  // This page's exercise, if it shows it; else the code kept under the last starter of it.
  const key = kept.find((k) => k === `${EXERCISE}${shown?.dataset.starterHash ?? ""}`) ?? kept[kept.length - 1];
  const text = key ? readText(key) : null;
  if (text) write(PASSED, { text });
  return text;
}

/**
 * The reader's engine: a file they gave, else their passed exercise; {text, from, name} or null.
 * name: as every page shows it (shownName), never the file's name as given.
 * @returns {ReaderEngine | null}
 */
export function readerEngine() {
  const file = read(SOURCE);
  if (file?.text) return { text: file.text, from: "file", name: file.name ? shownName(file.name) : "the code you pasted" };
  return exerciseEngine();
}

// A chosen file's name is the reader's text on every page's switch, as an engine's message is:
// a name holding U+202E reversed the page's words after it, and a 2,000-character one made the
// switch 600 px tall (a hostile audit). Its invisible controls are shown as reader_code.visible
// shows them (<U+202E>, reader-text.js), and it is cut at NAME characters (a file system allows
// about 255 bytes).
const NAME = 100;

/**
 * A file's name as the page shows it: its first NAME characters, controls made visible.
 * @param {string} name
 */
function shownName(name) {
  const all = String(name);
  let kept = all;
  if (all.length > NAME) {
    const end = /[\ud800-\udbff]/.test(all[NAME - 1]) ? NAME - 1 : NAME; // not half a character
    kept = `${all.slice(0, end)}… (a name of ${all.length.toLocaleString("en")} characters, cut here)`;
  }
  return visible(kept);
}

/**
 * True when the reader has an engine of their own kept (a file, or code that passed the
 * whole-engine exercise) or chose theirs: then the switch stands under each page's title.
 * scripts/overrides/main.html's head script asks the same of the storage before the first paint.
 */
export function hasEngine() {
  return Boolean(read(SOURCE)?.text || read(PASSED)?.text || chosen());
}

/** True when the reader chose their engine (whether or not it exists and passed its check). */
export function chosen() {
  return read(STORE)?.use === "yours";
}

// The last check made while this module lives (across instant navigation), kept here too: where
// storage refuses it (full, or off), the verdict still holds for this visit, and the switch does
// not say "Checking…" for a check that has ended (a hostile audit filled the storage).
/** @type {EngineCheck | null} */
let checkedHere = null;

/**
 * The kept check of `text`, {ok, shape, message}, or null if it was never checked.
 * @param {string} text
 * @returns {EngineCheck | null}
 */
export function keptCheck(text) {
  const check = read(STORE)?.check;
  if (check && check.text === text) return check;
  return checkedHere?.text === text ? checkedHere : null;
}

/**
 * The engine source to pass as `engine`, or null for micrograd: the reader's engine when the
 * switch is on it and its check passed.
 */
export function engine() {
  if (!chosen()) return null;
  const mine = readerEngine();
  return mine && keptCheck(mine.text)?.ok ? mine.text : null;
}

/**
 * "Ran on your engine." or "Ran on micrograd.": what a result says about who ran it.
 * @param {string | null} source
 */
export function ranOn(source) {
  return source ? "Ran on your engine." : "Ran on micrograd.";
}

/**
 * Choose the engine; tells the page (event "bv-engine").
 * @param {"yours" | "micrograd"} use
 */
export function choose(use) {
  write(STORE, { ...(read(STORE) ?? {}), use });
  changed();
}

/**
 * Keep a file's code as the reader's engine (null forgets it: the exercise's code counts again).
 * @param {string} name
 * @param {string | null} text
 */
export function keepFile(name, text) {
  write(SOURCE, text === null ? null : { name, text });
  changed();
}

/** Tell the page's widgets and the switch that the choice or the engine changed (event "bv-engine"). */
export function changed() {
  document.dispatchEvent(new CustomEvent("bv-engine"));
}

/** @type {{text: string, promise: Promise<Verdict>} | null} the check under way */
let checking = null;
/** @type {{text: string, message: string} | null} a check Python could not answer (not kept: asked again) */
let unanswered = null;

/**
 * Check the reader's engine with scripts/reader/calls.py's check_engine, unless its verdict is kept:
 * resolves to {ok, shape?, message?} (and keeps it), or {ok: false, message} if Python could
 * not answer (not kept: the next check asks again).
 * The check has Stop where `stop.stopIn` is given (python.js puts the button there): stopped, it
 * resolves to {ok: false, stopped: true, message}, and is asked again next time.
 * @param {ReaderEngine} mine
 * @param {(text: string) => void} [onProgress]
 * @param {{stopIn?: Element, afterStop?: HTMLElement}} [stop]
 * @returns {Promise<Verdict>}
 */
export function checkEngine(mine, onProgress, stop = {}) {
  const key = mine.text; // what the check is for: the code itself
  const kept = keptCheck(key);
  if (kept) return Promise.resolve(kept);
  if (checking?.text === key) return checking.promise;
  const promise = (async () => {
    const { call } = await import("./python.js");
    const answer = await call("check_engine", { source: mine.text }, { timeoutMs: CHECK_TIMEOUT_MS, onProgress,
      runningText: "Checking your engine…", ...stop });
    if (answer.kind === "stopped" && stop.stopIn) { // the reader's Stop (issue 44, item 13: it had none)
      unanswered = { text: key, message: "you stopped its check before it ended. Use this code checks it again." };
      return /** @type {Verdict} */ ({ ok: false, stopped: true, message: unanswered.message });
    }
    if (answer.kind !== "result") {
      unanswered = { text: key, message: `Python could not check it: ${answer.message}` };
      return /** @type {Verdict} */ ({ ok: false, message: unanswered.message });
    }
    unanswered = null;
    const report = answer.report;
    const check = { text: key, ok: report.ok, shape: report.ok === true ? report.shape : null,
      message: report.ok === false ? report.message : null };
    checkedHere = check;
    if (readerEngine()?.text === key) write(STORE, { ...(read(STORE) ?? {}), check });
    return check;
  })().finally(() => { if (checking?.text === key) checking = null; });
  checking = { text: key, promise };
  return promise;
}

// What the switch switches: an exercise's Run is not switched, it tests the code in it, beside
// micrograd (a new reader's audit: "Every Run on this site runs on your engine" said otherwise)
export const SWITCHED = "Chapter blocks, steppers and the playground";

/** @type {Object<string, string>} */
const SHAPES = { book: "this book's shape: _prev and _local", lecture: "the lecture's shape: a _backward per node" };

/** One line on the reader's engine as it stands: what runs, or why micrograd does. */
export function describe() {
  const mine = readerEngine();
  if (!chosen()) return `${SWITCHED} run on micrograd, the book's engine.`;
  if (!mine) {
    return "You have no engine yet, so every Run still runs on micrograd: pass chapter 4's whole-engine " +
      "exercise, or paste your engine on the Your engine page.";
  }
  const check = keptCheck(mine.text);
  if (!check && unanswered?.text === mine.text) return `Every Run still runs on micrograd: ${unanswered.message}`;
  if (!check) return `Checking ${mine.name}…`;
  if (!check.ok) return `Every Run still runs on micrograd: ${mine.name} did not pass its check: ${short(check.message)}`;
  return `${SWITCHED} run on your engine: ${mine.name}, in ${SHAPES[check.shape ?? ""] ?? check.shape}.`;
}

const SHORT = 300; // characters of a check's message the switch shows on every page

/**
 * A check's message as every page's switch says it: its start, where it is long.
 * @param {string | null} message
 */
function short(message) {
  const text = String(message ?? "");
  return text.length <= SHORT ? text : `${text.slice(0, SHORT)}… (cut here: the Your engine page shows all of it)`;
}

/**
 * Keep `text`, the code that passed the whole-engine exercise, as the reader's engine from now on.
 * @param {string} text
 */
export function keepPassed(text) {
  write(PASSED, { text });
}

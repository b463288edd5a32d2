// "Run on: micrograd | your engine", on every page (mkdocs.yml loads this module on each).
//
// The reader's engine is the code with which they passed their whole-engine exercise (its
// "bv-check" event carries the code that ran, kept here under PASSED; progress.js records the
// pass in "bv-progress"), or a file they pasted or chose on the "Your engine" page
// (docs/your-engine.md, kept here under SOURCE). Which one runs is kept in localStorage
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
//
// A "bv-engine" event on document tells the page's widgets the choice changed.

import { done } from "./progress.js";
import { element, loadStylesheet, onEveryPage } from "./shared/dom.js";
import { visible } from "./shared/reader-text.js";

const here = import.meta.url;
export const STORE = "bv-engine"; // localStorage: {use: "yours" | "micrograd", check: {text, ok, shape, message}}
export const SOURCE = "bv-engine-source"; // localStorage: {name, text}: a file the reader gave
const PASSED = "bv-engine-passed"; // localStorage: {text}: the code that last passed the whole-engine exercise
const EXERCISE = "bv-exercise:whole_engine:"; // exercise.js's key for the whole engine's code, + starter hash
const CHAPTER = "04-engine/"; // where progress.js records the whole engine's pass
const CHECK_TIMEOUT_MS = 20000;

// What this browser would not store (storage full or off), kept for as long as this module lives
// (across instant navigation): the choice, the code that passed and a verdict hold for the visit
// (a third read-only audit: with storage refused, the switch said "You have no engine yet" right
// after the whole-engine exercise passed).
const unstored = new Map();

function read(key) {
  if (unstored.has(key)) return unstored.get(key);
  try {
    return JSON.parse(localStorage.getItem(key)) ?? null;
  } catch {
    return null; // storage off, or not ours to read
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    unstored.delete(key);
  } catch {
    unstored.set(key, value); // storage full or off: kept here, for this visit
  }
}

/**
 * The code that passed the whole-engine exercise, if the reader passed it (and did not clear
 * chapter 4's progress since): {text, from: "exercise", name} or null.
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
  let text;
  try {
    const keys = Object.keys(localStorage).filter((k) => k.startsWith(EXERCISE)).sort();
    // This page's exercise, if it shows it; else the code kept under the last starter of it.
    const key = keys.find((k) => k === `${EXERCISE}${shown?.dataset.starterHash ?? ""}`) ?? keys[keys.length - 1];
    text = key ? localStorage.getItem(key) : null;
  } catch {
    return null; // storage off, or not ours to read
  }
  if (text) write(PASSED, { text });
  return text;
}

/**
 * The reader's engine: a file they gave, else their passed exercise; {text, from, name} or null.
 * name: as every page shows it (shownName), never the file's name as given.
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

/** A file's name (string) as the page shows it: its first NAME characters, controls made visible. */
function shownName(name) {
  const all = String(name);
  let kept = all;
  if (all.length > NAME) {
    const end = /[\ud800-\udbff]/.test(all[NAME - 1]) ? NAME - 1 : NAME; // not half a character
    kept = `${all.slice(0, end)}… (a name of ${all.length.toLocaleString("en")} characters, cut here)`;
  }
  return visible(kept);
}

/** True when the reader chose their engine (whether or not it exists and passed its check). */
export function chosen() {
  return read(STORE)?.use === "yours";
}

// The last check made while this module lives (across instant navigation), kept here too: where
// storage refuses it (full, or off), the verdict still holds for this visit, and the switch does
// not say "Checking…" for a check that has ended (a hostile audit filled the storage).
let checkedHere = null;

/** The kept check of `text`, {ok, shape, message}, or null if it was never checked. */
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

/** "Ran on your engine." or "Ran on micrograd.": what a result says about who ran it. */
export function ranOn(source) {
  return source ? "Ran on your engine." : "Ran on micrograd.";
}

/** Choose the engine: "yours" or "micrograd"; tells the page (event "bv-engine"). */
export function choose(use) {
  write(STORE, { ...(read(STORE) ?? {}), use });
  changed();
}

/** Keep a file's code as the reader's engine (null forgets it: the exercise's code counts again). */
export function keepFile(name, text) {
  write(SOURCE, text === null ? null : { name, text });
  changed();
}

function changed() {
  document.dispatchEvent(new CustomEvent("bv-engine"));
}

let checking = null; // {text, promise}: the check under way
let unanswered = null; // {text, message}: a check Python could not answer (not kept: asked again)

/**
 * Check the reader's engine with scripts/reader/calls.py's check_engine, unless its verdict is kept:
 * resolves to {ok, shape?, message?} (and keeps it), or {ok: false, message} if Python could
 * not answer (not kept: the next check asks again).
 */
export function checkEngine(mine, onProgress) {
  const key = mine.text; // what the check is for: the code itself
  const kept = keptCheck(key);
  if (kept) return Promise.resolve(kept);
  if (checking?.text === key) return checking.promise;
  const promise = (async () => {
    const { call } = await import("./python/python.js");
    const answer = await call("check_engine", { source: mine.text }, { timeoutMs: CHECK_TIMEOUT_MS, onProgress,
      runningText: "Checking your engine…" });
    if (answer.kind !== "result") {
      unanswered = { text: key, message: `Python could not check it: ${answer.message}` };
      return { ok: false, message: unanswered.message };
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
  return `${SWITCHED} run on your engine: ${mine.name}, in ${SHAPES[check.shape] ?? check.shape}.`;
}

const SHORT = 300; // characters of a check's message the switch shows on every page

/** A check's message as every page's switch says it: its start, where it is long. */
function short(message) {
  const text = String(message ?? "");
  return text.length <= SHORT ? text : `${text.slice(0, SHORT)}… (cut here: the Your engine page shows all of it)`;
}

let count = 0;

/** The switch: two radio buttons and a line that says what runs (role=status). */
function makeSwitch() {
  const name = `bv-engine-${(count += 1)}`;
  const radio = (value, text) => {
    const input = element("input", { type: "radio", name, value, class: "bv-engine__radio" });
    return [input, element("label", { class: "bv-engine__option" }, input, ` ${text}`)];
  };
  const [ours, oursLabel] = radio("micrograd", "micrograd");
  const [yours, yoursLabel] = radio("yours", "your engine");
  const status = element("p", { class: "bv-engine__status", role: "status" });
  const box = element("fieldset", { class: "bv-engine" },
    element("legend", { class: "bv-engine__legend", text: "Run on:" }), oursLabel, yoursLabel, status);
  const show = () => {
    ours.checked = !chosen();
    yours.checked = chosen();
    status.textContent = describe();
    box.classList.toggle("is-yours", engine() !== null);
  };
  const onChange = async () => {
    choose(yours.checked ? "yours" : "micrograd");
    const mine = readerEngine();
    if (yours.checked && mine && !keptCheck(mine.text)) {
      status.textContent = `Checking ${mine.name}…`;
      await checkEngine(mine, (text) => { status.textContent = `Checking ${mine.name}: ${text}`; });
      changed();
    }
  };
  ours.addEventListener("change", onChange);
  yours.addEventListener("change", onChange);
  show();
  return { box, show };
}

let current = null; // the switch on the page shown
document.addEventListener("bv-engine", () => current?.show());
window.addEventListener("storage", (event) => {
  if ([STORE, SOURCE, PASSED, "bv-progress", null].includes(event.key)) changed();
});

// A pass of the whole-engine exercise (exercise.js's "bv-check", with the code that ran) makes
// that code the reader's engine at once: nothing told the switch, which went on saying "You have
// no engine yet" until it was toggled or the page reloaded. The code is kept now; the switch is
// shown again, and the code checked if the switch is on it, in a microtask: after every listener
// of this event, progress.js's (which records the pass that exerciseEngine() reads) included,
// whatever order the modules loaded in.
document.addEventListener("bv-check", (/** @type {CustomEvent} */ { detail }) => {
  if (detail?.kind !== "exercise" || detail.id !== "whole_engine" || !detail.passed) return;
  if (typeof detail.code !== "string" || !detail.code) return;
  write(PASSED, { text: detail.code });
  queueMicrotask(() => {
    changed();
    const mine = readerEngine();
    if (chosen() && mine && !keptCheck(mine.text)) checkEngine(mine).then(changed);
  });
});

onEveryPage(async () => {
  const article = document.querySelector("article.md-content__inner") ?? document.querySelector("article");
  if (!article) return;
  await loadStylesheet(new URL("../stylesheets/engine.css", here).href);
  current = makeSwitch();
  const heading = article.querySelector("h1");
  const place = article.querySelector(".bv-tools__engine"); // kept for it (overrides/partials/content.html)
  if (place) place.replaceChildren(current.box);
  else if (heading) heading.after(current.box);
  else article.prepend(current.box);
  // A switch left on the reader's engine whose check is not kept (another tab changed it): check it.
  const mine = readerEngine();
  if (chosen() && mine && !keptCheck(mine.text)) checkEngine(mine).then(changed);
  if (document.querySelector(".bv-engine-map")) {
    const { init } = await import("./widgets/engine-map.js");
    for (const root of document.querySelectorAll(".bv-engine-map")) init(root);
  }
});

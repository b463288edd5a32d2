// The reader's progress: per chapter, the checks passed (quizzes answered right, exercises
// passed) out of the chapter's total, on the chapter's page (under its title) and beside
// each chapter in the navigation; "complete" once every check is passed.
//
// The totals come from the build (scripts/build/progress.py: progress.json, from the pages'
// runs), never from counting here. What the reader has done is kept in this browser only
// (localStorage, STORE): no account, no server, no request to another host. A check is
// recorded when a "bv-check" event says it passed:
//   document.dispatchEvent(new CustomEvent("bv-check", {detail: {kind, id, passed}}))
// kind "quiz" (quiz.js; id: the quiz's id, unique on its page) or "exercise"
// (exercise.js; id: the exercise's name). An exercise's pass is the reader's own claim:
// their code runs in the same Python as its tests (exercise.js says more). Good enough
// for a display of their own progress, which is all this is.
//
// Loaded on every page (mkdocs.yml), as a module: it runs after the page is parsed, and shows
// the page again after each of Material's instant navigations (dom.js: onEveryPage).

import { element, loadStylesheet, onEveryPage } from "./shared/dom.js";
import { load, pageOf, root, savedAnswer } from "./shared/done.js";
import { isHeld, write } from "./shared/store.js";

const here = import.meta.url;
const STORE = "bv-progress"; // localStorage: {page: {quiz, exercise, versions, answers}} (shared/kept.js)
let page = null; // the page shown, as progress.json names it
let totals = null; // {page: {quizzes: [ids], exercises: [names], versions: {name: version}}}, from progress.json
let display = null; // this page's display, if it has checks

document.addEventListener("bv-check", (/** @type {CustomEvent} */ { detail }) => {
  if (!["quiz", "exercise"].includes(detail?.kind) || !detail.id) return;
  const all = load();
  const mine = all[page] ?? { quiz: [], exercise: [] };
  if (detail.kind === "quiz" && detail.answer) { // the reader's answer and its mark, right or wrong
    (mine.answers ??= {})[String(detail.id)] = { value: String(detail.answer.value), state: detail.answer.state };
  }
  if (detail.kind === "exercise" && detail.passed) { // the version passed: only it counts (count())
    (mine.versions ??= {})[String(detail.id)] = String(detail.version ?? "");
  }
  const ids = (mine[detail.kind] ??= []);
  if (detail.passed && !ids.includes(String(detail.id))) ids.push(String(detail.id));
  // A quiz counts while its kept answer is right: answered right, then wrong, the quiz shows
  // "Not quite." (now and after a reload), so "answered right" would say what is no longer so.
  // An exercise passed stays passed: a later failing Run of changed code does not undo the pass.
  if (detail.kind === "quiz" && !detail.passed && ids.includes(String(detail.id))) {
    ids.splice(ids.indexOf(String(detail.id)), 1);
  }
  all[page] = mine;
  store(all);
  render();
});

const changed = () => {
  for (const box of document.querySelectorAll(".bv-quiz")) {
    /** @type {any} */ (box).bvShow?.(savedAnswer(box.id.replace(/-box$/, ""))); // quiz.js puts it there
  }
};
// Another tab of this site recorded or cleared a check.
window.addEventListener("storage", (event) => { if (event.key === STORE || event.key === null) render(); });

const loaded = loadTotals();
onEveryPage(async () => {
  page = pageOf(location.href);
  display = null;
  if (!(await loaded)) return;
  await loadStylesheet(new URL("../stylesheets/progress.css", here).href); // again: see dom.js
  if (totals[page]) display = makeDisplay();
  render();
});

/** Read progress.json once; false (and a console error) if it cannot be read. */
async function loadTotals() {
  try {
    const response = await fetch(new URL("progress.json", root));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    totals = (await response.json()).pages;
  } catch (error) {
    console.error(`Progress: progress.json could not be read (${error.message}); no progress is shown.`);
    return false;
  }
  return true;
}

/**
 * Keep what the reader did. Where this browser would not store it (storage off or full), store.js
 * holds it for as long as the page lives, and the box says so (a second read-only audit: the box
 * read back an empty storage, "0 of 9" right after "Right.", and said "Kept in this browser only.")
 */
function store(all) {
  write(STORE, all, { hold: true });
}

/** {done, total, quizzes: [done, total], exercises: [done, total]} of a page. */
function count(name, all) {
  const total = totals[name];
  const kept = all[name] ?? {};
  // Only checks the page has now: a quiz's id is a hash of it (scripts/pages/quizzes.py), and an
  // exercise's pass counts for the version passed (its starter and tests), so a quiz or an exercise
  // changed since no longer counts (a third read-only audit).
  const quizzes = total.quizzes.filter((q) => (kept.quiz ?? []).includes(q)).length;
  const exercises = total.exercises.filter((e) => (kept.exercise ?? []).includes(e)
    && kept.versions?.[e] === total.versions[e]).length;
  return { done: quizzes + exercises, total: total.quizzes.length + total.exercises.length,
    quizzes: [quizzes, total.quizzes.length], exercises: [exercises, total.exercises.length] };
}

function makeDisplay() {
  const article = document.querySelector("article.md-content__inner") ?? document.querySelector("article");
  if (!article) return null;
  const text = element("p", { class: "bv-progress__text", id: "bv-progress-text" });
  const bar = element("progress", { class: "bv-progress__bar", "aria-labelledby": "bv-progress-text" });
  const clear = element("button", { type: "button", class: "md-button bv-progress__clear",
    text: "Clear this chapter's progress" });
  const undo = element("button", { type: "button", class: "md-button bv-progress__undo",
    text: "Undo clear", hidden: "" });
  const status = element("span", { class: "bv-progress__status", role: "status" });
  const box = element("section", { class: "bv-progress", "aria-label": "Your progress in this chapter" },
    text, bar, element("div", { class: "bv-progress__actions" }, clear, undo, status));
  const heading = article.querySelector("h1");
  const place = article.querySelector(".bv-tools__progress"); // kept for it (overrides/partials/content.html)
  if (place) place.replaceChildren(box);
  else if (heading) heading.after(box);
  else article.prepend(box);
  const state = { box, text, bar, clear, undo, status, cleared: null };
  clear.addEventListener("click", () => {
    const all = load();
    state.cleared = all[page] ?? null;
    delete all[page];
    store(all);
    render();
    undo.hidden = false;
    undo.focus(); // Clear has gone (nothing left to clear): the focus moves to Undo
    status.textContent = "This chapter's progress is cleared, and its quiz answers.";
    changed();
    // The whole-engine exercise's pass may be gone: every page's switch reads it (engine-switch.js), and
    // went on saying "…run on your engine" over Runs on micrograd (a third read-only audit).
    document.dispatchEvent(new CustomEvent("bv-engine"));
  });
  undo.addEventListener("click", () => {
    const all = load();
    if (state.cleared) all[page] = state.cleared;
    store(all);
    state.cleared = null;
    undo.hidden = true;
    render();
    clear.focus();
    status.textContent = "Your progress is back.";
    changed();
    document.dispatchEvent(new CustomEvent("bv-engine")); // as after Clear
  });
  return state;
}

function render() {
  if (!totals) return;
  const all = load();
  if (display) showOnPage(count(page, all));
  for (const item of document.querySelectorAll(".md-nav--primary > .md-nav__list > .md-nav__item")) {
    const link = /** @type {HTMLAnchorElement | null} */ (item.querySelector(":scope > a.md-nav__link[href]"));
    const name = link && pageOf(link.href);
    if (name === null || !totals[name]) continue;
    const { done, total } = count(name, all);
    for (const target of item.querySelectorAll(":scope > .md-nav__link")) badge(target, done, total);
  }
}

function showOnPage({ done, total, quizzes, exercises }) {
  const { box, text, bar, clear, undo } = display;
  const parts = [];
  if (quizzes[1]) parts.push(`${quizzes[0]} of ${quizzes[1]} quizzes answered right`);
  if (exercises[1]) parts.push(`${exercises[0]} of ${exercises[1]} exercises passed`);
  const complete = done === total;
  // The count, then the detail: on a phone the box is one line, the count beside the bar, so the
  // chapter's text starts on the opening screen (progress.css; issue 44, item 14).
  text.replaceChildren(
    element("span", { class: "bv-progress__count", text: complete ? `Chapter complete: all ${total} checks passed`
      : `Your progress: ${done} of ${total} checks passed` }),
    element("span", { class: "bv-progress__detail", text: complete ? ` (${parts.join(", ")}).`
      : ` (${parts.join(", ")}). ` + (isHeld(STORE) ? "Not kept: this browser would not store it, so a reload " +
        "forgets it." : "Kept in this browser only.") }));
  box.classList.toggle("is-complete", complete);
  bar.max = total;
  bar.value = done;
  clear.hidden = done === 0;
  if (done > 0) undo.hidden = true;
}

/** The nav link's badge: "3/9", or "✓" once complete; read out as words. */
function badge(link, done, total) {
  let span = link.querySelector(".bv-progress-badge");
  if (!span) {
    span = element("span", { class: "bv-progress-badge" });
    link.append(span);
  }
  const complete = done === total;
  span.classList.toggle("is-complete", complete);
  span.classList.toggle("is-started", done > 0);
  span.replaceChildren(
    element("span", { "aria-hidden": "true", text: complete ? `✓ ${total}/${total}` : `${done}/${total}` }),
    element("span", { class: "bv-visually-hidden",
      text: complete ? ` (chapter complete: all ${total} checks passed)` : ` (${done} of ${total} checks passed)` }));
}

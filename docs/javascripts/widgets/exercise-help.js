// An exercise's hints and its solution (issue 47), for exercise.js, which loads this module when it
// binds an exercise and passes it the exercise's state (its block, controls, report, status).
//
// The hints open one at a time, in order ("Show hint 1 of 3"), since each tells more than the one
// before: a question that points at the idea, the approach, then the code. The solution is
// offered once the reader has run two tries (a Run of code other than the starter), or earlier
// if they ask and confirm; it is then shown beside their code (under it on a narrow screen), not
// in its place. The tries, the hints shown and whether the solution is open are kept in this
// browser, under "bv-exercise-tries:<name>:<version>" (shared/kept.js), so a changed exercise
// starts afresh. Without JavaScript the page shows both as closed folds (exercise_directive.py
// says why).

import { element } from "../shared/dom.js";
import { readText, writeText } from "../shared/store.js";

const TRIES_BEFORE_SOLUTION = 2; // Runs of the reader's own code before the solution is offered unasked

/** Set up the hints and the solution of one exercise; `state` is exercise.js's. */
export function setUp(state) {
  state.triesKey = `bv-exercise-tries:${state.name}:${state.block.dataset.version ?? ""}`;
  state.tries = { runs: 0, hints: 0, solution: false, ...readTries(state.triesKey) };
  setUpHints(state);
  setUpSolution(state);
}

// --- Hints, one at a time -------------------------------------------------------------

/** Turn the hints fold (`.exercise-hints`, the build's) into a list that grows one hint per click. */
function setUpHints(state) {
  const box = state.block.querySelector(".exercise-hints");
  const items = box ? [...box.querySelectorAll("details > ol > li")] : [];
  if (!box || !items.length) return;
  const id = `exercise-${state.name}-hints`;
  const list = element("ol", { class: "exercise-hint-list", id, "aria-live": "polite" }, ...items);
  const next = element("button", { type: "button", class: "md-button exercise-hint-next", "aria-controls": id });
  const title = element("p", { class: "exercise-hints-title", text: "Hints" });
  box.replaceChildren(title, list, next);
  box.classList.add("is-live");
  state.hints = { list, next, items };
  for (const item of items) item.hidden = true;
  next.addEventListener("click", () => showHint(state));
  showHints(state, Math.min(state.tries.hints, items.length));
}

/** Show the first `count` hints; the button offers the next one, or goes when all are shown. */
function showHints(state, count) {
  const { items, next, list } = state.hints;
  items.forEach((item, i) => { item.hidden = i >= count; });
  list.hidden = count === 0;
  next.hidden = count >= items.length;
  next.textContent = count === 0 ? `Show hint 1 of ${items.length}` : `Show hint ${count + 1} of ${items.length}`;
}

function showHint(state) {
  const { items } = state.hints;
  const count = Math.min(state.tries.hints + 1, items.length);
  keepTries(state, { hints: count });
  showHints(state, count);
  if (count === items.length) { // the button has gone: the focus goes to the last hint, not to <body>
    items[count - 1].tabIndex = -1;
    items[count - 1].focus();
  }
}

// --- The solution, offered after two tries, beside the reader's code -----------------

/** Take the solution out of its fold (`.exercise-solution`) into a panel beside the editor, closed,
 * and put a Solution button among the controls. */
function setUpSolution(state) {
  const box = state.block.querySelector(".exercise-solution");
  const code = box?.querySelector(".highlight");
  if (!box || !code) return;
  const panelId = `exercise-${state.name}-solution`;
  const panel = element("section", { class: "exercise-solution-panel", id: panelId, "aria-label": `Solution to ${state.title}`,
    hidden: "" }, element("p", { class: "exercise-pane-title", text: "The solution" }), code);
  const mine = element("p", { class: "exercise-pane-title exercise-mine-title", text: "Your code", hidden: "" });
  const pair = element("div", { class: "exercise-pair" });
  state.host.replaceWith(pair);
  const side = element("div", { class: "exercise-pane" }, mine, state.host);
  pair.append(side, panel);
  box.remove();
  const button = element("button", { type: "button", class: "md-button exercise-solution-button",
    "aria-controls": panelId, "aria-expanded": "false" });
  state.reset.parentElement.insertBefore(button, state.reset.parentElement.querySelector(".exercise-keys"));
  const question = element("p", { class: "exercise-confirm-text", id: `exercise-${state.name}-ask` });
  const yes = element("button", { type: "button", class: "md-button exercise-confirm-yes", text: "Show it",
    "aria-describedby": question.id });
  const no = element("button", { type: "button", class: "md-button exercise-confirm-no", text: "Not yet" });
  const confirm = element("div", { class: "exercise-confirm", role: "group", "aria-labelledby": question.id, hidden: "" },
    question, element("div", { class: "exercise-confirm-buttons" }, yes, no));
  button.parentElement.after(confirm);
  state.solution = { panel, button, confirm, question, mine, pair };
  button.addEventListener("click", () => askForSolution(state));
  yes.addEventListener("click", () => { confirm.hidden = true; openSolution(state, true); });
  no.addEventListener("click", () => { confirm.hidden = true; button.focus(); });
  confirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { confirm.hidden = true; button.focus(); }
  });
  if (state.tries.solution) openSolution(state, false);
  else offerSolution(state);
}

/** The Solution button's words: offered ("Show the solution") after two tries, asked for before. */
function offerSolution(state) {
  const { button } = state.solution;
  const offered = state.tries.runs >= TRIES_BEFORE_SOLUTION;
  button.textContent = state.tries.solution ? "Hide the solution" : offered ? "Show the solution" : "Solution…";
  button.setAttribute("aria-expanded", String(state.tries.solution));
}

function askForSolution(state) {
  const { confirm, question, button } = state.solution;
  if (state.tries.solution) { closeSolution(state); return; }
  if (state.tries.runs >= TRIES_BEFORE_SOLUTION) { openSolution(state, true); return; }
  const runs = state.tries.runs;
  question.textContent = `${runs === 0 ? "You have not run code of your own yet"
    : "You have run your code once"}; the solution is offered after ${TRIES_BEFORE_SOLUTION} tries. Show it now?`;
  confirm.hidden = false;
  confirm.querySelector(".exercise-confirm-yes").focus();
  button.setAttribute("aria-expanded", "false");
}

function openSolution(state, byReader) {
  const { panel, mine, pair } = state.solution;
  panel.hidden = false;
  mine.hidden = false;
  pair.classList.add("is-open");
  if (byReader) keepTries(state, { solution: true });
  else state.tries.solution = true;
  offerSolution(state);
  if (byReader) state.status.textContent = "The solution is shown with your code, which is as you left it.";
}

function closeSolution(state) {
  const { panel, mine, pair } = state.solution;
  panel.hidden = true;
  mine.hidden = true;
  pair.classList.remove("is-open");
  keepTries(state, { solution: false });
  offerSolution(state);
}

/** A Run of the reader's own code (not the starter) was graded: one try more. */
export function countTry(state) {
  keepTries(state, { runs: state.tries.runs + 1 });
  if (!state.solution || state.tries.solution) return;
  const wasOffered = state.solution.button.textContent === "Show the solution";
  offerSolution(state);
  if (!wasOffered && state.tries.runs >= TRIES_BEFORE_SOLUTION) {
    state.report.append(element("p", { class: "exercise-note exercise-offer",
      text: `After ${state.tries.runs} tries, the solution is offered: Show the solution opens it next to your code, `
        + "which stays as it is." }));
  }
}

/** Keep what changed of the tries (runs, hints shown, solution open) in this browser, as JSON text. */
function keepTries(state, change) {
  state.tries = { ...state.tries, ...change };
  writeText(state.triesKey, JSON.stringify(state.tries));
}

/** What was kept of an exercise's tries, or {} (nothing kept, storage off, or not JSON). */
function readTries(key) {
  try {
    return JSON.parse(readText(key) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

// "Run on: micrograd | your engine", on every page (mkdocs.yml loads this module on each).
//
// What the switch shows and switches is python/reader-engine.js's: the reader's engine, which
// one runs, and its check. This module puts the switch under each page's title and keeps it true.
//
// A "bv-engine" event on document tells the page's widgets the choice changed.

import { element, loadStylesheet, onEveryPage } from "./shared/dom.js";
import { PASSED, SOURCE, STORE, changed, checkEngine, choose, chosen, describe, engine, hasEngine, keepPassed,
  keptCheck, readerEngine } from "./python/reader-engine.js";

export { readerEngine }; // the browser tests read the engine as every page does (tests/your_engine/)
const here = import.meta.url;

let count = 0;

/** The switch: two radio buttons and a line that says what runs (role=status). */
function makeSwitch() {
  const name = `bv-engine-${(count += 1)}`;
  /** @param {string} value @param {string} text @returns {[HTMLInputElement, HTMLLabelElement]} */
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
  keepPassed(detail.code);
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
  // Under the title for a reader with an engine of their own; else at the page's end, where it
  // takes no room above the text (issue 44, item 14). It stays where it is while the page is shown.
  const mark = hasEngine();
  document.documentElement.classList.toggle("bv-has-engine", mark); // the next page keeps its place
  const place = article.querySelector(mark ? ".bv-tools__engine" : ".bv-tools__engine-end")
    ?? article.querySelector(".bv-tools__engine"); // kept for it (overrides/partials/content.html)
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

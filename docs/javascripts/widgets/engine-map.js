// The "Your engine" page (docs/your-engine.md): the book run on the reader's engine.
//
// engine-switch.js loads this where the page has a `.bv-engine-map`. The reader gives their
// engine (their passed whole-engine exercise, or code pasted or chosen here), and one button
// runs every chapter's blocks that run in the browser (each chapter's blocks.json, the
// chapters progress.json lists; scripts/pages/blocks.py: runnable) on it, one call of run_blocks per
// chapter with `engine`. The map then says, chapter by chapter, how many blocks passed, failed,
// did not apply (each result's "applies": what of micrograd's internals the block reads, found
// by Python from its code), or were not run in full in the browser (the page skips it, or it
// needs a package the browser lacks: it stops at that import). Each failure links to its block
// on its page and shows the page's output beside the reader's; "Node by node" calls diagnose and
// draws the block's graph with the first node whose grad differs lit, both numbers on it and the
// likely cause named.
// Nothing here computes a number: every one comes from the reader's Python.

import { element } from "../shared/dom.js";
import { read, write } from "../shared/store.js";
import { SWITCHED, checkEngine, chosen, choose, engine, keepFile, keptCheck, readerEngine } from "../python/reader-engine.js";
import { agreed, showDiagnosis } from "../python/node-by-node.js";

export { agreed }; // what a diagnosis with no differing grad says (tests/your_engine: read in a page)

const root = new URL("../../", import.meta.url); // the site's root: this file is javascripts/widgets/engine-map.js
const CHAPTER_TIMEOUT_MS = 60000;
const MAX_SOURCE = 200000; // characters of a pasted engine: a Value class is a few thousand

/** Build the page's engine box, button and map in `host`. */
export function init(host) {
  const sourceLine = element("p", { class: "bv-map__from", role: "status" });
  const textarea = element("textarea", { id: "bv-map-source", class: "bv-map__source", spellcheck: "false",
    autocomplete: "off", autocapitalize: "off", "aria-describedby": "bv-map-source-help" });
  const help = element("p", { id: "bv-map-source-help", class: "bv-map__help",
    text: "Your module's code, with a class named Value: in this book's shape (_prev and _local) or " +
      "the lecture's (a _backward per node)." });
  const file = element("input", { id: "bv-map-file", type: "file", accept: ".py,text/x-python,text/plain" });
  const use = element("button", { type: "button", class: "md-button", text: "Use this code" });
  const forget = element("button", { type: "button", class: "md-button", text: "Forget the pasted code" });
  const runBook = element("button", { type: "button", class: "md-button md-button--primary bv-map__run",
    text: "Run the book on your engine" });
  const status = element("p", { class: "bv-map__status", role: "status", "aria-live": "polite" });
  const map = element("div", { class: "bv-map__result" }); // the status line says what came: not read out whole
  const runRow = element("div", { class: "bv-map__row bv-map__run-row" }, runBook); // python.js puts Stop here
  const useRow = element("div", { class: "bv-map__row" }, use, forget); // and here, while a check runs
  host.replaceChildren(
    sourceLine,
    element("label", { for: "bv-map-source", text: "Paste your engine" }), textarea, help,
    element("div", { class: "bv-map__row" },
      element("label", { for: "bv-map-file", text: "or choose a file:" }), file),
    useRow,
    runRow,
    status, map);

  const state = { host, status, map, runRow, runBook, running: false, timing: null, chapters: [] };
  host.engineMap = state; // for the browser tests

  const show = () => {
    const mine = readerEngine();
    const check = mine && keptCheck(mine.text);
    sourceLine.textContent = !mine ? "You have no engine yet: pass chapter 4's whole-engine exercise, or paste one below."
      : `Your engine: ${mine.name}` + (!check ? " (not checked yet)." : check.ok ? ", checked: Python can run it."
        : `, which did not pass its check: ${check.message}`);
    forget.hidden = mine?.from !== "file";
    if (mine?.from === "file" && !textarea.value) textarea.value = mine.text;
  };
  document.addEventListener("bv-engine", () => { if (host.isConnected) show(); });
  show();
  const mine = readerEngine();
  if (mine && keptCheck(mine.text)?.ok) restore(state, mine.text); // the map of this visit, if there is one

  file.addEventListener("change", async () => {
    const chosenFile = file.files?.[0];
    if (!chosenFile) return;
    textarea.value = await chosenFile.text(); // whole: take() refuses more than MAX_SOURCE, and says so
    await take(chosenFile.name);
  });
  use.addEventListener("click", () => take("the code you pasted"));
  forget.addEventListener("click", () => {
    keepFile("", null);
    textarea.value = "";
    status.textContent = "The pasted code is forgotten.";
    show();
  });

  /** Keep the textarea's code as the reader's engine, switch to it and check it. */
  async function take(name) {
    const text = textarea.value;
    if (text.length > MAX_SOURCE) { // cut, it was checked as code the reader never wrote (a re-audit)
      status.textContent = `Your code is ${text.length.toLocaleString("en")} characters; an engine here may have ` +
        `at most ${MAX_SOURCE.toLocaleString("en")} (a Value class is a few thousand). Nothing was changed.`;
      textarea.focus();
      return;
    }
    if (!text.trim()) {
      status.textContent = "There is no code to use: paste your engine's code first.";
      textarea.focus();
      return;
    }
    keepFile(name, text);
    choose("yours");
    status.textContent = "Checking your engine…";
    const check = await checkEngine(readerEngine(), (line) => { status.textContent = line; },
      { stopIn: useRow, afterStop: use });
    document.dispatchEvent(new CustomEvent("bv-engine"));
    status.textContent = check.ok ? `Your engine passed its check: ${SWITCHED.toLowerCase()} now run on it.`
      : "stopped" in check ? `Your engine is kept, not checked: ${check.message}`
        : `Your engine did not pass its check: ${check.message}`;
  }

  runBook.addEventListener("click", async () => {
    if (state.running) return;
    const mine = readerEngine();
    if (!mine) {
      status.textContent = "You have no engine yet: pass chapter 4's whole-engine exercise, or paste one above.";
      return;
    }
    if (!chosen()) choose("yours");
    state.running = true;
    runBook.setAttribute("aria-disabled", "true");
    try {
      const check = await checkEngine(mine, (line) => { status.textContent = line; });
      if (!check.ok) {
        status.textContent = `Your engine did not pass its check, so the book did not run: ${check.message}`;
        return;
      }
      document.dispatchEvent(new CustomEvent("bv-engine"));
      await runTheBook(state, engine() ?? mine.text);
    } finally {
      state.running = false;
      runBook.removeAttribute("aria-disabled");
    }
  });
}

/**
 * The chapters (progress.json's pages) and the blocks of each that run in the browser: [{page,
 * title, url, blocks (blocks.json's text, or null)}]. A chapter's page names its blocks.json, with
 * the build's version key, in its `.bv-run` element (scripts/build/hooks/python_runtime.py), as Run
 * reads it; a page without one has no block that runs in the browser (chapter 9 says why).
 */
async function chapters() {
  const response = await fetch(new URL("progress.json", root));
  if (!response.ok) throw new Error(`progress.json: HTTP ${response.status}`);
  const pages = Object.keys((await response.json()).pages);
  const found = await Promise.all(pages.map(async (page) => {
    const url = new URL(page, root);
    const link = [...document.querySelectorAll(".md-nav--primary a.md-nav__link[href]")]
      .find((a) => new URL(/** @type {HTMLAnchorElement} */ (a).href).pathname === url.pathname);
    const title = link?.textContent.replace(/\s*\d+\/\d+.*$|\s*✓.*$/, "").trim() || page.replace(/\/$/, "");
    const html = await fetch(url);
    if (!html.ok) throw new Error(`${page}: HTTP ${html.status}`);
    const marker = /** @type {HTMLElement | null} */ (new DOMParser().parseFromString(await html.text(), "text/html")
      .querySelector(".bv-run[data-blocks]"));
    if (!marker) return { page, title, url: url.href, blocks: null };
    const blocks = await fetch(new URL(marker.dataset.blocks, url));
    if (!blocks.ok) throw new Error(`${page}blocks.json: HTTP ${blocks.status}`);
    return { page, title, url: url.href, blocks: await blocks.text() };
  }));
  return found;
}

/** The map's table and lists, empty, in `map`; add(entry) draws one chapter (an Entry, below). */
function makeView(state, source) {
  const table = element("tbody");
  const failures = element("div", { class: "bv-map__failures" });
  const notApplicable = element("div", { class: "bv-map__nas" });
  const varied = element("div", { class: "bv-map__varies", hidden: "" }); // at the top: read before the counts
  state.map.replaceChildren(varied, element("div", { class: "bv-map__table" }, element("table", {},
    element("caption", { text: "The book on your engine: a chapter's blocks that run in your browser" }),
    element("thead", {}, element("tr", {}, ...["Chapter", "passed", "failed", "not applicable",
      "not run in full"].map((h) => element("th", { scope: "col", text: h })),
      element("th", { scope: "col", class: "bv-map__glance", text: "at a glance" }))),
    table)), failures, notApplicable);
  state.chapters = [];
  const wentBothWays = [];
  const add = ({ chapter, blocks, results, error, varies }) => {
    if (varies?.length) vary(chapter, blocks, varies);
    const cell = (cls, text) => table.append(element("tr", {}, element("th", { scope: "row" }, chapterLink(chapter)),
      element("td", { colspan: "5", class: cls, text })));
    if (error) {
      state.chapters.push({ page: chapter.page, title: chapter.title, error });
      cell("bv-map__fail", `It did not finish: ${error}`);
      return;
    }
    if (!results) {
      cell("bv-map__na", "No block of this chapter runs in your browser (its page says why).");
      return;
    }
    const sorted = sort(blocks, results);
    state.chapters.push({ page: chapter.page, title: chapter.title, passed: sorted.passed.length,
      failed: sorted.failed.length, notApplicable: sorted.na.length, didNotRun: sorted.didNotRun.length });
    table.append(row(chapter, sorted));
    for (const failed of sorted.failed) failures.append(failure(chapter, blocks, failed, source));
    if (sorted.na.length) notApplicable.append(notApplicableList(chapter, sorted.na));
  };
  /** Blocks of `chapter` that went otherwise in a second run than in the map's (your_engine.py: varies). */
  const vary = (chapter, blocks, found) => {
    let n = 0;
    const numbers = blocks.map((block) => (block.hidden ? null : (n += 1)));
    const said = (status) => (status === "error" || status === "differs" ? "failed"
      : status === "ran" ? "passed" : "did not run");
    for (const { index, statuses } of found) {
      if (numbers[index] == null) continue;
      wentBothWays.push(element("li", {}, element("a", { href: blockURL(chapter, numbers[index]),
        text: `${chapter.title}, block ${numbers[index]}` }), `: ${statuses.map(said).join(", then ")}`));
    }
    if (!wentBothWays.length) return;
    varied.hidden = false;
    varied.replaceChildren(element("p", { class: "bv-map__fail", text: "Your engine's results vary from run to " +
      "run: its _prev is a set, which Python walks in an order that follows where the nodes sit in memory, " +
      "another one each run, and your engine's grads depend on that order. The map ran each chapter twice; " +
      `${wentBothWays.length === 1 ? "this block" : `these ` +
      `${wentBothWays.length} blocks`} went both ways:` }), element("ul", {}, ...wentBothWays));
  };
  /** The totals, the failures' heading (or that none failed); returns the totals. */
  const end = () => {
    const totals = state.chapters.reduce((sum, c) => ({ passed: sum.passed + (c.passed ?? 0),
      failed: sum.failed + (c.failed ?? 0), na: sum.na + (c.notApplicable ?? 0),
      unfinished: sum.unfinished + (c.error ? 1 : 0) }), { passed: 0, failed: 0, na: 0, unfinished: 0 });
    // A chapter that did not finish was not checked: "every block gives the page's results" is not
    // said over it (a new reader's audit: a chapter stopped at its time limit, and the map said it)
    const n = totals.unfinished;
    if (!totals.failed) failures.append(element("p", { class: n ? "bv-map__fail" : "bv-map__pass",
      text: n ? `No block failed in the chapters that finished, but ${n} ${n === 1 ? "chapter" : "chapters"} ` +
        "did not finish (above): their blocks were not all checked."
        : "No block failed: every block that applies and ran gives the page's results on your engine." }));
    else failures.prepend(element("h3", { text: `The ${totals.failed} ${totals.failed === 1 ? "block" : "blocks"} ` +
      "that failed" }));
    return totals;
  };
  return { add, end };
}

/**
 * What a map is drawn from, kept for the tab's session (sessionStorage, SAVED) with the engine's
 * code itself, so a reader who follows a failure's link and comes back finds the map again.
 * Entry: {chapter: {page, title, url}, blocks (blocks.json's blocks, kept where one failed, for
 * Node by node), results (run_blocks' results, each cut to what the map shows), error}.
 */
const SAVED = "bv-engine-map";
const summary = (totals, ms) => `${totals.passed} blocks passed, ${totals.failed} failed, ` +
  `${totals.na} did not apply${totals.unfinished ? `, ${totals.unfinished} ${totals.unfinished === 1
    ? "chapter" : "chapters"} did not finish` : ""}, in ${(ms / 1000).toFixed(1)} s.`;

function save(source, entries, ms) {
  const cut = entries.map(({ chapter, blocks, results, error, varies }) => {
    const failed = (r) => !r.applies?.length && (r.status === "error" || r.status === "differs");
    return { chapter, error, varies, blocks: results?.some(failed) ? blocks : blocks?.map((b) => ({ hidden: b.hidden })),
      results: results?.map((r) => failed(r) ? r : { index: r.index, kind: r.kind, status: r.status,
        applies: r.applies }) ?? null };
  });
  // The map is for this text; where storage is full or off, it lasts as long as the page.
  write(SAVED, { source, entries: cut, ms }, { session: true });
}

/** Draw the map kept for this session, if it was drawn for `source`; true if it was. */
function restore(state, source) {
  const kept = read(SAVED, true); // null where storage is off, or not ours to read
  if (!kept || kept.source !== source) return false;
  const view = makeView(state, source);
  kept.entries.forEach(view.add);
  state.status.textContent = `Your engine's map from earlier in this visit: ${summary(view.end(), kept.ms)} ` +
    "Run the book again to run it now.";
  return true;
}

/** Run every chapter on `source`, one after another, and draw the map as each one comes. */
async function runTheBook(state, source) {
  const { status } = state;
  const { call } = await import("../python/python.js");
  const started = performance.now();
  state.map.replaceChildren();
  state.chapters = [];
  status.textContent = "Reading the chapters' blocks…";
  let all;
  try {
    all = await chapters();
  } catch (error) {
    status.textContent = `The chapters could not be read (${error.message}), so the book did not run.`;
    return;
  }
  const view = makeView(state, source);
  const entries = [];
  let pythonMs = 0;
  const stop = new AbortController(); // the Stop button python.js shows during each chapter's Run
  for (const [i, chapter] of all.entries()) {
    const where = { page: chapter.page, title: chapter.title, url: chapter.url };
    let entry = { chapter: where, blocks: null, results: null, error: null, varies: null };
    if (chapter.blocks) {
      status.textContent = `Running ${chapter.title} on your engine (${i + 1} of ${all.length})…`;
      const blocks = JSON.parse(chapter.blocks).blocks;
      const answer = await call("run_blocks", { blocks, upto: blocks.length - 1, edits: {}, engine: source },
        { timeoutMs: CHAPTER_TIMEOUT_MS, onProgress: (text) => { status.textContent = `${chapter.title}: ${text}`; },
          signal: stop.signal, stopIn: state.runRow, afterStop: state.runBook });
      if (answer.kind === "stopped") {
        stop.abort();
        status.textContent = `Stopped in ${chapter.title}: ${answer.message} The map shows the chapters before it.`;
        return;
      }
      if (answer.kind === "result") pythonMs += answer.runMs;
      entry = answer.kind === "result" ? { ...entry, blocks, results: answer.report.results }
        : { ...entry, error: answer.message };
      if (answer.kind === "result") { // run again where a _prev that is a set may walk otherwise (issue 44)
        const statuses = answer.report.results.map((r) => (r.applies?.length ? null : r.status));
        const again = await call("varies", { blocks, source, statuses },
          { timeoutMs: CHAPTER_TIMEOUT_MS, signal: stop.signal, stopIn: state.runRow, afterStop: state.runBook });
        if (again.kind === "stopped") {
          stop.abort();
          status.textContent = `Stopped in ${chapter.title}: ${again.message} The map shows the chapters before it.`;
          return;
        }
        if (again.kind === "result") {
          pythonMs += again.runMs;
          entry.varies = again.report.blocks;
        }
      }
    }
    entries.push(entry);
    view.add(entry);
  }
  const totals = view.end();
  state.timing = { bookMs: performance.now() - started, pythonMs };
  save(source, entries, state.timing.bookMs);
  status.textContent = `Ran on your engine: ${summary(totals, state.timing.bookMs)}`;
}

/** A chapter's visible blocks, by what happened: {passed, failed, na, didNotRun}: [{n, result}]. */
function sort(blocks, results) {
  const sorted = { passed: [], failed: [], na: [], didNotRun: [] };
  let n = 0;
  const numbers = blocks.map((block) => (block.hidden ? null : (n += 1)));
  for (const result of results) {
    const number = numbers[result.index];
    if (number == null || result.kind === "clear-namespace") continue; // a hidden setup block
    const entry = { n: number, result };
    if (result.applies?.length) sorted.na.push(entry);
    else if (result.status === "skipped" || result.status === "unavailable") sorted.didNotRun.push(entry);
    else if (result.status === "error" || result.status === "differs") sorted.failed.push(entry);
    else sorted.passed.push(entry);
  }
  return sorted;
}

function chapterLink(chapter) {
  return element("a", { href: chapter.url, text: chapter.title });
}

function row(chapter, sorted) {
  const counts = [sorted.passed.length, sorted.failed.length, sorted.na.length, sorted.didNotRun.length];
  const total = counts.reduce((a, b) => a + b, 0) || 1;
  const bar = element("span", { class: "bv-map__bar", "aria-hidden": "true" },
    ...[["is-passed", counts[0]], ["is-failed", counts[1]], ["is-na", counts[2]]].map(([cls, count]) =>
      element("span", { class: String(cls), style: `width: ${(100 * Number(count)) / total}%` })));
  return element("tr", { class: counts[1] ? "is-failed" : "" },
    element("th", { scope: "row" }, chapterLink(chapter)),
    ...counts.map((count, i) => element("td", { class: i === 1 && count ? "bv-map__fail" : "", text: String(count) })),
    element("td", { class: "bv-map__glance" }, bar));
}

const blockURL = (chapter, n) => `${chapter.url}#block-${n}`;

/** One failed block: a link to it, the page's output beside the reader's, and Node by node. */
function failure(chapter, blocks, { n, result }, source) {
  const [page, yours] = outputs(result);
  const diagnosis = element("div", { class: "bv-map__node", "aria-live": "polite" });
  const button = element("button", { type: "button", class: "md-button bv-map__diagnose",
    text: "Node by node", "aria-label": `Node by node: ${chapter.title}, block ${n}` });
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-disabled")) return;
    button.setAttribute("aria-disabled", "true");
    diagnosis.replaceChildren(element("p", { text: "Comparing your engine's graph with micrograd's…" }));
    try {
      await showDiagnosis(diagnosis, { blocks, upto: result.index, edits: {}, source }, result.status);
    } finally {
      button.removeAttribute("aria-disabled");
    }
  });
  const box = element("section", { class: "bv-map__failure", "aria-label": `${chapter.title}, block ${n}` },
    element("h4", {}, element("a", { href: blockURL(chapter, n), text: `${chapter.title}, block ${n}` })),
    element("div", { class: "bv-map__pair" },
      element("div", {}, element("h5", { text: "The page (micrograd)" }), pre(page)),
      element("div", {}, element("h5", { text: "Your engine" }), pre(yours))),
    button, diagnosis);
  box.dataset.page = chapter.page;
  box.dataset.block = String(n);
  return box;
}

/** [the page's output, the reader's] of a failed block, as texts. */
function outputs(result) {
  if (result.kind === "doctest") {
    const wrong = result.transcript.filter((s) => s.output && !s.same);
    if (wrong.length) {
      const source = (s) => {
        const at = result.transcript.indexOf(s);
        const before = result.transcript.slice(0, at).reverse().find((p) => !p.output);
        return before ? `${before.text.trimEnd().split("\n").slice(-1)[0]}\n` : "";
      };
      return [wrong.map((s) => `${source(s)}${(s.page ?? s.expected).trimEnd()}`).join("\n"),
        wrong.map((s) => `${source(s)}${s.text.trimEnd()}`).join("\n")];
    }
  }
  return ["It runs without an error.", `${result.output ?? ""}${result.error ?? ""}`.trim() || "(nothing)"];
}

function pre(text) {
  return element("pre", {}, element("code", { text }));
}

/** A chapter's blocks that do not apply to the reader's engine, each with what it reads. */
function notApplicableList(chapter, na) {
  return element("details", { class: "bv-map__na-list" },
    element("summary", { text: `${chapter.title}: ${na.length} ${na.length === 1 ? "block reads" : "blocks read"} ` +
      "micrograd's internals, so they do not apply" }),
    element("ul", {}, ...na.map(({ n, result }) => element("li", {},
      element("a", { href: blockURL(chapter, n), text: `Block ${n}` }), `: ${result.applies.join("; ")}`))));
}

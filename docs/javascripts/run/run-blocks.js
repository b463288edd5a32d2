// Run any example of a chapter: Run (and Edit) on every Python block of the page.
//
// scripts/build/hooks/python_runtime.py adds this module to a chapter (scripts/pages/blocks.py
// decides which) with a hidden <div class="bv-run"> naming the page's blocks.json
// (every block pytest runs, in page order, hidden ones included, exported when the
// page ran) and the page lines of its visible blocks. The rendered Python code
// blocks of the page are those visible blocks, in the same order: each gets Run and
// Edit. If the counts differ, nothing is bound and the console says why.
//
// Each Run bar shows its block's number ("Block 7"), as the messages name blocks.
// Run on block 7 runs blocks 1 to 7 (and the hidden ones between) in one fresh
// namespace, as pytest runs them (scripts/reader/run_blocks.py), with the reader's edited
// text in place of the page's for every block they edited; the block's output (what
// it printed, or a doctest's actual results) appears under it.
//
// An edit is kept for the tab's session (sessionStorage, per page and block, with the
// page's code it replaced): leaving the page and coming back finds it in the editor.
// Reset puts the page's code back and forgets the edit.
//
// What loads when:
//   page load        this file and run-blocks.css (a few KB)
//   first Edit/Run   blocks.json and editor.js (CodeMirror 6, bundled at build time;
//                    editor-loader.js); at load when the session holds an edit of this page
//   first Run        python.js, its worker and Pyodide with the site's Python zip;
//                    run-output.js (what a Run shows) with the first result; as the first
//                    block comes near, for a reader whose Python was up before in this
//                    browser (python/pool.js: warm), unless the browser asks to save data
// With "Run on: your engine" (engine-switch.js), every Run passes the reader's engine source
// as `engine`: the blocks run with it as micrograd.engine.Value, and the Run says so.
// Runs share python.js's worker with the steppers and the playground: one Python, one Run
// at a time, stopped after 20 s (or the element's data-timeout-ms) or by the Stop button
// the Run bar shows while a Run waits or runs, restarted on the next Run. The
// worker outlives the page: widgets.js calls init() again on the chapter Material's instant
// navigation brings, whose first Run finds Python already up.

import { element, loadStylesheet, whenNear } from "../shared/dom.js";
import { MOD, loadEditor } from "../editor/editor-loader.js";
import { read, write } from "../shared/store.js";

const here = import.meta.url;
const DEFAULT_TIMEOUT_MS = 20000;
// The fences scripts/pages/examples.py runs (PYTHON_INFO), as pymdownx.highlight marks them.
const LANGUAGES = ["python", "python3", "py", "pycon"];

/** Bind Run and Edit to the Python blocks of the page whose `.bv-run` element is `marker`. */
export function init(marker) {
  const article = marker.closest("article") ?? document.body;
  const lines = marker.dataset.lines.trim().split(/\s+/).map(Number);
  const rendered = [...article.querySelectorAll("div.highlight")].filter(
    (element) => LANGUAGES.some((l) => element.classList.contains(`language-${l}`)) && !element.closest(".exercise"),
  );
  if (rendered.length !== lines.length) {
    console.error(`Run: this page shows ${rendered.length} Python blocks, but its blocks.json exports ` +
      `${lines.length} (at page lines ${lines.join(", ")}); no block gets Run, rather than the wrong one.`);
    return;
  }
  const unboxed = rendered.filter((code) => !code.nextElementSibling?.classList.contains("bv-run-slot"));
  if (unboxed.length) {
    console.error(`Run: ${unboxed.length} of this page's Python blocks have no .bv-run-slot after them ` +
      "(scripts/pages/blocks.py: run_slots); no block gets Run.");
    return;
  }
  loadStylesheet(new URL("../../stylesheets/run-blocks.css", here).href);
  const page = { marker, lines, text: null, python: null, loading: null, blocks: [], warmed: false,
    store: `bv-run-edits:${location.pathname}` }; // sessionStorage: {n: {source, code}}
  page.blocks = rendered.map((code, i) => {
    const state = { page, n: i + 1, code, line: lines[i], bar: null, index: null, source: null, skip: null,
      figure: false, editor: null, editing: null, running: false };
    code.runState = state;
    return state;
  });
  marker.runState = page; // the blocks and their state, for the browser tests
  const kept = savedEdits(page);
  // Each block's bar comes when the block comes near the viewport (dom.js: whenNear; its
  // place is kept meanwhile, run-blocks.css), and at once for a block holding an edit.
  return Promise.all(page.blocks.map((state) => {
    if (!kept[state.n]) return whenNear(state.code, () => setUpBar(state));
    setUpBar(state);
    makeEditable(state);
    return undefined;
  }));
}

/** The page's kept edits; {} where storage is off, or not ours to read: edits are simply not kept. */
function savedEdits(page) {
  return read(page.store, true) ?? {};
}

/** Keep (or, with code null, forget) block n's edit of the page's `source` for this session. */
function saveEdit(page, n, source, code) {
  const edits = savedEdits(page);
  if (code === null || code === source.replace(/\n$/, "")) delete edits[n];
  else edits[n] = { source, code };
  // Storage full or off: the edit stays in the editor for as long as the page is open.
  write(page.store, Object.keys(edits).length ? edits : null, { session: true });
}

/**
 * Block `state`'s Run bar, made now if the block has not come near the viewport yet: a Run's
 * message links to an earlier block, which may never have been near (a reader who opened the page
 * at a section far down). Returns the bar.
 */
export function barOf(state) {
  setUpBar(state);
  return state.bar;
}

/** Block `state`'s Run bar, editor box, progress line and output, in its kept place. */
function setUpBar(state) {
  if (state.bar) return;
  if (!state.page.warmed && read("bv-python") && !(/** @type {any} */ (navigator).connection?.saveData)) {
    state.page.warmed = true; // the first Run imports run_blocks (scripts/reader/calls.py)
    import("../python/python.js").then(({ warmUp }) => warmUp(["scripts.reader.run_blocks"]));
  }
  const { n, code } = state;
  const run = element("button", { type: "button", class: "md-button md-button--primary bv-run-run",
    "aria-label": `Run block ${n}`, title: n === 1 ? "Run this block" : `Run blocks 1 to ${n}, in order` });
  run.textContent = "Run";
  const edit = element("button", { type: "button", class: "md-button bv-run-edit", "aria-label": `Edit block ${n}`,
    text: "Edit" });
  const reset = element("button", { type: "button", class: "md-button bv-run-reset", "aria-label": `Reset block ${n}`,
    text: "Reset", hidden: "" });
  const progress = element("p", { class: "bv-run-progress", role: "status" });
  const output = element("div", { class: "bv-run-output", "aria-live": "polite" });
  // The block's number, as the messages name it ("Block 3"); its buttons' names say it too.
  const number = element("span", { class: "bv-run-number", text: `Block ${n}` });
  const bar = element("div", { class: "bv-run-bar", id: `bv-block-${n}` }, number, run, edit, reset);
  const host = element("div", { class: "bv-run-editor" });
  // Into the build's empty box after the block (scripts/pages/blocks.py: run_slots): added beside
  // the block, as children of the article, they made Chromium style the whole article again.
  code.nextElementSibling.append(host, bar, progress, output);
  edit.hidden = state.skip === true; // the page does not run it: nothing to edit (blocks.json, if loaded)
  Object.assign(state, { host, bar, run, edit, reset, progress, output });
  run.addEventListener("click", () => runBlock(state));
  edit.addEventListener("click", () => makeEditable(state).then((editor) => editor?.focus()));
  reset.addEventListener("click", () => resetBlock(state));
}

/** Fetch blocks.json once, and give every block its export index, source, skip and figure. */
function loadExport(page) {
  page.loading ??= (async () => {
    const response = await fetch(new URL(page.marker.dataset.blocks, location.href));
    if (!response.ok) throw new Error(`blocks.json: HTTP ${response.status}`);
    page.text = await response.text();
    const data = JSON.parse(page.text);
    page.python = data.python; // the version that ran the page: its outputs are this version's
    page.bits = data.bits; // and its pointer size (64-bit; the browser's WebAssembly is 32-bit)
    const visible = data.blocks
      .map((block, index) => ({ ...block, index }))
      .filter((block) => !block.hidden);
    const lines = visible.map((block) => block.line).join(" ");
    if (lines !== page.lines.join(" ")) {
      const message = `blocks.json holds blocks at lines ${lines}; the page expected ${page.lines.join(" ")}`;
      console.error(`Run: ${message}`);
      throw new Error(message);
    }
    visible.forEach((block, i) => {
      const state = page.blocks[i];
      Object.assign(state, { index: block.index, source: block.source, skip: block.skip, figure: block.figure });
      if (block.skip && state.bar) state.edit.hidden = true; // the page does not run it: nothing to edit
      const shown = state.code.querySelector("code")?.textContent ?? "";
      if (!block.skip && shown.trimEnd() !== block.source.trimEnd()) {
        console.error(`Run: block ${state.n} (line ${block.line}) shows other code than blocks.json holds`);
      }
    });
  })();
  return page.loading;
}

/**
 * Replace the block's static code with an editor holding the page's code, or the reader's
 * edit of it kept from earlier in the session; resolves to the editor.
 */
function makeEditable(state) {
  state.editing ??= (async () => {
    try {
      await loadExport(state.page);
      if (state.skip) return null;
      const createEditor = await loadEditor();
      const page = state.source.replace(/\n$/, "");
      const kept = savedEdits(state.page)[state.n];
      const restored = kept?.source === state.source ? kept.code : null; // an edit of this code, not older code
      state.editor = createEditor(state.host, restored ?? page, {
        label: `Block ${state.n}, editable`,
        onRun: () => runBlock(state),
        onChange: (code) => saveEdit(state.page, state.n, state.source, code),
      });
      if (kept && restored === null) saveEdit(state.page, state.n, state.source, null);
      if (restored !== null) {
        state.progress.textContent = "Your edit from earlier is back. Reset puts the page's code back.";
      }
      state.code.hidden = true;
      state.edit.hidden = true;
      state.reset.hidden = false;
      state.bar.append(element("span", { class: "bv-run-keys",
        text: `${MOD}+Enter runs. Tab indents; Esc then Tab moves on.` }));
    } catch (error) {
      state.progress.textContent = `The editor could not load (${error.message}).`;
    }
    return state.editor;
  })();
  return state.editing;
}

/** The block's text as the reader has it: the editor's, with the final newline the page's has. */
function codeOf(state) {
  const text = state.editor.getCode();
  return text.endsWith("\n") ? text : `${text}\n`;
}

function resetBlock(state) {
  if (!state.editor) return;
  const pages = state.source.replace(/\n$/, "");
  const edited = state.editor.getCode() !== pages; // no edit, none claimed (a new reader's audit)
  state.editor.setCode(pages);
  saveEdit(state.page, state.n, state.source, null);
  state.output.replaceChildren();
  state.progress.textContent = edited ? `The page's code is back. (${MOD}+Z in the editor brings your edit back.)`
    : "This is already the page's code.";
}

async function runBlock(state) {
  if (state.running) return;
  const { page } = state;
  state.running = true;
  state.run.setAttribute("aria-disabled", "true");
  state.bar.classList.add("is-running");
  state.progress.textContent = "Starting…";
  let result;
  try {
    await loadExport(page);
    await makeEditable(state);
    const edits = /** @type {Object<string, string>} */ ({});
    for (const other of page.blocks) {
      if (other.index > state.index || !other.editor) continue;
      const text = codeOf(other);
      if (text !== other.source) edits[other.index] = text;
    }
    const { call } = await import("../python/python.js");
    // The reader's engine, when the switch says so (engine-switch.js): Python installs it as
    // micrograd.engine.Value for this Run, and run-output.js says which engine ran.
    const { engine } = await import("../python/reader-engine.js");
    const source = engine();
    const args = { blocks: JSON.parse(page.text).blocks, upto: state.index, edits };
    result = await call("run_blocks", source ? { ...args, engine: source } : args, {
      timeoutMs: Number(page.marker.dataset.timeoutMs) || DEFAULT_TIMEOUT_MS,
      onProgress: (text) => { state.progress.textContent = text; },
      stopIn: state.bar,
      afterStop: state.run,
    });
    state.engine = source ? "yours" : "micrograd"; // which engine ran it: run-output.js says so
    state.diagnose = source ? { ...args, source } : null; // Node by node's call, on the reader's engine
  } catch (error) {
    result = { kind: "error", message: String(error.message ?? error) };
  } finally {
    state.result = result; // the whole report, for the browser tests
    try {
      (await import("./run-output.js")).show(state, result);
    } catch (error) {
      state.progress.textContent = `The result could not be shown (${error.message}).`;
    }
    state.running = false;
    state.run.removeAttribute("aria-disabled");
    state.bar.classList.remove("is-running");
  }
}


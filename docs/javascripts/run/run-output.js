// What a Run on a chapter block shows under it (run-blocks.js calls show() with the result;
// loaded with the first result, not with the page). Worded for a learner: a block is named
// by the number its Run bar shows ("Block 3"), and a block folded away (inside a quiz's
// answer, say) is named with where it is, as a link that opens its fold.

import { FRESH, seconds } from "../python/python.js"; // loaded before any result comes
import { element } from "../shared/dom.js";
import { barOf } from "./run-blocks.js"; // loaded already: it loads this module

const lastLine = (text) => text.trim().split("\n").pop();

export function show(state, result) {
  const { output, progress } = state;
  output.replaceChildren();
  if (result.kind === "timeout" || result.kind === "stopped") { // ended at its limit, or by Stop
    progress.textContent = "";
    output.append(paragraph("bv-run-fail", result.message));
    return;
  }
  if (result.kind === "error") {
    progress.textContent = "";
    const running = state.page.blocks.find((b) => b.index === result.block);
    const lead = result.block == null ? [] : result.block === state.index ? ["While this block ran: "]
      : running ? ["While ", ...blockName(running), " (before this one) ran: "]
        : ["While a hidden setup block (before this one) ran: "];
    output.append(element("p", { class: "bv-run-fail" }, ...lead, result.message));
    return;
  }
  const { results } = result.report;
  const mine = results[results.length - 1];
  progress.textContent = (result.restarted ? `${result.restarted} ` : "") + // why Python started again first
    (result.started ? `${result.started}. ` : "") + ranLine(state, results, result.runMs) +
    (state.engine === "yours" ? " Ran on your engine." : " Ran on micrograd."); // which engine (engine-switch.js)

  const edited = results.some((r) => r.edited); // then a difference is the reader's, not the version's
  // On the reader's engine, a difference is first the engine's: the page's results are micrograd's
  // (the version note alone blamed Python for what the reader's engine did: a new reader's audit).
  const versionNote = edited ? "" : (state.engine === "yours"
    ? " This Run used your engine; the page's results are micrograd's." : "") + versions(state.page, result.report);
  // What the reader's code of an earlier Run left in this Python (a function it replaced, a
  // callback still queued) can change a result, edits or none (a hostile audit: a leftover made an
  // unedited block print 42.0 beside an edit that only added a comment, with no cause given).
  if (result.afterReaderCode && results.some((r) => !r.edited && (r.status === "differs" || r.status === "error"))) {
    output.append(paragraph("bv-run-note", "An earlier Run gave this same Python code of yours, and Python " +
      "keeps whatever it left (a function it replaced, a callback still queued): that can change these results. " +
      FRESH));
  }
  // An earlier block that failed, or that prints otherwise than the page from the reader's first
  // edit on (the edit, or what it changed downstream): it may change this one. (With no edit,
  // a block that prints differently in this Python is said under that block only.)
  // A block that reads micrograd's internals (or what such a block made) does not apply to the reader's
  // engine (run_blocks.py: "applies", as the map says): never counted as a block that went otherwise.
  const na = (r) => state.engine === "yours" && Boolean(r.applies?.length);
  const firstEdit = results.findIndex((r) => r.edited);
  const earlier = results.slice(0, -1).filter((r, i) => !na(r) && (r.status === "error" ||
    (r.status === "differs" && firstEdit !== -1 && i >= firstEdit)));
  // Said only of a block that ran, or ran in part: a skipped one ran nothing (a new reader's audit read
  // "so this block still ran:" above "Not run: the page skips this block")
  if (earlier.length && !didNotRun(mine)) {
    output.append(paragraph("bv-run-note", "Some blocks before this one did not go as on the page. " +
      "A Run carries on after a problem, so this block still ran:"),
    element("ul", { class: "bv-run-earlier" }, ...earlier.map((r) => {
      const other = state.page.blocks.find((b) => b.index === r.index);
      const name = other ? blockName(other) : [r.name.replace(/^hidden block/, "A hidden setup block")];
      const why = r.edited ? " (your edit)" : r.status === "differs" ? " (after your edit)" : "";
      return element("li", {}, ...name, `${why}: ${problem(r)}`);
    })));
  }
  if (mine.status === "skipped") { // every example skipped: nothing of it ran, whatever its kind
    const reason = mine.skip?.reason ? ` (${mine.skip.reason})` : "";
    output.append(paragraph("bv-run-note", `Not run: the page skips this block${reason}.`));
    return;
  }
  if (mine.status === "unavailable") { // a package the browser lacks: why, in one line (run_blocks.py)
    // Lines before the import may have run (and printed): a new reader's audit saw "Not run" for
    // a block whose first lines computed what the next block printed.
    const stop = mine.stopped;
    output.append(paragraph("bv-run-note", (stop
      ? `Ran in your browser up to line ${stop.line}, \u201c${stop.code}\u201d, and stopped there: `
      : "Not run in your browser: ") + mine.why + (mine.figure
      ? " The figure below was drawn when the site was built, from the page's code." : "")));
    if (stop && mine.output) output.append(pre("bv-run-out", mine.output.replace(/\n$/, "")));
    return;
  }
  if (na(mine)) { // what it printed on the reader's engine, as it ran, and why it is not compared
    output.append(paragraph("bv-run-note", `Not applicable to your engine: ${mine.applies.join("; ")}. Its ` +
      "results are not compared with the page's, which are micrograd's."));
    const printed = mine.kind === "doctest" ? mine.transcript.map((t) => t.text).join("")
      : `${mine.output ?? ""}${mine.error ?? ""}`;
    if (printed.trim()) output.append(pre("bv-run-out", printed.replace(/\n$/, "")));
    return;
  }
  // A doctest whose examples could not be read (`>>>x`) ran none: its error is shown as a code block's
  if (mine.kind === "doctest" && mine.transcript.length) output.append(...transcript(mine, versionNote));
  else {
    if (mine.output) output.append(pre("bv-run-out", mine.output.replace(/\n$/, "")));
    if (mine.error) output.append(pre("bv-run-out bv-run-error", mine.error));
    if (!mine.output && !mine.error && !mine.dot && !mine.figure && !mine.dot_too_big) {
      output.append(paragraph("bv-run-note", "It ran and printed nothing."));
    }
  }
  // On the reader's engine, a block that went otherwise than on the page: where its grads first part
  // from micrograd's, and why (python/node-by-node.js), as the map's Node by node shows it.
  if (state.diagnose && !na(mine) && (mine.status === "error" || mine.status === "differs")) {
    output.append(nodeByNode(state, mine.status));
  }
  const big = mine.dot_too_big; // run_blocks.py: a graph whose DOT is over the limit the page draws
  const tooBig = big ? `Its graph is too big to draw in the page: ${big.chars.toLocaleString("en")} characters ` +
    `of Graphviz's DOT, over ${big.limit.toLocaleString("en")}.` : "";
  if (tooBig && !mine.figure) output.append(paragraph("bv-run-note", tooBig));
  if (mine.dot && (edited || !mine.figure)) { // draw_dot's graph, drawn in the page (live-figure.js)
    import("./live-figure.js").then((m) => m.showFigure(state, mine));
  } else if (mine.figure) {
    output.append(paragraph("bv-run-note", mine.status === "error" ? "The figure below shows the page's code."
      : tooBig ? `${tooBig} The figure below shows the page's code.`
      : edited ? "Your edit no longer ends in draw_dot(...): the figure below shows the page's code."
        // Nothing was edited: the note says where the figure comes from, not what did not happen
        // (issue 44, item 10: "the unedited code" read as if something had been edited).
        : "The figure below was drawn from this code when the site was built."));
  }
}

/** The Node by node button of a Run on the reader's engine, and the place its answer goes. */
function nodeByNode(state, status) {
  const host = element("div", { class: "bv-map__node", "aria-live": "polite" });
  const button = element("button", { type: "button", class: "md-button bv-run-node", text: "Node by node",
    "aria-label": `Node by node: block ${state.n} on your engine` });
  const args = state.diagnose;
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-disabled")) return;
    button.setAttribute("aria-disabled", "true");
    host.replaceChildren(paragraph("", "Comparing your engine's graph with micrograd's…"));
    try {
      await (await import("../python/node-by-node.js")).showDiagnosis(host, args, status, "your Run");
    } finally {
      button.removeAttribute("aria-disabled");
    }
  });
  return element("div", { class: "bv-run-diagnosis" }, button, host);
}

// A block that stopped at an import the browser lacks, after lines of it ran, ran in part.
const ranInPart = (r) => r.status === "unavailable" && Boolean(r.stopped);
const didNotRun = (r) => r.status === "skipped" || (r.status === "unavailable" && !r.stopped);
/** Block numbers as a sentence says them, a run of three or more as a range: "1 to 20, 22 and 23". */
function blocks(ns) {
  const parts = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j += 1;
    if (j - i >= 2) parts.push(`${ns[i]} to ${ns[j]}`);
    else parts.push(...ns.slice(i, j + 1).map(String));
    i = j + 1;
  }
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * Which blocks ran, from the results alone: "Blocks 1 to 4 ran in 0.05 s.", or, where the page
 * skips a block or the browser lacks what it needs, "Blocks 1, 2 and 4 ran in 0.05 s; block 3
 * did not run." A block that did not run is never counted as run.
 */
export function ranLine(state, results, ms) {
  const number = (r) => state.page.blocks.find((b) => b.index === r.index)?.n;
  const shown = results.filter((r) => !r.hidden && number(r) != null);
  const ran = shown.filter((r) => !didNotRun(r) && !ranInPart(r)).map(number);
  const not = shown.filter(didNotRun).map(number);
  const part = shown.filter(ranInPart).map(number);
  // Counted, and "either" only beside a shown block that did not run (an audit: "did not run
  // either" after "Blocks 1 to 4 ran", and "a block" for two).
  const unrun = results.filter((r) => r.hidden && r.kind !== "clear-namespace" && didNotRun(r)).length;
  const hidden = !unrun ? "" : ` ${unrun === 1 ? "A hidden setup block" : `${unrun} hidden setup blocks`} ` +
    `did not run${not.length ? " either" : ""}.`;
  const time = seconds(ms);
  if (!not.length && !part.length) {
    return (state.n === 1 ? "This block" : `Blocks 1 to ${state.n}`) + ` ran in ${time}.` + hidden;
  }
  const them = [part.length ? `${part.length === 1 ? "block" : "blocks"} ${blocks(part)} ran in part` : "",
    not.length ? `${not.length === 1 ? "block" : "blocks"} ${blocks(not)} did not run` : ""]
    .filter(Boolean).join("; ") + ".";
  if (!ran.length) return `${part.length ? "Nothing ran in full" : "Nothing ran"} (${time}); ${them}${hidden}`;
  const from1 = ran.every((n, i) => n === i + 1) && ran.length > 1;
  return `${from1 ? `Blocks 1 to ${ran.length}` : `${ran.length === 1 ? "Block" : "Blocks"} ${blocks(ran)}`} ` +
    `ran in ${time}; ${them}${hidden}`;
}

/** What went wrong in an earlier block, in one line. */
function problem(r) {
  if (r.error) return lastLine(r.error);
  const wrong = r.transcript.find((s) => s.output && !s.same);
  return wrong?.exception ? lastLine(wrong.text) : "it printed something other than the page shows";
}

/**
 * "Block 3" as a link to it; for a block in a closed fold, with where it is, and the link
 * opens the fold (and every fold around it) and puts the focus on the block's Run button.
 * The block may have no bar yet (it never came near the viewport): the link makes it when
 * followed (a new reader's audit: a fresh load of chapter 4, Run far down, an earlier block
 * failing, gave "The result could not be shown (Cannot read properties of null (reading 'id'))").
 */
function blockName(block) {
  const link = element("a", { href: `#bv-block-${block.n}`, class: "bv-run-link", text: `Block ${block.n}` });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    for (let fold = block.code.closest("details"); fold; fold = fold.parentElement.closest("details")) {
      fold.open = true;
    }
    barOf(block).scrollIntoView({ block: "center" });
    block.run.focus({ preventScroll: true });
  });
  const fold = block.code.closest("details:not([open])");
  const title = fold?.querySelector(":scope > summary")?.textContent.trim();
  return fold ? [link, ` (folded away in \u201c${title || "a fold"}\u201d: the link opens it)`] : [link];
}

/** "" if the page ran in the same Python as the reader's, else a sentence that says how they differ. */
function versions(page, report) {
  const bits = page.bits && report.bits && page.bits !== report.bits;
  if (!bits && !(page.python && report.python && page.python !== report.python)) return "";
  return ` The page ran in ${bits ? `${page.bits}-bit ` : ""}Python ${page.python}; your browser runs ` +
    `${bits ? `${report.bits}-bit ` : ""}Python ${report.python}` + (bits
    ? ", where an object's size in bytes is smaller (pointers of 4 bytes, not 8) and some messages read differently."
    : ", and some messages read differently.");
}

/** A doctest block's text with the actual outputs in it: a summary, then the transcript. */
function transcript(r, versionNote) {
  const pieces = [];
  let differs = 0;
  let differsFromEdit = 0; // of them, examples whose expected output is the reader's edit's, not the page's
  let results = 0;
  let skipped = 0;
  let yours = false; // an example that ran expects what the reader's edit says, not what the page shows
  for (const segment of r.transcript) {
    if (!segment.output) {
      pieces.push(segment.text);
    } else if (segment.skipped) {
      results += 1;
      skipped += 1;
      pieces.push(element("span", { class: "bv-run-skipped", text: segment.text }));
    } else {
      results += 1;
      if (segment.edit) yours = true;
      if (segment.same) {
        pieces.push(segment.text);
        continue;
      }
      differs += 1;
      // What was expected: the page's output, or, for an example the reader wrote or changed, theirs.
      const [label, text] = segment.edit ? ["expected", segment.expected] : ["page", segment.page];
      const expected = text.trim() ? text : "(nothing)"; // an example that expects no output
      if (segment.edit) differsFromEdit += 1;
      const got = segment.text.endsWith("\n") ? segment.text : `${segment.text}\n`;
      const indent = " ".repeat(label.length + 2);
      pieces.push(element("mark", { class: "bv-run-differs", text: got }),
        element("span", { class: "bv-run-page", text: `${label}: ${expected.trimEnd().replace(/\n/g, `\n${indent}`)}\n` }));
    }
  }
  const last = pieces.length - 1;
  if (typeof pieces[last] === "string") pieces[last] = pieces[last].replace(/\n$/, "");
  else if (pieces[last]) pieces[last].textContent = pieces[last].textContent.replace(/\n$/, "");
  // Only examples that ran are results: a skipped one (greyed in the transcript) is said apart.
  const ran = results - skipped;
  const skips = skipped ? ` ${skipped} of its ${results} examples did not run: the page skips ` +
    `${skipped === 1 ? "it" : "them"}${r.skip?.reason ? ` (${r.skip.reason})` : ""}.` : "";
  const against = !differsFromEdit
    ? "differ from the page's: marked, with the page's after \u201cpage:\u201d."
    : differsFromEdit === differs
      ? "differ from the output your edit expects: marked, with it after \u201cexpected:\u201d."
      : "differ: marked, with the page's output after \u201cpage:\u201d and the one your edit expects " +
        "after \u201cexpected:\u201d.";
  const shows = yours ? "it expects" : "the page shows"; // an edited block's expected outputs may be the reader's
  const summary = differs
    ? paragraph("bv-run-fail", `${differs} of ${ran} results ${against}${skips}${versionNote}`)
    : paragraph("bv-run-pass", (r.edited ? "Your edited block ran: " : "") + (!skipped
      ? (r.edited ? `every result is the one ${shows}.` : "Same results as the page.")
      : `${r.edited ? "the" : "The"} ${ran === 1 ? "example that ran gives the result" : `${ran} examples that ran ` +
        "give the results"} ${shows}.`) + skips);
  return [summary, element("pre", { class: "bv-run-out" }, element("code", {}, ...pieces))];
}

function paragraph(className, text) {
  return element("p", { class: className, text });
}

function pre(className, text) {
  return element("pre", { class: className }, element("code", { text }));
}

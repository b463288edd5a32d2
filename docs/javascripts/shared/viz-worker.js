// Graphviz off the page's main thread: a module Web Worker of its own that lays out the DOT
// source viz.js sends and answers with Graphviz's SVG text. viz.js ends this worker
// (worker.terminate()) when the reader presses Stop or a layout runs past its time limit, and
// starts a new one for the next drawing: a layout cannot be interrupted from inside.
//
// Messages in:  {id, dot, module}   module: the address of @viz-js/viz's ES module (viz.js)
// Messages out: {id, type: "started"}              Graphviz is loaded; the layout starts now
//               {id, type: "svg", svg}             the SVG text
//               {id, type: "error", message}       Graphviz's own message, or why it did not load

let viz = null; // Promise of Viz, loaded once per worker
// The most SVG text sent to the page: 2 MB, 55 times the book's largest figure (36 KB, chapter
// 7). A node with peripheries=200000 is 48 characters of DOT and 17 MB of SVG, which the page
// then parses, cleans and parses again on its main thread: 9 s frozen, with Stop out of reach
// (a hostile reader's audit). Measured here, before any of it reaches the page.
const MAX_SVG_CHARACTERS = 2_000_000;

// Attributes whose value multiplies what Graphviz allocates before it writes a character: a node
// with peripheries=2147483647 overflows Graphviz's sizes and takes the browser tab down before
// the SVG limit or the time limit can act (a hostile reader's audit; 20,000 rings already make
// 1.7 million characters of SVG). The book's figures set neither (Graphviz's defaults: 1 ring, 4 sides).
/** @type {Object<string, number>} */
const LIMITS = { peripheries: 10_000, sides: 10_000 };
// An ID as Graphviz's lexer reads one, however long: a name, or a number (scan.l)
const WORD = /(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|-?(?:\.\d+|\d+(?:\.\d*)?))/y;

/**
 * The attribute assignments `name = value` of a DOT text whose value, as Graphviz reads an int
 * (strtol), is over LIMITS, as {name, value}: {name: "peripheries", value: 2147483647}. Read as Graphviz's own lexer reads
 * DOT (lib/cgraph/scan.l), so nothing hides one from it: comments, `#` lines, quoted strings
 * (with \" and a backslash-newline inside, and "a" + "b" joined), HTML strings <...>, plain IDs.
 * @param {string} dot
 * @returns {{name: string, value: number}[]}
 */
export function overLimits(dot) {
  // Besides the lexer, a net that errs on refusing: the name, then digits a few characters on,
  // however the text around them reads (a re-audit got two spellings past the lexer alone).
  const over = [...dot.matchAll(/(peripheries|sides)[^0-9A-Za-z]{0,40}?(\d{5,})/g)]
    .map(([, name, digits]) => ({ name, value: Number(digits) })).filter(({ name, value }) => value > LIMITS[name]);
  /** @type {{id?: string, quoted?: boolean, op?: string}[]} {id, quoted?} or {op} */
  const tokens = [];
  let at = 0;
  while (at < dot.length) {
    const rest = dot.slice(at, at + 2);
    if (/\s/.test(dot[at])) at += 1;
    else if (rest === "/*") at = dot.indexOf("*/", at + 2) < 0 ? dot.length : dot.indexOf("*/", at + 2) + 2;
    else if (rest === "//" || (dot[at] === "#" && (at === 0 || dot[at - 1] === "\n"))) {
      at = dot.indexOf("\n", at) < 0 ? dot.length : dot.indexOf("\n", at);
    } else if (dot[at] === '"') {
      let value = "";
      for (at += 1; at < dot.length && dot[at] !== '"'; at += 1) {
        if (dot[at] === "\\" && dot[at + 1] === '"') value += dot[++at];
        else if (dot[at] === "\\" && dot[at + 1] === "\n") at += 1; // a line continued: both go
        else if (dot[at] === "\\" && dot[at + 1] === "\\") value += dot[at] + dot[++at]; // a pair: both stay
        else value += dot[at];
      }
      at += 1;
      const before = tokens.length >= 2 && tokens[tokens.length - 1].op === "+" ? tokens[tokens.length - 2] : null;
      if (before?.quoted) { tokens.pop(); before.id = `${before.id}${value}`; } else tokens.push({ id: value, quoted: true });
    } else if (dot[at] === "<") {
      let depth = 0;
      const start = at;
      do { depth += dot[at] === "<" ? 1 : dot[at] === ">" ? -1 : 0; at += 1; } while (depth > 0 && at < dot.length);
      tokens.push({ id: dot.slice(start + 1, at - 1) });
    } else {
      WORD.lastIndex = at;
      const word = WORD.exec(dot);
      if (word) tokens.push({ id: word[0] });
      else tokens.push({ op: dot[at] });
      at += word ? word[0].length : 1;
    }
  }
  tokens.forEach((token, i) => {
    const name = String(token.id); // an op's, "undefined", is no limit's name
    const limit = Object.hasOwn(LIMITS, name) ? LIMITS[name] : null;
    const value = tokens[i + 2]?.id;
    if (limit === null || tokens[i + 1]?.op !== "=" || value === undefined) return;
    const number = /^\s*[+-]?\d+/.exec(value);
    if (number && Math.abs(Number(number[0])) > limit) over.push({ name, value: Number(number[0]) });
  });
  return over;
}

self.addEventListener("message", async ({ data: { id, dot, module } }) => {
  let graphviz;
  try {
    viz ??= import(module).then(({ instance }) => instance());
    graphviz = await viz;
  } catch (error) {
    viz = null; // a failed load (offline, say) is tried again on the next message
    self.postMessage({ id, type: "error", message: `Graphviz could not load: ${/** @type {any} */ (error)?.message ?? error}` });
    return;
  }
  self.postMessage({ id, type: "started" });
  const [over] = overLimits(dot);
  if (over) {
    self.postMessage({ id, type: "error", message: `Graphviz was not asked to draw it: ${over.name}=${over.value} ` +
      `is more than ${LIMITS[over.name].toLocaleString("en")}, which takes more memory than a page has and can ` +
      "close the browser tab." });
    return;
  }
  try {
    const result = graphviz.render(dot, { format: "svg", engine: "dot" });
    if (result.status === "success" && result.output.length > MAX_SVG_CHARACTERS) {
      const size = (/** @type {number} */ n) => `${(n / 1e6).toFixed(1)} million characters`;
      self.postMessage({ id, type: "error", message: `Graphviz drew it, but its SVG is ${size(result.output.length)}, ` +
        `more than the page shows (${size(MAX_SVG_CHARACTERS)}): a graph this large draws on your own machine.` });
    } else if (result.status === "success") {
      self.postMessage({ id, type: "svg", svg: result.output });
    } else {
      const message = result.errors.map((/** @type {{message: string}} */ e) => e.message).join(" ") || "Graphviz could not draw this graph";
      self.postMessage({ id, type: "error", message });
    }
  } catch (error) {
    self.postMessage({ id, type: "error", message: String(/** @type {any} */ (error)?.message ?? error) });
  }
});

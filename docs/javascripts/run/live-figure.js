// An edited chapter block's figure, drawn again in the page (issue 18).
//
// When a block's last line gives a Graphviz graph (draw_dot(...)), the reader's Python sends
// back its DOT source (scripts/reader/run_blocks.py); viz.js draws it with Graphviz as WebAssembly,
// with the ids draw_dot gave (n0, n2op, n0-n2-0...), the build's. A figure block run with an
// edit (its own or an earlier block's) shows the new figure in place of the build's: the drawing goes at the end of the block's
// output, which sits right above the build's figure, and live-figure.css hides that figure
// while the output holds a drawing (Reset or the next Run empties the output, and the build's
// figure is back). An unedited block keeps the build's figure: it is the same drawing.
//
// It is laid out as the build lays out its figures (scripts/pages/figures.py; the reader's Python
// sends both layouts): on a phone, top to bottom where that reads larger; on a desktop, top to
// bottom only where that reads at 11 px or more at most DESKTOP_HEIGHT tall, and never shown
// taller than that. Scaled into the column, with its text still under 11 px, it is an overview
// with a Full screen button (shared/figures.js).
//
// Graphviz lays the graph out in a worker (viz.js), so the page answers meanwhile; the note
// says it is drawing and offers Stop, and a layout past viz.js's time limit ends with a message
// saying so. The drawing comes back cleaned of anything active (viz.js) and its ids get this
// block's prefix, so none is the page's.

import { element, loadStylesheet } from "../shared/dom.js";
import { READABLE_PX, offerFullScreen, textPx } from "../shared/figures.js";
import { LayoutStopped, drawSVG } from "../shared/viz.js";

// the tallest a desktop shows a figure, seen whole: a 1280 x 800 window under Material's header
export const DESKTOP_HEIGHT = 752;
export const NARROW = "(max-width: 44.9375em)"; // Material's breakpoint: a phone, a small tablet
const here = import.meta.url;
const parse = (/** @type {string} */ text) => new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
// the size (CSS px) Graphviz drew an <svg> element at: its width or height attribute, in pt or px
const drawn = (svg, side) => parseFloat(svg.getAttribute(side)) * (svg.getAttribute(side).endsWith("pt") ? 4 / 3 : 1);
// the width it shows at in a column `width` CSS px wide, and at most `height` tall (a desktop)
const shownWidth = (svg, width, height = Infinity) =>
  Math.min(drawn(svg, "width"), width, drawn(svg, "width") * height / drawn(svg, "height"));

// The drawing of `mine` for a column `width` CSS px wide, as the build lays out its figures
// (scripts/pages/figures.py): draw_dot's own (left to right), or, where its text would read
// under READABLE_PX in the column, the same graph top to bottom (mine.dot_narrow, the same ids):
// on a phone if its text reads larger there, on a desktop if it reads at READABLE_PX or more at
// most DESKTOP_HEIGHT tall (else the overview keeps its shape: the build's docstring says why).
// limitMs: viz.js's time limit, or the .bv-run element's data-layout-limit-ms (the browser
// tests' shorter one, as run-blocks.js reads its data-timeout-ms).
async function layOut(mine, width, signal) {
  const limitMs = Number(document.querySelector(".bv-run")?.getAttribute("data-layout-limit-ms")) || undefined;
  const desktop = !matchMedia(NARROW).matches;
  const wide = parse(await drawSVG(mine.dot, { signal, limitMs }));
  const shown = (svg) => textPx(svg, shownWidth(svg, width, desktop ? DESKTOP_HEIGHT : undefined));
  if (!mine.dot_narrow || shown(wide) >= READABLE_PX) return wide;
  const narrow = parse(await drawSVG(mine.dot_narrow, { signal, limitMs }));
  return (desktop ? shown(narrow) >= READABLE_PX : shown(narrow) > shown(wide) + 0.5) ? narrow : wide;
}

/** Draw the graph of block `state`'s result `mine` (mine.dot: its DOT source) at the end of its output. */
export async function showFigure(state, mine) {
  const { output } = state;
  const note = element("p", { class: "bv-run-note" });
  // awaited before the drawing goes in: with Graphviz already up (a page reached by instant
  // navigation from the playground), the drawing can come first and show above the build's
  // figure until the stylesheet that hides that one arrives
  const styled = loadStylesheet(new URL("../../stylesheets/live-figure.css", here).href);
  const controller = new AbortController();
  const stop = element("button", { type: "button", class: "md-button bv-run-figure-stop", text: "Stop",
    "aria-label": "Stop drawing the figure" });
  stop.addEventListener("click", () => controller.abort());
  note.append("Drawing your figure with Graphviz… ", stop);
  output.append(note);
  // Reset or a newer Run empties the output: a drawing nobody will see is stopped
  const gone = new MutationObserver(() => { if (!output.contains(note)) controller.abort(); });
  gone.observe(output, { childList: true });
  try {
    const svg = await layOut(mine, output.clientWidth, controller.signal);
    if (!matchMedia(NARROW).matches && drawn(svg, "height") > DESKTOP_HEIGHT) { // seen whole, its shape kept
      svg.setAttribute("width", `${shownWidth(svg, Infinity, DESKTOP_HEIGHT)}px`);
      svg.setAttribute("height", `${DESKTOP_HEIGHT}px`);
    }
    // draw_dot's ids, kept in data-id, unique on the page
    svg.querySelectorAll("[id]").forEach((/** @type {SVGElement} */ el) => {
      el.dataset.id = el.id;
      el.id = `bv-live-${state.n}-${el.id}`;
    });
    for (const name of ["fill", "stroke"]) { // a gradient's reference follows its id
      svg.querySelectorAll(`[${name}^="url(#"]`).forEach((el) => {
        el.setAttribute(name, el.getAttribute(name).replace("url(#", `url(#bv-live-${state.n}-`));
      });
    }
    svg.querySelectorAll("title").forEach((title) => title.remove());
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", mine.figure
      ? `Your version of the figure: the computation graph block ${state.n} now draws`
      : `The computation graph block ${state.n} draws`);
    await styled;
    if (!output.contains(note)) return; // a newer Run or Reset emptied the output meanwhile
    note.textContent = mine.figure // this block edited, or only blocks above it (a re-audit: "your edited code")
      ? `Your figure, drawn in your browser by Graphviz from ${mine.edited ? "your edited code"
        : "this block's code after your edits to the blocks above it"}, in place of the build's ` +
        "(Reset on the edited blocks brings the page's back)."
      : "The graph your block's last line gives, drawn in your browser by Graphviz.";
    output.append(element("figure", { class: "bv-run-figure" }, svg));
    offerFullScreen(svg); // too small to read in its column: a Full screen button under it
  } catch (error) {
    if (!output.contains(note)) return;
    const focused = document.activeElement === stop;
    note.textContent = error instanceof LayoutStopped
      ? `Your figure was not drawn. ${error.message}${mine.figure ? " The figure below shows the page's code." : ""}`
      : `Your figure could not be drawn (${String(error.message ?? error).replace(/\.$/, "")})` + // no ".)."
        (mine.figure ? ": the figure below shows the page's code." : ".");
    if (focused) { // Stop has gone with the text it sat in: the focus goes to what replaced it
      note.setAttribute("tabindex", "-1");
      note.focus();
    }
  } finally {
    gone.disconnect();
  }
}

// Where a number in the prose came from. scripts/pages/number_sources.py makes each number of a
// chapter's prose (or the whole `$...$` formula it sits in) a link to the block that printed it,
// with its source in data-bv-source: [{number, kind, label, code, shown, href}]. Without
// JavaScript it stays a plain link to the block. Here the source shows beside the number:
//
//   hover     shows it; it stays while the pointer is on the number or on the box
//   click     shows it in place and stays on the page: the reader keeps their place, and the
//             box's link goes on to the block
//   focus     shows it (Tab to the number); Enter follows the link, as before
//   tap       the first tap shows it (the box has the link to the block); a second tap on the
//             number follows the link; a tap elsewhere closes it
//   Escape    closes it
//
// A screen reader hears the number once, as the link's text, and its source as the link's
// description (aria-describedby: a hidden element per number, without the printed value).
// One box for the page, placed from one read of the number's and the box's rectangles, in
// one animation frame: no layout read after a write.

import { element, onEveryPage } from "../shared/dom.js";

let box = null; // the page's one box, moved to the number it describes
let shownFor = null; // the number (a link) whose source is shown
let hiding = 0; // the timer that hides the box once the pointer has left number and box
let touched = null; // the number a touch pressed while its source was not shown: its click opens
let touchedBefore = false; // a touch pressed the number whose source is shown: its click follows
let count = 0; // descriptions made this session: their ids are unique across instant navigation

/** Bind one number (an `a.bv-number` that scripts/pages/number_sources.py wrote). */
export function init(link) {
  const sources = grouped(JSON.parse(link.dataset.bvSource));
  link.sources = sources;
  const description = element("span", { id: `bv-number-source-${++count}`, hidden: "", text: describe(sources) });
  link.after(description);
  link.setAttribute("aria-describedby", description.id);
  link.addEventListener("pointerenter", (event) => event.pointerType !== "touch" && show(link));
  link.addEventListener("pointerleave", (event) => event.pointerType !== "touch" && hideSoon());
  link.addEventListener("focus", () => show(link));
  link.addEventListener("blur", (event) => {
    if (!box?.contains(event.relatedTarget)) hideSoon();
  });
  // (a tap focuses the number before its click, which would show the source: read it first)
  link.addEventListener("pointerdown", (event) => {
    touched = event.pointerType === "touch" && shownFor !== link ? link : null;
    touchedBefore = event.pointerType === "touch" && shownFor === link; // a second tap: it follows
  });
  link.addEventListener("click", (event) => {
    if (touched === link) {
      event.preventDefault(); // the first tap shows the source; the next one follows the link
      show(link);
    } else if (event.detail > 0 && !touchedBefore) {
      event.preventDefault(); // a mouse click shows it in place (Enter, a keyboard click, has detail 0)
      show(link);
    }
    touched = null;
    touchedBefore = false;
  });
  listenOnce();
}

/** A formula's numbers with one source said once: "1, 2" before it, not a line for each. */
function grouped(sources) {
  const by = new Map();
  for (const source of sources) {
    const key = JSON.stringify([source.kind, source.label, source.code, source.shown]);
    const known = by.get(key);
    if (!known) by.set(key, { ...source, numbers: [source.number] });
    else if (!known.numbers.includes(source.number)) known.numbers.push(source.number);
  }
  return [...by.values()].map((source) => ({ ...source, number: source.numbers.join(", ") }));
}

/** The source as a sentence, without the printed value the reader has just heard. */
function describe(sources) {
  const one = (s) => {
    const what = s.kind === "figure" ? `${s.label}, ${s.code ?? ""}` : `${s.label}: ${s.code ?? "printed"}`;
    return sources.length > 1 ? `${s.number}: ${what}` : what;
  };
  return `Source: ${sources.map(one).join("; ")}`;
}

let listening = false;

function listenOnce() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shownFor) hide();
  });
  document.addEventListener("pointerdown", (event) => {
    if (shownFor && !shownFor.contains(event.target) && !box.contains(event.target)) hide();
  });
  onEveryPage(hide); // Material's instant navigation keeps the box: not the last page's source
  // The page's height changes while the box is shown (a figure, an editor or a widget above the
  // number lays itself out late): the box is placed again, so it stays by its number.
  new ResizeObserver(() => shownFor && requestAnimationFrame(() => shownFor && place(shownFor)))
    .observe(document.body);
}

function makeBox() {
  const made = element("div", { class: "md-typeset bv-number-pop", hidden: "" });
  made.addEventListener("pointerenter", () => clearTimeout(hiding));
  made.addEventListener("pointerleave", (event) => event.pointerType !== "touch" && hideSoon());
  made.addEventListener("focusout", (event) => {
    if (!made.contains(/** @type {Node | null} */ (event.relatedTarget)) && event.relatedTarget !== shownFor) hideSoon();
  });
  document.body.append(made);
  return made;
}

function show(link) {
  clearTimeout(hiding);
  if (!box?.isConnected) box = makeBox();
  if (shownFor !== link) {
    shownFor?.removeAttribute("data-bv-shown");
    box.replaceChildren(...link.sources.map((source) => line(source, link.sources.length > 1)),
      element("p", { class: "bv-number-pop__go" },
        element("a", { href: link.getAttribute("href"), text: goText(link.sources[0]) })));
    shownFor = link;
    link.setAttribute("data-bv-shown", "");
  }
  box.hidden = false;
  box.style.visibility = "hidden"; // measured before it is seen where it was last
  requestAnimationFrame(() => place(link));
}

function goText(source) {
  const place = /(block|cell) (\d+)/i.exec(source.label); // a chapter's block, the notebook's cell
  return place ? `Go to ${place[1].toLowerCase()} ${place[2]}` : "Go to the source";
}

/** One source: "Block 5: `a.grad` → `10.0`", "Block 7 checks it: `assert …`", a chosen input's
 * "Set here, in block 1 (a chosen input): `a = Value(2.0)`",
 * "Figure 2, drawn by block 4 with `draw_dot(f)`, shows `data 2.0000`". */
function line(source, withNumber) {
  const code = (text) => element("code", { text });
  const parts = [];
  if (withNumber) parts.push(element("span", { class: "bv-number-pop__number", text: source.number }), " ");
  if (source.kind === "figure") { // "Figure 2, drawn by block 4": the figure's name in bold
    const [figure, ...rest] = source.label.split(", ");
    parts.push(element("strong", { text: figure }), `, ${rest.join(", ")}`);
    if (source.code) parts.push(" with ", code(source.code));
    parts.push(", shows ", code(source.shown));
  } else if (source.kind === "assertion" || source.kind === "set") { // "Set here, in block 3 (a chosen input): `a = …`"
    parts.push(element("strong", { text: source.label }), ": ", code(source.code));
  } else {
    parts.push(element("strong", { text: source.label }));
    if (source.code) parts.push(": ", code(source.code), " → ", code(source.shown));
    else parts.push(" printed ", code(source.shown));
  }
  return element("p", { class: "bv-number-pop__source" }, ...parts);
}

/** Below the number, or above it where the window has no room below; inside the window. */
function place(link) {
  if (shownFor !== link || box.hidden) return;
  const at = link.getClientRects()[0] ?? link.getBoundingClientRect(); // reads, once
  const size = box.getBoundingClientRect();
  const margin = 8;
  const left = Math.max(margin, Math.min(at.left, window.innerWidth - size.width - margin));
  const below = at.bottom + 6;
  const top = below + size.height > window.innerHeight - margin && at.top - 6 - size.height > margin
    ? at.top - 6 - size.height : below;
  box.style.left = `${left + window.scrollX}px`; // then writes
  box.style.top = `${top + window.scrollY}px`;
  box.style.visibility = "";
}

function hideSoon() {
  clearTimeout(hiding);
  hiding = window.setTimeout(hide, 200); // time to move the pointer from the number onto the box
}

function hide() {
  clearTimeout(hiding);
  if (box) box.hidden = true;
  shownFor?.removeAttribute("data-bv-shown");
  shownFor = null;
}

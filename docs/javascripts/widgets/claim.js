// A checked sentence (scripts/pages/claims.py): the quiet mark after it opens, in place, the
// check that the page's code ran where the sentence stands: the expression, its value (True),
// the values it read and a link to the block that set them. The build writes the mark and its
// box hidden; without JavaScript the sentence reads as plain text.
//
//   click, tap, Enter or Space on the mark   opens the box below the line, or closes it
//   Escape (on the mark or in the box)        closes it, and the mark keeps the focus
//
// A screen reader hears the mark as "Checked sentence: show the check", a button that
// expands; the box follows it in reading order.

/** Bind one mark (a `button.bv-claim` with aria-controls naming its box). */
export function init(button) {
  const box = document.getElementById(button.getAttribute("aria-controls") ?? "");
  if (!box) return;
  button.hidden = false;
  button.addEventListener("click", () => toggle(button, box, box.hidden));
  const close = (event) => {
    if (event.key !== "Escape" || box.hidden) return;
    toggle(button, box, false);
    button.focus();
  };
  button.addEventListener("keydown", close);
  box.addEventListener("keydown", close);
}

function toggle(button, box, open) {
  box.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
  button.setAttribute("aria-label", `Checked sentence: ${open ? "hide" : "show"} the check`);
  button.toggleAttribute("data-bv-shown", open);
}

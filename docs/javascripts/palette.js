// The header's light and dark switch (scripts/overrides/partials/palette.html: Material's
// markup), run by the site instead of Material's palette component, which restyled the whole
// page twice as every page loaded. The page opens in its scheme already
// (scripts/overrides/partials/javascripts/palette.html, an inline script in the header); this
// module does what happens after: the reader's switch, and the browser's colours that follow it.
//
// A reader's choice is kept as Material keeps it (localStorage, __md_set("__palette"),
// {index, color: {media, scheme, primary, accent}}), so a choice made before carries over.
// A reader who never chose gets the scheme their system asks for, on each page they open.

/** Material's localStorage, scoped to the site (defined by the script at the top of each page's head). */
const materialSet = /** @type {(key: string, value: unknown) => void} */ (
  /** @type {any} */ (globalThis).__md_set);

const form = /** @type {HTMLFormElement | null} */ (document.querySelector("form[data-bv-palette]"));
const header = document.querySelector("header");
const NAMES = ["media", "scheme", "primary", "accent"];

/** Sets the browser's colours from the header's style (the header's inline script defines it). */
const setBrowserColours = /** @type {() => void} */ (/** @type {any} */ (globalThis).__bv_browser_colours);

/**
 * The browser's own parts in the page's new scheme: its scroll bar and form controls
 * (color-scheme) and a phone's address bar (theme-color, the header's colour), as the page's
 * inline script set them at load, with its function. Run in a ResizeObserver callback, which
 * the browser calls once it has styled and laid out the frame, so reading the header's style
 * forces no work. `then` runs last.
 */
function browserColours(then = () => {}) {
  const observer = new ResizeObserver(() => {
    observer.disconnect();
    setBrowserColours();
    then();
  });
  observer.observe(header);
}

if (form && header) {
  const inputs = [...form.querySelectorAll("input")];
  let current = Math.max(0, inputs.findIndex((input) => input.checked));

  /** The reader chose option `index`: its colours on the body, the other switch shown, kept. */
  const choose = (index) => {
    current = index;
    const input = inputs[index];
    const color = Object.fromEntries(NAMES.map((name) => [name, input.getAttribute(`data-md-color-${name}`)]));
    // Material's stylesheet holds every transition while this attribute is on: the colours
    // change at once, not each at its own pace
    document.body.setAttribute("data-md-color-switching", "");
    for (const name of NAMES) document.body.setAttribute(`data-md-color-${name}`, color[name]);
    inputs.forEach((other, i) => {
      const label = other.nextElementSibling;
      if (label instanceof HTMLLabelElement) label.hidden = i !== index;
    });
    materialSet("__palette", { index, color });
    browserColours(() => document.body.removeAttribute("data-md-color-switching"));
  };

  inputs.forEach((input, index) => input.addEventListener("change", () => {
    if (input.checked) choose(index);
  }));
  // Enter on the focused switch goes to the next scheme, as with Material's (arrow keys move
  // between the radio buttons by themselves)
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const next = inputs[(current + 1) % inputs.length];
    next.click();
    next.focus();
  });
}

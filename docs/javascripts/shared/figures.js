// Full screen, to pan and pinch-zoom, in GLightbox (from mkdocs-glightbox): a figure as the
// page shows it, a graph drawn in the page (a stepper's, a Run's) as it is now.

import { element, loadStylesheet } from "./dom.js";

export const READABLE_PX = 11; // the smallest text a graph shows without opening it full screen

// GLightbox's files, copied into assets/ by mkdocs-glightbox: fetched on the first open, not by
// every page (scripts/build/hooks/lightbox.py).
const ASSETS = new URL("../../assets/", import.meta.url);
let glightbox; // Promise of the GLightbox function
function loadGLightbox() {
  glightbox ??= Promise.all([
    // UMD: as a module it sets self.GLightbox
    import(new URL("javascripts/glightbox.min.js", ASSETS).href),
    loadStylesheet(new URL("stylesheets/glightbox.min.css", ASSETS).href),
  ]).then(() => /** @type {any} */ (window).GLightbox, (error) => {
    glightbox = undefined; // tried again at the next open
    throw error;
  });
  return glightbox;
}

/** Opens `href` (an image URL) full screen with `alt` as its text; `back` gets focus on close.
 * Rejects if GLightbox did not load. @param {string} href @param {string | null} alt @param {HTMLElement} [back] */
export async function openFullScreen(href, alt, back) {
  const GLightbox = await loadGLightbox();
  const box = GLightbox({ elements: [{ href, type: "image", alt }], draggable: false, loop: false,
    openEffect: "fade", closeEffect: "fade" });
  box.on("close", () => { box.destroy(); back?.focus({ preventScroll: true }); });
  box.open();
}

/** CSS px of the smallest text of a Graphviz <svg> element shown `width` CSS px wide.
 * @param {Element} svg @param {number} width */
export function textPx(svg, width) {
  const scale = /scale\(([\d.]+)/.exec(svg.querySelector("g.graph")?.getAttribute("transform") ?? "");
  const sizes = Array.from(svg.querySelectorAll("text[font-size]"), (t) => Number(t.getAttribute("font-size")));
  return Math.min(...sizes) * (scale ? Number(scale[1]) : 1) * width / /** @type {SVGSVGElement} */ (svg).viewBox.baseVal.width;
}

// The graph as an image of itself now: the page's paint (a stepper's marked nodes) written on
// each element, the hit lines left out; a data: URL (the documented CSP allows no blob: image).
const PAINT = ["fill", "stroke", "stroke-width", "font-weight", "opacity"];
/** @param {Element} svg */
function snapshot(svg) {
  const copy = /** @type {Element} */ (svg.cloneNode(true)), painted = svg.querySelectorAll("*");
  copy.querySelectorAll("*").forEach((el, i) => {
    const style = getComputedStyle(painted[i]);
    el.setAttribute("style", PAINT.map((p) => `${p}:${style.getPropertyValue(p)}`).join(";"));
  });
  copy.querySelectorAll(".bv-hit").forEach((hit) => hit.remove());
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  return `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
}

// While a graph drawn in the page shows its text under READABLE_PX (scaled to fit its column),
// its Full screen button stands under it. Read after layout, never forcing one.
/** @type {WeakMap<Element, HTMLButtonElement>} <svg> -> its button */
const zooms = new WeakMap();
const overview = new ResizeObserver((entries) => {
  for (const { target: svg } of entries) {
    const zoom = /** @type {HTMLButtonElement} */ (zooms.get(svg));
    if (!svg.isConnected) overview.unobserve(svg); // gone (a new preset, Reset, a newer Run)
    if (svg.isConnected && textPx(svg, svg.getBoundingClientRect().width) < READABLE_PX) {
      if (!zoom.isConnected) svg.after(zoom);
    } else zoom.remove();
  }
});

/** Gives `svg`, a Graphviz drawing just put in the page, a Full screen button while it is an overview.
 * @param {Element} svg */
export function offerFullScreen(svg) {
  const zoom = element("button", { type: "button", class: "bv-button bv-fullscreen",
    "aria-label": "Open the graph full screen, to pan and zoom" }, "Full screen");
  zoom.addEventListener("click", () => openFullScreen(snapshot(svg), svg.getAttribute("aria-label"), zoom)
    .catch((error) => console.error("Full screen: GLightbox did not load", error)));
  zooms.set(svg, zoom);
  overview.observe(svg);
}

// widgets.js binds each a.bv-figure__open (scripts/pages/figures.py).
/** @param {HTMLAnchorElement} link */
export function init(link) {
  link.addEventListener("click", (event) => {
    const img = link.querySelector("img");
    if (event.ctrlKey || event.metaKey || event.shiftKey || !img) return; // a new tab: the SVG
    event.preventDefault();
    openFullScreen(img.currentSrc || img.src, img.alt, link).catch((error) => {
      console.error("Full screen: GLightbox did not load, so the figure opens as a page", error);
      location.assign(link.href);
    });
  });
}

// A figure opens full screen on a tap or a click, to pan and pinch-zoom: GLightbox (served by
// mkdocs-glightbox, a script of the page's head). It shows the layout the page shows (the
// <picture>'s current source: on a phone, the build's top-to-bottom one) or, for a widget's
// graph, the graph as it is at this step. Without GLightbox the link opens the SVG itself.

/** Opens `href` (an image URL) full screen with `alt` as its text; `back` gets focus on close. */
export function openFullScreen(href, alt, back) {
  const GLightbox = window.GLightbox;
  if (!GLightbox) return false;
  const box = GLightbox({
    elements: [{ href, type: "image", alt }],
    touchNavigation: true, zoomable: true, draggable: false, loop: false,
    openEffect: "fade", closeEffect: "fade",
  });
  box.on("close", () => {
    box.destroy();
    if (href.startsWith("blob:")) URL.revokeObjectURL(href);
    back?.focus({ preventScroll: true });
  });
  box.open();
  return true;
}

// figures.js binds each a.bv-figure__open (scripts/pages/figures.py) through widgets.js.
export function init(link) {
  link.addEventListener("click", (event) => {
    const img = link.querySelector("img");
    if (event.ctrlKey || event.metaKey || event.shiftKey || !img) return; // a new tab: the SVG
    if (openFullScreen(img.currentSrc || img.src, img.alt, link)) event.preventDefault();
  });
}

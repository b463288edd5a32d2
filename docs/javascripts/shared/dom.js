// Small DOM helpers shared by the widgets, the exercises and Run on chapter blocks.

// element("button", {type: "button"}, "Run") -> <button type="button">Run</button>.
// Children are nodes or strings (an empty string adds nothing, so CSS :empty still holds);
// the attribute "text" sets the text instead.
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== ""));
  return node;
}

// Adds <link rel="stylesheet" href> once; resolves once loaded (or failed). Material's instant
// navigation drops it from <head> with the page: called on the next page, it puts it back.
const stylesheets = new Map(); // href -> {link, loaded: Promise}
export function loadStylesheet(href) {
  const known = stylesheets.get(href);
  if (known?.link.isConnected) return known.loaded;
  // in the page's <head> already, alone or in site.css (main.html): a second sheet would restyle the page
  if ([...document.styleSheets].some((sheet) => sheet.href === href)
    || document.querySelector(`[data-bv-parts~="${href.split("/").pop()}"]`)) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  document.head.append(link);
  stylesheets.set(href, { link, loaded });
  return loaded;
}

// Calls fn() for the page shown: once parsed, and after each of Material's instant navigations,
// which swap the content in and keep this JavaScript (and python.js's worker). Material's
// `document$` (a global ReplaySubject) emits each page; without it, fn runs once.
// fn runs in a task of its own, after Material's (issue 27, item 6).
export function onEveryPage(fn) {
  const pages = /** @type {any} */ (window).document$; // Material's, untyped
  if (pages?.subscribe) pages.subscribe(() => setTimeout(fn));
  else fn();
}

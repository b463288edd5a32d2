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

// Adds <link rel="stylesheet" href> to the page once; resolves when it has loaded (or failed),
// so what it styles can wait for it rather than show unstyled first. Material's instant
// navigation removes from <head> what the next page's <head> does not have, this link among
// them: called again on that page, it puts the link back.
const stylesheets = new Map(); // href -> {link, loaded: Promise}
export function loadStylesheet(href) {
  const known = stylesheets.get(href);
  if (known?.link.isConnected) return known.loaded;
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

// Calls fn() for the page now shown: once after the page is parsed, and again after each of
// Material's instant navigations (navigation.instant), which swap the page's content in
// place and keep this JavaScript, python.js's worker with it. Material's `document$` (an
// RxJS ReplaySubject, a global of its bundle) emits the document each time; without it
// (a page not built by Material) fn runs once.
export function onEveryPage(fn) {
  if (window.document$?.subscribe) window.document$.subscribe(() => fn());
  else fn();
}

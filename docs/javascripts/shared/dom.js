// Small DOM helpers shared by the widgets, the exercises and Run on chapter blocks.

// element("button", {type: "button"}, "Run") -> <button type="button">Run</button>.
// Children are nodes or strings (an empty string adds nothing, so CSS :empty still holds);
// the attribute "text" sets the text instead.
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Object<string, any>} attributes @param {...(Node | string)} children
 */
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
/** @type {Map<string, {link: HTMLLinkElement, loaded: Promise<unknown>}>} */
const stylesheets = new Map();
/** @param {string} href */
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
/** @param {() => void} fn */
export function onEveryPage(fn) {
  const pages = /** @type {any} */ (window).document$; // Material's, untyped
  if (pages?.subscribe) pages.subscribe(() => setTimeout(fn));
  else fn();
}

// Widgets are bound near the viewport, not at load: chapter 4's 33 Run bars, quizzes, exercises
// and stepper each made the browser lay out and paint the whole page again (issue 27, item 6).
// whenNear calls bind() once `element` (if hidden, the shown element before it) is within a
// screen of the viewport, or at once with window.bvBindAtOnce (the browser tests); it resolves
// when the element is first placed: to bind()'s promise if it was near, else to undefined.
/** @type {Map<Element, {target: Element, placed: (value?: unknown) => void, bind: () => void}>} */
const waiting = new Map();
/** @type {IntersectionObserver} made on the first wait */
let observer;
/** @param {Element} element @param {() => unknown} bind @returns {Promise<unknown>} */
export function whenNear(element, bind) {
  if (/** @type {any} */ (window).bvBindAtOnce === true || !window.IntersectionObserver) {
    return Promise.resolve().then(bind);
  }
  for (const [waiter, job] of waiting) { // a page gone: unobserved, it is freed
    if (!waiter.isConnected) { waiting.delete(waiter); observer.unobserve(job.target); }
  }
  let target = /** @type {HTMLElement} */ (element);
  while (target.hidden) target = /** @type {HTMLElement} */ (target.previousElementSibling ?? target.parentElement);
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      for (const [waiter, job] of waiting) {
        if (job.target === entry.target) entry.isIntersecting ? bindNow(waiter) : job.placed();
      }
    }
  }, { rootMargin: "100% 0px" });
  return new Promise((placed) => {
    waiting.set(element, { target, placed, bind: () => placed(Promise.resolve().then(bind)) });
    observer.observe(target);
  });
}

/** @param {Element} element */
function bindNow(element) {
  const job = /** @type {{target: Element, bind: () => void}} */ (waiting.get(element));
  waiting.delete(element);
  observer.unobserve(job.target); // another waiter on it is called in the same loop
  job.bind();
}

// Binds every widget still waiting (widgets.js: at a reader's Tab, which moves anywhere).
export function bindWaiting() {
  for (const element of [...waiting.keys()]) if (element.isConnected) bindNow(element);
}

// Graphviz for the page: draws the DOT source that draw_dot (or any Graphviz graph) gave in the
// reader's Python, off the main thread, and hands back an SVG with nothing active in it.
//
// Graphviz is the npm package @viz-js/viz (pinned in package.json), served by the site from
// assets/viz/<version>/ (scripts/build/site_assets.py): one ES module with Graphviz's WebAssembly
// inside, 1.2 MB raw, 0.47 MB compressed. It runs in a module Web Worker of its own
// (viz-worker.js), started on the first drawing (an edited block that ends in a graph, the
// playground, a stepper's new values), never with a page, so a layout never freezes the page.
// A layout has a time limit (TIME_LIMIT_MS) and can be stopped (options.signal): either ends the
// worker, and the next drawing starts a new one.
//
// What Graphviz draws comes from the reader, who can give a node URL="javascript:…", an
// image, a stylesheet, an id or class of the page's: the SVG is cleaned by DOMPurify (npm
// dompurify, pinned; assets/dompurify/<version>/, loaded with the first drawing) with its SVG
// profile and no links, images, styles or event handlers; only Graphviz's own classes stay.
// Nodes and edges keep the ids draw_dot gave them (n0, n2op, n0-n2-0...), the same as in the
// figures Graphviz drew when the site was built: the callers bind by them and prefix them
// (graph.js, live-figure.js), so no id of the page is taken. The page's `.bv-python` element
// names both modules (data-viz, data-sanitizer).

export const TIME_LIMIT_MS = 10_000;

/** A layout that did not finish: stopped by the reader or by the time limit (message says which). */
export class LayoutStopped extends Error {}

const CLEAN = {
  USE_PROFILES: { svg: true },
  // anything that links, loads, styles or animates: Graphviz's drawing needs none of it
  FORBID_TAGS: ["a", "image", "style", "pattern", "filter", "mask", "mpath", "tref", "altglyph", "glyphref",
    "animatecolor", "animatemotion", "animatetransform", "switch", "view", "font", "symbol"],
  FORBID_ATTR: ["href", "xlink:href", "style", "tabindex"],
  RETURN_DOM_FRAGMENT: true,
};
const CLASSES = new Set(["graph", "node", "edge", "cluster"]); // Graphviz's own; the page's CSS reads them
// The attributes Graphviz's SVG has (Graphviz 16, every shape, style, gradient and HTML label), and
// only those, lower-cased as DOMPurify names them. A value Graphviz copies from the reader's graph
// (fontname) is written unescaped: fontname='x" mask="image-set(…)' added a mask that loaded an
// image from another host. An attribute Graphviz never writes is the reader's, and goes.
const ATTRIBUTES = new Set(["baseline-shift", "class", "cx", "cy", "d", "fill", "fill-opacity", "font-family",
  "font-size", "font-style", "font-weight", "fx", "fy", "gradientunits", "gradienttransform", "height", "id",
  "offset", "points", "r", "rx", "ry", "stop-color", "stop-opacity", "stroke", "stroke-dasharray",
  "stroke-opacity", "stroke-width", "text-anchor", "text-decoration", "transform", "version", "viewbox",
  "width", "x", "x1", "x2", "y", "y1", "y2"]);
const LOCAL_URL = /^url\(#[\w.:-]*\)$/; // a gradient of the drawing itself: fill="url(#l_0)"
const TRANSFORMS = new Set(["rotate", "translate", "scale", "matrix"]);

/**
 * Whether a value may stay: the functions Graphviz writes, and nothing else. It calls rotate(),
 * translate() and scale() in a transform, and url(#id) for a gradient of its own; any other call
 * (image-set(), src(), paint(), a url() to anywhere) is the reader's, through a value Graphviz
 * copies, and only a browser's choice away from loading something (a hostile audit found
 * image-set() in a fill kept, and loading nothing only because Chromium does not paint with it).
 * A backslash goes too: an escape could spell any of them.
 * @param {string} name  the attribute, lower-cased
 * @param {string} value
 */
function keptValue(name, value) {
  if (value.includes("\\")) return false;
  const calls = [...value.matchAll(/([\w-]*)\s*\(/g)].map((match) => match[1].toLowerCase());
  if (!calls.length) return true;
  if (name === "transform" || name === "gradienttransform") return calls.every((call) => TRANSFORMS.has(call));
  return LOCAL_URL.test(value.trim());
}

/** The address of the page's `name` module (.bv-python's data-sanitizer, data-viz). @param {string} name */
const address = (name) => {
  const value = /** @type {HTMLElement | null} */ (document.querySelector(".bv-python"))?.dataset[name];
  if (!value) throw new Error(`this page names no ${name} module (.bv-python data-${name})`);
  return new URL(value, location.href).href;
};

/** @type {Promise<any> | null} DOMPurify, set up; its types are not installed */
let sanitizer = null;

/** Resolves to a DOMPurify of its own, set up for Graphviz's SVG; loaded once per page. */
function loadSanitizer() {
  sanitizer ??= (async () => {
    const { default: DOMPurify } = await import(address("sanitizer"));
    const purify = DOMPurify(window);
    purify.addHook("beforeSanitizeAttributes", (/** @type {Element} */ node) => { // a gradient's colours: attributes, not CSS
      if (node.localName !== "stop") return;
      const style = node.getAttribute("style") ?? "";
      for (const [, name, value] of style.matchAll(/(stop-(?:color|opacity)):([#\w.]+)(?=;|$)/g)) {
        node.setAttribute(name, value);
      }
    });
    /** @typedef {{attrName: string, attrValue: string, keepAttr: boolean}} Attribute DOMPurify's, for the hook */
    purify.addHook("uponSanitizeAttribute", (/** @type {Element} */ node, /** @type {Attribute} */ data) => {
      if (!ATTRIBUTES.has(data.attrName)) {
        data.keepAttr = false;
      } else if (data.attrName === "class") {
        data.attrValue = data.attrValue.split(/\s+/).filter((name) => CLASSES.has(name)).join(" ");
        data.keepAttr = data.attrValue !== "";
      } else if (!keptValue(data.attrName, data.attrValue)) {
        data.keepAttr = false; // a url() to anywhere, image-set() and the like: the reader's
      }
    });
    return purify;
  })();
  sanitizer.catch(() => { sanitizer = null; }); // a failed load (offline, say) is tried again next time
  return sanitizer;
}

/** `svgText` (Graphviz's) parsed as SVG and cleaned: the <svg> element's text. @param {any} purify @param {string} svgText */
function clean(purify, svgText) {
  const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  if (parsed.localName !== "svg") throw new Error("Graphviz's drawing could not be read");
  const svg = purify.sanitize(parsed, CLEAN).firstElementChild;
  if (svg?.localName !== "svg") throw new Error("nothing of Graphviz's drawing was left to show");
  return new XMLSerializer().serializeToString(svg);
}

/** @type {Worker | null} Graphviz's worker, started on the first drawing */
let worker = null;
/** @type {Promise<unknown>} each drawing waits for the one before: a worker lays out one graph at a time */
let queue = Promise.resolve();
let count = 0;

const STOPPED = "Stopped: you pressed Stop before Graphviz had laid out this graph.";
const tooLong = (/** @type {number} */ limitMs) => `Stopped after ${limitMs / 1000} s: Graphviz was still laying out this graph, ` +
  "which is too large to draw in the page. A smaller graph draws; so does this one with Graphviz on your " +
  "own machine.";

/**
 * Lay `dot` out in the worker: resolves to Graphviz's SVG text. See drawSVG for the options.
 * @param {string} dot @param {AbortSignal | undefined} signal @param {number} limitMs
 * @returns {Promise<string>}
 */
function layout(dot, signal, limitMs) {
  const before = queue;
  /** @type {(value?: unknown) => void} set at once, by the promise's executor */
  let release = () => {};
  queue = new Promise((resolve) => { release = resolve; });
  return new Promise((resolve, reject) => {
    /** @type {((error: Error) => void) | null} ends the worker, once it has this drawing */
    let kill = null;
    let done = false;
    /** @param {(value: any) => void} settle @param {unknown} value */
    const finish = (settle, value) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      release();
      settle(value);
    };
    const onAbort = () => (kill ? kill(new LayoutStopped(STOPPED)) : finish(reject, new LayoutStopped(STOPPED)));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    before.then(() => {
      if (done) return release(); // stopped while it waited its turn
      worker ??= new Worker(new URL("./viz-worker.js", import.meta.url), { type: "module", name: "graphviz" });
      const mine = worker;
      const id = ++count;
      /** @type {number | undefined} */
      let timer;
      /** @param {(value: any) => void} settle @param {unknown} value */
      const end = (settle, value) => {
        clearTimeout(timer);
        mine.removeEventListener("message", onMessage);
        mine.removeEventListener("error", onError);
        finish(settle, value);
      };
      /** @param {Error} error */
      const stop = (error) => {
        mine.terminate(); // a layout cannot be interrupted from inside: the worker goes
        if (worker === mine) worker = null;
        end(reject, error);
      };
      kill = stop;
      const onMessage = (/** @type {MessageEvent} */ { data }) => {
        if (data.id !== id) return;
        if (data.type === "started") timer = setTimeout(() => stop(new LayoutStopped(tooLong(limitMs))), limitMs);
        else if (data.type === "svg") end(resolve, data.svg);
        else end(reject, new Error(data.message));
      };
      const onError = (/** @type {ErrorEvent} */ event) => stop(new Error(`Graphviz's worker failed${event.message ? `: ${event.message}` : ""}`));
      mine.addEventListener("message", onMessage);
      mine.addEventListener("error", onError);
      try {
        mine.postMessage({ id, dot, module: address("viz") });
      } catch (error) {
        end(reject, error);
      }
    });
  });
}

/**
 * SVG text of `dot`, laid out by Graphviz's dot layout in its worker and cleaned (see above).
 * options.signal: an AbortSignal; aborting it stops the drawing. options.limitMs: the time
 * the layout may take (TIME_LIMIT_MS). Throws LayoutStopped when stopped or out of time, an
 * Error with Graphviz's own message when it cannot draw the graph.
 * @param {string} dot
 * @param {{signal?: AbortSignal, limitMs?: number}} [options]
 * @returns {Promise<string>}
 */
export async function drawSVG(dot, { signal, limitMs = TIME_LIMIT_MS } = {}) {
  const [svg, purify] = await Promise.all([layout(dot, signal, limitMs), loadSanitizer()]);
  return clean(purify, svg);
}

// The reader's Python stays on this site: python-worker.js calls confine() once Pyodide
// has loaded, before any of the reader's code runs. From then on, whatever the worker's
// JavaScript or Python (through `js`, pyodide.http, pyodide.code.run_js) asks for:
//
// - fetch and XMLHttpRequest reach the site's own origin only;
// - what could reach another host, or run code that could (a worker, eval, a string
//   given to setTimeout, a new Function, whose import() loads from anywhere), throws.
//
// Each is replaced where the browser defines it (fetch on WorkerGlobalScope.prototype,
// WebSocket on the global), as a property nothing can redefine. A URL is read once: the text
// checked is the text that goes on. What a check uses (URL, Request's url, Reflect.apply) is
// kept from before the reader's code. This is the only module that wraps fetch.
// The Content-Security-Policy (MAINTAINERS.md; every page's <meta>) says the same.

const { apply } = Reflect;
const getter = (/** @type {any} */ type, /** @type {string} */ name) => /** @type {any} */ (Object.getOwnPropertyDescriptor(type.prototype, name)).get;

const REFUSED = ["importScripts", "WebSocket", "WebSocketStream", "EventSource", "WebTransport", "Worker",
  "SharedWorker", "FontFace", "Notification", "eval", "caches"];

const refusal = (/** @type {string} */ what) => new TypeError(`${what} is blocked: Python on this page can reach this site ` +
  "only (no other host, no WebSocket, no worker, no eval).");

/** Replace `name` on the object of `scope`'s prototype chain that holds it; false if none does.
 * @param {object} scope @param {string} name @param {*} value */
function replace(scope, name, value) {
  for (let holder = scope; holder; holder = Object.getPrototypeOf(holder)) {
    if (Object.getOwnPropertyDescriptor(holder, name)) {
      Object.defineProperty(holder, name, { value, writable: false, configurable: false, enumerable: false });
      return true;
    }
  }
  return false;
}

/** A function that refuses to run or construct, standing in for `name`. @param {string} name */
function refused(name) {
  return new Proxy(function blocked() {}, {
    apply() { throw refusal(name); },
    construct() { throw refusal(name); },
  });
}

/** Confine `scope` (a worker's global) to its own origin; returns the names it replaced. @param {any} scope */
export function confine(scope = self) {
  const { origin, href } = scope.location;
  const { fetch, Request, URL, XMLHttpRequest } = scope;
  const originOf = getter(URL, "origin");
  const urlOf = getter(Request, "url");
  const ours = (/** @type {string} */ text) => { // text: read from nothing the reader can change
    try {
      return apply(originOf, new URL(text, href), []) === origin;
    } catch {
      return false;
    }
  };
  const done = /** @type {string[]} */ ([]);
  /** @type {(holder: object, name: string, value?: (this: any, ...a: any[]) => any) => any} */
  const put = (holder, name, value) => replace(holder, name, value) && done.push(name);

  put(scope, "fetch", function guardedFetch(input, init) {
    let request;
    try {
      request = new Request(input, init); // reads input once, as fetch itself would
    } catch (error) {
      return Promise.reject(error);
    }
    const url = apply(urlOf, request, []);
    return ours(url) ? apply(fetch, scope, [request]) : Promise.reject(refusal(`fetch(${url})`));
  });
  const { open } = XMLHttpRequest.prototype;
  put(XMLHttpRequest.prototype, "open", function guardedOpen(method, url, ...rest) {
    const text = `${url}`; // read once: the text checked is the text opened
    if (!ours(text)) throw refusal(`XMLHttpRequest to ${text}`);
    return apply(open, this, [method, text, ...rest]);
  });
  for (const name of ["setTimeout", "setInterval"]) {
    const timer = scope[name];
    put(scope, name, function guardedTimer(handler, ...rest) {
      if (typeof handler !== "function") throw refusal(`${name} with a string of code`);
      return apply(timer, scope, [handler, ...rest]);
    });
  }
  for (const name of REFUSED) {
    if (name in scope) put(scope, name, name === "caches" ? undefined : refused(name));
  }
  // close() would end the worker unseen, and the next Run blame a busy Python
  put(scope, "close", () => { throw new TypeError("close() is blocked: it would end the Python this page's Runs share"); });
  // new Function(...) and its async and generator kinds compile code too: each kind's
  // prototype.constructor is replaced, and Function.
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const kind of kinds) {
    const prototype = Object.getPrototypeOf(kind);
    const blocked = new Proxy(prototype.constructor, {
      apply() { throw refusal("new Function"); },
      construct() { throw refusal("new Function"); },
    });
    put(prototype, "constructor", blocked);
    if (prototype === Function.prototype) put(scope, "Function", blocked);
  }
  return done;
}

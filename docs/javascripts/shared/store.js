// The one place the site keeps what the reader did in this browser, as JSON under a key (kept.js
// names each key and its shape), in localStorage or, for the tab's session, sessionStorage.
// Where the browser refuses (storage off, full, or not ours to read), nothing throws: a read
// finds nothing, a write says false; a write that asks to `hold` keeps the value here while this
// module lives (across instant navigation), so the page goes on with it, and can say it is not kept.

/** @typedef {import("./kept.js").Kept} Kept */
/** @type {Map<string, unknown>} what the browser would not store, by key */
const held = new Map();
/** @param {boolean} session */
const area = (session) => (session ? sessionStorage : localStorage);

/**
 * What is kept under `key` (in sessionStorage if `session`), or null.
 * @template {keyof Kept} K
 * @param {K} key
 * @returns {Kept[K] | null}
 */
export function read(key, session = false) {
  if (held.has(key)) return /** @type {Kept[K] | null} */ (held.get(key));
  try {
    return JSON.parse(area(session).getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/**
 * Keep `value` under `key` (null: forget it); false where the browser refused.
 * @template {keyof Kept} K
 * @param {K} key
 * @param {Kept[K] | null} value
 */
export function write(key, value, { session = false, hold = false } = {}) {
  try {
    if (value === null) area(session).removeItem(key);
    else area(session).setItem(key, JSON.stringify(value));
    held.delete(key);
    return true;
  } catch {
    if (hold) held.set(key, value);
    return false;
  }
}

/** True while `key`'s value is held here, not stored. @param {string} key */
export const isHeld = (key) => held.has(key);

// Text as it is, not JSON, in localStorage: the reader's code of an exercise (widgets/exercise.js).

/** @param {string} key */
export function readText(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** @param {string} key @param {string | null} text null: forget it */
export function writeText(key, text) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

/** The keys that start with `prefix`, sorted; [] where the browser refuses. @param {string} prefix */
export function keys(prefix) {
  try {
    return Object.keys(localStorage).filter((key) => key.startsWith(prefix)).sort();
  } catch {
    return [];
  }
}

// What the reader has done, page by page, as progress.js keeps it (store.js, "bv-progress"):
// read here by progress.js, by a quiz for its last answer (widgets/quiz.js) and by the engine
// switch for the whole-engine exercise's pass (shared/reader-engine.js).

import { read } from "./store.js";

/** The site's root: this file is javascripts/shared/done.js. */
export const root = new URL("../../", import.meta.url);

/**
 * The page a URL is, as progress.json names it: "04-engine/" ("" for the home page); null off the site.
 * @param {string} href
 */
export function pageOf(href) {
  const path = new URL(href, location.href).pathname.replace(/index\.html$/, "");
  return path.startsWith(root.pathname) ? path.slice(root.pathname.length) : null;
}

/** Every page's record, kept or held (store.js); {} if nothing, or storage is off. */
export const load = () => read("bv-progress") ?? {};

/**
 * What the reader has done on page `name` (as progress.json names it, "04-engine/"): {quiz: [ids],
 * exercise: [names], versions, answers}, as kept, or as this page holds it where the browser would not
 * store it; {} if nothing.
 * @param {string} name
 * @returns {import("./kept.js").PageProgress}
 */
export function done(name) {
  return load()[name] ?? {};
}

/**
 * The answer the reader last gave to quiz `id` on this page, {value, state}, or null. Kept with
 * the progress, so the chapter's Clear forgets it and Undo brings it back: both then show every
 * quiz of the page as kept (quiz.js: bvShow).
 * @param {string} id
 */
export function savedAnswer(id) {
  return done(pageOf(location.href) ?? "").answers?.[String(id)] ?? null;
}

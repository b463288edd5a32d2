// What the site keeps in the reader's browser, key by key, as shared/store.js reads and writes
// it. Types only: this module exports nothing at run time. A key or a shape changed here loses
// what readers have kept (their progress, their engine, their code): keep them as they are.

/**
 * localStorage (kept across visits), JSON:
 * "bv-progress": progress.js's, per page as progress.json names it ("04-engine/"); quiz.js reads
 *   a page's answers. "bv-engine": the switch's choice and the verdict of the engine's check, with
 *   the text it is for; "bv-engine-source": a file the reader gave; "bv-engine-passed": the code
 *   that last passed the whole-engine exercise (shared/reader-engine.js). "bv-python": true once a
 *   page's Python was up in this browser: a page opened later starts its own before a Run (python/pool.js).
 * sessionStorage (kept for the tab's session), JSON:
 * "bv-run-edits:<path>": a page's edited blocks, by block number (run/run-blocks.js);
 * "bv-engine-map": the Your engine page's map and the text it was drawn for (widgets/engine-map.js);
 * "bv:<path>#<id>": a stepper's or a visit-order widget's state (shared/graph.js: remember).
 * And as plain text, not JSON, in localStorage: "bv-exercise:<name>:<starter hash>", the reader's
 * code of an exercise (widgets/exercise.js; store.js: readText), and "bv-exercise-tries:<name>:<version>",
 * JSON as text, {runs, hints, solution}: its tries (Runs of the reader's own code), the hints shown and
 * whether its solution is open (widgets/exercise.js).
 * @typedef {{
 *   "bv-progress": Object<string, PageProgress>,
 *   "bv-engine": {use?: "yours" | "micrograd", check?: EngineCheck},
 *   "bv-engine-source": {name: string, text: string},
 *   "bv-engine-passed": {text: string},
 *   "bv-python": true,
 *   "bv-engine-map": {source: string, entries: object[], ms: number},
 *   [edits: `bv-run-edits:${string}`]: Object<string, {source: string, code: string}>,
 *   [widget: `bv:${string}`]: Object<string, any>,
 * }} Kept
 * @typedef {{quiz?: string[], exercise?: string[], versions?: Object<string, string>,
 *   answers?: Object<string, Answer>}} PageProgress  versions: the version of each exercise passed
 * @typedef {{value: string, state: string}} Answer  a quiz's last answer and its mark
 * @typedef {{text: string, ok: boolean, shape: string | null, message: string | null}} EngineCheck
 */

export {};

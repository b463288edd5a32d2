// The one way the exercises (exercise.js) and Run on chapter blocks (run-blocks.js) load
// the editor and name its run key.
//
// editor.js is CodeMirror 6 bundled at build time (scripts/build/hooks/python_runtime.py):
// about 120 KB compressed, so it loads once, when the first editor is wanted.

let module = null;

/** Resolves to editor.js's createEditor; the bundle is fetched once per page. */
export async function loadEditor() {
  module ??= import("./editor.js");
  return (await module).createEditor;
}

const platform = /** @type {any} */ (navigator).userAgentData?.platform ?? navigator.platform ?? ""; // Chromium's only

/** The editor's run key as this reader presses it: "Cmd" on Apple's systems, else "Ctrl". */
export const MOD = /Mac|iPhone|iPad|iOS/i.test(platform) ? "Cmd" : "Ctrl";

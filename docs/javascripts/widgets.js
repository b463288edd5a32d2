// The page's one binder: loads each interactive module only on a page that uses it and calls
// its init(element) on each element it owns; again after each of Material's instant
// navigations (dom.js: onEveryPage), so moving to the next chapter keeps the reader's Python
// (python.js) and binds the new page's widgets. Every number a widget shows was computed by
// micrograd, at build time (scripts/quizzes.py, scripts/widgets.py) or in the reader's
// Python.

import { onEveryPage } from "./dom.js";

const modules = {
  ".bv-quiz": "./quiz.js",
  ".bv-stepper": "./stepper.js",
  ".bv-visit-order": "./visit-order.js",
  ".exercise[data-exercise]": "./exercise.js", // scripts/exercise_directive.py
  ".bv-run[data-blocks]": "./run-blocks.js", // scripts/blocks.py: Run on a chapter's blocks
  ".bv-playground": "./playground.js", // docs/playground.md
};

const bound = new WeakSet(); // an element is bound once, however often document$ emits

onEveryPage(async () => {
  const binding = [];
  for (const [selector, module] of Object.entries(modules)) {
    const elements = [...document.querySelectorAll(selector)].filter((e) => !bound.has(e));
    if (!elements.length) continue;
    elements.forEach((e) => bound.add(e));
    binding.push(import(module).then((m) => Promise.all(elements.map((e) => m.init(e)))));
  }
  (await Promise.allSettled(binding)).forEach((b) => b.status === "rejected" && console.error(b.reason));
  // Every widget of this page is bound (the browser tests wait for it, as a reader cannot).
  document.documentElement.dataset.bvBound = location.pathname;
});

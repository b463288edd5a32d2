// The one binder: on each page shown (dom.js: onEveryPage; instant navigation keeps python.js's
// Python), loads each module the page uses and calls its init(element). Every number a widget
// shows was computed by micrograd, at build time or in the reader's Python.

import { onEveryPage } from "./shared/dom.js";

const modules = {
  ".bv-figure__open": "./shared/figures.js", // scripts/pages/figures.py: a figure opens full screen
  ".bv-quiz": "./widgets/quiz.js",
  ".bv-stepper": "./widgets/stepper.js",
  ".bv-visit-order": "./widgets/visit-order.js",
  ".exercise[data-exercise]": "./widgets/exercise.js", // scripts/pages/exercise_directive.py
  ".bv-run[data-blocks]": "./run/run-blocks.js", // scripts/pages/blocks.py: Run on a chapter's blocks
  ".bv-playground": "./widgets/playground.js", // docs/playground.md
  "a.bv-number[data-bv-source]": "./widgets/number-source.js", // scripts/pages/number_sources.py: a prose number's source
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

// The one binder: on each page shown (dom.js: onEveryPage; instant navigation keeps python.js's
// Python), loads each module the page uses and calls its init(element) once the element comes
// within a screen of the viewport (dom.js: whenNear), or at the reader's first Tab. Every number
// a widget shows was computed by micrograd, at build time or in the reader's Python.

import { bindWaiting, onEveryPage, whenNear } from "./shared/dom.js";

const modules = {
  ".bv-figure__open": "./shared/figures.js", // scripts/pages/figures.py: a figure opens full screen
  ".bv-quiz": "./widgets/quiz.js",
  ".bv-stepper": "./widgets/stepper.js",
  ".bv-visit-order": "./widgets/visit-order.js",
  ".exercise[data-exercise]": "./widgets/exercise.js", // scripts/pages/exercise_directive.py
  ".bv-run[data-blocks]": "./run/run-blocks.js", // scripts/pages/blocks.py: Run on a chapter's blocks
  ".bv-playground": "./widgets/playground.js", // docs/playground.md
  "a.bv-number[data-bv-source]": "./widgets/number-source.js", // scripts/pages/number_sources.py: a prose number's source
  "button.bv-claim": "./widgets/claim.js", // scripts/pages/claims.py
};

const atOnce = new Set([".bv-run[data-blocks]"]); // it binds each block's bar when near, itself

const bound = new WeakSet(); // an element is bound once, however often document$ emits

onEveryPage(async () => {
  const binding = [];
  for (const [selector, module] of Object.entries(modules)) {
    const elements = [...document.querySelectorAll(selector)].filter((e) => !bound.has(e));
    if (!elements.length) continue;
    elements.forEach((e) => bound.add(e));
    let loading = null; // the module, fetched when its first element comes near
    const bind = (e) => () => (loading ??= import(module)).then((m) => m.init(e))
      .catch((error) => console.error(error));
    binding.push(...elements.map((e) => (atOnce.has(selector) ? bind(e)() : whenNear(e, bind(e)))));
  }
  await Promise.all(binding);
  // Every widget near the viewport is bound (with window.bvBindAtOnce, every widget): the
  // browser tests wait for this mark, as a reader cannot.
  document.documentElement.dataset.bvBound = location.pathname;
});

// Tab moves to the next control however far it is: bind every widget, which makes the controls.
addEventListener("keydown", (event) => event.key === "Tab" && bindWaiting());

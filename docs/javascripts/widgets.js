// Loads each interactive module only on a page that uses it. Every number a widget shows
// was computed by micrograd while the site was built (scripts/quizzes.py, scripts/widgets.py).
const modules = {
  ".bv-quiz": "./quiz.js",
  ".bv-stepper": "./stepper.js",
  ".bv-visit-order": "./visit-order.js",
};

for (const [selector, module] of Object.entries(modules)) {
  const elements = document.querySelectorAll(selector);
  if (elements.length) import(module).then((m) => elements.forEach((element) => m.init(element)));
}

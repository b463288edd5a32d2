// ESLint's flat config for the site's browser code (tests/tools/test_lint.py runs it).
// docs/javascripts/ holds ES modules: the page's widgets and Run, and the Python worker.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["docs/javascripts/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["docs/javascripts/python/python-worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["eslint.config.mjs"],
    languageOptions: { sourceType: "module" },
  },
];

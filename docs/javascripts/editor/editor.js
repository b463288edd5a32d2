// The exercise editor: CodeMirror 6 with Python highlighting.
//
// This file is the source. The site serves, under the same name, one file
// bundled from it by esbuild at build time (scripts/build/hooks/python_runtime.py),
// with the CodeMirror packages pinned exactly in package.json. exercise.js
// and run-blocks.js load it through editor-loader.js, when an editor is first wanted.
//
// Keyboard: Tab indents; Escape then Tab moves the focus on, out of the
// editor (CodeMirror's own rule); Ctrl+Enter (Cmd+Enter on a Mac) runs.
// Colours are Material's own code colours (--md-code-hl-*), so the editor
// follows the light and dark schemes like every code block on the page.

import { minimalSetup } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

// Material's code colours sit just under WCAG AA's 4.5:1 on its code background
// (comments 4.47 in light, numbers 4.44 in dark). Mixing a fifth of the text colour
// in darkens them in the light scheme and lightens them in the dark one.
const colour = (name) => `color-mix(in srgb, var(--md-code-hl-${name}-color) 80%, var(--md-default-fg-color))`;

// The same token colours as Material's Pygments styles (.highlight .k, .nf, .s ...).
const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: colour("keyword") },
  { tag: [t.string, t.docString, t.special(t.string)], color: colour("string") },
  { tag: [t.comment, t.lineComment], color: colour("comment") },
  { tag: [t.number, t.integer, t.float], color: colour("number") },
  { tag: [t.bool, t.null, t.self, t.standard(t.variableName)], color: colour("constant") },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName)),
          t.className, t.definition(t.className)], color: colour("function") },
  { tag: [t.operator, t.arithmeticOperator, t.compareOperator, t.updateOperator], color: colour("operator") },
  { tag: [t.punctuation, t.paren, t.bracket, t.brace, t.separator], color: colour("punctuation") },
  { tag: [t.variableName, t.propertyName], color: colour("name") },
]);

const theme = EditorView.theme({
  "&": {
    color: "var(--md-code-fg-color)",
    backgroundColor: "var(--md-code-bg-color)",
    fontSize: "0.85em",
    borderRadius: "0.1rem",
  },
  ".cm-content": { fontFamily: "var(--md-code-font-family)", caretColor: "var(--md-code-fg-color)" },
  ".cm-gutters": {
    backgroundColor: "var(--md-code-bg-color)",
    color: "var(--md-code-fg-color)",
    border: "none",
  },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--md-code-fg-color)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--md-code-hl-color)",
  },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)", outlineOffset: "2px" },
});

/**
 * Make a Python editor inside `parent`.
 *
 * parent: an element; doc: the starting code (str); label: the editor's
 * accessible name; onRun: called on Ctrl/Cmd+Enter; onChange (optional): called with
 * the code after each change the reader or setCode makes. Returns
 * { view, getCode(): str, setCode(str), focus() }; setCode is one undoable
 * change.
 */
export function createEditor(parent, doc, { label, onRun, onChange }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        minimalSetup,
        indentUnit.of("    "),
        indentOnInput(),
        bracketMatching(),
        python(),
        syntaxHighlighting(highlightStyle),
        theme,
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true) }])),
        keymap.of([indentWithTab]),
        // tabindex: the scrolling box then holds a focusable element even for checkers
        // that do not count contenteditable (axe's scrollable-region-focusable).
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}

// A text the reader's code may have written, or the reader typed (a file's name), as the page
// shows it: as scripts/reader/reader_code.py writes it in Python, clipped at MAX_TEXT characters
// and each invisible control written as <U+202E>. Both constants are Python's, written once more
// here for the browser: tests/python/test_reader_box.py fails if they differ, or if another module
// of docs/javascripts/ writes its own.

/** Characters of a text of the reader's code shown (reader_code.MAX_OUTPUT). */
export const MAX_TEXT = 10000;
/** The bidi controls and zero-width characters a text shows as <U+202E> (reader_code.CONTROLS). */
const CONTROLS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * text with each of CONTROLS written as <U+XXXX> (reader_code.visible).
 * @param {string} text
 */
export function visible(text) {
  return text.replace(CONTROLS, (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

/**
 * A text the reader's code may have written, as the page shows it (reader_code.clip): at most
 * MAX_TEXT characters, with a line that says how much was cut, its controls made visible.
 * @param {unknown} text
 */
export function readerText(text) {
  const all = String(text);
  const shown = visible(all.length > MAX_TEXT ? all.slice(0, MAX_TEXT) : all);
  return all.length > MAX_TEXT ? `${shown}\n... (cut: the first ${MAX_TEXT.toLocaleString("en")} of its ` +
    `${all.length.toLocaleString("en")} characters are shown)` : shown;
}

// A "Check yourself" quiz answered in place: its key, tolerance and classic wrong answers (each
// computed by running the mistake) come from scripts/pages/quizzes.py. Once answered, its Answer
// folds out, and a "bv-check" event tells progress.js, which keeps the answer and its mark.

import { savedAnswer } from "../shared/done.js";

// "10", "1e1", "−10" (a true minus), "+10", "61,539" (commas between thousands, as the site
// writes them): a number; else ("1,5", "half") null.
const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function parseNumber(text) {
  const plain = text.trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  return NUMBER.test(plain) ? Number(plain.replace(/,/g, "")) : null;
}

// As scripts/pages/quizzes.py: within tol, plus 1e-9 relative for rounding.
export function close(a, b, tol) {
  return Math.abs(a - b) <= tol + 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

// A quiz's explanation: the <details> right after it (in a notebook, atop the next cell).
function explanation(box) {
  const host = box.closest(".admonition, details") ?? box;
  const next = host.nextElementSibling ?? host.closest(".jp-Cell")?.nextElementSibling
    ?.querySelector(".jp-MarkdownOutput > :first-child");
  return next?.matches("details") ? next : null;
}

export function init(box) {
  const feedback = box.querySelector(".bv-quiz__feedback");
  const id = box.id.replace(/-box$/, ""); // quiz-<hash of the quiz>: its answer is its own
  const mistakes = JSON.parse(box.dataset.mistakes ?? "[]");
  const input = box.querySelector("input.bv-quiz__input");
  let restoring = false; // a kept answer: said so, not recorded again
  const answered = (text, state) => {
    const details = explanation(box);
    const opened = details && !details.open;
    if (details) details.open = true;
    feedback.textContent = restoring ? `${text} (Your earlier answer.)`
      : opened ? `${text} The explanation is open below.` : text;
    box.dataset.state = state;
    if (restoring) return;
    const value = input ? input.value : box.querySelector("input:checked").value;
    document.dispatchEvent(new CustomEvent("bv-check",
      { detail: { kind: "quiz", id, passed: state === "right", answer: { value, state } } }));
  };
  const invalid = (text) => {
    feedback.textContent = text;
    box.dataset.state = "invalid";
  };
  const check = () => {
    if (box.dataset.quiz === "number") {
      const value = parseNumber(input.value);
      if (value === null) {
        return invalid(input.value.includes(",") ? "Not read as a number: a comma separates thousands " +
          "(61,539). For a decimal, type a point: 1.5." : "Type a number, such as 10, −10 or 1e1.");
      }
      const tol = Number(box.dataset.tol);
      if (close(value, Number(box.dataset.key), tol)) return answered(`Right: ${box.dataset.shown}.`, "right");
      const mistake = mistakes.find(([wrong]) => close(value, wrong, tol));
      if (mistake) return answered(`Not quite, and a classic: ${mistake[1]}`, "wrong");
      return answered("Not quite.", "wrong");
    }
    const picked = box.querySelector("input:checked");
    if (!picked) return invalid("Pick one of the options first.");
    if (picked.value === box.dataset.key) return answered("Right.", "right");
    return answered("Not this one.", "wrong");
  };
  box.querySelector(".bv-quiz__check").addEventListener("click", check);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("input")) {
      event.preventDefault();
      check();
    }
  });
  // A kept answer (or null) shown and marked again: at load, and on the progress's Clear and Undo.
  box.bvShow = (kept) => {
    restoring = true;
    if (input) input.value = kept?.value ?? "";
    for (const o of box.querySelectorAll("[type=radio]")) o.checked = o.value === kept?.value;
    if (kept) check();
    else { feedback.textContent = ""; delete box.dataset.state; }
    restoring = false;
  };
  box.bvShow(savedAnswer(id));
  box.hidden = false;
}

// A "Check yourself" quiz answered in place. The key and the tolerance are in the HTML,
// computed by the page's own code at build time (scripts/quizzes.py).

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

// "10", "10.0", "1e1", "−10" (a true minus sign), "+10": a number; anything else: null.
export function parseNumber(text) {
  const plain = text.trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  return NUMBER.test(plain) ? Number(plain) : null;
}

// The same rule as scripts/quizzes.py: within tol, plus a rounding margin of 1e-9 relative.
export function close(a, b, tol) {
  return Math.abs(a - b) <= tol + 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export function init(box) {
  const feedback = box.querySelector(".bv-quiz__feedback");
  const say = (text, state) => {
    feedback.textContent = text;
    box.dataset.state = state;
  };
  const check = () => {
    if (box.dataset.quiz === "number") {
      const value = parseNumber(box.querySelector("input").value);
      if (value === null) return say("Type a number, such as 10, −10 or 1e1.", "invalid");
      if (close(value, Number(box.dataset.key), Number(box.dataset.tol))) {
        return say(`Right: ${box.dataset.shown}.`, "right");
      }
      return say("Not quite. Try again, or open the answer below.", "wrong");
    }
    const picked = box.querySelector("input:checked");
    if (!picked) return say("Pick one of the options first.", "invalid");
    if (picked.value === box.dataset.key) return say("Right.", "right");
    return say("Not this one. Try again, or open the answer below.", "wrong");
  };
  box.querySelector(".bv-quiz__check").addEventListener("click", check);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("input")) {
      event.preventDefault();
      check();
    }
  });
  box.hidden = false;
}

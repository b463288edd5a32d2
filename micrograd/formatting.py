"""How a number is written, in one place: for JSON, in a graph's records, in a caption, in
a table, in powers of ten, as a quiz's answer. The trace (micrograd/trace.py), the steppers
(scripts/reader/stepper_trace.py), the playground (scripts/reader/playground.py) and the quizzes
(scripts/pages/quizzes.py) all write numbers with these, so the same number reads the same
everywhere on the site. Text uses a true minus (−, U+2212) and never "-0".
"""

import math

MINUS = "\u2212"


def for_json(x):
    """float -> float, or "Infinity", "-Infinity", "NaN": the strings JavaScript's Number()
    reads, where strict JSON has no literal (json.dumps would write Infinity, not JSON)."""
    x = float(x)
    if math.isfinite(x):
        return x
    return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")


def _special(x):
    """∞, −∞ or NaN for a float that is not finite, or for for_json's strings; else None."""
    if isinstance(x, str):
        x = float(x.replace("Infinity", "inf"))
    if math.isfinite(x):
        return None
    return "NaN" if math.isnan(x) else ("∞" if x > 0 else f"{MINUS}∞")


def field(x):
    """A node's data or grad as draw_dot's records show it: 4 decimals, "-2.0000" (an ASCII
    minus and "inf", as draw_dot writes a float). A number 4 decimals would write as 0.0000, or
    one of a million or more, in powers of ten with 4 decimals: "1.0000e-07", not "0.0000" (a
    record showing 0 for a number that is not), "1.0000e+200", not 201 digits. for_json's
    strings as caption() writes them."""
    if isinstance(x, str):
        return caption(x)
    if x and math.isfinite(x) and (abs(x) < 0.00005 or abs(x) >= 1e6):
        return f"{x:.4e}"
    return f"{x:.4f}"


def caption(x):
    """A number in a stepper's caption: at most 4 decimals, no trailing zeros: caption(2.5) ==
    "2.5", caption(-3.0) == "−3". A number 4 decimals would write as 0, or one of a million or
    more, as shown() writes it: caption(1e-7) == "1e−7", not "0"; caption(1e200) == "1e200"."""
    special = _special(x)
    if special:
        return special
    if x and (abs(x) < 0.00005 or abs(x) >= 1e6):
        return shown(x)
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "") else text).replace("-", MINUS)


def rounded(x):
    """True when caption(x) is not x itself, because it dropped digits: rounded(0.5) is False,
    rounded(0.000149) is True ("0.0001"). False for ∞, −∞, NaN and for_json's strings."""
    if isinstance(x, str) or not math.isfinite(x):
        return False
    return read(caption(x)) != x


def read(text):
    """A number as caption() or shown() writes it -> float: read("−1.5") == -1.5,
    read("(−3)") == -3.0, read("1e−7") == 1e-7, read("∞") == math.inf."""
    return float(text.strip("()").replace(MINUS, "-").replace("∞", "inf"))


def sign(result, computed):
    """The sign a caption writes before `result`, where `computed` is the caption's arithmetic done
    on its numbers as written: "=" when the two write the same, else "≈". So "0.5 × 1 = 0.5", but
    "0.0201 × 3 ≈ 0.0604" (0.0201 × 3 is 0.0603; the 0.0604 is 0.02013 × 3)."""
    return "=" if caption(computed) == caption(result) else "≈"


def shown(x):
    """A number in the playground's table: 10 significant digits. shown(-1.5) == "−1.5",
    shown(0.1 + 0.2) == "0.3", shown(1e-7) == "1e−7", shown(math.inf) == "∞"."""
    special = _special(x)
    if special:
        return special
    text = f"{x:.10g}".replace("e-0", "e-").replace("e+0", "e+").replace("e+", "e")
    return ("0" if text == "-0" else text).replace("-", MINUS)


def exponent(x, digits=0):
    """A number in powers of ten: exponent(1e-6) == "1e−6", exponent(1.0, 1) == "1.0e0"."""
    special = _special(x)
    if special:
        return special
    mantissa, power = f"{x:.{digits}e}".split("e")
    return f"{mantissa}e{int(power)}".replace("-", MINUS)


def answer(x):
    """A quiz's answer as the page says it: Python's shortest general form, a whole number of four
    digits or more with commas between thousands as the pages write it: answer(10.0) == "10",
    answer(-0.5) == "−0.5", answer(61539.0) == "61,539"."""
    special = _special(x)
    if special:
        return special
    text = f"{x:g}"
    if text.lstrip("-").isdigit() and len(text.lstrip("-")) >= 4:
        text = f"{int(x):,}"
    return text.replace("-", MINUS)

"""The numbers a page states in its prose, and the numbers its code computed, for
tests/test_prose_numbers.py: a reader should never meet a number the page did not compute.

Prose is what a reader reads as text: paragraphs, headings, lists, tables and the bodies of
admonitions and tabs, math included; not code, not HTML comments, not link targets. Known
numbers are what the page's run showed or checked: doctest output, printed output, the
numbers in its assert statements, and the text of its figures.

A number in prose matches a known one at the precision the prose shows it: "0.7071" matches
0.70710678, "15" only 15 (or 14.99 after "about" or "≈"), "6·10⁻¹⁰" any number that is
6e-10 to one significant digit; the sign is ignored (prose says "off by 0.003"). Digits glued
to a letter ("x1", "3a") are part of a name or a term, and an exponent of a variable ("x²")
or a subscript ("w_1") is not a number the page states.
"""

import ast
import dataclasses
import doctest
import html
import math
import re

from markdown_it import MarkdownIt

from scripts.examples import material_blocks

SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_APPROXIMATE = re.compile(r"(about|≈|\\approx|roughly|nearly|around|some|~)\s*$")
_NUMBER = re.compile(
    r"(?<![\w.^_\\])"                      # not inside a name, after a decimal point, exponent, subscript
    r"(?P<number>\d+(?:\.\d+)?)"
    r"(?:(?:[eE](?P<e>-?\d+))|(?:\s*[×·*]\s*10\^\{?(?P<p>-?\d+)\}?))?"
    r"(?P<percent>%)?"
    r"(?![\w])")
_TEN_TO = re.compile(r"(?<![\w.\d])10\^\{?(?P<p>-?\d+)\}?")


@dataclasses.dataclass
class Number:
    line: int  # line in the page's source
    text: str  # as the prose writes it
    value: float
    decimals: int | None  # shown decimals, or None for an integer
    significant: int | None  # shown significant digits, for 6·10⁻¹⁰
    approximate: bool  # "about 7"


def normalise(text):
    """Text with one spelling per number: a plain minus, ^ exponents, no thousands commas."""
    text = text.replace("−", "-").replace("\u2009", "").replace("\\,", "")
    text = re.sub(r"(\d),(?=\d{3}\b)", r"\1", text)
    text = re.sub(r"\\(?:cdot|times)", "·", text)
    text = re.sub(r"([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "^" + m[1].translate(SUPERSCRIPTS), text)
    text = re.sub(r"_\{[^}]*\}|_\w", "", text)  # subscripts: indices, not numbers
    return text


def numbers(text, line=0):
    """Every Number in a line of prose (or of output), in order."""
    text = normalise(text)
    found = []
    taken = []
    for match in _TEN_TO.finditer(text):  # a bare power of ten: 10^-12
        if not text[: match.start()].rstrip().endswith(("·", "×", "*")):
            found.append(Number(line, match[0], 10.0 ** int(match["p"]), None, 1, False))
            taken.append(match.span())
    for match in _NUMBER.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        if match.start() > 0 and text[match.start() - 1] == "^" and not text[: match.start() - 1].endswith("10"):
            continue  # x^2: the power of a variable
        digits = match["number"]
        value = float(digits)
        significant = None
        if match["e"] is not None or match["p"] is not None:
            value *= 10.0 ** int(match["e"] if match["e"] is not None else match["p"])
            significant = len(digits.replace(".", "").lstrip("0")) or 1
        decimals = len(digits.split(".")[1]) if "." in digits and significant is None else None
        approximate = bool(_APPROXIMATE.search(text[: match.start()]))
        found.append(Number(line, match[0], value, decimals, significant, approximate))
    return found


def matches(number, known):
    """True if some known value shows as `number` at the precision the prose gives it."""
    target = abs(number.value)
    for value in known:
        value = abs(value)
        if number.significant is not None:
            if value and math.isclose(float(f"{value:.{number.significant - 1}e}"), target, rel_tol=1e-9):
                return True
        elif number.decimals is not None:
            if abs(round(value, number.decimals) - target) <= 10 ** -(number.decimals + 6):
                return True
        elif number.approximate:
            if abs(value - target) <= 0.5 + 1e-9:
                return True
        elif math.isclose(value, target, rel_tol=1e-12, abs_tol=1e-12):
            return True
    return False


def prose_lines(text):
    """(line number, text) of every run of prose in a Markdown page, math included."""
    # the bodies of admonitions and tabs are indented: dedent them, keep line numbers
    lines = [(title["title"] or "") if title else line
             for line, title in material_blocks(text.split("\n"))]
    parser = MarkdownIt("commonmark").enable("table")
    for token in parser.parse("\n".join(lines)):
        if token.type != "inline" or token.map is None:
            continue
        line = token.map[0] + 1
        for child in token.children or []:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "text":
                yield line, child.content
            elif child.type == "html_inline" and child.content.startswith("<!--"):
                line += child.content.count("\n")


def page_numbers(text, exempt=()):
    """Every Number in the prose of a Markdown page, after removing the exempt phrases."""
    found = []
    for line, chunk in prose_lines(text):
        for phrase in exempt:
            chunk = chunk.replace(phrase, " ")
        found += numbers(chunk, line)
    return found


def known_numbers(document_text, outputs, svgs):
    """Numbers a page's run showed or checked, as floats.

    document_text: the page; outputs: what its code printed; svgs: its figures. Doctest
    output and assert statements are read from the page's code blocks.
    """
    texts = [outputs]
    for source in _code_blocks(document_text):
        if source.lstrip().startswith(">>>"):
            examples = doctest.DocTestParser().get_examples(source)
            texts += [e.want for e in examples]
            texts += [_asserted(e.source) for e in examples]
        else:
            texts.append(_asserted(source))
    for svg in svgs:
        texts += [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.DOTALL)]
    return [n.value for text in texts for line in text.split("\n") for n in numbers(line)]


def _asserted(source):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""
    return " ".join(ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Assert))


def _code_blocks(text):
    from sybil import Document

    from scripts.examples import python_blocks

    return [str(block.lexemes["source"]) for block in python_blocks(Document(text, "page.md"))]

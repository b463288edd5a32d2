"""The numbers a page states in its prose, and the numbers its code computed, for
tests/pages/test_prose_numbers.py: a reader should never meet a number the page did not compute.

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
import bisect
import dataclasses
import doctest
import html
import math
import re

from markdown_it import MarkdownIt
from pymdownx import arithmatex

from scripts.pages.examples import material_blocks
from scripts.reader.reader_code import is_doctest

# Numbers in prose that are not results, so no code has to compute them, and the site shows
# them as plain text. On every page: a reference to a chapter ("chapter 4", "Chapters 1 to 5",
# a link's text included) and a version number ("micrograd 0.1.0"); the rest by phrase:
# page -> {phrase as written: why}.
CHAPTER_REFERENCE = re.compile(r"\b[Cc]hapters? \d+(?: (?:to|and) \d+)?\b")
VERSION = re.compile(r"(?<![\w.])\d+\.\d+\.\d+(?![\w.]*\d)")
EXEMPT = {
    "01-computational-graphs.md": {
        "1. Computational graphs": "the chapter's number",
    },
    "02-chain-rule.md": {
        "2. The chain rule": "the chapter's number",
    },
    "03-backprop-by-hand.md": {
        "3. Backpropagation by hand": "the chapter's number",
        "0.01": "the step size the page chooses, an input (step = 0.01)",
    },
    "04-engine.md": {
        "4. The engine": "the chapter's number",
    },
    "05-neurons-layers-networks.md": {
        "5. Neurons": "the chapter's number",
    },
    "06-training.py": {
        "6. Training": "the chapter's number",
        "\\frac{1}{N} \\sum_{i=1}^{N} \\mathrm{relu}(1 - y_i s_i)": "the data loss's definition: its constants, "
                                                                "not results (a displayed formula holds no link)",
        "\\qquad \\alpha = 10^{-4}$$": "the regularization strength, set by the cell after the formula (a "
                                       "displayed formula holds no link)",
        "$$\\eta_k = 1 - 0.9 \\cdot \\frac{k}{100}$$": "the learning rate's schedule: its definition, which "
                                                    "the loop's `lr` computes (a displayed formula holds no link)",
    },
    "07-check-break-fix.md": {
        "7. Check it": "the chapter's number",
        **{f"{bug} {n}": "the number of a bug in the chapter's list of four"
           for bug in ("Bug", "bug") for n in (1, 2, 3, 4)},
        "$\\varepsilon \\cdot 8 / h$": "the round-off line as the figure's code draws it (eps * 8 / h): "
                                      "8 is |f(2)|, an input, not a result",
        "It is 0 when the two agree, 1 when one is 0, 2 when they are opposite":
            "what the values of relative_error mean: its definition, not a result",
        "0.0 when both are 0": "what the values of relative_error mean: its definition, not a result",
    },
    "08-pytorch.md": {
        "8. Compare with PyTorch": "the chapter's number",
    },
    "09-tensors.md": {
        "9. From scalars to tensors": "the chapter's number in its title",
        "-\\frac{1}{p_3}": "the derivative of −log p₃, a formula, not a result",
    },
    "10-under-the-hood.md": {
        "10. Under the hood": "the chapter's number",
        "Python 3.10": "a Python version",
        "Python 3.11": "a Python version",
    },
    "11-gates-and-granularity.md": {
        "11. Gates": "the chapter's number",
    },
    "12-jacobians-and-vjps.md": {
        "12. Jacobians": "the chapter's number",
    },
    "13-what-reverse-mode-costs.md": {
        "13. What reverse mode costs": "the chapter's number",
    },
    "14-deep-networks.md": {
        "14. Deep networks": "the chapter's number",
        "variance $2/n$": "He's rule for ReLU layers, a formula, not a result",
        "$a^2/3 = 2/64$": "the variance of uniform [-a, a] with a² = 6/64, a formula, not a result",
    },
}


def exempt_phrases(page):
    """The exempt phrases of a page (its file name, e.g. "04-engine.md"): EXEMPT's, every chapter
    reference and every version number, as a function of a run of prose -> the phrases in it."""
    phrases = EXEMPT.get(page, {})

    def found(text):
        return ([phrase for phrase in phrases if phrase in text] + CHAPTER_REFERENCE.findall(text)
                + VERSION.findall(text))

    return found


SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_APPROXIMATE = re.compile(r"(about|≈|\\approx|roughly|nearly|around|some|~)\s*$")
_NUMBER = re.compile(
    r"(?<![\w.^_\\])"                      # not inside a name, after a decimal point, exponent, subscript
    r"(?P<number>\d+(?:\.\d+)?)"
    r"(?:(?:[eE](?P<e>[-+]?\d+))|(?:\s*[×·*]\s*10\^\{?(?P<p>-?\d+)\}?))?"  # 1e-06, 7.49e+06, 6·10^-10
    r"(?P<percent>%)?"
    r"(?![\w])")
_TEN_TO = re.compile(r"(?<![\w.\d])10\^\{?(?P<p>-?\d+)\}?")
_MINUS = re.compile(r"(?<![\w)\]}.])-$")  # a sign, not "2-2-1" nor "x-1"
_ENTITY = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
# inline math as scripts/pages/katex.py (pymdownx.arithmatex) reads it: `$...$`, not `\$` nor `$ 5`
_MATH = re.compile(arithmatex.RE_SMART_DOLLAR_INLINE, re.DOTALL)


@dataclasses.dataclass
class Number:
    line: int  # line in the page's source
    text: str  # as the prose writes it
    value: float
    decimals: int | None  # shown decimals, or None for an integer
    significant: int | None  # shown significant digits, for 6·10⁻¹⁰
    approximate: bool  # "about 7"
    start: int | None = None  # where it is written: offsets of its first and past its last
    end: int | None = None  # character, in the line given to numbers(), or in the page
    math: tuple | None = None  # (start, end) of the `$...$` it sits in, offsets in the page
    link: bool = False  # it is (part of) a link's text
    negative: bool = False  # written with a minus right before it ("−3"; matching ignores it)
    display: bool = False  # in a displayed formula, `$$...$$`


def normalise(text):
    """Text with one spelling per number: a plain minus, ^ exponents, no thousands commas."""
    return _normalised(text)[0]


def _normalised(text):
    """normalise(text), and for each of its characters the (start, end) it came from in text."""
    spans = [(i, i + 1) for i in range(len(text))]

    def sub(pattern, replace):
        nonlocal text, spans
        if not re.search(pattern, text):
            return
        pieces, mapped, at = [], [], 0
        for match in re.finditer(pattern, text):
            pieces.append(text[at:match.start()])
            mapped += spans[at:match.start()]
            new = replace(match) if callable(replace) else match.expand(replace)
            if new == match[0]:
                mapped += spans[match.start():match.end()]
            else:  # each new character stands for the whole match
                origin = (spans[match.start()][0], spans[match.end() - 1][1]) if match[0] else None
                mapped += [origin or spans[match.start()]] * len(new)
            pieces.append(new)
            at = match.end()
        pieces.append(text[at:])
        mapped += spans[at:]
        text, spans = "".join(pieces), mapped

    sub("−", "-")
    sub("\u2009", "")
    sub(r"\\,", "")
    sub(r"(\d),(?=\d{3}\b)", r"\1")
    sub(r"\\(?:cdot|times)", "·")
    sub(r"([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "^" + m[1].translate(SUPERSCRIPTS))
    sub(r"_\{[^}]*\}|_\w", "")  # subscripts: indices, not numbers
    return text, spans


def numbers(text, line=0):
    """Every Number in a line of prose (or of output), in order; start and end are offsets in
    `text` (a number written "6·10⁻¹⁰" spans all of it)."""
    text, spans = _normalised(text)
    found = []
    taken = []

    def number(match, *fields):
        return Number(line, match[0], *fields, start=spans[match.start()][0], end=spans[match.end() - 1][1],
                      negative=bool(_MINUS.search(text, 0, match.start())))

    for match in _TEN_TO.finditer(text):  # a bare power of ten: 10^-12
        if not text[: match.start()].rstrip().endswith(("·", "×", "*")):
            found.append(number(match, 10.0 ** int(match["p"]), None, 1, False))
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
        found.append(number(match, value, decimals, significant, approximate))
    return sorted(found, key=lambda n: n.start)


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
    for chunk in prose_chunks(text):
        yield chunk.line, chunk.text


@dataclasses.dataclass
class Chunk:
    """A run of prose as markdown-it reads it (escapes and entities decoded), and where it is.

    line: its line in the page. spans: for each character of text, the (start, end) offsets of
    what the page writes for it (`&amp;` for "&"), or None where it could not be found in the
    page. link: it is a link's text. math: the (start, end) of each `$...$` in its paragraph.
    display: it is in a displayed formula, `$$...$$` (a paragraph of its own).
    """

    line: int
    text: str
    spans: list | None
    link: bool
    math: list
    display: bool = False


def prose_chunks(text):
    """Every Chunk of prose in a Markdown page, in page order, math included: paragraphs,
    headings, lists, tables, and the bodies and titles of admonitions and tabs; not code, not
    HTML, not link targets."""
    # the bodies of admonitions and tabs are indented: dedent them, keep line numbers, and
    # remember how many characters each line lost, to find a character in the page again
    originals = text.split("\n")
    lines, shift = [], []
    for original, (line, title) in zip(originals, material_blocks(originals)):
        dedent = len(original) - len(line)
        if title:
            lines.append(title["title"] or "")
            shift.append(dedent + (title.start("title") if title["title"] else 0))
        else:
            lines.append(line)
            shift.append(dedent)
    joined = "\n".join(lines)
    starts = [0]  # offset of each line, in joined and in the page
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    page_starts = [0]
    for line in originals:
        page_starts.append(page_starts[-1] + len(line) + 1)

    def in_page(offset):  # an offset in joined -> the same character's offset in the page
        row = bisect.bisect_right(starts, offset) - 1
        return page_starts[row] + shift[row] + offset - starts[row]

    parser = MarkdownIt("commonmark").enable("table")
    cursor = 0
    for token in parser.parse(joined):
        if token.type != "inline" or token.map is None:
            continue
        row = token.map[0]
        cursor = max(cursor, starts[row])
        block = joined[starts[token.map[0]]:starts[token.map[1]]]
        math = [(in_page(starts[token.map[0]] + m.start()), in_page(starts[token.map[0]] + m.end() - 1) + 1)
                for m in _MATH.finditer(_without_code(block)) if m[2]]
        link = 0
        display = token.content.lstrip().startswith("$$")
        for child in token.children or []:
            end_of_line = starts[row + 1] - 1 if row + 1 < len(starts) else len(joined)
            if child.type in ("softbreak", "hardbreak"):
                row += 1
                cursor = max(cursor, starts[row])
            elif child.type == "text":
                found = _align(joined, cursor, end_of_line, child.content)
                if found is not None and found:
                    cursor = found[-1][1]
                spans = None if found is None else [(in_page(a), in_page(b - 1) + 1) for a, b in found]
                yield Chunk(row + 1, child.content, spans, link > 0, math, display)
            elif child.type == "code_inline":
                opening = joined.find(child.markup, cursor)
                closing = joined.find(child.markup, opening + len(child.markup) + len(child.content.strip()))
                if opening >= 0 and closing >= 0:
                    cursor = closing + len(child.markup)
            elif child.type == "html_inline":
                at = joined.find(child.content, cursor)
                if at >= 0:
                    cursor = at + len(child.content)
                if child.content.startswith("<!--"):
                    row += child.content.count("\n")
            elif child.type == "link_open":
                link += 1
            elif child.type == "link_close":
                link -= 1
                cursor = _past_destination(joined, cursor)
            elif child.type == "image":
                at = joined.find("![", cursor)
                if at >= 0:
                    cursor = _past_destination(joined, joined.find("]", at))


def _align(joined, start, end, content):
    """[(start, end)] in joined of each character of content, written from `start` on and before
    `end` (as is, backslash-escaped, or as an entity), or None if it is not there."""
    at = joined.find(content, start, end)
    if at >= 0:
        return [(i, i + 1) for i in range(at, at + len(content))]
    found, at = [], start
    for char in content:
        while at < end:
            if joined[at] == char:
                found.append((at, at + 1))
                at += 1
                break
            if joined[at] == "\\" and joined[at + 1:at + 2] == char:
                found.append((at, at + 2))
                at += 2
                break
            entity = _ENTITY.match(joined, at)
            if entity and html.unescape(entity[0]) == char:
                found.append((at, entity.end()))
                at = entity.end()
                break
            at += 1  # markup: * or _ of emphasis, [ of a link
        else:
            return None
    return found


def _past_destination(joined, at):
    """The offset after a link's `](target "title")` or `][label]`, `at` being at or before its `]`."""
    close = joined.find("]", at)
    if close < 0:
        return at
    if joined[close + 1:close + 2] == "(":
        depth, i = 0, close + 1
        while i < len(joined):
            if joined[i] == "\\":
                i += 2
                continue
            depth += {"(": 1, ")": -1}.get(joined[i], 0)
            if depth == 0:
                return i + 1
            i += 1
    if joined[close + 1:close + 2] == "[":
        end = joined.find("]", close + 1)
        return end + 1 if end >= 0 else close + 1
    return close + 1


def _without_code(text):
    """text with each code span blanked out (same length), so no `$` in code opens math."""
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m[0]), text, flags=re.DOTALL)


def page_numbers(text, exempt=()):
    """Every Number in the prose of a Markdown page, after removing the exempt phrases (a list,
    or a function of a run of prose that lists those in it: exempt_phrases(page)).

    Each Number's start and end are offsets in `text` (None where its characters could not be
    found again), its line the page's, and math the `$...$` around it, if any.
    """
    found = []
    for chunk in prose_chunks(text):
        written = chunk.text
        for phrase in exempt(written) if callable(exempt) else exempt:  # blanked: the offsets stay
            written = written.replace(phrase, " " * len(phrase))
        for number in numbers(written, chunk.line):
            if chunk.spans is None:
                number.start = number.end = None
            else:
                number.start, number.end = chunk.spans[number.start][0], chunk.spans[number.end - 1][1]
                number.math = next((m for m in chunk.math if m[0] <= number.start < m[1]), None)
            number.link = chunk.link
            number.display = chunk.display
            found.append(number)
    return found


def known_numbers(document_text, outputs, svgs):
    """Numbers a page's run showed or checked, as floats.

    document_text: the page; outputs: what its code printed; svgs: its figures. Doctest
    output and assert statements are read from the page's code blocks.
    """
    texts = [outputs]
    for source in _code_blocks(document_text):
        if is_doctest(source):
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

    from scripts.pages.examples import python_blocks

    return [str(block.lexemes["source"]) for block in python_blocks(Document(text, "page.md"))]

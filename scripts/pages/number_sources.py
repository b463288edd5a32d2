"""Where each number in a page's prose came from, and the page's Markdown with each number a
link to it: the promise "every number in the prose is printed by code that ran on that page",
made visible.

    found = sources(text, "docs/04-engine.md", figures=[(line, svg), ...])
    markdown = link_numbers(markdown, found.as_json(), "docs/04-engine.md")

A number's source is exact (scripts/pages/prose.py finds the numbers and says when one matches):

1. the nearest visible Python block above the number that printed it (a doctest's output,
   or what a code block printed);
2. else the nearest assertion above that holds it;
3. else the nearest figure above whose text holds it ("Figure 2", numbered in page order);
4. else the nearest of these below the number (a figure drawn after the sentence that reads it).

A chosen input comes first (set_source()): a number the code sets (`a = Value(2.0, label="a")`,
`lr=0.05`, the 32 of `count_parameters(2, [32, 32, 1])`) links to the line that sets it, and the box
says "Set here", never to a result printed later that shows the same value.

The value alone does not make a source: a 2.0 printed beside `a` is not "a = 2". What the prose
reads a number as (reading()) narrows the values that can be its source (_labelled() says what
each shown value is printed as):

- `name = value` (`x₁ = 2` is x1, `∂L/∂a = 6` is a.grad; in a chain `f = e·c = −10`, the
  first name): only a value shown as that name, with that sign: the expression that printed it
  (`a, b, relative_error(a, b)` -> `(-0.0003, 0.0003, 2.0)`: only −0.0003 is a), the word right
  before it in a printed line (`h = 0.001 ... centered 0.00000100`: 0.00000100 is "centered"),
  the first word of a line with one number (`a leaf [] 2.0`), a graph node's label (Figure:
  "a", "data 2.0000"), the other side of an assertion's comparison (`x == 12`);
- a number in running text: a value a printed line names with a word is its source only if the
  prose says that word before it on its line ("relative error below 10⁻⁶" is not "centered
  0.00000100"); a value the code names by its expression is;
- a constant of a formula (`1 - o^2`, `max(0, x)`, `x > 0`), the value of a notation no output
  names (`tanh(n) = 0.7071`), and every number in a heading: no source.

Where a value cannot say where it came from, a name must (shared(), _tied()):

- a shared value, one that many outputs print (0, ±1, ±2) or that more than one place of the page
  prints (a block, a figure), in running text or in a formula: linked only when the name right
  before it (past "is", "of", "still"...: "`w2.grad` is still 0", "relative error 0.554") is a
  name it is shown as; "seeds the root with 1", "a learning rate of 0", "the product $x_2 w_2$
  is 0" are plain text;
- `name = value`, and a tied shared value: the place the paragraph follows (the nearest block or
  figure above it) if it shows it; else the one place of the number's section (between its
  headings) that does, above the number or the next block or figure after it; two places, or
  one in another section or further below (another graph's `a`): plain text;
- `∂z/∂y = 1` is y.grad in z's graph: its source's code must name z (not a graph drawn from y);
- an assertion's number that no name is compared with (`t > 100 * u`, `e < 1e-06`) is a bound:
  linked only where the prose reads it as one ("below 10⁻⁶", "more than 100 times"), not "100
  points";
- a number below its sentence is linked only to the next block or figure (what the sentence
  leads into), not to one further on;
- a quiz's answer stays folded: a number outside an answer's fold (`??? success "Answer"`)
  never cites what the fold shows (answer_folds());
- WITHHELD names the few numbers no rule tells from their source's value (a count of 5,000
  additions beside the chain's sum 5000.0), each with why.

A number that the page computes but whose source is not certain by these rules stays plain text
(Found.withheld): an unlinked number is honest, a wrong source is not. Quoted numbers in a line
that quotes names too (`['3', 'a', 'c', '1']`, a graph's labels) are names, not values.

A number with none of them, or whose chosen source holds several different values it could
stand for ("about 7" beside 6.8 and 7.2), or that cannot be a link (in a link's text) is a
problem: sources() lists each as "docs/<page>.md:<line>: ..."; the build fails on them
(scripts/build/page_build.py) and so does tests/pages/test_prose_numbers.py. Exempt numbers (prose.EXEMPT,
chapter references) are left alone.

link_numbers() works on the page's Markdown before MkDocs renders it and changes no line: every
visible Python block's fence gets an id (`block-5`, the fifth, as Run names it: "Block 5"),
and every number becomes `<a class="bv-number" href="#block-5" data-bv-source="...">10.0</a>`,
a plain link without JavaScript; docs/javascripts/widgets/number-source.js shows its source on hover,
focus or tap. A number inside `$...$` cannot be a link inside KaTeX's output (the formula's
HTML is hidden from screen readers, and its MathML has no links), so the whole formula is the
link, and its source lists every number of the formula.
"""

import ast
import bisect
import dataclasses
import doctest
import html
import itertools
import json
import math
import re

from sybil import Document

from scripts.pages.examples import PYTHON_INFO, python_blocks
from scripts.pages.prose import exempt_phrases, matches, numbers, page_numbers
from scripts.reader.reader_code import is_doctest


class NumberSourceError(ValueError):
    """A page whose prose numbers cannot all be linked to their source; the message lists
    each as docs/<page>.md:<line>: reason."""


@dataclasses.dataclass
class Shown:
    """One place the page's code showed numbers: a line of output, an assertion, a figure's text.

    kind: "printed", "assertion", "figure" or "set" (a chosen input, see set_source). block: the
    visible block's number (1 for the page's first), or None for hidden code. line: the page line of the block's fence.
    code: the code (an example without its prompts, an assert statement, the figure's
    expression). text: the output line, assertion or figure text holding the numbers.
    figure: the figure's number on the page. values: the numbers in text. labels: for each
    value, the names it is shown as (see _labelled), a frozenset, empty when it has none.
    """

    kind: str
    block: int | None
    line: int
    code: str
    text: str
    values: list
    figure: int | None = None
    labels: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        if len(self.labels) != len(self.values):
            self.labels = [frozenset()] * len(self.values)


@dataclasses.dataclass
class Found:
    """The numbers of a page's prose with their sources, and the problems (str) found."""

    blocks: list  # [(block number, page line of its fence)] of the visible blocks
    numbers: list  # [(prose.Number, Shown)]
    problems: list
    withheld: list = dataclasses.field(default_factory=list)  # [(prose.Number, why)]: plain text

    def as_json(self):
        """What link_numbers() needs, as JSON-ready data (the build caches it with the run)."""
        return {"blocks": [list(b) for b in self.blocks], "numbers": [
            {"line": n.line, "start": n.start, "end": n.end, "text": n.text,
             "math": list(n.math) if n.math else None, "source": describe(shown)}
            for n, shown in self.numbers]}


def sources(text, where, printed_at=None, figures=()):
    """Every number of the page's prose with its source (a Found).

    text: the page's Markdown; where: "docs/<page>.md", for messages and for its exemptions;
    printed_at: {page line of a code example: what it printed} (scripts.build.page_build.PageRun);
    figures: [(page line of its `<!-- figure: -->`, SVG text)] in page order.
    """
    page = where.rsplit("/", 1)[-1]
    blocks, shown = _shown(text, where, printed_at or {}, figures)
    folds = answer_folds(text)
    found, problems, withheld = [], [], []
    literals = set()
    for number in page_numbers(text, exempt_phrases(page)):
        at = f"{where}:{number.line}: {number.text}"
        if number.start is None:
            problems.append(f"{at}: not found again in the page's Markdown, so it cannot be linked")
            continue
        if number.link:
            problems.append(f"{at}: is part of a link's text, so it cannot link to its source "
                            "(reword, or exempt it in scripts/pages/prose.py with a reason)")
            continue
        if number.display:
            problems.append(f"{at}: is in a displayed formula ($$...$$), which cannot hold a link "
                            "(write it in the text, or exempt it in scripts/pages/prose.py with a reason)")
            continue
        wanted = reading(text, number)
        reason = _withheld_by_name(text, page, number)
        if reason:
            wanted = Reading("withhold", why=reason)
        source = set_source(number, shown, wanted, blocks, folds)  # a chosen input: where it is set
        named = (wanted.said | wanted.noun) & set().union(*source.labels) if source is not None else True
        if source is not None and wanted.kind == "value" and not named:
            key = (number.line, source.line, abs(number.value))  # an unnamed literal: once a line
            source = None if key in literals else source  # (the input, not a result equal to it)
            literals.add(key)
        problem = None
        if source is None:
            source, problem = choose(number, [s for s in shown if s.kind != "set"], wanted)
        says = wanted.kind == "name" or wanted.said or wanted.noun  # a recap's name, or a name the prose says
        if source is None and not problem and says and _in_recap(text, number):
            source = _first_shown(number, shown, wanted, folds)
        if problem:
            problems.append(f"{at}: {problem}")
        elif source is None:
            withheld.append((number, wanted))
        elif _fold(folds, source.line) not in (None, _fold(folds, number.line)):
            # A quiz's answer stays folded: a number outside its fold never cites what the fold shows
            # (a new reader's audit: "If c were 11…" cited the answer's block, which printed L = -10).
            withheld.append((number, Reading("withhold", why="its source is a quiz's answer, folded away")))
        else:
            found.append((number, source))
    return Found(blocks, found, problems, withheld)


def _in_recap(text, number):
    """The number is in a chapter's recap (its section's heading is "Recap"), which restates what
    sections above computed: a name there may take its source from any of them."""
    lines = text.split("\n")
    heading = max((h for h in _headings(text) if h < number.line), default=None)
    return heading is not None and re.fullmatch(r"#{1,6}\s+Recap\s*", lines[heading - 1]) is not None


def _first_shown(number, shown, wanted, folds):
    """For a recap's `name = value`, or a value its prose names (`a.grad` is 15, 337 parameters): the first place
    of the page (not a quiz's folded answer, not a set) that shows that name with that value and
    sign, where the chapter computed it; or None."""
    named = wanted.accepts if wanted.kind == "name" else wanted.ties  # a value: shown as the name said
    for s in sorted(shown, key=lambda s: s.line):
        if s.kind == "set" or (s.block is None and s.kind == "printed") or _fold(folds, s.line):
            continue
        kept = [(v, n) for v, n in zip(s.values, s.labels) if _holds(number, v, True) and named(v, n)]
        if kept:
            return dataclasses.replace(s, values=[v for v, _ in kept], labels=[n for _, n in kept])
    return None


_ANSWER = re.compile(r'^( *)\?\?\?\+? \w+ "Answer"')


def answer_folds(text):
    """The page lines (first, last), from 1, of each quiz answer's fold (`??? success "Answer"` and
    the lines indented under it), in page order."""
    lines = text.splitlines()
    folds = []
    for i, line in enumerate(lines):
        match = _ANSWER.match(line)
        if not match:
            continue
        last = i
        for j in range(i + 1, len(lines)):
            if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip(" ")) <= len(match[1]):
                break
            last = j if lines[j].strip() else last
        folds.append((i + 1, last + 1))
    return folds


def _fold(folds, line):
    """The answer fold (first, last) that holds page line `line`, or None."""
    return next((fold for fold in folds if fold[0] <= line <= fold[1]), None)


WITHHELD = {  # page -> {phrase: why}: numbers no rule can tell from the value their source prints
    "02-chain-rule.md": {
        "6 \\cdot (-2) - 4 = -16": "the exact slope; the only -16 printed is a centered-difference estimate",
    },
    "08-pytorch.md": {
        "The number 0.1 has": "the decimal 0.1 itself; the block prints float32's nearest value, 0.10000000149",
        "How far from 0.1": "the decimal 0.1 itself; the block prints float32's nearest value, 0.10000000149",
        "float64 nearest 0.1": "the decimal 0.1 itself; the block prints float32's nearest value, 0.10000000149",
    },
    "10-under-the-hood.md": {
        "adds 5,000 numbers": "a count of additions; 5000.0 is the chain's sum (x.data), which equals it",
        "chain 5,000 operations": "a depth; 5000.0 is the chain's sum (x.data), which equals it",
        "5,000 of them": "a count of additions; 5000.0 is the chain's sum (x.data), which equals it",
        "5,000 levels": "a depth; 5000.0 is the chain's sum (x.data), which equals it",
        "the 5,000 sums": "a count of nodes; 5000.0 is the chain's sum (x.data), which equals it",
        "chain of 2,000": "a count of additions; 2000.0 is the chain's sum (x.data), which equals it",
        "the 2,000 sums, the 2,000 constants": "counts of nodes; 2000.0 is the chain's sum (x.data)",
    },
}


def _withheld_by_name(text, page, number):
    """Why WITHHELD keeps `number` plain text (it lies in one of its page's phrases), or None."""
    for phrase, why in WITHHELD.get(page, {}).items():
        for match in re.finditer(re.escape(phrase), text):
            if match.start() <= number.start < match.end():
                return why
    return None


def choose(number, shown, wanted=None):
    """The Shown that is `number`'s source, by the rules of the module docstring, and None; or
    None and the reason there is none (missing or ambiguous); or None and None: the page shows
    the value, but no source is certain to show it as what the prose reads it as (`wanted`, a
    Reading), so the number stays plain text. A source that shows the number with the sign the
    prose gives it ("$c = 10$": 10.0, not f's −10.0) is taken first."""
    wanted = wanted or Reading("value")
    source, problem = _choose(number, shown, lambda value, labels: True)
    if problem or wanted.kind == "withhold":
        return None, problem
    if wanted.root:  # ∂z/∂y is y.grad in z's graph: not y's own seed in a graph drawn from y
        shown = [s for s in shown if re.search(rf"(?<![\w.]){re.escape(wanted.root)}(?!\w)", s.code or "")]
    if wanted.kind == "name":  # `b = -3` is not a b printed as 3 (another graph's b): a name takes its sign
        return _tied(number, shown, wanted.accepts, wanted.section, signs=(True,)), None
    if shared(number, shown):  # a 0, 1 or 2, or a value several sources print: which one it is, a word must say
        return _tied(number, shown, wanted.ties, wanted.section), None
    return _choose(number, shown, wanted.accepts, below_rule="next")[0], None


COMMON = (0.0, 1.0, 2.0)  # |value|s so many outputs print (a seed, a zero gradient, a count) that a value says nothing


def is_common(value):
    """`value` is 0, ±1 or ±2 (COMMON). Relative, not absolute: chapter 9's 4.4·10⁻¹⁶, one ulp of its
    loss, is no 0, and was once taken for one (an absolute tolerance of 10⁻¹²)."""
    return any(math.isclose(abs(value), v, rel_tol=1e-12, abs_tol=0.0) for v in COMMON)


def shared(number, shown):
    """The number's value says nothing of where it came from: it is 0, ±1 or ±2, or more than one
    place of the page (a block, an assertion's block, a figure) prints it."""
    if is_common(number.value):
        return True
    return len({_place(s) for s in shown if s.kind != "set" and any(_holds(number, v, False) for v in s.values)}) > 1


def _place(s):
    """Where a Shown is on the page: its block (its output and its assertions), or its figure."""
    return ("figure", s.figure) if s.kind == "figure" else ("block", s.block, s.line)


def _tied(number, shown, accept, section=(0, math.inf), signs=(True, False)):
    """The one source whose value `accept` ties to the prose (a name, or a word before the number),
    or None. The place the paragraph follows (the nearest block or figure above it) is taken
    first; else one place that shows it in the number's section (between its headings), above
    the number or the next one below (a figure drawn after the sentence): not another graph
    further on; two places: None."""
    shown = [s for s in shown if section[0] < s.line < section[1]]
    lines = sorted({s.line for s in shown if s.block is not None or s.kind != "printed"})
    follows = max((line for line in lines if line < number.line), default=None)
    after = min((line for line in lines if line > number.line), default=None)
    for signed in signs:
        places = {}
        for s in shown:
            kept = [(v, names) for v, names in zip(s.values, s.labels)
                    if _holds(number, v, signed) and accept(v, names)]
            if kept and (s.block is not None or s.kind != "printed"):
                places.setdefault(_place(s), []).append(
                    dataclasses.replace(s, values=[v for v, _ in kept], labels=[n for _, n in kept]))
        followed = [found for found in places.values() if found[0].line == follows]
        if len(followed) == 1:
            return followed[0][-1]
        if len(places) == 1:
            (found,) = places.values()
            return found[-1] if found[0].line < number.line or found[0].line == after else None
        if places:
            return None
    return None


def _choose(number, shown, accept, signs=(True, False), below_rule="nearest"):
    """By the module docstring's rules 1-4. below_rule="next": a source below the number must be the
    next block or figure after it (what the sentence leads into), not one further on."""
    after = min((s.line for s in shown if s.line > number.line and (s.block is not None or s.kind != "printed")),
                default=None)
    for signed in signs:
        holding = []
        for s in shown:
            kept = [(v, names) for v, names in zip(s.values, s.labels)
                    if _holds(number, v, signed) and accept(v, names)]
            if kept:
                holding.append(dataclasses.replace(s, values=[v for v, _ in kept], labels=[n for _, n in kept]))
        above = [s for s in holding if s.line < number.line]
        below = [s for s in holding if s.line > number.line and (s.block is not None or s.kind != "printed")
                 and (below_rule == "nearest" or s.line == after)]
        nearest_below = min((s.line for s in below), default=None)
        rules = [
            ("the nearest block above that printed it",
             _nearest([s for s in above if s.kind == "printed" and s.block is not None], above=True)),
            ("the nearest assertion above", _nearest([s for s in above if s.kind == "assertion"], above=True)),
            ("the nearest figure above", _nearest([s for s in above if s.kind == "figure"], above=True)),
            ("the nearest block, assertion or figure below", [s for s in below if s.line == nearest_below]),
        ]
        for rule, candidates in rules:
            if not candidates:
                continue
            values = sorted({abs(v) for s in candidates for v in s.values})
            exact = [v for v in values if math.isclose(v, abs(number.value), rel_tol=1e-12, abs_tol=1e-300)]
            if exact:  # "0.01" beside h = 0.01 and an error of 0.006001: the one written as the prose does
                values = exact
                candidates = [s for s in candidates if any(math.isclose(abs(v), exact[0], rel_tol=1e-12)
                                                           for v in s.values)]
            if len(values) > 1:
                return None, (f"ambiguous: {rule} ({_name(candidates[0])}) shows "
                              f"{', '.join(_plain(v) for v in values)}, each of which it could be")
            return candidates[-1], None
    return None, ("no source: no block printed it, no assertion or figure holds it (print, assert "
                  "or draw it, or exempt it in scripts/pages/prose.py with a reason)")


def _holds(number, value, signed):
    if signed and value != 0 and (value < 0) != number.negative:
        return False
    distance, size = abs(abs(value) - abs(number.value)), abs(number.value)
    if number.significant is not None:
        if not 0.5 * size <= abs(value) <= 2 * size:  # cannot round to it: spare matches() the work
            return False
    elif distance > 0.5 + 1e-9:
        return False
    return matches(number, [value])


def describe(shown):
    """What a reader is shown about a Shown: {"kind", "label", "code", "shown", "href"}."""
    label = {
        "printed": f"Block {shown.block}",
        "assertion": f"Block {shown.block} checks it",
        "figure": f"Figure {shown.figure}, drawn by block {shown.block}",
        "set": f"Set here, in block {shown.block} (a chosen input)",
    }[shown.kind]
    return {"kind": shown.kind, "label": label, "code": shown.code, "shown": shown.text,
            "href": f"#{anchor(shown.block)}"}


ANCHOR_PREFIX = "block-"  # a visible block's id is this and its number (scripts/pages/blocks.py finds them by it)


def anchor(block):
    """The id of the page's visible block number `block` (1 for the first)."""
    return f"{ANCHOR_PREFIX}{block}"


def link_numbers(markdown, found, where):
    """The page's Markdown with an id on every visible Python block's fence and each number of
    its prose a link to its source (see the module docstring), from Found.as_json() data.

    Every change stays on its line, so directives keep their line numbers. Raises
    NumberSourceError, naming the line, if the Markdown is not the text the sources were
    found in (the page changed while it was built).
    """
    lines = markdown.split("\n")
    for block, line in found["blocks"]:
        fence = lines[line - 1]
        info = fence.strip().lstrip("`")
        if not fence.strip().startswith("```") or not PYTHON_INFO.fullmatch(info) or " " in info:
            raise NumberSourceError(f"{where}:{line}: expected a ```python fence here "
                                    "(the page changed while it was built, or a fence has attributes)")
        lines[line - 1] = f"{fence} {{#{anchor(block)}}}"
    text = "\n".join(lines)  # the same length up to the last fence: offsets below it moved
    moved = [(line, len(f" {{#{anchor(block)}}}")) for block, line in found["blocks"]]

    starts = [0] + [i + 1 for i, char in enumerate(markdown) if char == "\n"]
    fences = [line for line, _ in moved]
    widths = list(itertools.accumulate(width for _, width in moved))

    def at(offset):  # an offset in the page as read -> in text: after the fences above it
        row = bisect.bisect_right(starts, offset)  # the 1-based line of the offset
        before = bisect.bisect_left(fences, row)  # fences on lines above it
        return offset + (widths[before - 1] if before else 0)

    edits = {}  # (start, end) in text -> its numbers: a formula once, for all of its numbers
    for number in found["numbers"]:
        start, end = at(number["start"]), at(number["end"])
        if markdown[number["start"]:number["end"]] != text[start:end] or not _reads_as(text[start:end], number):
            raise NumberSourceError(f"{where}:{number['line']}: {number['text']} is not where it was found "
                                    "(the page changed while it was built)")
        if number["math"]:
            start, end = at(number["math"][0]), at(number["math"][1])
        elif start > 0 and text[start - 1] in "-−":
            start -= 1  # the sign is part of what the reader reads as the number
        edits.setdefault((start, end), []).append(number)
    out, done = [], 0
    for (start, end), entries in sorted(edits.items()):
        if start < done:
            raise NumberSourceError(f"{where}:{entries[0]['line']}: two numbers overlap")
        out += [text[done:start], _link(text[start:end], entries, bool(entries[0]["math"]))]
        done = end
    out.append(text[done:])
    return "".join(out)


def _reads_as(written, number):
    found = numbers(written)
    return bool(found) and found[0].text == number["text"]


def _link(inner, entries, math):
    sources = [{"number": e["text"], **e["source"]} for e in entries]
    data = _attribute(json.dumps(sources, ensure_ascii=False, separators=(",", ":")))
    href = entries[0]["source"]["href"]
    if not math:
        return f'<a class="bv-number" href="{href}" data-bv-source="{data}">{inner}</a>'
    # KaTeX's MathML names the link in a browser, but not for every checker (axe reads no
    # MathML): the formula, as math, is labelled with its plain reading, which names the link
    name = _attribute(spoken(inner.strip("$")))
    return (f'<a class="bv-number bv-number-math" href="{href}" data-bv-source="{data}">'
            f'<span role="math" aria-label="{name}">{inner}</span></a>')


_WORDS = {"partial": "∂", "cdot": "·", "times": "×", "approx": "≈", "top": "ᵀ", "sum": "Σ", "varepsilon": "ε",
          "epsilon": "ε", "dots": "…", "ldots": "…", "cdots": "⋯", "pm": "±", "to": "→", "varphi": "φ",
          "sim": "∼", "le": "≤", "ge": "≥", "leq": "≤", "geq": "≥", "ne": "≠", "infty": "∞", "sigma": "σ",
          "alpha": "α", "beta": "β", "eta": "η", "lambda": "λ", "mu": "μ", "theta": "θ", "qquad": " ",
          "quad": " ", "mathrel": "", "left": "", "right": "", "Big": "", "big": ""}
_SUPER = str.maketrans("0123456789-−+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def spoken(tex):
    """An inline formula's TeX as plain text a screen reader reads: "\\frac{\\partial L}{\\partial a}
    = 6" -> "∂L/∂a = 6", "h^2" -> "h²", "10^{-7}" -> "10⁻⁷"."""
    def group(at):  # (text of the {group} or single character at `at`, the index after it)
        while at < len(tex) and tex[at] == " ":
            at += 1
        if at < len(tex) and tex[at] == "{":
            depth = 0
            for end in range(at, len(tex)):
                depth += {"{": 1, "}": -1}.get(tex[end], 0)
                if depth == 0:
                    return tex[at + 1:end], end + 1
        if at < len(tex) and tex[at] == "\\":
            word = re.match(r"\\[A-Za-z]+|\\.", tex[at:])[0]
            return word, at + len(word)
        return tex[at:at + 1], at + 1

    out, at = [], 0
    while at < len(tex):
        char = tex[at]
        if char == "\\":
            word = re.match(r"\\([A-Za-z]+|.)", tex[at:])
            name, at = word[1], at + len(word[0])
            if name in ("frac", "tfrac", "dfrac"):
                top, at = group(at)
                bottom, at = group(at)
                top, bottom = spoken(top), spoken(bottom)
                out.append(f"{_paren(top)}/{_paren(bottom)}")
            elif name == "sqrt":
                inside, at = group(at)
                out.append(f"√{_paren(spoken(inside))}")
            elif name in ("text", "mathrm", "operatorname", "mathbf", "mathit"):
                inside, at = group(at)
                out.append(inside)
            elif name in (",", ";", "!", " "):
                out.append(" " if name != "!" else "")
            else:
                out.append(_WORDS.get(name, name if len(name) > 1 else name))
        elif char in "^_":
            inside, at = group(at + 1)
            inside = spoken(inside)
            table = _SUPER if char == "^" else _SUB
            if inside.translate(table) != inside and all(c in "0123456789-−+" for c in inside):
                out.append(inside.translate(table))
            else:
                out.append(inside if char == "_" or inside == "ᵀ" else f"^{inside}")
        elif char in "{}":
            at += 1
        else:
            out.append("−" if char == "-" else char)
            at += 1
    return re.sub(r"\s+", " ", "".join(out)).replace("∂ ", "∂").strip()


def _paren(text):
    return f"({text})" if re.search(r"[\s+−=·×]", text) else text


# Characters Python-Markdown or arithmatex would read as syntax before it sees the HTML tag:
# as numeric entities the browser still reads them in the attribute's value.
_SYNTAX = {ord(c): f"&#{ord(c)};" for c in "\\`*_[]$~{}|"}


def _attribute(value):
    return html.escape(value, quote=True).translate(_SYNTAX)


def _shown(text, where, printed_at, figures):
    """([(block, fence line)] of the visible blocks, [Shown] of everything the page's code showed)."""
    document = Document(text, where)
    shown, visible = [], []
    for region in python_blocks(document):
        line = text.count("\n", 0, region.start) + 1
        hidden = "directive" in region.lexemes
        block = None if hidden else len(visible) + 1
        if block is not None:
            visible.append((block, line))
        source = str(region.lexemes["source"])
        if block is not None:
            shown += _sets(block, line, source)
        if is_doctest(source):
            for example in doctest.DocTestParser().get_examples(source):
                code = example.source.rstrip("\n")
                shown += _lines("printed", block, line, code, example.want)
                shown += _assertions(block, line, example.source)
        else:
            shown += _lines("printed", block, line, None, printed_at.get(line, ""))
            shown += _assertions(block, line, source)
    for k, (directive, svg) in enumerate(figures, start=1):
        drawn = [b for b, fence in visible if fence < directive]
        block = drawn[-1] if drawn else None
        expression = _drawing(text, visible, block)
        node = None  # a graph's node: its name, then "data 2.0000" and "grad 0.0000"
        for t in svg_texts(svg):
            values = _values(t)
            field = re.fullmatch(r"(data|grad) \S+", t)
            if not values:  # a node's name ("x1"), or an operation's ("+"): the next data is not x1's
                node = plain_name(t)
            labels = [Names({node if field[1] == "data" else f"{node}.grad"})] if field and node else []
            said = f"{node} | {t}" if field and node else t  # which node: "a | data 2.0000", as drawn
            shown.append(Shown("figure", block, directive, expression, said, values, figure=k, labels=labels))
    return visible, shown


def svg_texts(svg):
    """The text of each <text> element of an SVG figure, as a reader reads it. Matplotlib writes
    10⁻⁷ as tspans of two sizes, "10" and a smaller "−7": it reads "10^-7" here."""
    found = []
    for element in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.DOTALL):
        spans = re.findall(r"<tspan\b([^>]*)>(.*?)</tspan>", element, re.DOTALL)
        if not spans:
            found.append(html.unescape(re.sub(r"<[^>]+>", "", element)).strip())
            continue
        sizes = [float(m[1]) if (m := re.search(r"font-size:\s*([\d.]+)", attrs)) else None for attrs, _ in spans]
        text, raised = "", False
        for size, (_, content) in zip(sizes, spans):
            if not raised and sizes[0] and size and size < sizes[0]:
                text, raised = text + "^", True
            text += html.unescape(re.sub(r"<[^>]+>", "", content)).strip()
        found.append(text)
    return found


def _lines(kind, block, line, code, output):
    shown = []
    lines = [out for out in output.split("\n") if out.strip()]
    for out in lines:
        values, labels = _labelled(code if len(lines) == 1 else None, out)
        if values:
            shown.append(Shown(kind, block, line, code, out.strip(), values, labels=labels))
    return shown


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")  # a str in a repr: a name or a text, unless a number


def _unless_number(match):
    if values_in_strings(match.string) and _is_number(match[0], True):
        return match[0]
    return " " * len(match[0])  # not the 3 of the string '**3', nor the '1' of a list of labels


def _assertions(block, line, source):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    shown = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            text = ast.unparse(node)
            values = _values(text)
            named = {}  # value -> the names it is compared with (`x == 12`: 12 is x)
            for compare in ast.walk(node):
                if isinstance(compare, ast.Compare) and len(compare.comparators) == 1:
                    sides = [compare.left, compare.comparators[0]]
                    for this, other in (sides, sides[::-1]):
                        name = plain_name(ast.unparse(other))
                        constant = isinstance(this, ast.Constant) or (  # `x == -12`; not `t > 100 * u`
                            isinstance(this, ast.UnaryOp) and isinstance(this.operand, ast.Constant))
                        for v in _values(ast.unparse(this)) if name and constant else []:
                            named.setdefault(v, set()).add(name)
            labels = [Names(named.get(v, ())) for v in values]
            for names in labels:
                names.code = True  # the assertion's code says what it is, as a doctest's expression does
                names.bound = not names  # `t > 100 * u`, `e < 1e-06`: a bound, and nothing else
            shown.append(Shown("assertion", block, line, text, text, values, labels=labels))
    return shown


def _drawing(text, visible, block):
    """The last line of the block that drew a figure (its draw_dot(...) or figure expression)."""
    if block is None:
        return None
    line = dict(visible)[block]
    rest = text.split("\n")[line:]
    body = rest[:next(i for i, row in enumerate(rest) if row.strip().startswith("```"))]
    return next((row.strip() for row in reversed(body) if row.strip()), None)


def _values(text):
    return [-n.value if n.negative else n.value for n in numbers(text)]


def _nearest(candidates, above):
    """The candidates of the one block nearest the number (all of that block's, in page order)."""
    if not candidates:
        return []
    line = max(s.line for s in candidates) if above else min(s.line for s in candidates)
    return [s for s in candidates if s.line == line]


def _near(number, candidates):
    above = [s for s in candidates if s.line < number.line]
    return _nearest(above, True) if above else _nearest([s for s in candidates if s.line > number.line], False)


def _name(shown):
    return {"printed": f"block {shown.block}", "assertion": f"the assertion in block {shown.block}",
            "figure": f"figure {shown.figure}", "set": f"block {shown.block}"}[shown.kind]


def _plain(value):
    return f"{value:g}"


# What the prose reads a number as, and which shown values can be its source

@dataclasses.dataclass
class Reading:
    """What the prose says a number is, which decides the sources it may have.

    kind: "value" (a number in running text: a source that shows it under a name must have that
    name in the prose before it, on its line: "centered 0.00000100" is not "relative error
    below 10⁻⁶"); "name" (`x₁ = 2`, `∂L/∂a = 6`: only a value shown as `name`, the variable or
    its `.grad`, is its source); "withhold" (a constant inside a formula, `1 - o^2`, `max(0, x)`,
    or a value of a notation no output names, `tanh(n) = 0.7071`: no source is certain, the
    number stays plain text). context: the prose before the number on its line, in words.
    """

    kind: str
    name: str | None = None
    context: str = ""
    why: str = ""
    said: frozenset = frozenset()  # the name the prose says right before the number (see _said)
    noun: frozenset = frozenset()  # the word right after it, as code would name it: "69,018 nodes" (see _noun)
    root: str | None = None  # ∂z/∂y: z, which the source's code must name
    section: tuple = (0, math.inf)  # the page lines of the headings around the number
    bound: bool = False  # the prose reads it as a bound: "below 10⁻⁶", "more than 100 times"
    result: bool = False  # the prose says it is what arithmetic gives: "(-3)·(-2) = 6"

    def accepts(self, value, labels):
        if self.kind == "name":
            return self.name in labels
        if self.kind == "withhold":
            return False
        if getattr(labels, "bound", False):  # an assertion's bound (`t > 100 * u`) is a bound only
            return self.bound
        if not labels or getattr(labels, "code", False):  # the code that printed it says what it is
            return True
        words = {w.removesuffix("s") for w in re.findall(r"[^\W\d_]\w*", self.context.lower())}
        return any(part.lower().removesuffix("s") in words for label in labels for part in label.split("."))

    def ties(self, value, labels):
        """A shared value (0, 1, a value several places print) is this one only if the prose names
        it just as it was shown: `w2.grad` is 0 ties to a 0.0 printed as w2.grad, "the seed is 1"
        to nothing: a code's expression that is no name (`[v.grad for v in vs]`) ties to nothing."""
        if getattr(labels, "bound", False):
            return self.bound
        return self.kind == "value" and bool(set(labels) & (self.said | self.noun))


class Names(frozenset):
    """The names a value is shown as; code: they are the expression that printed it; bound: an
    assertion's number that no name is compared with (`e < 1e-06`), which is a bound."""

    code = False
    bound = False


_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_NAME = re.compile(r"[A-Za-zα-ωΑ-Ω](?:\w*?)(?:_?\{?[0-9A-Za-z]+\}?)?")
_DERIVATIVE = re.compile(r"(?:∂|d)\s*[A-Za-z]\w*\s*/\s*(?:∂|d)\s*(?P<name>[A-Za-z]\w*)")
_OPERATOR_BEFORE = re.compile(r"(?:[-−+·×*/^({\[,|<>≤≥]|\\cdot|\\times|\\frac|\\tfrac|\\sqrt|\\max|\\min|"
                              r"\\tanh|\\exp|\\log|max|min|tanh|exp|log|relu)\s*$")
_OPERATOR_AFTER = re.compile(r"^\s*(?:[-−+·×*/^)}\]|!]|\\cdot|\\times|\\,|[A-Za-z(])")


def plain_name(text):
    """A variable's name as code spells it: "x_1", "x_{1}", "x₁" -> "x1"; "a.data", "round(a, 4)",
    "'a'" -> "a"; None if it is not a name (an expression, a word of several)."""
    text = text.strip().strip("'\"").translate(_SUBSCRIPT).replace("{", "").replace("}", "")
    while True:
        inner = re.fullmatch(r"(?:round|float|int)\((.*?)(?:,\s*\d+)?\)|(.*?)\.(?:data|item\(\))", text)
        if not inner:
            break
        text = (inner[1] or inner[2]).strip()
    grad = text.endswith(".grad")
    base = text[:-5] if grad else text
    if not re.fullmatch(r"[A-Za-z]\w*", base.replace("_", "", 1) if "_" in base[1:] else base):
        return None
    base = base[0] + base[1:].replace("_", "") if re.fullmatch(r"[A-Za-z]_\w+", base) else base
    return base + (".grad" if grad else "")


def _named(left):
    """The name a quantity written as `left` is printed under: `x_1` -> "x1", `∂L/∂a` -> "a.grad"; or None."""
    derivative = _DERIVATIVE.fullmatch(left.replace("(", "").replace(")", ""))
    if derivative:
        name = plain_name(derivative["name"])  # ∂L/∂x₁ is x1.grad
        return f"{name}.grad" if name else None
    return plain_name(left) if left else None


def reading(text, number):
    """What the prose around `number` (a prose.Number found in the page `text`) reads it as: a Reading."""
    line_start = text.rfind("\n", 0, number.start) + 1
    start = number.math[0] + 1 if number.math else line_start
    end = number.math[1] - 1 if number.math else text.find("\n", number.end) % (len(text) + 1)
    before, after = text[start:number.start], text[number.end:end]
    context = spoken(text[line_start:number.start].replace("$", " "))
    prose = text[line_start:number.start]
    said = _said(re.sub(r"[-−]\s*$", "", prose) if number.negative else prose)  # not its own sign
    headings = _headings(text)
    section = (max((h for h in headings if h < number.line), default=0),
               min((h for h in headings if h > number.line), default=math.inf))
    bound = bool(re.search(r"(?:below|above|under|over|than|least|most|within|<|>|≤|≥)\s*$", context.rstrip("−- ")))
    noun = _noun(text[number.end:text.find("\n", number.end) % (len(text) + 1)])
    common = {"context": context, "said": said, "noun": noun, "section": section, "bound": bound}
    if number.math:
        before = spoken(before) + " " if before.endswith(" ") else spoken(before)
    before = re.sub(r"[-−]\s*$", "", before).rstrip()  # the number's own sign
    if re.match(r"#{1,6}\s", text[line_start:number.start]):
        return Reading("withhold", why="a heading: it names a topic, and its link would sit in the table of contents")
    if re.search(r"(?:=|≈|\\approx)$", before):
        sides = [side.strip() for side in re.split(r"=|≈|\\approx", before)[:-1]]
        nearest, first = re.split(r"[,;:$]", sides[-1])[-1].strip(), re.split(r"[,;:$]", sides[0])[-1].strip()
        for left in (nearest, first):  # `x₁ = 2`; `f = e·c = −10`: f is the last value of its chain
            name = _named(left)
            if name:
                return Reading("name", name, root=_root(left, name), **common)
        if re.fullmatch(r"[\d\s.+\-−·×*/^()]+", nearest):
            return Reading("value", result=True, **common)  # the result of arithmetic on numbers: 1 + 2 + 3 = 6
        return Reading("withhold", why=f"the value of {nearest or 'a formula'}, which no output names")
    if number.math and (_OPERATOR_BEFORE.search(before) or _OPERATOR_AFTER.match(after)) and number.decimals is None \
            and number.significant is None:
        return Reading("withhold", why="a constant of a formula")
    return Reading("value", **common)


def _headings(text):
    """The page lines of the Markdown headings of `text` (not a `# comment` inside a code fence)."""
    found, fence = [], False
    for k, row in enumerate(text.split("\n"), start=1):
        if row.lstrip().startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6}\s", row):
            found.append(k)
    return found


_LINKING = {"is", "was", "are", "were", "be", "still", "now", "equals", "of", "at", "from", "to", "ends", "with",
            "the", "its"}  # words between a name and its value: "`w2.grad` is still 0", "error of 0.554"


def _said(prose):
    """The name prose says right before a number (past linking words: "`w2.grad` is 0"): code
    that is a name (`w2.grad`), a formula that is one ($x_2$; $\\partial o/\\partial w_2$ is
    w2.grad), or a word of two letters or more ("centered"); empty if the nearest is none ("the
    product $x_2 w_2$ is 0", "`a`, and 3")."""
    terms = re.findall(r"`[^`]*`|\$[^$]*\$|[^\W\d_]+|[^\w\s`$]", prose)
    while terms and terms[-1].lower() in _LINKING | {"=", ":", ","}:
        terms.pop()
    if not terms:
        return frozenset()
    last = terms[-1]
    if last.startswith("`"):
        name = plain_name(last.strip("`"))
    elif last.startswith("$"):
        name = _named(spoken(last.strip("$")))
    else:
        name = last.lower() if len(last) > 1 else None
    return frozenset({name} - {None})


def _noun(prose):
    """The word right after a number, as code names what it counts: "69,018 nodes" -> {"nodes",
    "node"}; empty unless it is a word of two letters or more (not "·", a unit of a formula)."""
    word = re.match(r"\s+([^\W\d_]{2,})\b", prose)
    return frozenset({word[1].lower(), word[1].lower().removesuffix("s")}) if word else frozenset()


def _root(left, name):
    """The output a derivative is taken of, when it is not the variable itself: `∂z/∂y` -> "z"."""
    derivative = _DERIVATIVE.fullmatch(left.replace("(", "").replace(")", ""))
    top = re.match(r"(?:∂|d)\s*([A-Za-z]\w*)", left.replace("(", "")) if derivative else None
    return top[1] if top and f"{top[1]}.grad" != name else None


def _labelled(code, line):
    """For each number of an output line, the names it is printed as: the expression that printed
    it (`a, b, relative_error(a, b)` -> `(-0.0003, 0.0003, 2.0)`: 2.0 is relative_error(a, b),
    not a), the word or string right before it (`h = 0.001`, `('x2', 1.0)`, `centered 0.00000100`),
    and the first word of a line with one number (`a leaf [] 2.0`, printed by name)."""
    values = _values(_QUOTED.sub(_unless_number, line))
    labels = [set() for _ in values]
    tokens = list(re.finditer(r"'[^'\n]*'|\"[^\"\n]*\"|[^\W\d][\w.]*|[-−]?\d[\d.]*(?:e[-+]?\d+)?", line))
    near = []  # for each number token: the word or string right before it, or None
    for k, token in enumerate(tokens):
        if not _is_number(token[0], strings=values_in_strings(line)):
            continue
        before = tokens[k - 1] if k else None
        gap = line[before.end():token.start()] if before else ""
        named = before is not None and not _is_number(before[0], strings=True) and re.fullmatch(r"[\s=:,(\[]*", gap)
        near.append(before[0] if named else None)
    if len(near) == len(values):
        for names, word in zip(labels, near):
            if word and plain_name(word):
                names.add(plain_name(word))
    first = re.match(r"\s*([^\W\d][\w.]*)\b", line)
    if len(values) == 1 and first and plain_name(first[1]):
        labels[0].add(plain_name(first[1]))
    expression = _expression(code)
    if expression is not None:
        parts = _parts(line.strip()) if isinstance(expression, ast.Tuple) else None
        elements = expression.elts if isinstance(expression, ast.Tuple) else [expression]
        if parts is None or len(parts) != len(elements):
            parts = [line] if len(elements) == 1 else None
        if parts:
            at = 0
            for element, part in zip(elements, parts):
                count = len(_values(_QUOTED.sub(_unless_number, part)))
                name = plain_name(ast.unparse(element))
                for k in range(at, min(at + count, len(values))):
                    labels[k] = Names({name} if name else ())  # the code says what it is: no guessing
                    labels[k].code = True
                at += count
    return values, [names if isinstance(names, Names) else Names(names) for names in labels]


def _is_number(token, strings):
    """A token of an output line is a number: digits, or a quoted number if `strings`."""
    if token[0] in "'\"" and not strings:
        return False
    try:
        float(token.strip("'\"").replace("−", "-"))
    except ValueError:
        return False
    return True


def values_in_strings(line):
    """A quoted number in a printed line is a value (`(41, '1.8e-07')`, formatted by the code)
    unless the line quotes names too: then it is a name (`['3', 'a', 'c', '1']`, a graph's labels)."""
    return all(_is_number(q, True) for q in _QUOTED.findall(line))


def _expression(code):
    """The expression a doctest example printed, as an ast node, or None."""
    if not code:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        value = tree.body[0].value
        printing = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print"
        return None if printing else value  # print(...) shows text: its words name its numbers
    return None


def _parts(text):
    """The top-level elements of a printed tuple `(a, b, c)`, as text; None if it is not one."""
    if not (text.startswith("(") and text.endswith(")")):
        return None
    parts, depth, current = [], 0, ""
    quote = None
    for char in text[1:-1]:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    parts.append(current)
    return [p for p in parts if p.strip()]


# Chosen inputs: a number the code sets (`a = Value(2.0)`, `lr=0.05`, `count(2, [32, 32, 1])`)

def set_source(number, shown, wanted, blocks, folds):
    """The Shown of kind "set" that sets `number`, a chosen input, or None. A chosen input links to
    where the code sets it, never to a result printed later (which may show the same value).

    A name (`a = 2`) takes the block that sets that name to that value, with that sign: the
    next visible block after the number if it sets it (what the sentence leads into), else the
    nearest above (the value in force there; a recap's `a = 2`). A number in running text takes
    a set only from the next block or the one the paragraph follows, and only by the name the
    prose says right before it, or as a literal argument no name labels in the next block
    ("hidden layers to 32" before `count_parameters(2, [32, 32, 1])`), never a 0, ±1 or ±2;
    such a literal is linked once on a line (sources(): "3 neurons ... 3 outputs" links the
    first, the input; the second is a result). A bound ("below
    10⁻⁶") and a number a quiz's folded answer sets (outside that fold) take none.
    """
    if wanted.kind not in ("name", "value") or wanted.bound:
        return None
    mine = _fold(folds, number.line)
    fences = [line for _, line in blocks]
    after = min((line for line in fences if line > number.line), default=None)
    before = max((line for line in fences if line < number.line), default=None)
    common = is_common(number.value)

    def sets(s, value, names):
        if not _holds(number, value, True):
            return False
        if wanted.kind == "name":
            return wanted.name in names
        if names:  # the name right before the number, or the word after it: "lr of 0.05", "100 steps"
            return bool(set(names) & (wanted.said | wanted.noun))
        # the literal of the code the sentence leads into; not a result: what the block the paragraph
        # follows shows ("3 times too large" after [3.0]), an answer's number, "(-3)·(-2) = 6"
        return not common and s.line == after and not result and mine is None

    result = wanted.result or any(s.kind != "set" and s.line == before
                                  and any(_holds(number, v, False) for v in s.values) for s in shown)
    found = [s for s in shown if s.kind == "set" and _fold(folds, s.line) in (None, mine)
             and any(sets(s, v, n) for v, n in zip(s.values, s.labels))]
    if after is not None and (chosen := [s for s in found if s.line == after]):
        return chosen[0]
    above = [s for s in found if s.line < number.line and (wanted.kind == "name" or s.line == before)]
    return max(above, key=lambda s: s.line) if above else None


def _sets(block, line, source):
    """What a visible block sets: a Shown of kind "set" for each statement that gives a name a
    constant (`a = Value(2.0, label="a")`, `h = 1e-6`, `x1, x2 = 2.0, 0.0`, `p.data = 0.5`), and
    each call that takes one (`lr=0.05` names it lr; `[32, 32, 1]` an argument no name labels)."""
    code = "\n".join(example.source for example in doctest.DocTestParser().get_examples(source)) \
        if is_doctest(source) else source
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    shown = []
    for statement in ast.walk(tree):
        if not isinstance(statement, ast.stmt) or isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            continue
        found = []  # (value, name or None)
        taken = set()  # the constants an assignment named: not again as a call's argument
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                pairs = zip(target.elts, statement.value.elts) \
                    if isinstance(target, ast.Tuple) and isinstance(statement.value, ast.Tuple) \
                    and len(target.elts) == len(statement.value.elts) else [(target, statement.value)]
                for name, value in pairs:
                    if isinstance(value, (ast.List, ast.Tuple)):  # widths = [4, 8, 16, 32]: each a literal
                        found += [(c, None) for c in map(_constant, value.elts) if c is not None]  # no name labels
                        taken.update(id(item) for item in value.elts)
                        continue
                    constant = _constant(value) if not isinstance(value, ast.Call) else (
                        _constant(value.args[0]) if value.args else None)
                    named = plain_name(ast.unparse(name))
                    if constant is not None and named:
                        found.append((constant, named))
                        taken.add(id(value.args[0] if isinstance(value, ast.Call) else value))
        for call in _calls(statement):
            label = next((k.value.value for k in call.keywords if k.arg == "label"
                          and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)), None)
            rounding = isinstance(call.func, ast.Name) and call.func.id == "round"  # round(x, 6): digits, no input
            for k, arg in enumerate(call.args[:1] if rounding else call.args):
                items = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
                for item in items:
                    constant = _constant(item)
                    if constant is not None and id(item) not in taken:
                        found.append((constant, plain_name(label) if label and k == 0 and item is arg else None))
            for keyword in call.keywords:
                constant = _constant(keyword.value) if keyword.arg and keyword.arg != "ndigits" else None
                if constant is not None:
                    found.append((constant, keyword.arg))
        if found:
            text = (ast.get_source_segment(code, statement) or ast.unparse(statement)).strip()
            text = text.split("\n")[0] + (" …" if "\n" in text else "")
            labels = [Names({name} if name else ()) for _, name in found]
            shown.append(Shown("set", block, line, text, text, [v for v, _ in found], labels=labels))
    return shown


def _calls(statement):
    """The calls of a simple statement (not those of a nested statement: ast.walk visits it)."""
    fields = [getattr(statement, name) for name in ("value", "test", "iter", "targets", "items")
              if hasattr(statement, name)] if not isinstance(statement, ast.Expr) else [statement.value]
    nodes = []
    for field in fields:
        for node in field if isinstance(field, list) else [field]:
            if isinstance(node, ast.AST):
                nodes += [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    return nodes


def _constant(node):
    """The number a node is (2.0, -3, 1e-6), or None: not a bool, a string or an expression."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    return None

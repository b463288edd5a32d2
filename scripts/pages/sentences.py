"""The sentences of a page's prose that state what its code shows, and whether each is checked.

A sentence that compares, orders or counts ("smaller than", "twice", "the largest", "three
sweeps"), or says "same", "always", "never", "every", "any", "only", "at most" or "wins", about
something the page computes (it names a number, a code name or a formula) needs a claim after
it (`<!-- claim: EXPR -->`, scripts/pages/claims.py), or an entry in the reviewed list of
sentences that need none, with the reason (scripts/pages/unclaimed.py).
tests/pages/test_claims.py holds every chapter, the training notebook and "Your engine" to it.

The prose is what scripts/pages/prose.py reads (paragraphs, lists, tables, admonitions' and
tabs' bodies, dedented as Material renders them), taken here a sentence at a time with its
inline code and math as written.
"""

import dataclasses
import re

from markdown_it import MarkdownIt

from scripts.pages.claims import CLAIM
from scripts.pages.examples import material_blocks

# the words that make a sentence a statement about what the code shows (case-insensitive)
WORDS = re.compile(
    r"\b(?:same|always|never|every|any|only|at most|at least|wins?|won|twice|half as|exactly|"
    r"equals?|identical|than|as (?:\w+ ){1,2}as|(?:\w+ )?times (?:as|more|less|fewer|faster|slower)|"
    r"smallest|largest|biggest|highest|lowest|fastest|slowest|best|worst|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:nodes?|edges?|paths?|sweeps?|"
    r"passes|pass|steps?|operations?|multiplications?|calls?|parameters?|values?|numbers?|leaves|leaf|"
    r"gradients?|times))\b", re.IGNORECASE)
# what the page computes: a number, a code name, a formula
COMPUTED = re.compile(r"\d|`[^`]+`|\$[^$]+\$")
_OTHER_COMMENT = re.compile(r"<!--(?![ \t]*claim:).*?-->", re.DOTALL)
CHECKED = "\x01"  # stands for a claim comment in a sentence
# a sentence ends at . ! or ? (after a closing quote, bracket or math, and its claim) before a space
_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?][\"'”’)\]*_$]*\x01*(?:\s+|$)")


@dataclasses.dataclass
class Sentence:
    line: int  # its first line in the page
    text: str  # as written, one line: inline code and math as in the page
    checked: bool  # a claim comment follows it


def sentences(text, first_line=1):
    """Every Sentence of a Markdown page's prose (or a notebook's Markdown cell, whose first line
    is the file's `first_line`), in page order; a claim on a line of its own right after a
    paragraph checks the paragraph's last sentence."""
    # an admonition's title (Check yourself, Answer) is not a sentence: its line is left blank,
    # which also ends the paragraph before the body
    lines = ["" if title else line for line, title in material_blocks(text.split("\n"))]
    found, heading = [], False
    for token in MarkdownIt("commonmark").enable("table").parse("\n".join(lines)):
        if token.type in ("heading_open", "heading_close"):  # a heading names a section, it states nothing
            heading = token.type == "heading_open"
            continue
        if token.type == "html_block" and CLAIM.match(token.content.strip()) and found:
            found[-1].checked = True  # a claim that opens a line ends markdown-it's paragraph
            continue
        if token.type != "inline" or token.map is None or heading:
            continue
        content = _OTHER_COMMENT.sub(" ", token.content)
        content = CLAIM.sub(CHECKED, re.sub(r"[ \t]*\n?[ \t]*(?=<!--[ \t]*claim:)", "", content))
        at = 0
        for end in [m.end() for m in _END.finditer(content)] + [len(content)]:
            piece = content[at:end]
            if piece.strip(" \n" + CHECKED):
                line = first_line + token.map[0] + content.count("\n", 0, at + len(piece) - len(piece.lstrip()))
                found.append(Sentence(line, " ".join(piece.replace(CHECKED, " ").split()), CHECKED in piece))
            elif CHECKED in piece and found:
                found[-1].checked = True
            at = end
    return found


def needs_claim(sentence):
    """True if the sentence's words compare, order, count or say same/always/never/... (WORDS)
    about something the page computes (COMPUTED)."""
    return bool(WORDS.search(_outside_code(sentence.text)) and COMPUTED.search(sentence.text))


def _outside_code(text):
    return re.sub(r"`[^`]*`", " ", text)


def unchecked(page, text, first_line=1):
    """"docs/<page>:<line>: <sentence>" for each sentence of `text` (the page, or one of its
    notebook's Markdown cells starting at `first_line`) that needs a claim and has none, nor
    an entry in scripts/pages/unclaimed.py."""
    from scripts.pages.unclaimed import reasons

    listed = reasons(page)
    return [f"docs/{page}:{s.line}: {s.text}" for s in sentences(text, first_line)
            if needs_claim(s) and not s.checked and not any(phrase in s.text for phrase in listed)]


def markdown_cells(path):
    """[(first line in the file, source)] of each Markdown cell of a jupytext percent-format
    notebook (docs/06-training.py): its prose, at its lines."""
    import jupytext

    lines = path.read_text(encoding="utf-8").split("\n")
    cells, at = [], 0
    for cell in jupytext.read(path).cells:
        if cell.cell_type != "markdown" or not cell.source.strip():
            continue
        first = f"# {cell.source.splitlines()[0]}".rstrip()
        at = lines.index(first, at)
        cells.append((at + 1, cell.source))
        at += 1
    return cells

"""Claims: a sentence of the prose that the page's own code proves.

    The centered difference's error is the smaller at every $h$ of the grid but the last.
    <!-- claim: all(c < f for c, f in zip(centered_errors[:-1], forward_errors[:-1])) -->

The comment follows the sentence it checks, in the same paragraph. Its expression is
evaluated in the page's namespace at its place (by pytest and by the site build alike, a
Sybil directive as quizzes are) and must give exactly True, a bool: a claim that is False,
merely truthy (1, a non-empty list, NumPy's True_), or fails to evaluate fails the page with

    docs/<page>.md:<line>: the claim `EXPR` gives False, not True
      sentence: <the sentence before the comment>
      values: name = value, ... (every name EXPR reads, and each side of its comparisons)

A claim proves what the page shows, at the point where the reader reads it: a sentence whose
words compare, order or count what the page computed gets one (tests/pages/test_claims.py).
"""

import ast
import dataclasses
import re
import types
from pathlib import Path

from sybil import Region

from scripts.pages.directives import Collector, Directive, DirectiveError, Output, where

CLIP = 120  # characters of a value's repr in an error
SHOWN = 60  # ... and in the box a reader opens


@dataclasses.dataclass
class Claim:
    """One claim comment: its expression (str) and the sentence before it (plain text)."""

    expression: str
    sentence: str


class ClaimParser(Directive):
    """`<!-- claim: EXPR -->` after a sentence; see the module docstring."""

    kind = "claim"

    def __call__(self, document):
        # Sybil's comment lexer wants the comment at a line's start; a claim may also end the
        # line of its sentence. Never inside a fenced block: that is code, not prose.
        fenced = fenced_lines(document.text)
        for match in CLAIM.finditer(document.text):
            if document.text.count("\n", 0, match.start()) in fenced:
                continue
            region = Region(match.start(), match.end(), lexemes={"arguments": match["arguments"]})
            at = where(document, match.start())
            yield Region(match.start(), match.end(), self.parse(document, region, at), self.evaluate)

    def parse(self, document, region, at):
        expression = region.lexemes["arguments"].strip()
        try:
            ast.parse(expression, mode="eval")
        except SyntaxError as error:
            raise DirectiveError(f"{at}: the claim `{expression}` is not a Python expression: "
                                 f"{error.msg}") from None
        return Claim(expression, sentence_before(document.text, region.start))

    def build(self, example, at, page):
        read = check(example.parsed, example.namespace, at, example.path)
        block = setting_block(example.document, example.start, read)
        return Output(self.kind, example.line, claim_html(example.parsed, read, block, page.number(self.kind)))


def check(claim, namespace, at, filename="<claim>"):
    """Evaluate `claim` (a Claim) in `namespace` (a dict); return its value's parts, a list of
    (expression text, value) for every name it reads and each side of its comparisons.
    Raises DirectiveError starting with `at` (page:line) unless it gives exactly True."""
    try:
        value = eval(compile(claim.expression, filename, "eval"), namespace)
    except Exception as error:
        raise DirectiveError(_message(at, claim, f"could not be evaluated: {error!r}", namespace)) from error
    if value is not True:
        hint = ""
        if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
            hint = " (NumPy's bool: wrap the comparison in bool(...))"
        elif not isinstance(value, bool):
            hint = f" (a {type(value).__name__}: a claim must be a comparison, a bool)"
        raise DirectiveError(_message(at, claim, f"gives {_clip(value)}, not True{hint}", namespace))
    return parts(claim.expression, namespace)


def setting_block(document, position, read):
    """(number, [names]) of the last visible Python block above `position` in `document` that
    sets one of the names in `read` (parts(): [(text, value)]), numbered as the site numbers
    visible blocks (block-1, block-2, ...: scripts/pages/number_sources.py), with the names it
    sets; None when no visible block does (they came from hidden setup, or read none)."""
    from scripts.pages.examples import python_blocks

    names = {text for text, _ in read if text.isidentifier()}
    found, visible = None, 0
    for region in python_blocks(document):
        if region.start > position:
            break
        if "directive" in region.lexemes:  # an invisible block: no fence to link to
            continue
        visible += 1
        sets = sorted(names & _bound_by(str(region.lexemes["source"])))
        if sets:
            found = (visible, sets)
    return found


def _bound_by(source):
    """The names a block of code (plain or doctest) binds at its top level or in loops."""
    import doctest

    from scripts.reader.reader_code import is_doctest

    if is_doctest(source):
        source = "\n".join(e.source for e in doctest.DocTestParser().get_examples(source))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def claim_html(claim, read, block, number):
    """One line of HTML for a checked sentence (it may sit inside an admonition or a list):
    a quiet button after the sentence, and the box it opens (docs/javascripts/widgets/claim.js),
    both hidden until that script shows the button. The box holds the expression, its value
    here (True), the values it read, and a link to the block that set its names.

    read: parts(); block: setting_block(); number: the claim's place on the page (1, 2, ...)."""
    name = f"bv-claim-{number}"
    code = lambda text: f"<code>{_text(text)}</code>"  # noqa: E731
    box = [f"<strong>Checked here by the page's code:</strong> {code(claim.expression)} \u2192 {code('True')}"]
    if read:
        box.append("<br>It read " + ", ".join(code(f"{text} = {_clip(value, SHOWN)}") for text, value in read) + ".")
    if block is not None:
        number_, sets = block
        box.append(f'<br><a href="#block-{number_}">Go to block {number_}</a>, which sets '
                   + ", ".join(code(n) for n in sets) + ".")
    return (f'<button type="button" class="bv-claim" aria-expanded="false" aria-controls="{name}" '
            f'aria-label="Checked sentence: show the check" hidden>'
            f'<span class="bv-claim__mark" aria-hidden="true">\u2713</span></button>'
            f'<span class="bv-claim__box" id="{name}" hidden>{"".join(box)}</span>')


# Characters Python-Markdown or arithmatex would read as syntax in the page's Markdown: as
# numeric entities the browser still shows them (as scripts/pages/number_sources.py does)
_SYNTAX = {ord(c): f"&#{ord(c)};" for c in "\\`*_[]$~{}|"}


def _text(text):
    import html

    return html.escape(text, quote=True).translate(_SYNTAX)


def parts(expression, namespace):
    """[(text, value)] of every name `expression` reads that `namespace` holds (not a module,
    function or class), then each side of
    its comparisons that is not a plain name or constant, in order, each once; a part that
    cannot be evaluated again shows its error."""
    tree = ast.parse(expression, mode="eval")
    bound = _bound(tree)
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in namespace and node.id not in bound:
            if not isinstance(namespace[node.id], (types.ModuleType, types.FunctionType, type)):
                found.setdefault(node.id, namespace[node.id])  # a value, not a tool
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                if isinstance(side, (ast.Name, ast.Constant)) or _reads(side) & bound:
                    continue
                text = ast.unparse(side)
                if text not in found:
                    try:
                        found[text] = eval(compile(text, "<claim>", "eval"), dict(namespace))
                    except Exception as error:
                        found[text] = error
    return list(found.items())


def _bound(tree):
    """Names bound inside the expression (a comprehension's or lambda's variables)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            names |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Lambda):
            names |= {a.arg for a in node.args.args}
    return names


def _reads(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _message(at, claim, what, namespace):
    lines = [f"{at}: the claim `{claim.expression}` {what}",
             f"  sentence: {claim.sentence or '(none: a claim follows the sentence it checks)'}"]
    shown = [f"{text} = {_clip(value)}" for text, value in parts(claim.expression, namespace)]
    lines.append("  values: " + (", ".join(shown) if shown else "(it reads no name of the page)"))
    return "\n".join(lines)


def _clip(value, limit=CLIP):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


CLAIM = re.compile(r"<!--[ \t]*claim:[ \t]*(?P<arguments>[^\n]*?)[ \t]*-->")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def fenced_lines(text):
    """The 0-based numbers of the lines inside (or opening or closing) a fenced block."""
    inside, fenced = None, set()
    for number, line in enumerate(text.split("\n")):
        fence = _FENCE.match(line)
        if inside is None and fence:
            inside = fence[1]
        elif inside is not None and fence and fence[1].startswith(inside[0] * len(inside)):
            fenced.add(number)
            inside = None
        if inside is not None:
            fenced.add(number)
    return fenced


_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|!!!|\?\?\?|\|)")
# a sentence ends at . ! or ? (after a closing quote, bracket or math) before a space
sentence_end = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?][\"'”’)\]*_$]*\s+")


def sentence_before(text, position):
    """The sentence of `text` (a page) that ends right before `position` (a claim comment's
    start), in its paragraph, as one line: other comments removed, whitespace runs one space.
    "" when the comment opens its paragraph."""
    start = text.rfind("\n\n", 0, position)
    start = 0 if start < 0 else start + 2
    lines = text[start:position].split("\n")
    for i in range(len(lines) - 1, -1, -1):  # a list item or heading starts its own block
        if _BLOCK_START.match(lines[i]):  # an admonition's title line is not its text
            lines = lines[i + 1:] if lines[i].lstrip().startswith(("!!!", "???")) else lines[i:]
            break
    paragraph = " ".join(_COMMENT.sub(" ", "\n".join(lines)).split())
    paragraph = re.sub(r"^(?:[-*+]|\d+[.)]|#+)\s+", "", paragraph)
    ends = [m.end() for m in sentence_end.finditer(paragraph + " ") if m.end() < len(paragraph)]
    return paragraph[ends[-1]:] if ends else paragraph


def claim_regions(text, path):
    """The `<!-- claim: ... -->` directives of `text` (a notebook's Markdown cell), as Sybil
    regions found by ClaimParser (not evaluated)."""
    from sybil import Document

    return list(ClaimParser()(Document(text, str(path))))


def notebook_claims(namespace, text, path, line):
    """For a notebook's hidden claim cell: the claims of one Markdown cell (`text`) evaluated
    through ClaimParser, the same Sybil directive as a page's, in the kernel's `namespace`.

    path, line: the notebook's file and the line of the cell's first line, so an error names
    "path:line" of the claim. Raises DirectiveError as on a page. Prints, as a JSON list, the
    HTML of each claim's mark (claim_html; no block to link to: the notebook's page numbers
    none), numbered across the notebook (the kernel keeps the count), which
    scripts/notebooks/training_notebook.py puts where its comment was on the site's page."""
    import json

    from sybil import Document

    document = Document("\n" * (line - 1) + text, str(path))  # the cell's lines at the file's lines
    document.namespace = namespace
    marks = Collector(Path(path).name)
    marks.count[ClaimParser.kind] = namespace.get("_bv_claims_marked", 0)
    for region in ClaimParser(marks)(document):
        document.add(region)
    for example in document:
        example.evaluate()
    namespace["_bv_claims_marked"] = marks.count.get(ClaimParser.kind, 0)
    print(json.dumps([output.markdown for output in marks.outputs]))

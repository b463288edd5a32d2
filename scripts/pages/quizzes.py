"""Quizzes: a "Check yourself" question the reader answers in place, its key computed by the page.

    !!! question "Check yourself"
        With $a = 2$, $b = -3$ and $c = 10$, what is $f$?

        <!-- quiz: number(f.data, answer=-10) -->

The comment holds a Python call, run in the page's namespace at that place (by pytest
and by the site build alike):

- number(EXPR, answer=WRITTEN, tol=0): EXPR computes the expected number; WRITTEN is the
  answer as the author wrote it. If they differ by more than tol, the page fails at the
  quiz's line. The reader's input is right when it is within tol of EXPR's value (plus a
  rounding margin of 1e-9 relative): 10, 10.0, 1e1, −10, -10.0 and 61,539 (a comma between
  groups of three digits, as the site writes thousands) all parse as numbers; 1,5 does not,
  and the quiz says why (a comma is never a decimal point).
  mistakes={"message": WRONG_EXPR, ...}: classic wrong answers, each computed by running the
  mistake in the page's code (a wrong visit order, `=` for `+=`, a flipped sign), never typed;
  a reader's answer within tol of one gets its message. A message may give a list of numbers,
  and may be one of MISTAKES by name (LOST_PATH, ASSIGN, FLIPPED_SIGN, RIGHT_ORDER).
  grad_after(root, node, order=None) runs the engine's backward pass in a given order and
  grad_with_assign(root, node) the pass with `=` for `+=` (both leave every .grad as it was).
  A mistake that equals the key, or another mistake, fails the page at the quiz's line.
- choice(EXPR, options=[...]): multiple choice; EXPR gives the right option, which must be
  one of the options (a str). Options are inline Markdown, math included.
- label="...": what the answer box is called (plain text; "Your answer", or "Pick one" for a
  choice, by default). A question with more than one box names each (tests/pages/test_chapters.py):
  a screen reader, and the eye, otherwise meet two boxes called the same.

Each quiz's id is quiz-<hash> of its comment's call (quiz_id): the reader's kept answer and
mark (docs/javascripts/progress.js) belong to that quiz, not to its place on the page. A quiz
inserted above it, or a changed quiz, does not bring back an answer given to another question.

The quiz is HTML in the page, hidden until docs/javascripts/widgets/quiz.js shows it, so with
JavaScript off the reader has the question and the folded answer, as before.
"""

import dataclasses
import hashlib
import html
import json
import math
import numbers
import re

import markdown

from micrograd.formatting import answer
from scripts.pages.directives import Directive, DirectiveError, Output


@dataclasses.dataclass
class Number:
    key: float
    answer: float
    tol: float
    mistakes: list = dataclasses.field(default_factory=list)  # [(wrong number, message)]
    label: str = "Your answer"


@dataclasses.dataclass
class Choice:
    key: str
    options: list
    label: str = "Pick one"


def _real(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def number(expression, *, answer, tol=0.0, mistakes=None, label="Your answer"):
    """A numeric quiz: `expression` (int or float) must equal `answer` within `tol` (>= 0).
    mistakes: {message: number}, the classic wrong answers, each computed by the page;
    label: the answer box's name (str). Raises TypeError for anything else."""
    if not _real(expression):
        raise TypeError(f"number() needs a number to check against, not {type(expression).__name__}"
                        " (for a Value, give its .data or .grad)")
    if not (_real(answer) and _real(tol) and tol >= 0):
        raise TypeError("number() needs answer= a number and tol= a number >= 0")
    pairs = [(v, m) for m, vs in dict(mistakes or {}).items()
             for v in (vs if isinstance(vs, (list, tuple)) else [vs])]
    if not all(isinstance(m, str) and m and _real(v) for v, m in pairs):
        raise TypeError("number() needs mistakes= a dict {message: the wrong number it explains, "
                        "or a list of them}")
    return Number(float(expression), float(answer), float(tol), [(float(v), m) for v, m in pairs],
                  _label(label))


def _label(label):
    if not (isinstance(label, str) and label.strip()):
        raise TypeError(f"a quiz's label= must be a non-empty str, not {label!r}")
    return label.strip()


# The classic mistakes' messages, named in a quiz as mistakes={LOST_PATH: [9.0, 6.0]}, so a
# chapter spends no words on them.
MISTAKES = {
    "LOST_PATH": "a lost path: a node passed its gradient on before all of it had arrived, so "
                 "one path to the output was dropped. The paths add up.",
    "ASSIGN": "a value used twice needs +=, not =: with =, each contribution overwrites the one "
              "before.",
    "FLIPPED_SIGN": "the sign is flipped: check which way the step goes.",
    "RIGHT_ORDER": "that is what the right visit order gives; this order visits a node before "
                   "all of its gradient has arrived.",
}


def grad_after(root, node, order=None):
    """node.grad after the engine's backward pass from `root`, visiting `order` (None: the
    engine's own order). Recorded by micrograd.trace, so every .grad is left as it was."""
    from micrograd.engine import topological_order
    from micrograd.trace import trace

    position = topological_order(root).index(node)
    return trace(root, order=order)["nodes"][position]["grad"]


def grad_with_assign(root, node):
    """node.grad after the backward pass with the classic bug, parent.grad = local * node.grad
    (= for +=), visiting in reverse topological order; every .grad is left as it was."""
    from micrograd.engine import topological_order

    nodes = topological_order(root)
    saved = [n.grad for n in nodes]
    try:
        for n in nodes:
            n.grad = 0.0
        root.grad = 1.0
        for child in reversed(nodes):
            for parent, local in zip(child._prev, child._local):
                parent.grad = local * child.grad  # the bug: each path overwrites the last
        return node.grad
    finally:
        for n, grad in zip(nodes, saved):
            n.grad = grad


def choice(expression, *, options, label="Pick one"):
    """A multiple-choice quiz: `expression` gives the right option, one of `options` (strs);
    label: what the options are called (str). Raises TypeError for anything else."""
    if not options or not all(isinstance(o, str) for o in options) or len(set(options)) != len(options):
        raise TypeError("choice() needs options=, a list of different strings")
    return Choice(expression, list(options), _label(label))


def _close(a, b, tol):
    return abs(a - b) <= tol + 1e-9 * max(1.0, abs(a), abs(b))


class QuizParser(Directive):
    """`<!-- quiz: number(...) -->` or `<!-- quiz: choice(...) -->`; see the module docstring."""

    kind = "quiz"

    def build(self, example, at, page):
        name = new_quiz_id(example.parsed, page.names, at)
        html_ = quiz_html(example.parsed, example.namespace, at, name, example.path)
        return Output(self.kind, example.line, html_)


def quiz_id(source):
    """The id of the quiz whose comment holds `source` (str, its call): "quiz-" and 10 hex
    digits of the call's SHA-256, whitespace runs made one space. The same call gives the same
    id wherever it sits on the page; any change to it (answer, expression, label) a new one."""
    text = " ".join(source.split())
    return "quiz-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def new_quiz_id(source, seen, at):
    """quiz_id(source), added to `seen` (a set of the page's quiz ids so far). Raises
    DirectiveError starting with `at` (page:line, or the notebook's path) for a quiz the same as
    one above it: a reader's answer to one would come back on both."""
    name = quiz_id(source)
    if name in seen:
        raise DirectiveError(f"{at}: this quiz is the same as one above it on the page; a "
                             f"reader's answer to one would come back on both")
    seen.add(name)
    return name


def quiz_html(source, namespace, at, name, filename="<quiz>"):
    """The page's HTML for one quiz, `name` its id (quiz_id): `source` (number(...) or
    choice(...)) evaluated in `namespace`. Raises DirectiveError starting with `at` (page:line)
    when the written answer and the expression disagree, or the source is not a quiz."""
    helpers = {"number": number, "choice": choice, "grad_after": grad_after,
               "grad_with_assign": grad_with_assign, **MISTAKES}
    quiz = eval(compile(source, filename, "eval"), namespace, helpers)
    if isinstance(quiz, Number):
        if not (math.isfinite(quiz.key) and _close(quiz.key, quiz.answer, quiz.tol)):
            raise DirectiveError(f"{at}: the quiz's written answer {quiz.answer:g} differs from "
                                 f"its expression, which gives {quiz.key!r} (tol {quiz.tol:g})")
        seen = [quiz.key]
        for wrong, message in quiz.mistakes:
            if not math.isfinite(wrong) or any(_close(wrong, x, quiz.tol) for x in seen):
                raise DirectiveError(f"{at}: the quiz's mistake {message!r} gives {wrong!r}, which "
                                     f"is not a number apart from the key and the other mistakes "
                                     f"(tol {quiz.tol:g}): a reader could never be told it")
            seen.append(wrong)
    elif isinstance(quiz, Choice):
        if quiz.key not in quiz.options:
            raise DirectiveError(f"{at}: the quiz's expression gives {quiz.key!r}, which is not "
                                 f"one of its options {quiz.options}")
    else:
        raise DirectiveError(f"{at}: a quiz is number(...) or choice(...), not {source!r}")
    return _html(quiz, name)


def notebook_quizzes(namespace, text, path, line):
    """For a notebook's hidden quiz cell: the quizzes of one Markdown cell, evaluated through
    QuizParser, the same Sybil directive as a page's, in the kernel's namespace; printed as
    JSON, [[start, end, html], ...] in the order of the cell's `text` (positions in it).

    path, line: the notebook's file and the line of the cell's first line (errors name
    "path:line" of the quiz). Raises DirectiveError as on a page. A quiz the same as one in
    another cell is refused by
    scripts.notebooks.training_notebook.quiz_ids, which the build's progress totals call.
    """
    from pathlib import Path

    from sybil import Document

    from scripts.pages.directives import Collector

    offset = "\n" * (line - 1)  # the cell's lines at the file's lines
    document = Document(offset + text, str(path))
    document.namespace = namespace
    collector = Collector(Path(path).name)
    regions = list(QuizParser(collector)(document))
    for region in regions:
        document.add(region)
    for example in document:
        example.evaluate()
    print(json.dumps([[region.start - len(offset), comment_end(document.text, region.end) - len(offset),
                       output.markdown] for region, output in zip(regions, collector.outputs)]))


def comment_end(text, end):
    """Where a directive's comment ends: Sybil's region stops before its closing `-->`."""
    close = re.compile(r"[ \t]*-->").match(text, end)
    return close.end() if close else end


def quiz_regions(text, path):
    """The `<!-- quiz: ... -->` directives of `text` (a notebook's Markdown cell), as Sybil
    regions found by QuizParser's lexer (not evaluated)."""
    from sybil import Document

    return list(QuizParser()(Document(text, str(path))))


def _html(quiz, name):
    """One line of HTML (it may sit inside an indented admonition)."""
    check = '<button class="bv-button bv-quiz__check" type="button">Check</button>'
    feedback = '<p class="bv-quiz__feedback" role="status" aria-live="polite"></p>'
    if isinstance(quiz, Number):
        shown = answer(quiz.answer)  # 61,539, as the pages write it: so does "Right: ..."
        attributes = (f'data-quiz="number" data-key="{quiz.key!r}" data-tol="{quiz.tol!r}" '
                      f'data-shown="{html.escape(shown)}"')
        if quiz.mistakes:
            pairs = [[wrong, message] for wrong, message in quiz.mistakes]
            attributes += f' data-mistakes="{html.escape(json.dumps(pairs, ensure_ascii=False))}"'
        # a text keyboard: iOS's decimal keypad has no minus, and an answer may be negative
        body = (f'<label class="bv-quiz__label" for="{name}">{html.escape(quiz.label)}</label> '
                f'<input class="bv-quiz__input" id="{name}" type="text" inputmode="text" '
                f'enterkeyhint="done" '
                f'autocomplete="off" autocapitalize="off" spellcheck="false"> {check}')
    else:
        attributes = f'data-quiz="choice" data-key="{quiz.options.index(quiz.key)}"'
        labels = "".join(
            f'<label class="bv-quiz__option"><input type="radio" name="{name}" value="{i}"> '
            f"{_inline(option)}</label>" for i, option in enumerate(quiz.options))
        body = f'<fieldset><legend>{html.escape(quiz.label)}</legend>{labels}</fieldset>{check}'
    return f'<div class="bv-quiz" id="{name}-box" {attributes} hidden>{body}{feedback}</div>'


def _inline(text):
    """An option's inline Markdown (code, math) as HTML, without the surrounding <p>."""
    from scripts.pages.katex import KatexExtension

    rendered = markdown.markdown(text, extensions=[KatexExtension()])
    return rendered.removeprefix("<p>").removesuffix("</p>").replace("\n", " ")

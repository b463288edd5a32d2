"""A Markdown chapter as a Jupyter notebook: the page's download, made when the page runs.

chapter_notebook(document): its Python blocks as code cells in page order
(hidden setup included, doctests as the code they run), its prose as
Markdown cells; a block the page skips (`<!-- skip: ... -->`) is a `%%skip`
cell that skips as the page does. What the page folds (`??? success "Answer"`)
the notebook folds in `<details>`; a quiz gets a cell to answer in; an exercise
gets cells to write and check the answer in (scripts/notebooks/notebook_exercises.py);
a listing the page includes (`--8<--`) is in the notebook; a link to another
page links its page address. scripts/notebooks/notebook_download.py makes it a download
that runs in any Jupyter.
"""

import ast
import doctest
import html
import posixpath
import re
from pathlib import Path, PurePosixPath

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from sybil.parsers.markdown import SkipParser

from scripts import ROOT
from scripts.pages.examples import BLOCK_TITLE, python_blocks
from scripts.reader.reader_code import is_doctest

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}

_COMMENT = re.compile(r"[ \t]*<!--.*?-->[ \t]*\n?", re.DOTALL)
_PLACEHOLDER = re.compile(r"^[ \t]*\x00(\d+)\x00$")
# A quiz or an exercise: a directive on a line of its own (scripts/pages/quizzes.py, exercise_directive.py)
_DIRECTIVE = re.compile(r"^([ \t]*)<!--[ \t]*(quiz|exercise):[ \t]*(.*?)[ \t]*-->[ \t]*$", re.MULTILINE | re.DOTALL)
# An inline link or image whose target is a page of the site: [text](04-engine.md#anchor)
_PAGE_LINK = re.compile(r"(\]\()([^()\s:#]+\.(?:md|ipynb))(#[^()\s]*)?(\))")
# The answer's code, run after the fold that shows it: JupyterLab and Notebook 7 show it folded,
# and it prints nothing (IPython's %%capture), as what it prints is the answer, which the fold
# shows; it runs because the cells after it may use what it defines
FOLDED = {"jupyter": {"source_hidden": True, "outputs_hidden": True}}
QUIET = "%%capture\n# the answer's code, shown in the fold above with what it prints; run quietly here"
ANSWER_TAG = "your-answer"  # the tag of a quiz's cell to answer in
EXERCISE_MAGICS = "backprop_verified_exercises"  # scripts/notebooks/notebook_exercises.py, in the engine's wheel


def chapter_notebook(document):
    """A chapter page (a parsed sybil.Document) as notebook JSON text (nbformat 4).

    Admonitions and tabs become bold titles over their dedented text; a fold
    (`??? kind "Title"`, an answer) becomes a Markdown cell `<details>` holding its text and
    its blocks as shown on the page, followed by those blocks as code cells that run,
    folded and quiet (FOLDED, QUIET). A quiz (`<!-- quiz: ... -->`) becomes a code cell to answer in,
    named by the quiz's label(s); an exercise (`<!-- exercise: name -->`) its heading and
    instructions, its starter in a `%%exercise name` cell, a `%check_exercise name` cell,
    each hint in a fold of its own, and a `%exercise_solution name` cell, which shows the
    solution after two tries; EXERCISE_MAGICS is loaded before the first one.
    Other HTML comments (figure alt text, skips) are dropped; a block that includes a file
    at build time (`--8<--`) is shown as that file's text (pymdownx.snippets, as the page).
    A link to another page (`04-engine.md#anchor`) becomes that page's address relative to
    this page's (`../04-engine/#anchor`), which notebook_download.for_download makes absolute.
    A block the page skips (`<!-- skip: start/next ARGUMENTS -->`) becomes
    cells that start `%%skip ARGUMENTS`, and SKIP_MAGIC's cells, which define
    that magic, come first.
    """
    text, items = document.text, []  # items: what each placeholder stands for
    skips = _skips(document)
    pieces, place = [], 0
    for block in python_blocks(document):
        first_line = text[block.start : text.find("\n", block.start)]
        indent = first_line[: len(first_line) - len(first_line.lstrip())]  # inside an admonition
        end = block.end
        if "directive" in block.lexemes:  # an invisible-code-block: the comment's --> too
            end = text.index("-->", end) + 3
        pieces += [_directives(text, place, block.start, items), f"{indent}\x00{len(items)}\x00"]
        items.append(("code", str(block.lexemes["source"]), "directive" in block.lexemes, skips.get(block.start)))
        place = end
    pieces.append(_directives(text, place, len(text), items))
    markdown = _COMMENT.sub("", "".join(pieces))
    cells, prose = [], []
    fold = None  # inside a fold: [its title, its Markdown lines, its code cells]
    exercises = 0
    for kind, line in _material_lines(markdown.splitlines()):
        if kind == "open-fold":
            _flush(prose, cells)
            fold = [line, [], []]
            continue
        if kind == "close-fold":
            cells.append(details_cell(*fold[:2]))
            cells += fold[2]
            fold = None
            continue
        placeholder = _PLACEHOLDER.match(line)
        if placeholder is None:
            (fold[1] if fold else prose).append(line)
            continue
        item = items[int(placeholder.group(1))]
        if item[0] == "quiz":
            made = [answer_cell(item[1])]
        elif item[0] == "claim":
            made = [claim_cell(*item[1:])]
        elif item[0] == "exercise":
            exercises += 1
            made = _exercise_cells(item[1], item[2], exercises)
        else:
            made = _block_cells(*item[1:])
        if fold is not None:  # shown inside the fold as on the page; its code runs after it
            fold[1] += ["", _listing(item), ""] if item[0] == "code" and not item[2] else []
            for cell in made:
                if cell.cell_type == "code":
                    cell.metadata.update(FOLDED)
                    cell.source = f"{QUIET}\n{cell.source}"
                    fold[2].append(cell)
            continue
        _flush(prose, cells)
        cells += made
    _flush(prose, cells)
    src_uri = _src_uri(document.path)
    for cell in cells:
        if cell.cell_type == "markdown":
            cell.source = outside_code(cell.source, lambda part: _PAGE_LINK.sub(lambda m: _page_link(m, src_uri), part))
    if any(cell.source.startswith("%%skip") for cell in cells if cell.cell_type == "code"):
        cells[:0] = [new_markdown_cell(SKIP_MAGIC[0]), new_code_cell(SKIP_MAGIC[1])]
    number_cells(cells)
    notebook = new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})
    return nbformat.writes(notebook)


def _directives(text, start, end, items):
    """text[start:end] with each quiz or exercise directive replaced by a placeholder line,
    its item appended to `items`: ("quiz", source) or ("exercise", name, heading level)."""
    from scripts.pages.exercise_directive import _section_level

    def placeholder(match):
        indent, kind, argument = match.groups()
        if kind == "quiz":
            items.append(("quiz", argument))
        else:
            items.append(("exercise", argument, min(_section_level(text, start + match.start()) + 1, 6)))
        return f"{indent}\x00{len(items) - 1}\x00"

    return _claims(_DIRECTIVE.sub(placeholder, text[start:end]), items)


def _claims(text, items):
    """`text` (prose between two blocks) with each `<!-- claim: EXPR -->` removed and a
    placeholder line put after its paragraph, its item ("claim", EXPR, sentence) appended to
    `items`: the notebook checks the claim once the reader has read the paragraph."""
    from scripts.pages.claims import CLAIM, fenced_lines, sentence_before

    fenced = fenced_lines(text)
    out, pending, offset = [], [], 0
    for number, line in enumerate(text.split("\n")):
        start, offset = offset, offset + len(line) + 1
        if not line.strip() and pending:  # the paragraph ended: its claims' cells come here
            out += pending
            pending = []
        if number in fenced or not CLAIM.search(line):
            out.append(line)
            continue
        indent = re.match(r"[ \t]*", line)[0]
        for match in CLAIM.finditer(line):
            items.append(("claim", match["arguments"].strip(), sentence_before(text, start + match.start())))
            pending.append(f"{indent}\x00{len(items) - 1}\x00")
        line = CLAIM.sub("", line).rstrip()
        if line.strip():  # the sentence's line stays; a claim on a line of its own goes
            out.append(line)
    if pending:  # the text ended inside the paragraph (a block follows it)
        last = out.pop() if out and out[-1] == "" else None
        out += pending + ([last] if last is not None else [])
    return "\n".join(out)


def claims_in(markdown):
    """(markdown without its claim comments, [a claim_cell for each, in order]): a notebook's
    Markdown cell, whose claims are checked after it."""
    items = []
    text = _claims(markdown, items)
    if not items:
        return markdown, []
    text = re.sub(r"^[ \t]*\x00\d+\x00(?:\n|$)", "", text, flags=re.MULTILINE)
    return text.rstrip("\n"), [claim_cell(*item[1:]) for item in items]


def claim_cell(expression, sentence):
    """The code cell (tagged "claim") that checks a claim where the page does: EXPR must give
    exactly True, as the page's directive requires (scripts/pages/claims.py)."""
    cell = new_code_cell(f"# the sentence above, checked by the page's code\n"
                         f"assert ({expression}) is True, {sentence!r}")
    cell.metadata["tags"] = ["claim"]
    return cell


def _block_cells(source, hidden, skip):
    """The cells of one Python block (_code_cells), with the page's skip as %%skip."""
    arguments, whole = skip or (None, True)
    made = _code_cells(source, hidden, first_alone=not whole)
    if arguments is not None:
        for cell in made if whole else made[:1]:
            if cell.cell_type == "code":
                cell.source = f"%%skip {arguments}\n{cell.source}"
    return made


def _listing(item):
    """A block as the page shows it: a ```python fence of its source, an include expanded."""
    source = item[1]
    if "--8<--" in source:
        source = _included(source)
    return "```python\n" + source.strip("\n") + "\n```"


def _included(source):
    """The text pymdownx.snippets puts in place of a block's `--8<-- "path[:section]"` lines,
    with the page's settings (mkdocs.yml: base_path ".", the repository). Raises
    SnippetMissingError (pymdownx) for a file that is not there."""
    import markdown

    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={
        "pymdownx.snippets": {"base_path": [str(ROOT)], "check_paths": True}})
    return "\n".join(md.preprocessors["snippet"].run(source.splitlines())).strip("\n")


def details_cell(title, lines):
    """A fold as a Markdown cell: <details>, `title` (str, `code` allowed) as <summary>, and
    `lines` (list of str, Markdown) inside."""
    summary = html.escape(title)
    summary = re.sub(r"`([^`]+)`", r"<code>\1</code>", summary)
    body = "\n".join(lines).strip("\n")
    return new_markdown_cell(f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>")


def quizzes_in(markdown):
    """(markdown without its quiz directives, [each quiz's source, e.g. 'number(f.data, answer=-10)'])."""
    found = []
    rest = _DIRECTIVE.sub(lambda m: found.append(m.group(3)) or "" if m.group(2) == "quiz" else m.group(0), markdown)
    return re.sub(r"\n{3,}", "\n\n", rest), found


def answer_cell(source):
    """The code cell (tagged ANSWER_TAG) that a quiz, `source` its directive's call, leaves
    for the reader's answer: a comment named by its label= (quizzes.py's defaults: "Your
    answer", or "Pick one" with the options), and that its answer is folded below."""
    cell = new_code_cell(_answer_comment(source))
    cell.metadata["tags"] = [ANSWER_TAG]
    return cell


def _answer_comment(source):
    call = ast.parse(source, mode="eval").body
    keywords = {k.arg: k.value for k in call.keywords} if isinstance(call, ast.Call) else {}
    kind = call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else "number"
    label = ast.literal_eval(keywords["label"]) if "label" in keywords else (
        "Pick one" if kind == "choice" else "Your answer")
    if kind == "choice":
        options = ast.literal_eval(keywords["options"])
        return f"# {label}, of: " + "; ".join(options) + "\n# (the answer is folded below)"
    return f"# {label} (a number; the answer is folded below):"


def _exercise_cells(name, level, number):
    """An exercise as notebook cells: see chapter_notebook. number: its place on the page."""
    from scripts.reader.exercise_format import load

    exercise = load(name)
    tests = [n for n in ast.parse(exercise.tests).body
             if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    cells = []
    if number == 1:
        cells += [new_markdown_cell(EXERCISE_SETUP), new_code_cell(f"%load_ext {EXERCISE_MAGICS}")]
    cells += [
        new_markdown_cell(f"{'#' * level} Exercise {number}: {exercise.title}\n\n{exercise.instructions}\n\n"
                          f"*Write your code in the next cell (`...` marks a blank) and run it; the cell "
                          f"after it runs the page's {len(tests)} tests on it.*"),
        new_code_cell(f"%%exercise {name}\n{exercise.starter.rstrip()}"),
        new_code_cell(f"%check_exercise {name}"),
    ]
    # hints open one at a time, as on the page; the solution is held back until two tries
    # (notebook_exercises.solution), as the page offers it
    hints = [details_cell(f"Hint {n} of {len(exercise.hints)}", [hint])
             for n, hint in enumerate(exercise.hints, 1)]
    return cells + hints + [new_code_cell(f"%exercise_solution {name}")]


EXERCISE_SETUP = """The exercises run the page's own tests on your code, with the engine's wheel's \
`backprop_verified_exercises`, which the next cell loads. A cell that starts \
`%%exercise NAME` keeps its code as your answer (it does not run it here, so the chapter's \
own `Value` stays as it is); a cell `%check_exercise NAME` runs the exercise's tests on the \
code you kept last and prints which passed, and why one failed; a cell \
`%exercise_solution NAME` shows a solution once you have checked two tries of your own."""


def _material_lines(lines):
    """("line", text) for each line, dedented out of Material's blocks as _dedent_blocks does
    (an admonition's or tab's title as a bold line), with ("open-fold", title) and
    ("close-fold", None) around the lines of a fold (`???` or `???+`) outside any fold."""
    open_blocks = []  # (indent of the title, is the outermost fold)
    for line in [*lines, "\x01"]:  # \x01: the end, which closes what is open
        indent = len(line) - len(line.lstrip())
        while open_blocks and line.strip() and indent < open_blocks[-1][0] + 4:
            if open_blocks.pop()[1]:
                yield "close-fold", None
        if line == "\x01":
            return
        depth = 4 * len(open_blocks)
        line = line[depth:] if line[:depth].strip() == "" else line.lstrip()
        title = BLOCK_TITLE.match(line)
        if not title:
            yield "line", line
            continue
        name = title.group("title") or title.group("kind").capitalize()
        folds = line.lstrip().startswith("???") and not any(fold for _, fold in open_blocks)
        open_blocks.append((indent, folds))
        if folds:
            yield "open-fold", name
        else:
            yield "line", f"{title.group('indent')}**{name}**"
            yield "line", ""


_CODE = re.compile(r"^([ \t]*)(`{3,}|~{3,}).*?^\1\2[ \t]*$|(`+)[^`\n].*?\3", re.MULTILINE | re.DOTALL)


def outside_code(markdown, rewrite):
    """`markdown` (str) with `rewrite` (str -> str) applied to its text outside fenced code
    blocks and inline code spans, which stay as they are."""
    parts, place = [], 0
    for code in _CODE.finditer(markdown):
        parts += [rewrite(markdown[place:code.start()]), code.group(0)]
        place = code.end()
    return "".join(parts + [rewrite(markdown[place:])])


def _src_uri(path):
    """The page's path relative to docs/ (a file elsewhere: its name)."""
    path = Path(path).resolve()
    docs = ROOT / "docs"
    return path.relative_to(docs).as_posix() if path.is_relative_to(docs) else path.name


def page_url(src_uri):
    """The address of the page built from `src_uri`, relative to the site (use_directory_urls,
    as mkdocs.yml): index.md -> "", 04-engine.md -> "04-engine/", a/index.md -> "a/"."""
    stem = PurePosixPath(src_uri).with_suffix("")
    if stem.name == "index":
        parent = stem.parent.as_posix()
        return "" if parent == "." else f"{parent}/"
    return f"{stem.as_posix()}/"


def _page_link(match, src_uri):
    """A page link's target as MkDocs writes it in the page's HTML: relative to the page."""
    from mkdocs.utils import get_relative_url

    opening, target, anchor, closing = match.groups()
    target = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), target))
    relative = get_relative_url(page_url(target), page_url(src_uri))
    if relative == ".." or relative.endswith("/..") or relative == ".":
        relative += "/"
    return f"{opening}{relative}{anchor or ''}{closing}"


# The notebook's `%%skip ARGUMENTS`: what Sybil does with `<!-- skip: next ARGUMENTS -->`
# (sybil.evaluators.skip.Skipper.install), where Sybil is not installed.
SKIP_MAGIC = ("""Some of the page's blocks run only where an optional package is installed, and \
the page skips them, saying what to install, where it is not. The next cell defines `%%skip`, \
which does the same here: a cell that starts `%%skip if(CONDITION, reason="...")` prints the \
reason and runs nothing when CONDITION holds, and runs as any cell otherwise.""", '''\
from IPython import get_ipython
from IPython.core.magic import register_cell_magic


@register_cell_magic
def skip(arguments, cell):
    """%%skip if(CONDITION, reason="..."), as the page's <!-- skip: next ... -->."""
    namespace = {**get_ipython().user_ns, "if_": lambda condition, reason=None: (
        (reason or "skipped") if condition else None)}
    arguments = arguments.strip()
    if arguments.startswith("if"):
        arguments = "if_" + arguments[2:]
    reason = eval(arguments, namespace) if arguments else ""
    if reason is None:  # the condition does not hold: the cell runs
        get_ipython().run_cell(cell).raise_error()  # an error in it fails the notebook
    elif reason:
        print(reason)''')


def _skips(document):
    """{start of a Python block (python_blocks): (the arguments of the `<!-- skip: -->` that
    skips it, e.g. 'if(torch is None, reason="...")', whether it skips the whole block)},
    found by Sybil's own SkipParser.

    `skip: next` skips the next example, and a doctest block is one example per `>>>`:
    before a doctest of several examples it skips only the first (whole is False).
    """
    events = sorted([(r.start, r.parsed) for r in SkipParser()(document)]
                    + [(b.start, b) for b in python_blocks(document)], key=lambda e: e[0])
    skips, active, pending = {}, None, None
    for _, event in events:
        if isinstance(event, tuple):
            action, arguments = event
            if action == "start":
                active = arguments or ""
            elif action == "end":
                active = None
            elif action == "next":
                pending = arguments or ""
            continue
        source = str(event.lexemes["source"])
        if pending is not None:
            whole = len(doctest.DocTestParser().get_examples(source)) <= 1
            skips[event.start], pending = (pending, whole), None
        elif active is not None:
            skips[event.start] = (active, True)
    return skips


def number_cells(cells):
    """Ids cell-1, cell-2, ... in place: nbformat and jupytext draw random ones, and the same
    source must give the same bytes."""
    for number, cell in enumerate(cells, start=1):
        cell.id = f"cell-{number}"


def _flush(prose, cells):
    text = "\n".join(prose).strip("\n")
    if text.strip():
        cells.append(new_markdown_cell(text))
    prose.clear()


def _code_cells(source, hidden, first_alone=False):
    """The cells of one Python block: a doctest as one cell per shown result, with the
    statements before it; first_alone: its first example in a cell of its own."""
    if "--8<--" in source:  # the page includes a file here at build time: shown, not run, as there
        return [new_markdown_cell(_listing(("code", source)))]
    if hidden:
        return [new_code_cell("# setup that the page runs without showing it\n" + source.rstrip())]
    if not is_doctest(source):
        return [new_code_cell(source.rstrip())]
    cells, group = [], []
    for example in doctest.DocTestParser().get_examples(source):
        group.append(example.source.rstrip())
        if example.want or example.exc_msg or (first_alone and not cells):
            cell = new_code_cell("\n".join(group))
            if example.exc_msg is not None:  # the page shows this error on purpose
                cell.metadata["tags"] = ["raises-exception"]  # Jupyter's tag: run on past it
            cells.append(cell)
            group = []
    if group:
        cells.append(new_code_cell("\n".join(group)))
    return cells

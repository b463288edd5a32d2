"""What the copy button of a Python block copies: a doctest block's code, without prompts or outputs.

Material's copy button copies a block's text as shown, unless an element around
the code has a `data-copy` attribute: then it copies that attribute's value. A
doctest block (one that starts with `>>>`) shows `>>> ` and `... ` prompts and
the printed results; pasted into `python` or a `.py` file that is a SyntaxError.
So every Python fence is formatted by `format_python`, a pymdownx.superfences
custom fence that gives a doctest block `data-copy` with `doctest_code(source)`,
the block's code only (as sphinx-copybutton copies a Sphinx doctest), and
otherwise highlights exactly as SuperFences' own fence does: the rendered page
looks the same, and an ordinary block copies as it is.

scripts/build/hooks/copy_code.py registers the fences with add_custom_fences (MkDocs cannot
import `scripts` while it reads mkdocs.yml, so `!!python/name:` cannot name them there).
tests/run/test_copy.py clicks every copy button of the built site and runs what it copied.

(Named copy_code, not copy: `python scripts/<tool>.py` puts scripts/ first on sys.path,
where a module named copy would shadow the standard library's `copy`.)
"""

import doctest
import html

from pymdownx.superfences import highlight_validator

from scripts.reader.reader_code import is_doctest

# The info strings of the fences scripts/pages/examples.py runs (its PYTHON_INFO), each one a
# SuperFences custom fence; docs/javascripts/run/run-blocks.js finds the same four.
LANGUAGES = ("python", "python3", "py", "pycon")
SUPERFENCES = "pymdownx.superfences"

_PARSER = doctest.DocTestParser()


def doctest_code(source):
    """The code of a doctest block, as a reader pastes it into `python` or a `.py` file.

    source: the block's text (str), `>>> ` examples with `... ` continuation lines
    and their expected output, as the standard library's doctest.DocTestParser
    reads it (so an indented block works too). Returns the examples' source lines
    without prompts, in order, each ending in a newline; expected outputs and
    tracebacks are left out. An example of more than one line (a `for` loop, a
    call over several lines) is followed by a blank line when more code follows,
    so the text also pastes into the interactive interpreter, which ends a
    compound statement only at a blank line. A `>>> # comment` line alone is
    left out, as doctest leaves it out. Returns "" for a source with no example.
    Raises ValueError (from doctest) for a malformed example, such as `>>>x`
    without the space after the prompt or a continuation line without `... `.
    """
    examples = _PARSER.get_examples(source)
    pieces = []
    for n, example in enumerate(examples):
        pieces.append(example.source)
        if example.source.count("\n") > 1 and n + 1 < len(examples):
            pieces.append("\n")
    return "".join(pieces)


def copy_attribute(source):
    """The attributes (dict) a Python block's wrapper gets: {"data-copy": code} for a
    doctest block, with the code HTML-escaped for a double-quoted attribute (pymdownx.
    highlight writes attribute values as they are); {} for an ordinary block."""
    if not is_doctest(source):
        return {}
    return {"data-copy": html.escape(doctest_code(source), quote=True)}


def format_python(src, language, class_name, options, md, classes=None, id_value="", attrs=None, **kwargs):
    """SuperFences formatter of the LANGUAGES fences: SuperFences' own highlighting of the
    block (same HTML, with pymdownx.highlight's settings), plus copy_attribute(src) on its
    wrapping <div class="language-python highlight">. Returns the HTML (str)."""
    attrs = {**(attrs or {}), **copy_attribute(src)}
    return md.preprocessors["fenced_code_block"].highlight(
        src=src, language=language, options=options, md=md, classes=classes, id_value=id_value, attrs=attrs)


def custom_fences():
    """pymdownx.superfences' `custom_fences` entries for the LANGUAGES fences (a list of dicts).

    Their validator is SuperFences' own for highlighted fences, so a fence's
    options (title="x.py", hl_lines, linenums, data-* attributes) mean what they
    meant before.
    """
    return [{"name": name, "class": "highlight", "format": format_python, "validator": highlight_validator}
            for name in LANGUAGES]


def add_custom_fences(extensions, configs):
    """Register custom_fences() with pymdownx.superfences in one Markdown setup, MkDocs' config:
    `extensions`, the extensions' names (markdown_extensions), and `configs`, their settings by
    name (mdx_configs), whose SUPERFENCES entry gains the fences in its custom_fences. Returns None.

    Raises ValueError if SUPERFENCES is not in `extensions`, or if `configs` already gives it a
    custom fence named as one of LANGUAGES: that fence would not be format_python's.
    """
    if SUPERFENCES not in extensions:
        raise ValueError(f"scripts/build/hooks/copy_code.py needs {SUPERFENCES} in mkdocs.yml's markdown_extensions")
    fences = configs.setdefault(SUPERFENCES, {}).setdefault("custom_fences", [])
    taken = sorted({fence.get("name") for fence in fences} & set(LANGUAGES))
    if taken:
        raise ValueError(f"mkdocs.yml gives {SUPERFENCES} custom fences for {taken}; "
                         "scripts/build/hooks/copy_code.py formats those fences")
    fences.extend(custom_fences())

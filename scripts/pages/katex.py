"""Math rendered at build time: KaTeX (the npm package pinned in package.json) runs in one
Node.js process for the whole build, so pages ship HTML and MathML, and no KaTeX JavaScript.

    from scripts.pages.katex import render
    render(r"\\frac{a}{b}", display=False)  # -> '<span class="katex">...</span>'

In two steps, so that the search index holds the TeX a reader types, not KaTeX's output
(three copies of every formula, e.g. "zzz" for $z$), and does not parse its thousands of tags:

1. `KatexExtension` is pymdownx.arithmatex in its generic mode: the same `$...$`, `\\(...\\)`
   and `$$...$$` syntax and escapes, each formula in a wrapper, `<span class="arithmatex">
   \\(...\\)</span>` or `<div class="arithmatex">\\[...\\]</div>`. It renders each formula as
   it meets it, so a formula KaTeX cannot parse fails while its page is read.
2. `render_wrappers(html)` puts KaTeX's HTML into every wrapper of a finished page (the math
   hook's on_post_page, after the search plugin has read the page).

The notebook page's Markdown cells get the same wrappers (`render_markdown_math`,
scripts/notebooks/training_notebook.py).
"""

import atexit
import functools
import html
import json
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as etree

from markdown.util import AtomicString
from pymdownx import arithmatex

from scripts import ROOT

KATEX = ROOT / "node_modules" / "katex"

# Reads one JSON request per line ({"tex", "display"}) and answers one JSON line
# ({"html"} or {"error"}). throwOnError: a formula KaTeX cannot parse fails the build.
_SERVER = """
const katex = require(process.argv[1]);
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { tex, display } = JSON.parse(line);
  let answer;
  try {
    answer = { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml" }) };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\\n");
});
"""


class KatexError(ValueError):
    """A formula KaTeX could not render; the message holds KaTeX's reason and the formula."""


class _Server:
    """One `node` process running KaTeX, started on first use and kept for the build."""

    def __init__(self):
        self._process = None
        self._lock = threading.Lock()  # pages may render in threads; one request at a time

    def render(self, tex, display):
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()
            self._process.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            self._process.stdin.flush()
            answer = json.loads(self._process.stdout.readline())
        if "error" in answer:
            raise KatexError(f"{answer['error']} in {'$$' if display else '$'}{tex}{'$$' if display else '$'}")
        return answer["html"]

    def _start(self):
        node = shutil.which("node")
        if node is None or not (KATEX / "package.json").exists():
            raise KatexError("KaTeX needs Node.js and node_modules/katex: run `npm ci` "
                             "(the README's commands do it)")
        return subprocess.Popen([node, "-e", _SERVER, str(KATEX)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def close(self):
        if self._process is not None and self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=5)


_server = _Server()
atexit.register(_server.close)


def render(tex, display=False):
    """KaTeX's HTML (with MathML for screen readers) for one formula, as a str.

    tex: the formula without delimiters. display: True for a centred block.
    Raises KatexError, naming the formula, when KaTeX cannot parse it. Each
    formula is rendered once per process: a page checks it as it is read, and
    render_wrappers() finds it ready.
    """
    return _rendered(tex.strip(), bool(display))


@functools.lru_cache(maxsize=4096)
def _rendered(tex, display):
    # one key per formula: an lru_cache keys f(t, display=True) and f(t, True) apart
    return _server.render(tex, display)


# Characters Markdown would read as syntax; as entities they survive the notebook's Markdown pass.
_MARKDOWN_SYNTAX = {ord(c): f"&#{ord(c)};" for c in "\\`*_[]$~"}


def render_markdown_math(markdown):
    """Markdown with every `$...$` and `$$...$$` in an arithmatex wrapper (a str), for
    render_wrappers() to fill once the page is HTML.

    For Markdown read by another renderer (the notebook's cells, through
    nbconvert): the math syntax is arithmatex's own; code spans and fences are
    left alone; the TeX is written so that Markdown leaves it intact.
    Raises KatexError naming a formula KaTeX cannot parse.
    """
    parts = _CODE.split(markdown)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = _DISPLAY.sub(lambda m: _as_markdown(_wrapper(m["math"], True)), parts[i])
        parts[i] = _INLINE.sub(
            lambda m: m[0] if m[3] is None else _as_markdown(_wrapper(m[3], False)), parts[i])
    return "".join(parts)


def render_wrappers(page):
    """The HTML `page` (a str) with KaTeX's HTML inside each arithmatex wrapper that still
    holds TeX; the wrappers stay. Raises KatexError naming a formula KaTeX cannot parse."""
    def fill(match):
        tex = html.unescape(match["tex"])
        display = tex.startswith(_DELIMITERS[True][0])
        opening, closing = _DELIMITERS[display]
        if not tex.startswith(opening) or not tex.endswith(closing):
            raise KatexError(f"a math wrapper without \\(...\\) or \\[...\\]: {match[0][:80]}")
        inside = tex[len(opening):-len(closing)]
        return f'<{match["tag"]} class="arithmatex">{render(inside, display)}</{match["tag"]}>'

    return _WRAPPER.sub(fill, page)


def _wrapper(tex, display):
    """arithmatex's wrapper of one formula, checked by KaTeX now (render() keeps the result)."""
    render(tex, display)
    tag = "div" if display else "span"
    return f'<{tag} class="arithmatex">{html.escape(_delimited(tex, display), quote=False)}</{tag}>'


def _delimited(tex, display):
    """The formula as arithmatex's generic mode writes it: \\(tex\\), or \\[tex\\] for display."""
    opening, closing = _DELIMITERS[display]
    return f"{opening}{tex}{closing}"


def _as_markdown(text):
    return text.translate(_MARKDOWN_SYNTAX)


_DELIMITERS = {False: ("\\(", "\\)"), True: ("\\[", "\\]")}  # display -> arithmatex's delimiters
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_DISPLAY = re.compile(arithmatex.RE_DOLLAR_BLOCK, re.DOTALL)
_INLINE = re.compile(arithmatex.RE_SMART_DOLLAR_INLINE, re.DOTALL)
# a wrapper still holding TeX (escaped: no "<" in it), not one already filled by KaTeX
_WRAPPER = re.compile(r'<(?P<tag>span|div) class="arithmatex">(?P<tex>[^<]*)</(?P=tag)>')


class _InlineMath(arithmatex.InlineArithmatexPattern):
    def handleMatch(self, m, data):
        element, start, end = super().handleMatch(m, data)
        if isinstance(element, etree.Element):  # a formula; a str is an escaped dollar
            render(m.group(3) if m.group(3) is not None else m.group(6), display=False)
        return element, start, end


class _BlockMath(arithmatex.BlockArithmatexProcessor):
    def generic_output(self, parent, math):
        render(math, display=True)
        element = etree.SubElement(parent, "div", {"class": "arithmatex"})
        element.text = AtomicString(_delimited(math, True))  # escaped once, when the page is written


class KatexExtension(arithmatex.ArithmatexExtension):
    """pymdownx.arithmatex (generic mode) whose formulas KaTeX checks as the page is read;
    render_wrappers() puts KaTeX's HTML in place once the page is written."""

    def extendMarkdown(self, md):
        self.setConfig("generic", True)
        super().extendMarkdown(md)
        config = self.getConfigs()
        inline = md.inlinePatterns["arithmatex-inline"]
        math = _InlineMath(inline.pattern, config)
        math.md = md
        md.inlinePatterns.register(math, "arithmatex-inline", 189.9)
        block = md.parser.blockprocessors["arithmatex-block"]
        md.parser.blockprocessors.register(
            _BlockMath(block.pattern.pattern, config, md), "arithmatex-block", 79.9)

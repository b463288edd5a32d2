"""Directives: HTML comments on a page that the page's own code turns into something.

    ```python
    draw_dot(L)
    ```
    <!-- figure: L after the forward pass; every grad is still 0 -->

A directive is `<!-- kind: arguments -->`. Each kind is a Sybil parser (a
`Directive` subclass), so pytest evaluates it in the page's namespace, at its
place in the page, exactly as the site build does. In the build, each
evaluation also produces an `Output`: the Markdown that replaces the comment,
and any files it needs (an SVG, a JSON trace). Anything that cannot be built
fails with `docs/<page>.md:<line>: reason`.
"""

import dataclasses
import posixpath
from pathlib import Path, PurePosixPath

from sybil import Region
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer

from scripts import ROOT


@dataclasses.dataclass
class Output:
    """What one directive became in the build.

    kind, line: the directive and the page line of its comment.
    markdown: the text that replaces the comment (Markdown or raw HTML).
    files: generated files, {path relative to docs/: str or bytes}.
    """

    kind: str
    line: int
    markdown: str
    files: dict = dataclasses.field(default_factory=dict)


class Collector:
    """The Outputs of one page's directives, in page order, as the site build gathers them.

    src_uri: the page's path relative to docs/ (e.g. "04-engine.md"), which
    places its generated files: asset("figure-1.svg") is "04-engine/figure-1.svg".
    """

    def __init__(self, src_uri):
        self.src_uri = PurePosixPath(src_uri)
        self.outputs = []
        self.count = {}  # kind -> directives of that kind built so far
        self.names = set()  # ids given on the page so far (a quiz's: scripts.pages.quizzes.quiz_id)

    def number(self, kind):
        """1 for the page's first directive of this kind, 2 for the next, ..."""
        self.count[kind] = self.count.get(kind, 0) + 1
        return self.count[kind]

    def asset(self, name):
        """A generated file's path relative to docs/."""
        return str(self.src_uri.with_suffix("") / name)

    def link(self, asset):
        """A link from the page's Markdown to a generated file (MkDocs resolves it)."""
        return str(PurePosixPath(asset).relative_to(self.src_uri.parent))

    def url(self, asset):
        """A URL to a generated file, relative to the page as served (use_directory_urls:
        docs/<page>.md is served at <page>/, docs/index.md at the top), for a script to fetch."""
        served = self.src_uri.parent if self.src_uri.stem == "index" else self.src_uri.with_suffix("")
        return posixpath.relpath(asset, str(served))

    def add(self, output):
        self.outputs.append(output)


class Directive:
    """Base class: parses `<!-- {kind}: arguments -->` and builds it when evaluated.

    collector: a Collector (the site build); None when pytest only checks that
    every directive builds. Subclasses implement parse(document, region, at)
    -> parsed arguments, and build(example, at, page) -> Output, where page is
    the Collector that names and links generated files.
    """

    kind = ""

    def __init__(self, collector=None):
        self.collector = collector
        self.lexer = DirectiveInHTMLCommentLexer(directive=self.kind, arguments=".+?")

    def __call__(self, document):
        for region in self.lexer(document):
            at = where(document, region.start)
            parsed = self.parse(document, region, at)
            yield Region(region.start, region.end, parsed, self.evaluate)

    def evaluate(self, example):
        at = f"{relative(example.path)}:{example.line}"
        page = self.collector or Collector(Path(example.path).name)
        try:
            output = self.build(example, at, page)
        except DirectiveError:
            raise
        except Exception as error:
            raise DirectiveError(f"{at}: {self.kind} could not be built: {error!r}") from error
        if self.collector is not None:
            self.collector.add(output)

    def parse(self, document, region, at):
        return region.lexemes["arguments"].strip()

    def build(self, example, at, page):
        raise NotImplementedError


class DirectiveError(ValueError):
    """A directive that cannot be parsed or built; the message starts with page:line."""


def relative(path):
    """docs/<page>.md for a page under the repository, else the path as given."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def where(document, position):
    """page:line of a character position in a Sybil document."""
    return f"{relative(document.path)}:{document.text.count(chr(10), 0, position) + 1}"

"""The site's own stylesheets as one file, stylesheets/site.css (issue 27, item 6).

Each stylesheet a page's <head> links blocks its first paint until it has come. A chapter
linked nine of ours (mkdocs.yml lists them under `extra: bv_stylesheets`) besides Material's
two and KaTeX's: over Lighthouse's simulated slow 4G, chapter 4 painted first at 1.66-2.06 s;
with the nine as one file, at 1.36 s (5 runs each, 2026-11-27, scripts/tools/bench_lighthouse.py
measures every page). The parts stay separate files in docs/stylesheets/, as they are written
and reviewed; the build joins them, in the listed order (the order of the cascade, as when each
had its own <link>), and scripts/overrides/main.html links the one file, naming its parts
(data-bv-parts), so that docs/javascripts/shared/dom.js's loadStylesheet never adds a part again.
"""

from pathlib import Path

SITE_CSS = "stylesheets/site.css"


class MissingStylesheet(FileNotFoundError):
    """A part mkdocs.yml lists is not in docs/ (the message names it)."""


def bundle(docs_dir, parts):
    """The text of SITE_CSS: each of `parts` (paths under docs_dir, as mkdocs.yml lists them, all
    in stylesheets/ so that a url() in them means the same in the one file), in order, each after
    a comment naming it. Same parts, same bytes. Raises MissingStylesheet for a part not there,
    ValueError for one outside stylesheets/ or listed twice."""
    if len(set(parts)) != len(parts):
        raise ValueError(f"a stylesheet is listed twice in extra.bv_stylesheets: {parts}")
    texts = []
    for part in parts:
        if Path(part).parent.as_posix() != Path(SITE_CSS).parent.as_posix():
            raise ValueError(f"extra.bv_stylesheets: {part} is not in stylesheets/, so its url()s would "
                             "change meaning in stylesheets/site.css")
        path = Path(docs_dir) / part
        if not path.is_file():
            raise MissingStylesheet(f"extra.bv_stylesheets lists {part}, which is not in {docs_dir}")
        texts.append(f"/* {part} */\n{path.read_text(encoding='utf-8').rstrip()}\n")
    return "\n".join(texts)

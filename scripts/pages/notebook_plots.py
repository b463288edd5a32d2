"""A notebook page's plots as files of their own, not data: URLs inside its HTML.

scripts/notebooks/training_notebook.py writes each plot of a notebook chapter as
`<img class="plot" alt="..." src="data:image/png;base64,...">`. Inside the page, the three
PNGs of chapter 6 were 3/4 of its HTML (179 KB of it gzipped; base64 does not compress), which a
phone had to download before it could paint the page's first line. As files, they come after
the text, once a reader scrolls near them (loading="lazy"), and the page keeps their place
meanwhile (width and height, from the PNG's header).
"""

import base64
import hashlib
import re
import struct

PLOT = re.compile(r'<img\b[^>]*\bclass="plot"[^>]*>')  # attributes in any order: nbconvert rewrites the tag
DATA = re.compile(r'\ssrc="data:image/png;base64,([A-Za-z0-9+/=\s]+)"')
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class NotebookPlotError(ValueError):
    """A plot without PNG data."""


def extract(html):
    """The page's HTML (str) with each plot's data: URL (`<img class="plot" ...>`, attributes in
    any order) replaced by a file name, and the files: (html, [(name, png bytes)]).

    A name is `plot-<first 12 hex digits of the PNG's sha256>.png`, relative to the page, so the
    same plot has the same name on every build. width and height are the PNG's pixels (its IHDR
    chunk). Raises NotebookPlotError for a plot without data, or with data that is not a PNG."""
    files = {}

    def as_file(match):
        tag = match.group(0)
        data = DATA.search(tag)
        if data is None:
            raise NotebookPlotError(f"a plot without PNG data: {tag[:80]}")
        png = base64.b64decode(data.group(1))
        if not png.startswith(PNG_SIGNATURE) or png[12:16] != b"IHDR":
            raise NotebookPlotError(f"a plot's data is not a PNG (it starts {png[:8]!r})")
        width, height = struct.unpack(">II", png[16:24])
        name = f"plot-{hashlib.sha256(png).hexdigest()[:12]}.png"
        files[name] = png
        tag = tag[:data.start()] + f' src="{name}"' + tag[data.end():]
        end = -2 if tag.endswith("/>") else -1
        return tag[:end].rstrip() + f' width="{width}" height="{height}" loading="lazy" decoding="async"' + tag[end:]

    return PLOT.sub(as_file, html), sorted(files.items())

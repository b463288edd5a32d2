"""A notebook chapter's plots are files beside its page, not data inside it
(scripts/pages/notebook_plots.py, called by scripts/build/hooks/notebook.py): the page paints
before they come, and keeps their place meanwhile."""

import base64
import re
import struct
import zlib

import pytest

from scripts.pages import notebook_plots
from tests.helpers import Tags


def png(width, height, colour=0):
    """A real PNG of one colour (8-bit grey), `width` by `height` pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([colour]) * width for _ in range(height))
    return (notebook_plots.PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def plot(alt, data, end=">"):
    """As training_notebook.py writes a plot."""
    return f'<img class="plot" alt="{alt}" src="data:image/png;base64,{base64.b64encode(data).decode()}"{end}'


def rewritten(alt, data):
    """As it comes out of mkdocs-jupyter (nbconvert writes the attributes again, alt first)."""
    return f'<img alt="{alt}" class="plot" src="data:image/png;base64,{base64.b64encode(data).decode()}"/>'


def test_each_plot_becomes_a_file_named_by_its_content_with_its_size_and_alt_kept():
    first, second = png(30, 20), png(7, 9, colour=200)
    html = f"<p>a</p>{plot('Loss per step', first)}<p>b</p>{rewritten('Accuracy', second)}{plot('Again', first, ' />')}"
    page, files = notebook_plots.extract(html)
    assert "data:" not in page
    names = dict((data, name) for name, data in files)
    assert len(files) == 2 and set(names) == {first, second}  # the same plot twice: one file
    images = [a for tag, a in Tags(page).tags if tag == "img"]
    assert [(i["alt"], i["src"], i["width"], i["height"]) for i in images] == [
        ("Loss per step", names[first], "30", "20"), ("Accuracy", names[second], "7", "9"),
        ("Again", names[first], "30", "20")]
    assert all(i["loading"] == "lazy" for i in images)
    assert all(re.fullmatch(r"plot-[0-9a-f]{12}\.png", name) for name in names.values())
    assert notebook_plots.extract(html) == (page, files)  # the same page, the same names


def test_data_that_is_not_a_png_is_refused():
    with pytest.raises(notebook_plots.NotebookPlotError, match="not a PNG"):
        notebook_plots.extract(plot("A GIF", b"GIF89a" + bytes(40)))
    with pytest.raises(notebook_plots.NotebookPlotError, match="without PNG data"):
        notebook_plots.extract('<img class="plot" alt="Gone" src="plot.svg">')


def test_the_built_notebook_page_links_its_three_plots_and_they_are_the_files_beside_it(site):
    folder = site / "06-training"
    images = [a for tag, a in Tags((folder / "index.html").read_text(encoding="utf-8")).tags
              if tag == "img" and "plot" in a.get("class", "")]
    assert len(images) == 3, images
    for image in images:
        data = (folder / image["src"]).read_bytes()
        assert data.startswith(notebook_plots.PNG_SIGNATURE), image["src"]
        assert struct.unpack(">II", data[16:24]) == (int(image["width"]), int(image["height"])), image

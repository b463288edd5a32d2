"""Math at build time (scripts/pages/katex.py): arithmatex's wrappers while a page is read, KaTeX's
HTML in them once it is written, and a clear error for TeX that KaTeX cannot parse."""

import markdown
import pytest

from scripts.pages import katex
from scripts.pages.katex import (
    KatexError,
    KatexExtension,
    render,
    render_markdown_math,
    render_wrappers,
)


def test_a_page_keeps_the_tex_until_it_is_written_then_gets_katex_html():
    read = markdown.markdown("If $z < y^2$, then\n\n$$\\frac{dz}{dx} = 2$$\n", extensions=[KatexExtension()])
    assert '<span class="arithmatex">\\(z &lt; y^2\\)</span>' in read  # what the search plugin sees
    assert '<div class="arithmatex">\\[\\frac{dz}{dx} = 2\\]</div>' in read
    assert "katex" not in read
    written = render_wrappers(read)
    assert f'<span class="arithmatex">{render("z < y^2")}</span>' in written
    fraction = render("\\frac{dz}{dx} = 2", display=True)
    assert f'<div class="arithmatex">{fraction}</div>' in written
    assert render_wrappers(written) == written  # a filled wrapper is left alone


def test_each_formula_goes_to_katex_once_when_the_page_is_read_not_again_when_it_is_written(monkeypatch):
    asked = []
    server_render = katex._server.render
    monkeypatch.setattr(katex._server, "render", lambda tex, display: asked.append(tex) or server_render(tex, display))
    katex._rendered.cache_clear()
    read = markdown.markdown("$a + b$ and $c$, then $a + b$ again\n\n$$\\sum_i x_i$$\n", extensions=[KatexExtension()])
    assert sorted(asked) == ["\\sum_i x_i", "a + b", "c"]
    written = render_wrappers(read)
    assert sorted(asked) == ["\\sum_i x_i", "a + b", "c"]  # the math hook's fill: all from the cache
    assert written.count('class="katex"') == 3 + 1


def test_the_notebook_cells_get_the_same_wrappers_through_markdown_syntax():
    cell = render_markdown_math("Map $t \\mapsto 2t - 1$, not `$x$` in code.")
    assert "`$x$`" in cell  # code spans are left alone
    assert "\\" not in cell.split("`")[0] and "_" not in cell  # TeX as entities: Markdown leaves it intact
    html = markdown.markdown(cell)
    assert render("t \\mapsto 2t - 1") in render_wrappers(html)


@pytest.mark.parametrize("read", [
    lambda tex: markdown.markdown(f"Some ${tex}$ here.", extensions=[KatexExtension()]),
    lambda tex: markdown.markdown(f"$${tex}$$", extensions=[KatexExtension()]),
    lambda tex: render_markdown_math(f"Some ${tex}$ here."),
])
def test_tex_katex_cannot_parse_fails_while_the_page_is_read_naming_the_formula(read):
    with pytest.raises(KatexError, match=r"\\frac\{1\}"):
        read("\\frac{1}")


def test_a_wrapper_without_delimiters_is_an_error_not_raw_tex_on_the_page():
    with pytest.raises(KatexError, match="without"):
        render_wrappers('<span class="arithmatex">z</span>')

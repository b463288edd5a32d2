"""Figures: drawn from the page's own state, byte-identical run to run, and
every reference that cannot be drawn names its page and line."""

import html
import json
import re
import subprocess
import sys

import pytest

import scripts.pages.figures
from micrograd import Value, draw_dot
from scripts import ROOT
from scripts.build.page_build import run
from tests.helpers import chapter_3_L


def test_draw_dot_names_nodes_by_traversal_not_identity():
    first, second = chapter_3_L(), chapter_3_L()
    assert draw_dot(first).source == draw_dot(second).source
    assert "n0" in draw_dot(first).source


def test_draw_dot_shows_label_data_grad_and_local_derivatives():
    L = chapter_3_L()
    L.backward()
    source = draw_dot(L, local_derivatives=True).source
    assert '"L | data -8.0000 | grad 1.0000"' in source
    assert '"a | data 2.0000 | grad 6.0000"' in source
    assert '"{ a | data 2.0000 | grad 6.0000 }"' in draw_dot(L, rankdir="TB").source
    assert 'n0 -> n2op [label=-3.0000 id="n0-n2-0"]' in source  # d(a*b)/da = b
    with pytest.raises(ValueError, match="rankdir"):
        draw_dot(L, rankdir="RL2")


def test_a_record_never_shows_0_for_a_number_that_is_not_nor_200_digits():
    """A reader's leaf of 1e-7 read "data 0.0000" in a stepper's graph while its caption said
    1e−7, and 1e200 took 201 digits (stop 37's re-audit): draw_dot writes such numbers in powers
    of ten, as the stepper's fields do (micrograd.formatting.field)."""
    tiny, huge = Value(1e-7, label="t"), Value(1e200, label="h")
    source = draw_dot(tiny * huge).source
    assert '"t | data 1.0000e-07 | grad 0.0000"' in source and '"h | data 1.0000e+200 | grad 0.0000"' in source


def test_same_graph_gives_byte_identical_svg(tmp_path, monkeypatch):
    svgs = []
    for attempt in ("one", "two"):  # a fresh cache each time, so Graphviz really runs twice
        monkeypatch.setattr(scripts.pages.figures, "FIGURE_CACHE", tmp_path / attempt)
        svgs.append(scripts.pages.figures.to_svg(draw_dot(chapter_3_L())))
    assert svgs[0] == svgs[1]
    assert "data -8.0000" in html.unescape(svgs[0])  # Graphviz writes '-' as &#45;


def test_svg_nodes_and_edges_carry_the_trace_ids():
    a = Value(3.0, label="a")
    svg = html.unescape(draw_dot(a * a).pipe(format="svg").decode())  # Graphviz writes '-' as &#45;
    assert '<g id="n0" class="node">' in svg
    assert '<g id="n1" class="node">' in svg
    assert '<g id="n1op" class="node">' in svg
    assert '<g id="n1op-n1" class="edge">' in svg
    assert '<g id="n0-n1-0" class="edge">' in svg and '<g id="n0-n1-1" class="edge">' in svg  # a·a: two edges
    assert 'id="node' not in svg and 'id="edge' not in svg  # no id left to Graphviz's numbering


def page(tmp_path, text):
    path = tmp_path / "page.md"
    path.write_text(text)
    return path


def test_a_figure_shows_the_state_at_its_place_in_the_page(tmp_path):
    path = page(tmp_path, (
        "```python\nfrom micrograd import Value, draw_dot\nx = Value(3.0, label='x')\ny = x * x\n"
        "draw_dot(y)\n```\n<!-- figure: before backward -->\n\n"
        "```python\ny.backward()\ndraw_dot(y)\n```\n<!-- figure: after backward -->\n"
    ))
    result = run(path)
    before, after = result.outputs
    assert (before.kind, before.line, after.line) == ("figure", 7, 13)
    width, height = scripts.pages.figures.size_px(result.files["page/figure-1.svg"])  # it fits a phone: one layout
    assert before.markdown == ('<figure class="bv-figure"><a class="bv-figure__open" href="figure-1.svg">'
                               '<picture><img class="graph" src="figure-1.svg" alt="before backward" '
                               f'width="{width}" height="{height}" loading="lazy"></picture></a></figure>')
    before_svg, after_svg = result.files["page/figure-1.svg"], result.files["page/figure-2.svg"]
    assert "grad 0.0000" in before_svg and "grad 6.0000" not in before_svg
    assert "grad 6.0000" in after_svg and "data 9.0000" in after_svg


UNDRAWABLE = [
    ("Text\n\n<!-- figure: nothing above -->\n", 3, "must directly follow a python block"),
    ("```python\nx = 1\n```\n<!-- figure: no expression -->\n", 4, "must end in an expression"),
    ("```python\nfrom micrograd import Value, draw_dot\ndraw_dot(Value(1.0))\n```\n", 1, "add <!-- figure"),
    ("```python\n1 + 1\n```\n<!-- figure: a number -->\n", 4, "not int"),
    ("```python\nraise ValueError('boom')\n```\n\n```python\n1\n```\n", 2, "boom"),
    # an audit: these two gave ast's "invalid syntax (<unknown>, line 2)", with no page line
    ("```python\nx = 1\ny = (\n```\n<!-- figure: broken -->\n", 5, "does not parse: '(' was never closed (line 2"),
    ("```pycon\n>>> 1 + 1\n2\n```\n<!-- figure: a doctest -->\n", 5, "not a doctest"),
]


@pytest.fixture(scope="module")
def undrawable(tmp_path_factory):
    """[(page path, exit code, stderr)] of `python -m scripts.build.page_build` on each UNDRAWABLE page.

    One page through the command line the build uses; the others through the same
    build_run in one fresh process, a process each would only add start-up time.
    """
    folder = tmp_path_factory.mktemp("undrawable")
    paths = []
    for n, (text, _, _) in enumerate(UNDRAWABLE):
        (folder / str(n)).mkdir()
        paths.append(page(folder / str(n), text))
    first = subprocess.run([sys.executable, "-m", "scripts.build.page_build", str(paths[0]), "page.md"],
                           cwd=ROOT, capture_output=True, text=True)
    rest = subprocess.run(
        [sys.executable, "-c", "import json, sys; from scripts.build.page_build import build_run\n"
         "print(json.dumps([build_run(p, 'page.md').get('error') for p in sys.argv[1:]]))",
         *map(str, paths[1:])], cwd=ROOT, capture_output=True, text=True)
    assert rest.returncode == 0, rest.stderr
    return [(paths[0], first.returncode, first.stderr)] + [
        (path, 0 if error is None else 1, error or "") for path, error in zip(paths[1:], json.loads(rest.stdout))]


@pytest.mark.parametrize("n", range(len(UNDRAWABLE)))
def test_an_undrawable_reference_names_page_and_line(undrawable, n):
    (path, returncode, stderr), (_, line, message) = undrawable[n], UNDRAWABLE[n]
    assert returncode == 1
    assert f"{path}:{line}" in stderr
    assert message in stderr


def test_a_node_used_twice_gets_two_edges_apart():
    """a·a: the two a → * edges leave and enter at opposite corners, not on top of each other."""
    a = Value(3.0, label="a")
    svg = html.unescape(draw_dot(a * a, rankdir="TB").pipe(format="svg").decode())
    starts = [float(x) for x in re.findall(r'<g id="n0-n1-\d" class="edge">.*?d="M([\d.]+),', svg, re.DOTALL)]
    assert len(starts) == 2 and abs(starts[0] - starts[1]) > 30, starts  # they were 8 pt apart
    assert "headport" not in draw_dot(chapter_3_L()).source  # other graphs as before


def test_a_pages_figures_never_depend_on_matplotlib_settings_left_in_the_process():
    """Chapter 6's notebook sets matplotlib's rcParams for its plots. Run as a doctest in the same
    pytest worker before tests/site/test_site.py, it made chapter 2's plot 391 pt wide where the
    built site's is 400 (a flaky failure). Each page now runs with a fresh process's settings."""
    import matplotlib

    page = ROOT / "docs" / "02-chain-rule.md"
    fresh = run(page, page.name).files
    with matplotlib.rc_context({"figure.figsize": (5, 3.2), "figure.dpi": 144, "font.size": 13}):
        after = run(page, page.name).files
    svgs = [name for name in fresh if name.endswith(".svg")]
    assert svgs and [after[name] for name in svgs] == [fresh[name] for name in svgs]

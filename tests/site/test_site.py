"""The built site, read as files: a strict build, generated files that match their pages'
code byte for byte, math rendered at build time, sources and notebooks for every page, and
no reference to another host. (tests/site/test_browser.py opens the same build in Chromium.)"""

import html as htmllib
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from scripts import ROOT
from tests.helpers import CHAPTERS, Tags, mkdocs_build, page_urls

DOCS = ROOT / "docs"
MARKDOWN_PAGES = sorted(DOCS.glob("*.md"))


def built_html(site, src_uri):
    stem = Path(src_uri).with_suffix("")
    return site / ("index.html" if stem.name == "index" else f"{stem}/index.html")


def test_the_strict_build_passes_without_warnings(site_build):
    assert site_build["returncode"] == 0, site_build["output"]
    warnings = [line for line in site_build["output"].splitlines() if line.startswith("WARNING")]
    assert not warnings, warnings
    print(f"strict site build: {site_build['seconds']} s")


# Figures that draw what the build measured (times; bytes traced by tracemalloc, which move with
# what the process allocated before), which differ from run to run by design: the page asserts
# bounds on them, tests/figures/test_cost_and_depth_figures.py what they state.
MEASURED = {"13-what-reverse-mode-costs/figure-1.svg", "13-what-reverse-mode-costs/figure-2.svg"}


@pytest.mark.parametrize("md_path", MARKDOWN_PAGES, ids=lambda p: p.name)
def test_every_generated_file_is_what_a_fresh_run_of_its_page_makes(site_build, site, fresh_run, md_path):
    """Figures, traces and the page's notebook: byte-identical to running the page again now
    (the notebook as the build serves it: for_download's install cell for the site's address)."""
    from mkdocs.structure.files import File

    from scripts.notebooks import wheel
    from scripts.notebooks.notebook_download import for_download

    fresh = fresh_run(md_path)
    assert fresh.files, md_path.name
    page_url = urljoin(site_build["site_url"], File(md_path.name, str(DOCS), str(site), True).url)
    for uri, content in fresh.files.items():
        if uri.endswith(".ipynb"):
            content = for_download(content, page_url, wheel.url(site_build["site_url"]))
        built = (site / uri).read_text(encoding="utf-8")
        if uri in MEASURED:  # the same drawing, its numbers measured anew
            assert built.count("<text") == content.count("<text") > 0, uri
            continue
        assert built == content, f"{md_path.name}: {uri} differs from a fresh run"


@pytest.mark.parametrize("md_path", MARKDOWN_PAGES, ids=lambda p: p.name)
def test_every_figure_is_in_its_page_with_alt_text(site, md_path):
    tags = Tags(built_html(site, md_path.name).read_text(encoding="utf-8")).tags
    images = [a for tag, a in tags if tag == "img" and "graph" in a.get("class", "").split()]
    figures = sorted((p for p in site.glob(f"{md_path.stem}/figure-*.svg") if not p.stem.endswith("-narrow")),
                     key=lambda p: int(p.stem[7:]))
    assert [image["src"].split("/")[-1] for image in images] == [f.name for f in figures]
    # a phone's layout of a figure (scripts/pages/figures.py) is its <picture>'s <source>, not an image
    sources = [a["srcset"].split("/")[-1] for tag, a in tags if tag == "source" and "srcset" in a]
    assert sorted(sources) == sorted(p.name for p in site.glob(f"{md_path.stem}/figure-*-narrow.svg"))
    assert all(image["alt"].strip() for image in images)
    if md_path in CHAPTERS:
        assert len(figures) >= 3, f"{md_path.name} has {len(figures)} figures"


# Attributes through which a page makes the browser load something.
LOADS = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src",
         "audio": "src", "video": "src", "embed": "src", "object": "data"}


def test_no_page_refers_to_a_resource_on_another_host(site):
    offending = []
    for page in site.rglob("*.html"):
        for tag, attrs in Tags(page.read_text(encoding="utf-8")).tags:
            url = attrs.get(LOADS.get(tag, ""), "") or ""
            if tag == "link" and attrs.get("rel") in ("canonical", "alternate", "author"):
                continue
            if url.startswith(("http:", "https:", "//")):
                offending.append(f"{page.relative_to(site)}: <{tag}> {url}")
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        for marker in ("url(http", "url(//", "url('http", 'url("http', "@import"):
            if marker in text:
                offending.append(f"{css.relative_to(site)}: {marker}")
    assert not offending, offending


def test_search_indexes_each_formula_as_its_tex_not_as_katex_output(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))

    def squeezed(text):  # the index collapses whitespace; KaTeX trims and escapes the TeX
        return re.sub(r"\s+", "", htmllib.unescape(text))

    checked = 0
    for path, _ in page_urls(site):
        page = (site / path / "index.html").read_text(encoding="utf-8")
        formulas = re.findall(r'<annotation encoding="application/x-tex">(.*?)</annotation>', page, re.DOTALL)
        where = "" if path == "." else f"{path}/"
        entries = [d for d in index["docs"] if d["location"].split("#")[0] == where]
        text = squeezed(" ".join(d["title"] + " " + d["text"] for d in entries))
        assert entries, path
        assert "katex" not in text and "\u200b" not in text, path  # no KaTeX markup or its spacing
        for tex in formulas:
            assert any(f"{o}{squeezed(tex)}{c}" in text for o, c in [("\\(", "\\)"), ("\\[", "\\]")]), (path, tex)
        checked += len(formulas)
    assert checked > 500  # the site has about 750: the test did not pass on none


def test_math_is_rendered_in_the_html_and_no_page_loads_katex_script(site):
    with_math = 0
    for path, _ in page_urls(site):
        page = site / path / "index.html"
        text = page.read_text(encoding="utf-8")
        scripts = [a.get("src", "") for tag, a in Tags(text).tags if tag == "script"]
        assert not [s for s in scripts if "katex" in s.lower() or "mathjax" in s.lower()], (path, scripts)
        formulas = text.count('class="katex"')
        with_math += formulas > 0
        assert "katex-error" not in text, path
        # no TeX left for a script: every arithmatex wrapper holds KaTeX's output
        wrappers = re.findall(r'<(?:span|div) class="arithmatex">(.{0,20})', text)
        assert all(w.startswith('<span class="katex') for w in wrappers), (path, wrappers[:3])
        assert formulas >= len(wrappers), path
    assert with_math >= 8  # the home page, seven chapters, the notebook
    assert not list(site.rglob("katex*.js"))


def test_every_page_links_to_its_source_and_its_notebook(site):
    for path, _ in page_urls(site):
        page = site / path / "index.html"
        links = {a.get("aria-label"): a["href"] for tag, a in Tags(page.read_text(encoding="utf-8")).tags
                 if tag == "a" and "md-content__button" in a.get("class", "")}
        source_page = (page.parent / links["View the source of this page"]).resolve()
        assert source_page.suffix == ".html" and source_page.is_relative_to(site)
        name = source_page.name.removesuffix(".html")
        source = (DOCS / name).read_text(encoding="utf-8")
        shown = source_page.read_text(encoding="utf-8")
        assert '<meta charset="utf-8">' in shown
        assert htmllib.escape(source) in shown
        assert (source_page.parent / f"{name}.txt").read_text(encoding="utf-8") == source
        notebook = json.loads((page.parent / links["Download this page as a Jupyter notebook"])
                              .read_text(encoding="utf-8"))
        assert notebook["nbformat"] == 4 and any(c["cell_type"] == "code" for c in notebook["cells"])


def test_a_page_named_with_edit_links_to_its_own_source(tmp_path):
    """Material's "view" link is edit_url with "edit" replaced by "raw": 10-editing.md became 10-rawing.md."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n")
    (docs / "10-editing.md").write_text("# Editing\n\nA dot: a·b, a minus: −3.\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: edit\ndocs_dir: {docs}\ntheme:\n  name: material\n  custom_dir: {ROOT / 'scripts/overrides'}\n"
        f"  features: [content.action.view]\nhooks:\n  - {ROOT / 'scripts/build/hooks/sources.py'}\n")
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "10-editing" / "index.html").read_text(encoding="utf-8")
    assert 'href="../_sources/10-editing.md.html"' in page
    shown = (tmp_path / "site" / "_sources" / "10-editing.md.html").read_text(encoding="utf-8")
    assert "a·b, a minus: −3" in shown


def test_each_page_source_is_served_as_it_is_and_as_html_linked_from_the_page(tmp_path):
    """scripts/build/sources.py's page_sources: a notebook chapter's source is its jupytext file,
    the path shown is the file's in the repository, and every link is relative to its page."""
    from scripts.build.sources import page_sources

    docs = tmp_path / "content"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "04-engine.md").write_text("# Engine\n\na·b < −3\n", encoding="utf-8")
    (docs / "06-training.py").write_text("# %%\n1\n", encoding="utf-8")
    pages = [("index.md", "./"), ("04-engine.md", "04-engine/"), ("06-training.ipynb", "06-training/")]
    home, engine, training = page_sources(pages, docs, tmp_path / "mkdocs.yml")
    assert (engine.src_uri, engine.path) == ("04-engine.md", docs / "04-engine.md")
    assert (engine.raw_uri, engine.html_uri) == ("_sources/04-engine.md.txt", "_sources/04-engine.md.html")
    assert engine.links == {"page_source_url": "../_sources/04-engine.md.html",
                            "page_notebook_url": "04-engine.ipynb"}
    assert "<title>content/04-engine.md · source" in engine.html and "a·b &lt; −3" in engine.html
    assert 'href="../04-engine/"' in engine.html and 'href="04-engine.md.txt" download="04-engine.md"' in engine.html
    assert training.path == docs / "06-training.py" and training.raw_uri == "_sources/06-training.py.txt"
    assert training.links["page_notebook_url"] == "06-training.ipynb"
    assert home.links == {"page_source_url": "_sources/index.md.html", "page_notebook_url": "index/index.ipynb"}
    assert 'href="../"' in home.html
    (unnamed,) = page_sources(pages[1:2], docs, None)  # no mkdocs.yml: shown under docs/
    assert "<title>docs/04-engine.md · source" in unnamed.html


def test_a_figure_that_cannot_be_drawn_fails_the_build_with_page_and_line(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        "# Broken\n\n```python\nfrom micrograd import Value, draw_dot\nx = Value(2.0)\n"
        "draw_dot(x.missing)\n```\n<!-- figure: a graph that cannot be drawn -->\n"
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: broken\ndocs_dir: {docs}\nhooks:\n  - {ROOT / 'scripts/build/hooks/pages.py'}\n")
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "index.md:6" in result.stdout + result.stderr
    assert "missing" in result.stdout + result.stderr


def test_the_notebook_page_shows_its_plots_with_alt_text_and_100_percent(site):
    text = (site / "06-training" / "index.html").read_text(encoding="utf-8")
    tags = Tags(text).tags
    plots = [a for tag, a in tags if tag == "img" and "plot" in a.get("class", "")]  # files: test_notebook_plots.py
    assert len(plots) == 3  # loss curve, accuracy curve, decision boundary, drawn during the build
    assert all(len(p["alt"]) > 40 and "No description" not in p["alt"] for p in plots)
    assert "final training accuracy: 100%" in text
    ids = [a["id"] for tag, a in tags if tag in ("h1", "h2", "h3", "h4") and "id" in a]
    assert len(ids) == len(set(ids)), ids
    assert text.count('<details class="success">') == 2  # both answers folded, as in the chapters
    assert text.count('class="katex"') >= 20

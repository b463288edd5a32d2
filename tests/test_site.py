"""The built site: a strict build, figures that match their pages' code,
rendered math, and no request to another host."""

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scripts.examples import ROOT
from scripts.figures import render

DOCS = ROOT / "docs"
CHAPTERS = sorted(p for p in DOCS.glob("[0-9][0-9]-*.md"))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def mkdocs_build(config, site_dir):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        cwd=ROOT, capture_output=True, text=True, env=env,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    result = mkdocs_build(ROOT / "mkdocs.yml", site_dir)
    seconds = time.perf_counter() - start
    assert result.returncode == 0, result.stdout + result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("WARNING")]
    assert not warnings, warnings
    print(f"strict site build: {seconds:.1f} s")
    return site_dir


class Tags(HTMLParser):
    """Every start tag of an HTML document, as (tag, attributes)."""

    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def built_page(site, md_path):
    stem = md_path.relative_to(DOCS).with_suffix("")
    html = site / ("index.html" if stem.name == "index" else f"{stem}/index.html")
    return html, Tags(html.read_text(encoding="utf-8")).tags


@pytest.mark.parametrize("md_path", sorted(DOCS.rglob("*.md")), ids=lambda p: p.name)
def test_figures_in_the_build_are_the_ones_the_page_code_draws(site, md_path):
    html, tags = built_page(site, md_path)
    images = [a for tag, a in tags if tag == "img" and "graph" in a.get("class", "").split()]
    figures = render(md_path)  # runs the page's code again, now
    assert len(images) == len(figures)
    for image, figure in zip(images, figures):
        svg = (html.parent / image["src"]).resolve()
        assert svg.suffix == ".svg" and svg.is_relative_to(site)
        assert svg.read_text(encoding="utf-8") == figure.svg, f"{md_path.name}:{figure.line}"
        assert image["alt"].strip() and image["alt"] == figure.alt.replace("[", "(").replace("]", ")")
    if md_path in CHAPTERS:
        assert len(figures) >= 3, f"{md_path.name} has {len(figures)} figures"


def test_at_least_twelve_figures_across_the_site(site):
    assert len(list(site.rglob("figure-*.svg"))) >= 12


# Attributes through which a page makes the browser load something.
LOADS = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src",
         "audio": "src", "video": "src", "embed": "src", "object": "data"}


def test_no_page_refers_to_a_resource_on_another_host(site):
    offending = []
    for html in site.rglob("*.html"):
        for tag, attrs in Tags(html.read_text(encoding="utf-8")).tags:
            url = attrs.get(LOADS.get(tag, ""), "") or ""
            if tag == "link" and attrs.get("rel") in ("canonical", "alternate", "author"):
                continue
            if url.startswith(("http:", "https:", "//")):
                offending.append(f"{html.relative_to(site)}: <{tag}> {url}")
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        for marker in ("url(http", "url(//", "url('http", 'url("http', "@import"):
            if marker in text:
                offending.append(f"{css.relative_to(site)}: {marker}")
    assert not offending, offending


def test_every_page_links_to_its_source(site):
    for md_path in sorted(DOCS.rglob("*.md")):
        html, tags = built_page(site, md_path)
        links = [a["href"] for tag, a in tags if tag == "a" and "_sources/" in a.get("href", "")]
        assert links, md_path.name
        assert (html.parent / links[0]).resolve().read_text(encoding="utf-8") == md_path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser_pages(site):
    """Each built page opened in Debian's Chromium: (path, requests, katex, errors, images)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed: `bash scripts/dev.sh test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page()
            for html in sorted(site.rglob("index.html")):
                if html.parent.name in ("search", "assets"):
                    continue
                requests = []

                def record(request, requests=requests):  # Playwright tags its handlers: a plain function
                    requests.append(request.url)

                page.on("request", record)
                path = html.parent.relative_to(site).as_posix()
                page.goto(f"{origin}/{'' if path == '.' else path + '/'}", wait_until="networkidle")
                images = page.evaluate(
                    "Promise.all(Array.from(document.images).map(i => { i.loading = 'eager';"
                    " return i.decode().then(() => i.naturalWidth, () => 0); }))")
                results.append((path, requests,
                                page.locator(".katex").count(), page.locator(".katex-error").count(),
                                page.locator(".arithmatex").count(), images))
                page.remove_listener("request", record)
            browser.close()
    finally:
        server.shutdown()
    return origin, results


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_pages_load_nothing_from_another_host(browser_pages):
    origin, results = browser_pages
    foreign = {path: [u for u in urls if not u.startswith((origin, "data:", "blob:"))]
               for path, urls, *_ in results}
    assert len(results) >= 10
    assert not any(foreign.values()), foreign


def test_math_is_rendered_by_katex(browser_pages):
    _, results = browser_pages
    with_math = [(path, katex, errors, spans) for path, _, katex, errors, spans, _ in results if spans]
    assert len(with_math) >= 4
    for path, katex, errors, spans in with_math:
        assert errors == 0, f"{path}: {errors} KaTeX errors"
        assert katex >= spans, f"{path}: {spans} formulas, {katex} rendered"


def test_every_figure_loads_in_the_browser(browser_pages):
    _, results = browser_pages
    for path, *_, images in results:
        assert all(width > 0 for width in images), f"{path}: an image did not load"


def test_a_figure_that_cannot_be_drawn_fails_the_build_with_page_and_line(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        "# Broken\n\n```python\nfrom micrograd import Value, draw_dot\nx = Value(2.0)\n"
        "draw_dot(x.missing)\n```\n<!-- figure: a graph that cannot be drawn -->\n"
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: broken\ndocs_dir: {docs}\nhooks:\n  - {ROOT / 'scripts' / 'hooks.py'}\n")
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "index.md:6" in result.stdout + result.stderr
    assert "missing" in result.stdout + result.stderr


def test_the_notebook_page_shows_three_plots_and_100_percent(site):
    html = (site / "06-training" / "index.html").read_text(encoding="utf-8")
    plots = [a for tag, a in Tags(html).tags if tag == "img" and a.get("src", "").startswith("data:image/png")]
    assert len(plots) == 3  # loss curve, accuracy curve, decision boundary, drawn during the build
    assert "final training accuracy: 100%" in html

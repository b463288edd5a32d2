"""The built site in Debian's Chromium, as a reader opens it: every page loads from its own
host only, without console errors; math and figures read with JavaScript off; "view source"
shows the right characters; the notebook page fits a phone; axe finds no serious problem,
in light mode or in dark."""

import json

import pytest

from scripts import ROOT
from tests.helpers import page_urls

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}

# axe rules that fail because of the theme (Material for MkDocs), not our content or CSS.
# Each entry: rule id -> why it is left. Anything else serious or critical fails the test.
AXE_ALLOWED = {
    "aria-dialog-name": "Material's search box is a role=dialog <div class=md-search> without a "
                        "name; it is the theme's own partial (search.html)",
}


# Pages where axe also checks every code block. Code colours come from one stylesheet, the
# same on every page, so two pages cover them (the exercises' code: tests/test_browser_python.py);
# elsewhere axe skips <pre>, which is half its time on a chapter.
CODE_PAGES = {"01-computational-graphs", "06-training"}

# The axe rules whose outcome depends on the colour scheme: contrast of text, and of links
# in text. Dark mode is read with these; light mode with every rule.
DARK_RULES = ["color-contrast", "link-in-text-block"]


def visit_every_page(browser, origin, site):
    """Each page (and one source page) opened once with JavaScript on, read in light mode,
    then switched to dark mode as a reader switches it (Material's palette toggle, and the
    system preference for a page without one) and read again.

    {path: {"requests", "errors", "images" (natural widths), "axe" (light-mode violations),
    "dark": (dark-mode violations of DARK_RULES)}}. axe skips KaTeX's visual layer
    (.katex-html): it is aria-hidden (the MathML beside it is what assistive technology
    reads) and takes its colour from the text around it; in dark mode it skips the MathML too
    (invisible, so no colour to check). It skips code blocks outside CODE_PAGES; there their
    highlighting is flattened to plain text first, since axe walks every node of the document,
    excluded or not (in chapter 4, 6,263 of 9,297 are highlighting: axe took 2.6 s, now 1.6 s).
    One load per page serves both schemes: loading every page twice was a third of the
    suite's browser time.
    """
    results = {}
    for path, url in [*page_urls(site), ("_sources", "/_sources/04-engine.md.html")]:
        # a context per visit: its own request and console logs, and nothing Material stored
        # on the page before (with one context and localStorage.clear() after each page, a
        # page opened dark once in CI, its "Switch to dark mode" hidden)
        context = browser.new_context(color_scheme="light")
        page = context.new_page()
        requests, errors = [], []
        page.on("request", lambda r, requests=requests: requests.append(r.url))
        page.on("console", lambda m, errors=errors: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(origin + url, wait_until="load")
        images = page.evaluate(
            "Promise.all(Array.from(document.images).map(i => { i.loading = 'eager';"
            " return i.decode().then(() => i.naturalWidth, () => 0); }))")
        page.add_script_tag(path=str(AXE))
        exclude = [[".katex-html"]]
        if path not in CODE_PAGES:  # axe skips the code, and need not walk its highlighting
            exclude.append(["pre"])
            page.evaluate("document.querySelectorAll('pre > code').forEach(c => c.replaceChildren(c.textContent))")
        check = "([exclude, options]) => axe.run({exclude}, options).then(r => r.violations)"
        light = page.evaluate(check, [exclude, {"resultTypes": ["violations"]}])
        toggle = page.get_by_title("Switch to dark mode")
        if toggle.count():  # Material's pages: the reader's switch, then its colours settle
            toggle.click()
            page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
        # then the system's preference, for a page without the switch (a source page); after
        # the click, since Material follows a change of preference and would hide the switch
        page.emulate_media(color_scheme="dark")
        page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")
        exclude[0] = [".katex"]  # colour rules: the MathML is invisible, the rest takes the text's colour
        dark = page.evaluate(check, [exclude, {"resultTypes": ["violations"], "runOnly": DARK_RULES}])
        results[path] = {"requests": requests, "errors": errors, "images": images,
                         "axe": light, "dark": dark}
        context.close()
    return results


def serious(visits, scheme="axe"):
    """{page: [problems]} for every serious or critical axe violation not in AXE_ALLOWED,
    in light mode ("axe") or dark mode ("dark")."""
    found = {}
    for path, visit in visits.items():
        for violation in visit[scheme]:
            if violation["impact"] in ("serious", "critical") and violation["id"] not in AXE_ALLOWED:
                targets = [n["target"] for n in violation["nodes"]][:3]
                found.setdefault(path, []).append(f"{violation['id']}: {violation['help']} {json.dumps(targets)}")
    return found


@pytest.fixture(scope="module")
def visits(browser, origin, site):
    return visit_every_page(browser, origin, site)


def test_pages_load_nothing_from_another_host_and_log_no_error(visits, origin):
    assert len(visits) >= 11  # the home page, every chapter, a source page
    for path, visit in visits.items():
        foreign = [u for u in visit["requests"] if not u.startswith((origin, "data:", "blob:"))]
        assert not foreign, (path, foreign)
        assert not visit["errors"], (path, visit["errors"])


def test_every_image_loads(visits):
    for path, visit in visits.items():
        assert all(width > 0 for width in visit["images"]), path


def test_axe_finds_no_serious_problem_in_light_mode(visits):
    found = serious(visits)
    assert not found, json.dumps(found, indent=1)


def test_dark_mode_keeps_contrast(visits):
    assert len(visits) >= 11  # the home page, every chapter, a source page: each read in dark mode
    found = serious(visits, "dark")
    assert not found, json.dumps(found, indent=1)


def test_search_finds_a_chapter_in_the_real_index(browser, origin):
    """The one test with Material's full search index (the others get it empty: conftest.py)."""
    page = browser.real.new_page()
    page.goto(origin + "/")
    # typed key by key, as a reader does. Material reads the box on keyup, on focus (1 ms after
    # it) and when its index is ready; `fill` makes no keyup, so its text was never searched when
    # Material saw the focus before the text came (a CI run waited 30 s for results; forced by
    # focusing first, it fails every time)
    page.get_by_role("textbox", name="Search").press_sequentially("topological order")  # header, 1280 px
    results = page.locator(".md-search-result__item a")
    results.first.wait_for()
    assert any("/04-engine/" in href for href in results.evaluate_all("as => as.map(a => a.href)"))
    page.close()


def test_math_and_figures_read_with_javascript_off(browser, origin, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    checked = 0
    for path, url in page_urls(site):
        page.goto(origin + url)
        formulas = page.locator(".katex-html:not([hidden] .katex-html)")  # not in hidden quizzes
        if formulas.count() == 0:
            continue
        # KaTeX's layout is CSS only: each formula has a size, and no TeX source is left over
        sizes = formulas.evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
        assert all(width > 0 for width in sizes), path
        text = page.locator("article").inner_text()
        assert "\\(" not in text and "\\frac" not in text, path
        checked += 1
    assert checked >= 8
    page.goto(origin + "/01-computational-graphs/")
    assert page.locator("img.graph").count() >= 3
    context.close()


def test_view_source_shows_the_right_characters(browser, origin):
    page = browser.new_page()
    page.goto(origin + "/04-engine/")
    page.get_by_label("View the source of this page").click()
    page.wait_for_load_state()
    assert page.url.endswith("/_sources/04-engine.md.html")
    text = page.locator("pre").inner_text()
    assert text.rstrip("\n") == (ROOT / "docs" / "04-engine.md").read_text(encoding="utf-8").rstrip("\n")
    assert "Â" not in text and "â€" not in text
    page.close()


def test_the_notebook_page_fits_a_phone(browser, origin):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(origin + "/06-training/")
    layout = page.evaluate("""() => {
      const article = document.querySelector("article");
      const prompts = Array.from(document.querySelectorAll(".jp-InputPrompt, .jp-OutputPrompt"));
      const plots = Array.from(document.querySelectorAll("img.plot"));
      const outputs = Array.from(document.querySelectorAll(".jp-OutputArea-output pre"));
      return {
        pageWidth: document.documentElement.scrollWidth,
        article: article.getBoundingClientRect().width,
        visiblePrompts: prompts.filter(p => p.getBoundingClientRect().width > 0).length,
        plots: plots.map(p => p.getBoundingClientRect().width),
        wrapping: outputs.filter(o => getComputedStyle(o).whiteSpace !== "pre").length,
        outputs: outputs.length,
      };
    }""")
    assert layout["pageWidth"] <= PHONE["width"], layout
    assert layout["visiblePrompts"] == 0, layout
    assert len(layout["plots"]) == 3 and all(w >= 0.95 * layout["article"] for w in layout["plots"]), layout
    assert layout["outputs"] > 5 and layout["wrapping"] == 0, layout
    context.close()

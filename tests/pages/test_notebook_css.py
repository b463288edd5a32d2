"""The notebook page's stylesheet cut to the rules it uses (scripts/pages/notebook_css.py), and
nothing on the page styled otherwise: in Debian's Chromium, every element of chapter 6's
notebook, and its ::before and ::after, has the same computed style with PurgeCSS's sheets
as with mkdocs-jupyter's whole ones, light on a desktop and dark on a phone."""

import re

import pytest

from scripts import ROOT
from scripts.notebooks.training_notebook import site_notebook_path
from scripts.pages import notebook_css
from tests.helpers import loaded

NOTEBOOK = "06-training"
STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.DOTALL)


def page(body, css):
    return f'<html><body>{body}<style type="text/css">{css}</style></body></html>'


def test_a_rule_stays_when_the_page_uses_its_selectors_and_so_does_a_variable_it_uses():
    css = (":root { --used: red; --unused: blue; } .kept { color: var(--used); } "
           ".gone { color: green; } p span { margin: 0; } @keyframes spin { to { opacity: 0; } }")
    (purged,) = STYLE.findall(notebook_css.purge(page('<p class="kept">x <span>y</span></p>', css)))
    assert ".kept" in purged and "p span" in purged and "--used" in purged
    assert ".gone" not in purged and "--unused" not in purged and "spin" not in purged


def test_the_sheets_own_text_does_not_keep_their_rules():
    """A sheet names every class it styles: read as part of the page, it would keep them all
    (the first version kept 558 of 574 KB)."""
    (purged,) = STYLE.findall(notebook_css.purge(page("<p>x</p>", ".only-in-the-sheet { color: red }")))
    assert "only-in-the-sheet" not in purged


def test_a_page_without_its_blocks_is_unchanged_and_an_answer_comes_from_the_cache(monkeypatch):
    assert notebook_css.purge("<p>no sheet</p><style>.x { color: red }</style>") == \
        "<p>no sheet</p><style>.x { color: red }</style>"
    html = page('<p class="cached-once">x</p>', ".cached-once { color: red } .other { color: blue }")
    first = notebook_css.purge(html)
    monkeypatch.setattr(notebook_css, "_run", lambda *args: pytest.fail("PurgeCSS ran again"))
    assert notebook_css.purge(html) == first


def test_without_node_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setattr(notebook_css.shutil, "which", lambda name: None)
    monkeypatch.setattr(notebook_css, "CACHE", ROOT / ".cache" / "notebook-css-none")  # never filled
    with pytest.raises(notebook_css.NotebookCssError, match="npm ci"):
        notebook_css.purge(page('<p class="x">x</p>', ".x { color: red }"))


def test_the_notebook_page_carries_a_fortieth_of_the_stylesheet(site):
    """mkdocs-jupyter's sheets were 595 KB of chapter 6's 980 KB of HTML."""
    sheets = STYLE.findall((site / NOTEBOOK / "index.html").read_text(encoding="utf-8"))
    assert sheets and sum(map(len, sheets)) < 40_000, [len(s) for s in sheets]


# Every element of the notebook and its ::before and ::after (where drawn), each as {property:
# computed value}, custom properties aside (a variable no rule reads draws nothing; one that
# a rule reads shows in that rule's property); kept in the page (window.bvStyles) and compared
# there with the last one kept.
STYLES = """() => {
  // every standard property (the same list for every element), its values joined in one string
  const names = Array.from(getComputedStyle(document.body)).filter((name) => !name.startsWith("--"));
  const styles = [];
  for (const e of document.querySelectorAll(".jupyter-wrapper, .jupyter-wrapper *")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(e, pseudo);
      if (pseudo && ["none", "normal"].includes(style.content)) continue;
      styles.push({where: `${e.tagName.toLowerCase()}.${e.getAttribute("class") || ""}${pseudo || ""}`,
                   values: names.map((name) => style.getPropertyValue(name)).join("\u0001")});
    }
  }
  const before = window.bvStyles;
  window.bvStyles = styles;
  if (!before) return {count: styles.length, differ: []};
  const differ = [];
  styles.forEach(({where, values}, n) => {
    if (values === before[n].values) return;
    const now = values.split("\u0001"), was = before[n].values.split("\u0001");
    const shown = names.filter((_, k) => now[k] !== was[k]).slice(0, 5)
      .map((name) => `${name} ${was[names.indexOf(name)]} -> ${now[names.indexOf(name)]}`);
    differ.push(`${where}: ${shown.join(", ")}`);
  });
  return {count: styles.length, differ};
}"""

# Puts each of mkdocs-jupyter's whole sheets back in place of its purged one, in the same
# order (so the cascade is the one the page had before), and waits a frame.
WHOLE = """async (sheets) => {
  const blocks = [...document.querySelectorAll('style[type="text/css"]')];
  if (blocks.length !== sheets.length) return `${blocks.length} blocks on the page, ${sheets.length} whole sheets`;
  blocks.forEach((block, i) => { block.textContent = sheets[i]; });
  await new Promise(requestAnimationFrame);
  return null;
}"""


@pytest.fixture(scope="module")
def whole_sheets(site):
    """mkdocs-jupyter's sheets as it writes them for this notebook, before the cut."""
    from mkdocs_jupyter import convert

    prepared = site_notebook_path(ROOT / "docs" / f"{NOTEBOOK}.py")
    sheets = STYLE.findall(convert.nb2html(str(prepared), execute=False))
    assert sum(map(len, sheets)) > 400_000  # the whole stylesheet, as the issue measured it
    return sheets


@pytest.mark.parametrize("device, scheme", [({"viewport": {"width": 1280, "height": 800}}, "default"),
                                            ({"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                                              "has_touch": True}, "slate")])
def test_every_element_of_the_notebook_looks_as_with_the_whole_stylesheet(browser, origin, whole_sheets,
                                                                           device, scheme):
    with loaded(browser, f"{origin}/{NOTEBOOK}/", device) as tab:
        # The engine switch and the progress box go in the notebook's wrapper after the page is
        # bound (the box once progress.json is in): counted before they are, the two lists differ.
        tab.wait_for_function("() => document.querySelector('.bv-engine')"
                              " && document.querySelector('.jupyter-wrapper .bv-progress')")
        tab.evaluate("(scheme) => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
        # Once read, a formula asks for the KaTeX fonts it needs; once they are in, its width is
        # final (the page at rest, as a reader sees it). (A layout alone, offsetHeight, was not
        # enough: one formula was 5 px narrower then.)
        tab.evaluate(STYLES)
        tab.evaluate("document.fonts.ready.then(() => new Promise(requestAnimationFrame)).then(() => true)")
        # and the colours' transitions to the scheme set above over (Material's code: 0.25 s)
        tab.evaluate("Promise.all(document.getAnimations().map((a) => a.finished)).then(() => true)")
        purged = tab.evaluate(STYLES)
        assert purged["count"] > 1000, purged["count"]  # the notebook is there: cells, outputs, plots
        assert tab.evaluate(WHOLE, whole_sheets) is None
        whole = tab.evaluate(STYLES)  # the whole sheets' styles (before -> after: purged -> whole)
        assert whole["count"] == purged["count"]
        assert not whole["differ"], f"{len(whole['differ'])} styled otherwise: {whole['differ'][:5]}"

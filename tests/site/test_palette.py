"""The header's light and dark switch (docs/javascripts/palette.js, in place of Material's
palette component; scripts/overrides/partials/palette.html and javascripts/palette.html), in
Debian's Chromium on the built site: a first visit opens in the system's scheme, the reader's
switch changes it and is kept across pages and a reload, Enter on the focused switch works as
with Material's, and the browser's own colours follow.

And what it is for (issue 27, item 6): while a page loads, the body's colours are set once,
before the page's content is parsed; the head's URLs are made absolute, and <html> is marked as
Material's bundle marks it, before the body (scripts/overrides/main.html); so the bundle
restyles nothing for any of them. Material's component set the body's colours again as it
started, its instant navigation rewrote the stylesheets' links, and it marked <html> there: each
made Chromium style the whole page again (tests/site/test_page_load.py counts the load's forced
layouts; scripts/tools/bench_lighthouse.py prints the figures)."""

import pytest

from tests.helpers import BOUND, loaded

# Every change, while the page loads, to the body's colour attributes, to <html>'s class and
# focus-visible mark, and to a URL in the head, with the value before it and whether the page's
# content had been parsed when it happened.
WATCH = """
window.bvChanges = [];
new MutationObserver((records) => {
  const parsed = Boolean(document.querySelector('.md-content'));
  for (const r of records) {
    window.bvChanges.push({ on: r.target.nodeName.toLowerCase(), attribute: r.attributeName,
      value: r.target.getAttribute(r.attributeName), old: r.oldValue, parsed,
      inHead: Boolean(document.head && document.head.contains(r.target)) });
  }
}).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: [
  'href', 'src', 'class', 'data-js-focus-visible', 'data-md-color-media', 'data-md-color-scheme',
  'data-md-color-primary', 'data-md-color-accent', 'data-md-color-switching'] });
"""


def opened(browser, url, scheme="light"):
    """A page of url in a fresh context whose system asks for `scheme`, widgets bound, its
    changes watched (WATCH)."""
    return loaded(browser, url, {"color_scheme": scheme, "viewport": {"width": 1280, "height": 800}}, WATCH)


def state(page):
    """The page's scheme, the switch shown (its title), the checked option and the browser's colours."""
    return page.evaluate("""() => ({
        scheme: document.body.dataset.mdColorScheme,
        shown: [...document.querySelectorAll('form[data-bv-palette] label')].filter(l => !l.hidden).map(l => l.title),
        checked: document.querySelector('form[data-bv-palette] input:checked')?.id,
        colorScheme: document.querySelector('meta[name=color-scheme]')?.content,
        themeColor: document.querySelector('meta[name=theme-color]')?.content,
        metas: document.querySelectorAll('meta[name=theme-color], meta[name=color-scheme]').length,
    })""")


def settled(page):
    """state(page) once palette.js has given the browser its colours (after a frame)."""
    page.wait_for_function("() => document.querySelector('meta[name=color-scheme]')?.content")
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
    return state(page)


@pytest.mark.parametrize("scheme, expected", [("light", ("default", "Switch to dark mode", "light")),
                                              ("dark", ("slate", "Switch to light mode", "dark"))])
def test_a_first_visit_opens_in_the_systems_scheme_with_the_other_switch_shown(browser, origin, scheme, expected):
    with opened(browser, f"{origin}/04-engine/", scheme) as page:
        found = settled(page)
        assert (found["scheme"], found["shown"], found["colorScheme"]) == (expected[0], [expected[1]], expected[2])
        assert found["checked"] == ("__palette_0" if scheme == "light" else "__palette_1")
        assert found["metas"] == 2
        header = page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
        rgb = [int(c) for c in header[header.index("(") + 1:header.index(")")].split(",")[:3]]
        assert found["themeColor"] == "#" + "".join(f"{c:02x}" for c in rgb)


def test_the_switch_changes_the_scheme_and_it_is_kept_across_pages_and_a_reload(browser, origin):
    with opened(browser, f"{origin}/04-engine/") as page:
        page.get_by_title("Switch to dark mode").click()
        found = settled(page)
        assert (found["scheme"], found["shown"], found["colorScheme"]) == ("slate", ["Switch to light mode"], "dark")
        assert found["metas"] == 2
        page.reload(wait_until="load")
        assert settled(page)["scheme"] == "slate"
        page.goto(f"{origin}/02-chain-rule/", wait_until="load")
        found = settled(page)
        assert (found["scheme"], found["shown"], found["checked"]) == ("slate", ["Switch to light mode"], "__palette_1")
        page.get_by_title("Switch to light mode").click()
        page.reload(wait_until="load")
        assert settled(page)["scheme"] == "default"


def test_enter_on_the_focused_switch_goes_to_the_next_scheme(browser, origin):
    """As with Material's: the switch's radio button has the focus, Enter changes the scheme
    (and submits nothing: the page stays), the focus moves to the option now checked."""
    with opened(browser, f"{origin}/04-engine/") as page:
        page.evaluate("window.bvSamePage = true")
        page.focus("#__palette_0")
        page.keyboard.press("Enter")
        found = settled(page)
        assert (found["scheme"], found["checked"]) == ("slate", "__palette_1")
        assert page.evaluate("document.activeElement.id") == "__palette_1"
        assert page.evaluate("window.bvSamePage === true")  # no form submitted, no page loaded
        page.keyboard.press("Enter")
        assert settled(page)["scheme"] == "default"


def test_a_load_sets_the_colours_once_before_the_content_and_leaves_the_head_alone(browser, origin):
    """A reader who chose dark opens chapter 4: the body's colour attributes are set before
    the content is parsed and never again while it loads (Material's component set all four
    again, and the switching one on and off, from its bundle at the end of the page), and no
    URL in the head changes once the content is there (Material's instant navigation rewrote
    the stylesheets' links then)."""
    with opened(browser, f"{origin}/01-computational-graphs/") as page:
        page.get_by_title("Switch to dark mode").click()
        settled(page)
        page.goto(f"{origin}/04-engine/", wait_until="load")
        page.wait_for_function(BOUND)
        settled(page)
        changes = page.evaluate("window.bvChanges")
    colours = [c for c in changes if c["on"] == "body"]
    assert colours and not [c for c in colours if c["parsed"]], colours
    assert sorted(c["attribute"] for c in colours) == sorted(set(c["attribute"] for c in colours)), colours
    head = [c for c in changes if c["inHead"] and c["attribute"] in ("href", "src")]
    assert head and not [c for c in head if c["parsed"]], head
    assert all(c["value"].startswith(origin) for c in head), head


def test_material_finds_html_marked_and_changes_it_no_more_once_the_content_is_parsed(browser, origin):
    """Chapter 4 on a phone: <html> has Material's "js" and its focus-visible polyfill's class
    and attribute before the body is parsed, and no change to them comes later. The bundle made
    them at its start, at the end of the body, where they styled the whole page again (its
    evaluation took 25-30 ms more on chapter 4)."""
    phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
             "has_touch": True}
    with loaded(browser, f"{origin}/04-engine/", phone, WATCH) as page:
        marks = page.evaluate("""() => ({ classes: [...document.documentElement.classList].sort(),
            attribute: document.documentElement.getAttribute('data-js-focus-visible') })""")
        changes = [c for c in page.evaluate("window.bvChanges") if c["on"] == "html" and c["old"] != c["value"]]
    assert marks == {"classes": ["js", "js-focus-visible"], "attribute": ""}, marks
    assert changes and not [c for c in changes if c["parsed"]], changes

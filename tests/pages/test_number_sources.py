"""Each number in a page's prose links to the code that printed it (scripts/pages/number_sources.py,
docs/javascripts/widgets/number-source.js): how its source is chosen, that a number without one fails
the build with its page and line, that every number of chapters 1-5 is such a link in the
built site, and that a reader sees the source on hover, focus and tap, and follows the plain
link without JavaScript."""

import json
import re
from html.parser import HTMLParser

import pytest

from scripts import ROOT
from scripts.pages.number_sources import NumberSourceError, link_numbers, sources, spoken
from scripts.pages.prose import exempt_phrases, page_numbers
from tests.helpers import mkdocs_build

CHAPTERS = ["01-computational-graphs", "02-chain-rule", "03-backprop-by-hand", "04-engine",
            "05-neurons-layers-networks"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

FIRST = '''# A page

```python
>>> a = 4.0
>>> a * 2.5
10.0
```

Twice five is 10.

```python
>>> a * 5 / 2
10.0
>>> a + 3
7.0
```

Still 10, and 7 after it.
'''


def source_of(text, figures=(), where="docs/page.md"):
    found = sources(text, where, figures=figures)
    return found, {(n.line, n.text): shown for n, shown in found.numbers}


def test_the_source_is_the_nearest_block_above_that_printed_it():
    found, by = source_of(FIRST)
    assert not found.problems
    assert by[(9, "10")].block == 1 and by[(9, "10")].code == "a * 2.5" and by[(9, "10")].text == "10.0"
    assert by[(18, "10")].block == 2 and by[(18, "10")].code == "a * 5 / 2"  # not block 1: nearer
    assert by[(18, "7")].code == "a + 3" and by[(18, "7")].kind == "printed"
    assert found.blocks == [(1, 3), (2, 11)]  # block numbers as Run names them, and their fences


def test_an_assertion_then_a_figure_then_what_is_below():
    text = ('# P\n\n```python\nx = 3.0 * 4\nassert x == 12\n```\n\nIt is 12, and 2 of them.\n\n'
            '```python\ndraw(x)\n```\n<!-- figure: x -->\n\nThe figure shows 6.5.\n\n'
            '```python\n>>> x / 2\n6.0\n```\n')
    svg = '<svg><text x="1">data 6.5000</text><text>grad 2.0000</text></svg>'
    found, by = source_of(text, figures=[(13, svg)])
    assert not found.problems, found.problems
    assert by[(8, "12")].kind == "assertion" and by[(8, "12")].code == "assert x == 12"
    assert by[(15, "6.5")].kind == "figure" and by[(15, "6.5")].figure == 1 and by[(15, "6.5")].block == 2
    assert by[(15, "6.5")].code == "draw(x)" and by[(15, "6.5")].text == "data 6.5000"
    assert by[(8, "2")].kind == "figure"  # below the sentence: the nearest thing that shows it


def test_the_sign_the_prose_gives_picks_the_source():
    text = '# P\n\nTake $c = 10$ and $f = -10$.\n\n```python\n>>> f\n-10.0\n>>> c\n10.0\n```\n'
    found, by = source_of(text)
    assert by[(3, "10")].code in ("c", "f")
    numbers = [n for n, _ in found.numbers]
    assert [s.code for _, s in found.numbers] == ["c", "f"], [n.text for n in numbers]


@pytest.mark.parametrize("text, problem", [
    ("# P\n\n```python\n>>> 6.8, 7.2\n(6.8, 7.2)\n```\n\nIt is about 7.\n",
     "docs/page.md:8: 7: ambiguous"),
    ("# P\n\n```python\n>>> 1 + 1\n2\n```\n\nThe answer is 42.\n", "docs/page.md:8: 42: no source"),
    ("# P\n\n```python\n>>> 41 + 1\n42\n```\n\nSee [the 42 of it](x.md).\n",
     "docs/page.md:8: 42: is part of a link's text"),
    ("# P\n\n```python\n>>> 41 + 1\n42\n```\n\n$$\nx = 42\n$$\n", "docs/page.md:9: 42: is in a displayed formula"),
])
def test_a_number_without_one_exact_source_is_a_problem_naming_page_and_line(text, problem):
    found, _ = source_of(text)
    assert any(p.startswith(problem) for p in found.problems), found.problems


def test_exempt_numbers_and_chapter_references_stay_plain_text():
    text = "# 4. The engine\n\nAs chapter 3 showed, and Chapters 1 to 5 say, in micrograd 0.1.0 too.\n"
    assert page_numbers(text, exempt_phrases("04-engine.md")) == []
    assert [n.text for n in page_numbers(text, exempt_phrases("other.md"))] == ["4"]


def build_one_page(tmp_path, prose, hooks):
    """A one-page site built with `hooks` (names in scripts/build/hooks/): a block that prints 4
    (line 3), then `prose` (line 8). Returns mkdocs_build's CompletedProcess."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(f"# Numbers\n\n```python\n>>> 2 + 2\n4\n```\n\n{prose}\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: numbers\nsite_url: http://127.0.0.1/\ndocs_dir: {docs}\nhooks:\n"
                      + "".join(f"  - {ROOT / 'scripts/build/hooks' / name}.py\n" for name in hooks)
                      + "markdown_extensions:\n  - attr_list\n  - pymdownx.superfences\n")
    return mkdocs_build(config, tmp_path / "site")


def test_a_number_without_a_source_fails_the_build_with_page_and_line(tmp_path):
    result = build_one_page(tmp_path, "It is 4, not 5.", ["pages"])
    assert result.returncode != 0
    assert re.search(r"index\.md:8: 5: no source", result.stdout + result.stderr), result.stderr[-2000:]


def test_a_page_builds_with_its_numbers_linked_to_their_blocks(tmp_path):
    result = build_one_page(tmp_path, "It is 4, and $x = 4$.", ["pages", "math"])
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    links = Links(html)
    assert 'id="block-1"' in html
    assert [(a["href"], text) for a, text in links.numbers] == [("#block-1", "4"), ("#block-1", "x=4")]
    assert json.loads(links.numbers[0][0]["data-bv-source"]) == [
        {"number": "4", "kind": "printed", "label": "Block 1", "code": "2 + 2", "shown": "4", "href": "#block-1"}]
    assert 'class="katex"' in html.split('class="bv-number bv-number-math"')[1][:400]  # the formula is inside
    assert '<span role="math" aria-label="x = 4">' in html  # its name where MathML is not read (axe)


@pytest.mark.parametrize("tex, text", [
    (r"\frac{\partial L}{\partial a} = 6", "∂L/∂a = 6"),
    (r"1 - o^2 \approx 0.5", "1 − o² ≈ 0.5"),
    (r"6 \cdot 10^{-10}", "6 · 10⁻¹⁰"),
    (r"\tanh(x_1 w_1 + b)", "tanh(x₁ w₁ + b)"),
    (r"\tfrac{x + h}{h}", "(x + h)/h"),
])
def test_a_formula_link_is_named_by_its_plain_reading(tex, text):
    assert spoken(tex) == text


def test_the_markdown_keeps_its_lines_and_refuses_a_changed_page():
    found, _ = source_of(FIRST)
    data = found.as_json()
    linked = link_numbers(FIRST, data, "docs/page.md")
    assert linked.count("\n") == FIRST.count("\n")
    assert "```python {#block-1}" in linked and "```python {#block-2}" in linked
    assert linked.split("\n")[8].startswith('Twice five is <a class="bv-number" href="#block-1" data-bv-source="')
    for char in "`$\\_*":  # nothing in the attribute that Markdown or arithmatex would read first
        assert char not in re.search(r'data-bv-source="([^"]*)"', linked)[1]
    with pytest.raises(NumberSourceError, match=r"docs/page\.md:9: 10"):
        link_numbers(FIRST.replace("is 10.", "is 11."), data, "docs/page.md")


class Links(HTMLParser):
    """The `a.bv-number` links of a page: [(attributes, text)], the text as a reader reads it
    (KaTeX's MathML only, not its HTML, and no spaces)."""

    def __init__(self, html):
        super().__init__()
        self.numbers, self._open, self._hidden = [], None, 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "bv-number" in (attrs.get("class") or "").split():
            self._open = [attrs, ""]
        elif self._open and (self._hidden or "katex-html" in (attrs.get("class") or "")
                             or tag == "annotation"):
            self._hidden += 1

    def handle_endtag(self, tag):
        if self._open and tag == "a" and not self._hidden:
            self.numbers.append(tuple(self._open))
            self._open = None
        elif self._open and self._hidden and tag in ("span", "annotation"):
            self._hidden -= 1

    def handle_data(self, data):
        if self._open and not self._hidden:
            self._open[1] += re.sub(r"\s+", "", data)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_prose_number_of_chapters_1_to_5_is_a_link_to_its_source(site, chapter):
    text = (ROOT / "docs" / f"{chapter}.md").read_text(encoding="utf-8")
    numbers = page_numbers(text, exempt_phrases(f"{chapter}.md"))
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    links = Links(html).numbers
    stated = [source["number"] for attrs, _ in links for source in json.loads(attrs["data-bv-source"])]
    assert len(stated) == len(numbers) > 20
    assert sorted(stated) == sorted(n.text for n in numbers)
    ids = set(re.findall(r'id="(block-\d+)"', html))
    assert {attrs["href"] for attrs, _ in links} <= {f"#{i}" for i in ids}
    for attrs, shown in links:
        if "bv-number-math" not in attrs["class"]:  # the link's text is the number as written
            assert json.loads(attrs["data-bv-source"])[0]["number"] in shown.replace("−", "-").replace(",", "")


def open_chapter(browser, origin, **options):
    context = browser.new_context(**options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{origin}/04-engine/")
    return context, page, errors


def first_printed(page):
    """The first number in a paragraph of the page (not in a fold nor a formula) whose source is a
    block's printed output, and that source."""
    index = page.evaluate("""() => [...document.querySelectorAll('a.bv-number')].findIndex((a) => {
        if (a.matches('.bv-number-math')) return false;
        const s = JSON.parse(a.dataset.bvSource);
        return s.length === 1 && s[0].kind === 'printed' && a.parentElement.matches('article > p'); })""")
    link = page.locator("a.bv-number").nth(index)
    return link, json.loads(link.get_attribute("data-bv-source"))[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hover_and_focus_show_the_source_and_escape_closes_it(browser, origin, scheme):
    context, page, errors = open_chapter(browser, origin, viewport=DESKTOP, color_scheme=scheme)
    link, source = first_printed(page)
    box = page.locator(".bv-number-pop")
    link.hover()
    box.wait_for(state="visible")
    expected = f"{source['label']}: {source['code']} → {source['shown']}"
    assert " ".join(box.locator("p").first.inner_text().split()) == " ".join(expected.split())
    assert box.get_by_role("link").get_attribute("href").endswith(source["href"])  # Material makes it absolute
    # inside the window, next to the number
    # (a figure or widget above may still be laying itself out: the box follows its number within a frame
    # or two, so the rectangles are read together, in the page, until they settle)
    page.wait_for_function("""() => { const b = document.querySelector('.bv-number-pop').getBoundingClientRect();
        const a = document.querySelector('a.bv-number[data-bv-shown]').getClientRects()[0];
        return Math.abs(b.top - a.bottom) < 12 || Math.abs(b.bottom - a.top) < 12; }""", timeout=5000)
    rect = box.bounding_box()
    assert 0 <= rect["x"] and rect["x"] + rect["width"] <= DESKTOP["width"]
    page.mouse.move(5, 5)
    box.wait_for(state="hidden")
    # the keyboard: focus shows it, Escape closes it; the screen reader's description has the code
    link.focus()
    box.wait_for(state="visible")
    description = page.evaluate("(a) => document.getElementById(a.getAttribute('aria-describedby')).textContent",
                                link.element_handle())
    assert source["code"] in description and source["label"] in description
    assert source["shown"] not in description.split(source["code"])[-1]  # the number is heard once
    page.keyboard.press("Escape")
    box.wait_for(state="hidden")
    page.keyboard.press("Enter")  # the link goes to the block
    page.wait_for_url(f"**/04-engine/{source['href']}")
    assert page.evaluate("(id) => !!document.getElementById(id)", source["href"][1:])
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tap_shows_the_source_a_tap_elsewhere_closes_it_on_a_phone(browser, origin, scheme):
    context, page, errors = open_chapter(browser, origin, viewport=PHONE, color_scheme=scheme,
                                         has_touch=True, is_mobile=True, device_scale_factor=2)
    link, source = first_printed(page)
    link.scroll_into_view_if_needed()
    box = page.locator(".bv-number-pop")
    link.tap()
    box.wait_for(state="visible")
    assert page.url.endswith("/04-engine/")  # the first tap shows; it does not follow the link
    assert source["code"] in box.inner_text()
    rect = box.bounding_box()
    assert rect["x"] >= 0 and rect["x"] + rect["width"] <= PHONE["width"]
    page.locator("h1").tap()
    box.wait_for(state="hidden")
    link.tap()
    box.wait_for(state="visible")
    box.get_by_role("link").tap()  # the box's link goes to the block
    page.wait_for_url(f"**/04-engine/{source['href']}")
    assert not errors, errors
    context.close()


def test_without_javascript_a_number_is_a_plain_link_to_its_block(browser, origin):
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{origin}/04-engine/")
    link = page.locator("a.bv-number").first
    href = link.get_attribute("href")
    assert re.fullmatch(r"#block-\d+", href)  # as built: Material's JavaScript, off here, makes it absolute
    link.click()
    page.wait_for_url(f"**/04-engine/{href}")
    target = page.locator(href)
    assert "highlight" in target.get_attribute("class") and target.is_visible()
    assert page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", href[1:]) < 200
    assert page.locator(".bv-number-pop").count() == 0
    context.close()

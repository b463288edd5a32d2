"""Each number in a page's prose links to the code that printed it (scripts/pages/number_sources.py,
docs/javascripts/widgets/number-source.js): how its source is chosen, that a number without one fails
the build with its page and line, that a number is linked only to a source that shows it as
what the prose reads it as (`a = 2` to an `a` printed as 2, never to a 2.0 printed beside it),
and is plain text when no source is certain, that every other number of chapters 1-5 is such a
link in the built site, and that a reader sees the source on hover, focus and tap, and follows the plain
link without JavaScript."""

import html as html_module
import json
import re
from html.parser import HTMLParser

import pytest

from scripts import ROOT
from scripts.build.page_build import number_sources
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
>>> a * 3
12.0
>>> a + 3
7.0
```

Now 12, and 7 after it.
'''


def source_of(text, figures=(), where="docs/page.md"):
    found = sources(text, where, figures=figures)
    return found, {(n.line, n.text): shown for n, shown in found.numbers}


def test_the_source_is_the_nearest_block_above_that_printed_it():
    found, by = source_of(FIRST)
    assert not found.problems
    assert by[(9, "10")].block == 1 and by[(9, "10")].code == "a * 2.5" and by[(9, "10")].text == "10.0"
    assert by[(18, "12")].block == 2 and by[(18, "12")].code == "a * 3"
    assert by[(18, "7")].code == "a + 3" and by[(18, "7")].kind == "printed"
    assert found.blocks == [(1, 3), (2, 11)]  # block numbers as Run names them, and their fences


QUIZ = '''# A page

!!! question "Check yourself"
    If a were 13, what would three times a be?

??? success "Answer"
    It would be 39:

    ```python
    >>> a = 13
    >>> a, a * 3
    (13, 39)
    ```

So three times a is 39 when a is 13.
'''


def test_a_number_outside_a_quizs_answer_never_cites_what_the_folded_answer_shows():
    """A new reader's audit: tapping "11" in "If c were 11…" showed the answer's block, L = -10."""
    found, by = source_of(QUIZ)
    assert not found.problems
    assert by == {(7, "39"): by[(7, "39")]} and by[(7, "39")].block == 1  # inside the fold: linked
    folded = "its source is a quiz's answer, folded away"
    assert sorted((n.line, n.text) for n, w in found.withheld if w.why == folded) == [(4, "13"), (15, "13"), (15, "39")]


def test_an_assertion_then_a_figure_then_what_is_below():
    text = ('# P\n\n```python\nx = 3.0 * 4\nassert x == 12\n```\n\nIt is 12, and 2.5 of them.\n\n'
            '```python\ndraw(x)\n```\n<!-- figure: x -->\n\nThe figure shows 6.5.\n\n'
            '```python\n>>> x / 2\n6.0\n```\n')
    svg = '<svg><text x="1">data 6.5000</text><text>grad 2.5000</text></svg>'
    found, by = source_of(text, figures=[(13, svg)])
    assert not found.problems, found.problems
    assert by[(8, "12")].kind == "assertion" and by[(8, "12")].code == "assert x == 12"
    assert by[(15, "6.5")].kind == "figure" and by[(15, "6.5")].figure == 1 and by[(15, "6.5")].block == 2
    assert by[(15, "6.5")].code == "draw(x)" and by[(15, "6.5")].text == "data 6.5000"
    assert by[(8, "2.5")].kind == "figure"  # below the sentence: the next thing, which shows it


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


def outcome(text, number, line=None, figures=()):
    """("linked", Shown) or ("plain", Reading) for the prose number written `number` (on `line`)."""
    found = sources(text, "docs/page.md", figures=figures)
    assert not found.problems, found.problems
    for n, shown in found.numbers:
        if n.text == number and line in (None, n.line):
            return "linked", shown
    for n, why in found.withheld:
        if n.text == number and line in (None, n.line):
            return "plain", why
    raise AssertionError(f"{number} not in the prose")


def test_a_name_is_linked_only_to_a_value_printed_as_that_name():
    # chapter 7's case: the 2.0 printed beside a is a relative error, not a
    code = "```python\n>>> a, b = -0.0003, 0.0003\n>>> a, b, relative_error(a, b)\n(-0.0003, 0.0003, 2.0)\n```\n"
    assert outcome(f"# P\n\n{code}\nTake $a = 2$.\n", "2")[0] == "plain"
    kind, shown = outcome(f"# P\n\n{code}\nA check reports $a = -0.0003$ and an error of 2.\n", "0.0003")
    assert kind == "linked" and shown.code == "a, b = -0.0003, 0.0003"  # a chosen input: where it is set
    assert outcome(f"# P\n\n{code}\nThe relative error is $|a - b| / |b| = 2$.\n", "2")[0] == "plain"


def test_a_name_in_an_output_line_is_the_word_right_before_its_number():
    # chapter 7's case: h = 10⁻⁶ is not the centered error 0.00000100 printed on h = 0.001's line
    row = "h = 0.001  forward error 0.006001  centered 0.00000100"
    lines = f"```python\n>>> print('{row}')\n{row}\n```\n"
    text = f"# P\n\n{lines}\nAt $h = 10^{{-6}}$, and at $h = 0.001$.\n"
    assert outcome(text, "10^{-6}")[0] == "plain"
    assert outcome(text, "0.001")[0] == "linked"
    row = "h = 1e-06: worst relative error 2e-07"
    later = f"```python\n>>> print('{row}')\n{row}\n```\n"
    kind, shown = outcome(f"# P\n\n{lines}\n{later}\nAt $h = 10^{{-6}}$.\n", "10^{-6}")
    assert kind == "linked" and shown.text.startswith("h = 1e-06")
    # a number in running text is not the value a line prints under another name
    assert outcome(f"# P\n\n{lines}\nThe rule: relative error below 10⁻⁶.\n", "10^-6")[0] == "plain"
    assert outcome(f"# P\n\n{lines}\nThe centered error is 10⁻⁶.\n", "10^-6")[0] == "linked"




def test_a_node_of_a_drawn_graph_is_named_by_its_label():
    text = "# P\n\n```python\ndraw(f)\n```\n<!-- figure: f -->\n\nHere $a = 2$ and $b = 2$.\n"
    svg = ('<svg><text>a</text><text>data 2.0000</text><text>grad 0.0000</text><text>+</text>'
           '<text>data 2.0000</text><text>c</text><text>data 5.0000</text></svg>')
    found = sources(text, "docs/page.md", figures=[(6, svg)])
    by = {n.start: s for n, s in found.numbers}
    assert [s.text for s in by.values()] == ["a | data 2.0000"]  # b is no node: plain
    assert len(found.withheld) == 1 and not found.problems


def test_labels_booleans_and_formula_constants_are_not_sources():
    # chapter 4's cases: the '1' of a list of labels is a name; ∂L/∂L = 1 is L's gradient, not y's
    labels = "```python\n>>> [n.label for n in order], ok\n(['3', 'a', 'c', '1', 'b'], True)\n```\n"
    found = sources(f"# P\n\n{labels}\nThe seed is 1.\n", "docs/page.md")
    assert any("1: no source" in p for p in found.problems), found.problems
    grads = "```python\n>>> y.grad, x.data\n(1.0, 0.0)\n```\n"
    assert outcome(f"# P\n\n{grads}\nThe seed: $\\partial L/\\partial L = 1$.\n", "1")[0] == "plain"
    assert outcome(f"# P\n\n{grads}\nThe seed: $\\partial y/\\partial y = 1$.\n", "1")[0] == "linked"
    assert outcome(f"# P\n\n{grads}\nIt is $\\max(0, x)$.\n", "0")[0] == "plain"
    assert outcome(f"# P\n\n{grads}\nIts derivative is $1 - t^2$.\n", "1")[0] == "plain"
    found = sources(f"# P\n\n{grads}\nThe sum is $1 + 0 = 1$.\n", "docs/page.md")
    assert not found.numbers  # the terms are constants; the result 1 is a value many outputs share
    assert [n.text for n, _ in found.withheld] == ["1", "0", "1"]


def test_a_number_in_a_heading_is_plain_text():
    code = "```python\n>>> tol = 1e-6\n>>> tol\n1e-06\n```\n"
    assert outcome(f"# P\n\n{code}\n## Below 10⁻⁶\n\nBelow 10⁻⁶.\n", "10^-6", 9)[0] == "plain"
    assert outcome(f"# P\n\n{code}\n## Below 10⁻⁶\n\nBelow 10⁻⁶.\n", "10^-6", 11)[0] == "linked"


def test_a_value_several_outputs_share_is_linked_only_when_a_name_right_before_it_says_which():
    # chapter 7's "re-seeds the root with 1" cited a list of gradients: 0, 1 and 2 say nothing alone
    grads = "```python\n>>> [v.grad for v in vs]\n[1.0, 0.0]\n>>> y.grad, w2.grad\n(1.0, 0.0)\n```\n"
    assert outcome(f"# P\n\n{grads}\nThe seed is 1, and a learning rate of 0.\n", "1")[0] == "plain"
    assert outcome(f"# P\n\n{grads}\nThe seed is 1, and a learning rate of 0.\n", "0")[0] == "plain"
    kind, shown = outcome(f"# P\n\n{grads}\nNow `w2.grad` is still 0.\n", "0")
    assert kind == "linked" and shown.code == "y.grad, w2.grad"
    # the name must be the one right before the number: the product x2·w2 is no x2
    svg = '<svg><text>x2</text><text>data 0.0000</text><text>grad 0.5000</text></svg>'
    text = "# P\n\n```python\ndraw(o)\n```\n<!-- figure: o -->\n\nThe product $x_2 w_2$ is 0, and $x_2$ is 0.\n"
    found = sources(text, "docs/page.md", figures=[(6, svg)])
    assert [n.start for n, _ in found.numbers] == [text.rindex("0")] and len(found.withheld) == 1
    # a value two blocks print (not 0, 1 or 2) is shared too: "10" beside a * 2.5 and a * 5 / 2
    twice = "```python\n>>> a * 2.5\n10.0\n```\n\n```python\n>>> a * 5 / 2\n10.0\n>>> y\n10.0\n```\n"
    assert outcome(f"# P\n\n{twice}\nIt is 10.\n", "10")[0] == "plain"
    kind, shown = outcome(f"# P\n\n{twice}\nThe value of `y` is 10.\n", "10")
    assert kind == "linked" and shown.code == "y"








PLAIN = [  # (chapter, the prose right before a number, the number): linked to the wrong code before
    ("07-check-break-fix", "re-seeds the root with", "1"),  # a list of gradients
    ("07-check-break-fix", "with a learning rate of", "0"),  # a list of gradients
    ("09-tensors", "starts from a seed of", "1.0"),  # [v.data ...]
    ("04-engine", "was still", "0"),  # another example's _local
    ("04-engine", "seeds the root with", "1.0"),  # three inner gradients of another graph
]


@pytest.mark.parametrize("chapter, before, number", PLAIN)
def test_a_shared_value_once_linked_to_the_wrong_code_is_plain_text(site, chapter, before, number):
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    before = r"\s+".join(re.escape(word) for word in before.split())
    assert re.search(rf"{before}\s+{re.escape(number)}\b", html), (chapter, before)  # there, and plain
    assert not re.search(rf"{before}\s*<a class=\"bv-number", html)


def test_a_formula_of_another_graph_or_a_shared_decimal_is_plain_text(site):
    engine = (site / "04-engine" / "index.html").read_text(encoding="utf-8")
    (found,) = [found for name, found in math_links(engine) if name == "∂y/∂b = a = 2"]  # not the diamond's a:
    assert [(s["kind"], s["href"]) for s in found] == [("set", "#block-1")]  # block 1 sets y = a * b's a
    by_hand = (site / "03-backprop-by-hand" / "index.html").read_text(encoding="utf-8")
    for name, found in math_links(by_hand):
        assert "x₁ · 0.5" not in name or all(s["number"] != "0.5" for s in found), (name, found)


REPORTED = [  # (chapter, the formula as read, what its source must not show): what a reader audit found
    ("07-check-break-fix", "a = 2", "(-0.0003, 0.0003, 2.0)"),
    ("07-check-break-fix", "h = 10⁻⁶", "centered"),
    ("01-computational-graphs", "x₁ = 2", "a leaf"),
    ("01-computational-graphs", "w₁ = −3", "b leaf"),
    ("01-computational-graphs", "w₂ = 1", "('a', 1.0)"),
    ("01-computational-graphs", "x₂ = 0", "grad 0.0000"),
    ("04-engine", "∂L/∂L = 1", "'1'"),
    ("04-engine", "relu(x) = max(0, x)", "y.grad"),
]


def math_links(html):
    """[(the formula's plain reading, [source])] of the page's formula links."""
    return [(html_module.unescape(name), json.loads(html_module.unescape(data))) for data, name in re.findall(
        r'<a class="bv-number bv-number-math" href="[^"]*" data-bv-source="([^"]*)"><span role="math" '
        r'aria-label="([^"]*)">', html)]


@pytest.mark.parametrize("chapter, formula, wrong", REPORTED)
def test_a_reported_wrong_source_is_gone(site, chapter, formula, wrong):
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    linked = [found for name, found in math_links(html) if name == formula]
    for found in linked:
        for source in found:
            shown = f"{source['code']} → {source['shown']}"
            assert not wrong or wrong not in shown, (formula, shown)
    name = re.match(r"([a-zA-Z][₀-₉]?) = ", formula)
    for found in linked if name else []:  # `x₁ = 2` names x1: its source prints x1 as 2
        variable = name[1].translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
        assert all(re.search(rf"(?<![\w.]){variable}(?![\w])", s["shown"]) for s in found), found


@pytest.mark.parametrize("chapter", ["01-computational-graphs", "03-backprop-by-hand", "04-engine",
                                     "07-check-break-fix"])
def test_a_formula_name_equals_value_links_to_a_source_showing_that_name(site, chapter):
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    for formula, found in math_links(html):
        name = re.fullmatch(r"([a-zA-Z][₀-₉]?) = −?[\d.⁰-⁹⁻]+", formula.replace("10⁻", "10⁻"))
        if name:
            variable = name[1].translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
            shown = [f"{s['code']} {s['shown']}" for s in found]
            assert all(re.search(rf"(?<![\w.'\"]){variable}(?![\w'\"])", t) for t in shown), (formula, shown)
    assert not re.search(r"<h[1-6][^>]*>(?:(?!</h[1-6]>).)*bv-number", html, re.DOTALL)  # no heading links


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
    result = build_one_page(tmp_path, "It is 4, and $4$; $x = 4$ is no x it printed.", ["pages", "math"])
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    links = Links(html)
    assert 'id="block-1"' in html
    assert [(a["href"], text) for a, text in links.numbers] == [("#block-1", "4"), ("#block-1", "4")]
    assert json.loads(links.numbers[0][0]["data-bv-source"]) == [
        {"number": "4", "kind": "printed", "label": "Block 1", "code": "2 + 2", "shown": "4", "href": "#block-1"}]
    assert 'class="katex"' in html.split('class="bv-number bv-number-math"')[1][:400]  # the formula is inside
    assert '<span role="math" aria-label="4">' in html  # its name where MathML is not read (axe)
    assert 'aria-label="x = 4"' not in html  # x = 4: the block printed no x, so it is plain text


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


# links per chapter: a value many outputs share (0, 1, 2, one printed twice) links only when a name
# says which; the rest of the prose's numbers are plain text (before this rule: 41, 78, 57, 54, 60).
# A number outside a quiz's folded answer cites nothing in it (chapter 3's "If c were 11", chapter
# 4's recap "the diamond gives 15": 12 and 8 before).
LINKED = {"01-computational-graphs": 26, "02-chain-rule": 24, "03-backprop-by-hand": 19, "04-engine": 15,
          "05-neurons-layers-networks": 18}  # with chosen inputs (issue 45: 4, 13, 11, 7, 13 before)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_prose_number_of_chapters_1_to_5_with_a_certain_source_is_a_link_to_it(site, fresh_run, chapter):
    page = ROOT / "docs" / f"{chapter}.md"
    text = page.read_text(encoding="utf-8")
    numbers = page_numbers(text, exempt_phrases(f"{chapter}.md"))
    found = number_sources(page, fresh_run(page))
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    links = Links(html).numbers
    stated = [source["number"] for attrs, _ in links for source in json.loads(attrs["data-bv-source"])]
    assert len(stated) == len(found.numbers) == LINKED[chapter]
    assert len(found.numbers) + len(found.withheld) == len(numbers)  # the rest is plain text
    assert sorted(stated) == sorted(n.text for n, _ in found.numbers)
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
    # (a shift under the still pointer can leave the number, and it is no longer shown: no rectangle
    # to read, so the wait goes on rather than failing on null)
    page.wait_for_function("""() => { const b = document.querySelector('.bv-number-pop')?.getBoundingClientRect();
        const a = document.querySelector('a.bv-number[data-bv-shown]')?.getClientRects()[0];
        return a !== undefined && b !== undefined &&
          (Math.abs(b.top - a.bottom) < 12 || Math.abs(b.bottom - a.top) < 12); }""",
                           timeout=5000)
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
    link.click()  # a click shows the source in place: the reader keeps their place (issue 45, item 4)
    box.wait_for(state="visible")
    assert page.url.endswith("/04-engine/"), page.url
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


def test_on_a_phone_a_numbers_tap_target_reaches_past_its_digits(browser, origin):
    """A new reader's audit: numbers were 7 x 15 px to tap one-handed. A tap 8 px above, below or
    beside the digits reaches the number; one clear of it reaches the text around it."""
    context, page, errors = open_chapter(browser, origin, viewport=PHONE, has_touch=True, is_mobile=True,
                                         device_scale_factor=2)
    link, _ = first_printed(page)
    link.scroll_into_view_if_needed()
    hits = link.evaluate("""a => {
        const r = a.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        const at = (px, py) => document.elementFromPoint(px, py)?.closest('a.bv-number') === a;
        return {above: at(x, r.top - 8), below: at(x, r.bottom + 8), left: at(r.left - 8, y),
                right: at(r.right + 8, y), far: at(x, r.top - 40), size: [r.width, r.height],  // 44 px square:
                square: at(x, y - 21.5) && at(x, y + 21.5) && at(x - 21.5, y) && at(x + 21.5, y)};
    }""")
    assert all(hits[k] for k in ("above", "below", "left", "right", "square")) and not hits["far"], hits
    page.mouse.move(0, 0)
    box = link.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] - 8)
    page.locator(".bv-number-pop").wait_for(state="visible")
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


def test_a_number_linked_in_a_table_cell_keeps_the_cell_whole(site):
    """Chapter 8's table showed `seed <a class="bv-number …` as text in its "y.backward()" row (a
    reader's audit): the link's source JSON held "|", which ended the Markdown table's cell
    before the tag closed. "|" is written as an entity in the attribute, as the other characters
    Markdown reads are. No built page shows a tag of ours as text."""
    pages = {path.parent.name: path.read_text(encoding="utf-8") for path in sorted(site.glob("*/index.html"))}
    assert [name for name, text in pages.items() if "&lt;a class=&quot;bv-number" in text
            or '&lt;a class="bv-number' in text] == []
    row = re.search(r"<tr>\s*<td><code>y\.backward\(\)</code></td>.*?</tr>", pages["08-pytorch"], re.DOTALL)
    cells = re.findall(r"<td>(.*?)</td>", row[0], re.DOTALL)
    assert len(cells) == 3 and cells[2].startswith("seed <a class=\"bv-number bv-number-math\"") and \
        cells[2].endswith("reverse topological order"), cells

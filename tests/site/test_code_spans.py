"""Highlighted code with fewer elements and the same text (scripts/pages/code_spans.py): Pygments'
name (`.n`) and whitespace (`.w`) spans are unwrapped inside `<code>`, every other span kept.
What a copy button copies and what Run reads are checked on the built site by
tests/run/test_copy.py and tests/run/test_blocks.py."""

import html.parser
import re

import markdown

from scripts import ROOT
from scripts.pages.code_spans import plain_spans
from tests.site.test_site import built_html

CHAPTER_4 = (ROOT / "docs" / "04-engine.md").read_text(encoding="utf-8")


class Text(html.parser.HTMLParser):
    """An HTML fragment's text, and how many elements of each tag and class it has."""

    def __init__(self, fragment):
        super().__init__(convert_charrefs=True)
        self.parts, self.elements = [], {}
        self.feed(fragment)
        self.close()
        self.text = "".join(self.parts)

    def handle_starttag(self, tag, attrs):
        key = (tag, dict(attrs).get("class"))
        self.elements[key] = self.elements.get(key, 0) + 1

    def handle_data(self, data):
        self.parts.append(data)


def highlighted(source):
    """`source` (Markdown) as the site's Markdown highlights it: pymdownx.highlight in
    SuperFences, with the Python fences' language class (mkdocs.yml)."""
    return markdown.markdown(source, extensions=["pymdownx.superfences", "pymdownx.highlight"],
                             extension_configs={"pymdownx.highlight": {"pygments_lang_class": True}})


def test_chapter_4s_code_keeps_its_text_and_coloured_spans_with_a_fifth_fewer_elements():
    fences = "\n\n".join(re.findall(r"^```python\n.*?^```$", CHAPTER_4, re.MULTILINE | re.DOTALL))
    before = highlighted(fences)
    after = plain_spans(before)
    old, new = Text(before), Text(after)
    assert new.text == old.text
    assert old.elements[("span", "n")] > 400 and old.elements[("span", "w")] > 0
    assert ("span", "n") not in new.elements and ("span", "w") not in new.elements
    coloured = {key: n for key, n in old.elements.items() if key[1] not in ("n", "w")}
    assert new.elements == coloured  # operators, punctuation, numbers, strings... all kept
    assert sum(new.elements.values()) < 0.8 * sum(old.elements.values())


def test_only_a_leaf_name_or_whitespace_span_inside_code_is_unwrapped():
    page = ('<p><span class="n">prose</span></p>'
            '<pre class="notebook"><span class="w"> </span></pre>'
            '<code class="highlight"><span class="n">x</span><span class="w"> </span>'
            '<span class="o">=</span> <span class="nb">len</span><span class="p">(</span>'
            '<span class="n">a&lt;b</span><span class="p">)</span></code>')
    assert plain_spans(page) == (
        '<p><span class="n">prose</span></p>'
        '<pre class="notebook"><span class="w"> </span></pre>'
        '<code class="highlight">x <span class="o">=</span> <span class="nb">len</span><span class="p">(</span>'
        'a&lt;b<span class="p">)</span></code>')


def test_no_built_page_has_a_name_or_whitespace_span_in_its_code(site):
    for page in ("index.md", "02-chain-rule.md", "04-engine.md", "10-under-the-hood.md"):
        built = built_html(site, page).read_text(encoding="utf-8")
        codes = re.findall(r"<code\b.*?</code>", built, re.DOTALL)
        assert len(codes) > 3, page
        assert not [c for c in codes if re.search(r'<span class="[nw]">', c)], page
        assert any('<span class="o">' in c for c in codes), page

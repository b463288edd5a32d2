"""Each Markdown table in a box of its own (scripts/pages/tables.py), so that Material's wrapping
it at load changes that box, not the article's children. That no page's article changes once it
is parsed is tested in the browser by tests/site/test_page_load.py."""

import re

import markdown

from scripts import ROOT
from scripts.pages.tables import boxed_tables
from tests.site.test_site import built_html

TABLE = "| a | b |\n|---|---|\n| 1 | 2 |\n"


def test_a_markdown_table_is_boxed_and_keeps_its_markup():
    written = markdown.markdown("Before.\n\n" + TABLE + "\nAfter.", extensions=["tables"])
    boxed = boxed_tables(written)
    table = re.search(r"<table>.*?</table>", written, re.DOTALL)[0]
    assert boxed == written.replace(table, f'<div class="bv-table">{table}</div>')
    assert boxed.count("<table") == 1


def test_a_table_with_attributes_but_no_class_is_boxed_and_one_with_a_class_is_not():
    page = '<table id="t"><tr><td>1</td></tr></table><table class="x"><tr><td>2</td></tr></table>'
    assert boxed_tables(page) == ('<div class="bv-table"><table id="t"><tr><td>1</td></tr></table></div>'
                                  '<table class="x"><tr><td>2</td></tr></table>')


def test_every_table_of_the_built_chapters_is_boxed(site):
    pages = [path.relative_to(ROOT / "docs").as_posix() for path in sorted((ROOT / "docs").glob("*.md"))]
    counted = 0
    for page in pages:
        built = built_html(site, page).read_text(encoding="utf-8")
        article = built[built.index("<article"):built.index("</article>")]
        tables = re.findall(r"(.{0,24})<table(?![^>]*\bclass=)", article, re.DOTALL)
        counted += len(tables)
        assert all(before.endswith('<div class="bv-table">') for before in tables), (page, tables)
    assert counted >= 4  # chapter 4's three and chapter 8's

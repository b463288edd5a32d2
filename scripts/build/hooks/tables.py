"""MkDocs hook: each Markdown table in a box of its own (scripts/pages/tables.py), so that
Material's wrapping it at load restyles the table, not the whole article after it.
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)

from scripts.pages.tables import boxed_tables


def on_page_content(html, page, config, files):
    return boxed_tables(html)

"""MkDocs hook: highlighted code without the spans that look like the text around them
(scripts/pages/code_spans.py: Pygments' name and whitespace spans, 1,717 of chapter 4's
~9,700 elements), so each page has fewer elements to style and lay out when it loads.
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)

from scripts.pages.code_spans import plain_spans


def on_page_content(html, page, config, files):
    return plain_spans(html)

"""Each Markdown table in a box of its own, so that Material's mounting it restyles only itself.

Material wraps every `table:not([class])` of a page in its scroll box when the page loads
(its bundle: remove the table, put `div.md-typeset__scrollwrap > div.md-typeset__table > table`
in its place). A table written in Markdown is a child of the page's `<article>`. When a
child is added to or removed from a parent, Chromium styles its later siblings again, as
positional rules (`:nth-child()`, `~`; Material's stylesheet has many) may match them
differently now. On chapter 4, whose first table is near the top, that was 4,401 elements
styled a second time in the DOMContentLoaded task (96 ms of a 166 ms task, unthrottled, in
Chromium's trace; issue 27, item 6). In a box of its own, the table has no sibling: Material's
wrap changes that box and nothing around it.

The box is a plain `<div class="bv-table">`, with no margin, padding or border of its own:
Material's scroll box inside it keeps its margins, which collapse through the box as they did
through nothing. Tables with a class (none of Material's business) are left as they are.
"""

import re

# A Markdown table (python-markdown's `tables` writes `<table>`, attr_list may add attributes)
# with no class attribute: the ones Material wraps. Tables do not nest in Markdown.
_TABLE = re.compile(r"<table(?![^>]*\bclass=)(?:\s[^>]*)?>.*?</table>", re.DOTALL)


def boxed_tables(html):
    """`html` (str, a page's content) with each `<table>` that has no class attribute inside
    `<div class="bv-table">…</div>`; everything else as it was. Returns a str."""
    return _TABLE.sub(lambda m: f'<div class="bv-table">{m[0]}</div>', html)

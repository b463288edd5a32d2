"""Fewer elements in highlighted code, the same look: Pygments' name and whitespace spans unwrapped.

Pygments wraps every token of a code block in a `<span class="...">` that Material colours.
Two of those classes are coloured as the code around them: `.n` (a name) takes
`--md-code-hl-name-color`, which Material 9.8.2 sets to `--md-code-fg-color`, the code's own
colour, in both schemes (light and slate); `.w` (whitespace) has no rule at all. On chapter 4
they were 1,717 of the page's ~9,700 elements, each one more box for the browser to style and
lay out at every load. `plain_spans` replaces each of them by its text. The operator (`.o`)
and punctuation (`.p`) spans stay: Material draws them lighter (`--md-default-fg-color--light`).

Only inside `<code>` elements (Material's highlighted blocks and inline code): the training
notebook's cells (mkdocs-jupyter) are `<pre>` without `<code>`, and there its stylesheet gives
`.w` a colour of its own. A span is unwrapped only when it holds text and no element: Pygments
escapes `<` in a token's text, so `[^<]*` between the tags is the whole token, and the page's
text (what a copy button copies, what Run reads) is unchanged.
"""

import re

PLAIN_CLASSES = ("n", "w")

_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)
_PLAIN = re.compile(rf'<span class="(?:{"|".join(PLAIN_CLASSES)})">([^<]*)</span>')


def plain_spans(html):
    """`html` (str, a page or part of one) with every `<span class="n">` and `<span class="w">`
    inside a `<code>` element replaced by its text; everything else as it was. Returns a str."""
    return _CODE.sub(lambda m: m[1] + _PLAIN.sub(r"\1", m[2]) + m[3], html)

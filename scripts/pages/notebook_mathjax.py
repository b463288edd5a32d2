"""A notebook page without MathJax: its math is KaTeX's, rendered while the site is built.

mkdocs-jupyter's template (nbconvert's `base/mathjax.html.j2` macro) writes, on every notebook
page, a `<script src="...">` for MathJax and a `text/x-mathjax-config` script that configures it.
Its URL defaults to a CDN; mkdocs.yml's `custom_mathjax_url` made it an empty `data:` script,
which loaded nothing but is a script from `data:`, which the site's Content-Security-Policy
(`script-src 'self' ...`, MAINTAINERS.md) refuses, with an error in the console. Neither script
is needed, so both go, between the macro's own comments.
"""

import re

MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)


class NotebookMathjaxError(ValueError):
    """The page does not hold the MathJax block mkdocs-jupyter's template writes, once."""


def without_mathjax(html):
    """The notebook page's HTML (str) without the MathJax block (its loading script and its
    configuration). Raises NotebookMathjaxError where the block is not there exactly once: a
    template that writes it otherwise would leave a script the policy refuses."""
    found = MATHJAX.findall(html)
    if len(found) != 1:
        raise NotebookMathjaxError(f"expected one MathJax block from mkdocs-jupyter's template, found {len(found)}")
    return MATHJAX.sub("", html)

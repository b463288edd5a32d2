"""MkDocs hook: math rendered by KaTeX while the site is built (scripts/pages/katex.py).

`$...$` and `$$...$$` become KaTeX's HTML and MathML in the page itself, so
math reads correctly with JavaScript off and no page loads KaTeX's script;
the site serves only KaTeX's CSS and fonts (scripts/build/hooks/assets.py).
KaTeX's HTML goes in after the search plugin has read the page, which then
indexes each formula's TeX.
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError

from scripts.pages.katex import KatexError, KatexExtension, render_wrappers


def on_config(config):
    if any(isinstance(e, str) and e.startswith("pymdownx.arithmatex") for e in config.markdown_extensions):
        raise ValueError("remove pymdownx.arithmatex from mkdocs.yml: scripts/build/hooks/math.py renders math")
    config.markdown_extensions.append(KatexExtension())
    return config


def on_post_page(output, page, config):
    try:
        return render_wrappers(output)
    except KatexError as error:
        raise PluginError(f"docs/{page.file.src_uri}: {error}") from error

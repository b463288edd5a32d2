"""MkDocs hook: mkdocs-glightbox serves GLightbox's files and puts nothing in the pages.

The plugin (mkdocs.yml, `manual: true`) copies glightbox.min.js and glightbox.min.css into the
site's assets/, and, on every page, put a render-blocking <script> and stylesheet in the
<head> and an inline script that built a lightbox at each page shown: work at every load, for
a full-screen view a reader opens now and then. The plugin leaves a page alone whose meta has
`glightbox: false` (its documented per-page switch); this hook sets it on every page, and
docs/javascripts/shared/figures.js loads GLightbox's files when a reader first opens a figure.
"""


def on_page_markdown(markdown, page, config, files):
    page.meta["glightbox"] = False
    return markdown

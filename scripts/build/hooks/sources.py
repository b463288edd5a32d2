"""MkDocs hook: every page links to its own source and to itself as a Jupyter notebook.

For a page built from docs/<page>, the site serves _sources/<page>.html (the
source as an HTML page that declares its encoding, scripts/build/sources.py) and
_sources/<page>.txt (the raw file, downloaded under its own name). The links reach the
`partials/actions.html` override (scripts/overrides/) through the page's
context, with the page's notebook, <page>/<page>.ipynb, which the build makes for
every page (scripts/build/hooks/pages.py for a Markdown page, scripts/build/hooks/notebook.py
for a notebook chapter; tests/site/test_site.py checks every link resolves). A notebook
page's source is its jupytext file (scripts.build.sources.source_of).

It also serves the engine's wheel, downloads/<its file name> (scripts/notebooks/wheel.py), which
every downloaded notebook installs.
"""

from pathlib import Path, PurePosixPath

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from scripts.build.site_build import SiteBuild
from scripts.build.sources import source_of, source_page
from scripts.notebooks import wheel


def on_files(files, config):
    links_of = SiteBuild.of(config).page_links
    docs = Path(config["docs_dir"])
    shown = PurePosixPath(docs.resolve().relative_to(Path(config["config_file_path"]).resolve().parent)
                          ) if config["config_file_path"] else PurePosixPath("docs")
    for page in list(files.documentation_pages()):
        path = source_of(page.src_uri, docs)
        name = path.relative_to(docs).as_posix()
        raw, html = f"_sources/{name}.txt", f"_sources/{name}.html"  # .txt: not a page
        files.append(File.generated(config, raw, abs_src_path=str(path)))
        files.append(File.generated(config, html, content=source_page(
            path.read_text(encoding="utf-8"), str(shown / name),
            get_relative_url(page.url or ".", html), get_relative_url(raw, html), name.rsplit("/", 1)[-1])))
        links = {"page_source_url": get_relative_url(html, page.url)}
        notebook = f"{PurePosixPath(page.src_uri).with_suffix('')}/{PurePosixPath(name).stem}.ipynb"
        links["page_notebook_url"] = get_relative_url(notebook, page.url)
        links_of[page.src_uri] = links
    engine = wheel.wheel()
    files.append(File.generated(config, f"{wheel.SERVED_AT}/{engine.name}", abs_src_path=str(engine)))
    return files


def on_page_context(context, page, config, nav):
    context.update(SiteBuild.of(config).page_links.get(page.file.src_uri, {}))
    return context

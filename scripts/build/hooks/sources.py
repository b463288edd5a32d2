"""MkDocs hook: every page links to its own source and to itself as a Jupyter notebook.

For a page built from docs/<page>, the site serves _sources/<page>.html and _sources/<page>.txt
(scripts/build/sources.py: page_sources). The links reach the `partials/actions.html` override
(scripts/overrides/) through the page's context; tests/site/test_site.py checks every link
resolves. It also serves the engine's wheel, downloads/<its file name>
(scripts/notebooks/wheel.py), which every downloaded notebook installs.
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.structure.files import File

from scripts.build.site_build import SiteBuild
from scripts.build.sources import page_sources
from scripts.notebooks import wheel


def on_files(files, config):
    links_of = SiteBuild.of(config).page_links
    pages = [(page.src_uri, page.url) for page in files.documentation_pages()]
    for source in page_sources(pages, config["docs_dir"], config["config_file_path"],
                               config["extra"].get("content_security_policy")):
        files.append(File.generated(config, source.raw_uri, abs_src_path=str(source.path)))
        files.append(File.generated(config, source.html_uri, content=source.html))
        links_of[source.src_uri] = source.links
    engine = wheel.wheel()
    files.append(File.generated(config, f"{wheel.SERVED_AT}/{engine.name}", abs_src_path=str(engine)))
    return files


def on_page_context(context, page, config, nav):
    context.update(SiteBuild.of(config).page_links.get(page.file.src_uri, {}))
    return context

"""MkDocs hook: the site's own stylesheets served as one file, stylesheets/site.css, which every
page links once (scripts/build/stylesheets.py says why and how)."""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts.build.stylesheets import SITE_CSS, MissingStylesheet, bundle


def on_files(files, config):
    try:
        text = bundle(config["docs_dir"], config["extra"].get("bv_stylesheets", []))
    except (MissingStylesheet, ValueError) as error:
        raise PluginError(str(error)) from None
    files.append(File.generated(config, SITE_CSS, content=text))
    return files

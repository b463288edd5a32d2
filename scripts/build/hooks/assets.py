"""MkDocs hook: front-end files from node_modules/, served by the site itself (no CDN):
KaTeX's stylesheet and fonts, the Pyodide runtime, Graphviz and DOMPurify (scripts/build/site_assets.py
says which)."""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from scripts.build.site_assets import MissingAsset, asset_files


def on_files(files, config):
    try:
        served = asset_files()
    except MissingAsset as error:
        raise PluginError(str(error)) from None
    for folder, name, dest_uri in served:
        files.append(File(name, str(folder), config["site_dir"], config["use_directory_urls"], dest_uri=dest_uri))
    return files

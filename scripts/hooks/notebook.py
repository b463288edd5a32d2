"""MkDocs hook: the notebook chapters (docs/NN-*.py, jupytext percent format).

Each one is executed once per change of itself or of micrograd/ (cached,
scripts/notebooks.py), prepared for the site (math rendered by KaTeX, plots
with alt text), and handed to mkdocs-jupyter as NN-*.ipynb, which turns it
into the page without executing anything. The page's download is the same
notebook without outputs, NN-*/NN-*.ipynb.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # loaded by path: make `scripts` importable
sys.dont_write_bytecode = True  # a __pycache__ under a watched folder would make `serve` rebuild again

import jupytext
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from scripts.notebooks import site_notebook


@event_priority(40)  # before mkdocs-jupyter wraps the notebook files
def on_files(files, config):
    for source in [f for f in files if _is_notebook_chapter(f)]:
        files.remove(source)
        stem = Path(source.src_uri).stem
        try:
            prepared = site_notebook(source.abs_src_path)
        except Exception as error:  # a failing cell: its source and traceback
            message = str(error)
            raise PluginError(message if message.startswith("docs/") else
                              f"docs/{source.src_uri}: {message}") from error
        # a File in the cache folder, not File.generated: mkdocs-jupyter reads abs_src_path,
        # which it derives from src_dir
        page = File(f"{stem}.ipynb", str(prepared.parent), config["site_dir"],
                    config["use_directory_urls"])
        page.source_path = source.abs_src_path  # for scripts/hooks/sources.py
        files.append(page)
        download = jupytext.read(source.abs_src_path)
        for number, cell in enumerate(download.cells, start=1):
            cell.id = f"cell-{number}"  # jupytext draws random ids: the same source, the same bytes
        files.append(File.generated(config, f"{stem}/{stem}.ipynb",
                                    content=jupytext.writes(download, fmt="ipynb")))
    return files


def _is_notebook_chapter(file):
    name = Path(file.src_uri)
    return name.parent == Path(".") and name.suffix == ".py" and name.stem[:2].isdigit()

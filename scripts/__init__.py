"""The site's code, by where it runs:

- reader/     the reader's Python: runs in the reader's browser (Pyodide) and in CPython for the
              tests; standard library and micrograd only; the page calls it through reader/calls.py
- pages/      a chapter's Markdown into its parts, at build time (examples, directives, figures,
              quizzes, widgets, Run's export, prose numbers, math)
- notebooks/  a chapter as a notebook, the training notebook, the wheel the notebooks install
- build/      the MkDocs side: hooks/ (MkDocs' events) and what they call across pages/ and
              notebooks/ (a page's cached run, progress, assets, the reader's Python zip)
- tools/      benchmarks and `pytest --engine`'s report, run by hand
- dev.sh      the README's two commands; overrides/ holds Material's template overrides

Each package imports only those below it: build and tools, notebooks, pages, reader (the
import-linter contracts in .importlinter). ROOT is the repository's top folder.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

"""The reader's Python: runs in the reader's browser (Pyodide) and in CPython for the tests.

Standard library and micrograd only (an import-linter contract forbids it the build, sybil
and mkdocs); the site zips this package whole for the browser (scripts/build/site_python.py).
The page calls it through one door, scripts/reader/calls.py.
"""

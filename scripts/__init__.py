"""Build-time code of the site: how pages run, figures, math, notebooks, page sources.

ROOT is the repository's top folder, defined here once for every module and hook.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

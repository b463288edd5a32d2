"""What a hook does before it imports anything of `scripts`: `import _repository`.

MkDocs loads a hook file by its path, with only the hook's own folder added to sys.path while it
loads, so this sibling module is importable and `scripts` is not. Imported by the first hook
that loads, it puts the repository first on sys.path; that hook's imports make `scripts` a
package in sys.modules, which every later import of `scripts...` finds (MkDocs gives sys.path
back as it was once each hook has loaded).

It also keeps bytecode out of the folders `mkdocs serve` watches (mkdocs.yml: watch): a
__pycache__ written under scripts/ or micrograd/ would make `serve` rebuild again, so none is
written by this process nor by the processes it starts (the pages' and the notebooks' runs).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

"""The build's notebook process: `python -m scripts.run_notebook docs/06-training.py`.

The notebook hook (scripts/hooks/notebook.py) starts it before the build
reads any page, when the notebook's run is not cached. It runs the notebook
and prepares its page (scripts/notebooks.py: site_notebook), filling the
cache that the build then reads.

The Jupyter kernel is started first, before this process imports the rest
(jupytext, nbformat, nbclient: about 0.5 s), so the kernel boots meanwhile.
"""

import sys
import threading

from jupyter_client.manager import KernelManager

from scripts import ROOT


def main(path):
    kernel = KernelManager(kernel_name="python3")
    # as nbclient would start it: in the repository, with no history file
    kernel.start_kernel(cwd=str(ROOT), extra_arguments=["--HistoryManager.hist_file=:memory:"])
    try:
        from scripts import katex
        from scripts.notebooks import site_notebook

        # KaTeX's Node.js process starts while the kernel runs, not after it
        threading.Thread(target=katex.render, args=("1",), daemon=True).start()
        site_notebook(path, kernel=kernel)
    finally:
        kernel.shutdown_kernel(now=True)  # it holds nothing to save


if __name__ == "__main__":
    main(sys.argv[1])

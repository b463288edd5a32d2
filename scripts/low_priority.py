"""The lowest CPU priority for the process that imports it: `os.nice(19)`, done on import.

Listed first in the fork server's preloads (scripts.pages.PRELOAD), so the
server runs at that priority from its start, and so does every page process
it forks. The server's own imports (about 1.5 s of CPU) and the pages then
yield to the training notebook's kernel, the longest job of a cold build,
instead of slowing its start by about 0.5 s. It holds no code, so a server
that outlives an edit (`mkdocs serve`) runs nothing stale from here.
"""

import os

os.nice(19)

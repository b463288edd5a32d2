"""The order in which pytest-xdist hands out test modules, computed from the last run's timings.

With `--dist loadfile --no-loadscope-reorder` (pyproject.toml) a worker is handed whole modules in
collection order, the next one when it runs short. Longest first makes both workers finish
together: a long module handed out last would keep one worker busy while the other waits. The
seconds are each module's own (setup, call and teardown of its tests, summed), kept by pytest's
cache (`.pytest_cache/`, key SECONDS_KEY) at the end of every run; a module the last run did not
time (a fresh clone, a new file) is estimated from what its tests use (ESTIMATE).

Every worker reads the same cache before the run and only the controller writes it after, so
all of them collect the same order, which pytest-xdist requires.
"""

from collections import defaultdict

SECONDS_KEY = "backprop-verified/module-seconds"

# Seconds a test is guessed to take when no run has timed its module: a browser test loads a
# page or two (measured: 1-3 s each), a network test waits on the package registries (the
# notebooks-anywhere test: about 60 s), anything else is Python on this machine.
ESTIMATE = {"network": 60.0, "browser": 2.0, "other": 0.05}


def module_of(nodeid):
    """'tests/run/test_copy.py::test_x[1]' -> 'tests/run/test_copy.py'."""
    return nodeid.split("::")[0]


def kind(item):
    """'network', 'browser' or 'other', by the item's markers."""
    for name in ("network", "browser"):
        if item.get_closest_marker(name):
            return name
    return "other"


def order(items, seconds):
    """Sort `items` in place: their modules longest first by `seconds` ({module: seconds}, from
    the last run), else by ESTIMATE; a module's own tests keep their order. Returns
    {module: seconds used}, estimates included."""
    guess = defaultdict(float)
    for item in items:
        guess[module_of(item.nodeid)] += ESTIMATE[kind(item)]
    used = {module: seconds.get(module, estimate) for module, estimate in guess.items()}
    first = {module: n for n, module in enumerate(sorted(used, key=lambda module: (-used[module], module)))}
    items.sort(key=lambda item: first[module_of(item.nodeid)])  # stable: a module's own order kept
    return used


class Timings:
    """Each module's seconds in this run, from the test reports the controller receives."""

    def __init__(self):
        self.seconds = defaultdict(float)

    def add(self, report):
        self.seconds[module_of(report.nodeid)] += report.duration

    def merged(self, before, root):
        """The modules timed in this run, with the last run's figure kept for the others (a run
        of a few files does not forget the rest) while their file is still under `root` (a
        pathlib.Path): a module deleted or moved is forgotten, not kept for ever."""
        kept = {module: s for module, s in before.items() if (root / module).is_file()}
        return {**kept, **{module: round(s, 2) for module, s in self.seconds.items()}}

"""Browser contexts kept warm for the whole test run, one pool per pytest-xdist worker.

A fresh Playwright context has an empty HTTP cache, so every page in it fetches and compiles
Pyodide again (9.6 MB of WebAssembly and the 2.5 MB standard library: 1.5-2 s and about 4.6 s of
CPU on this project's 2-core machine). Chromium keeps a module's compiled code beside its cached
response, so a context that has run Python once starts it again without compiling.

`WarmBrowser.new_context(**options)` therefore lends a context from a pool instead of making one:
a `Lease`, which behaves as a Playwright BrowserContext for what the tests do with one (pages,
routes, init scripts, listeners, close). Closing the lease closes its pages and clears what a
page keeps (local storage, IndexedDB, Cache Storage, service workers, cookies, permissions;
session storage goes with the pages), so the next lease starts as a new reader would, with only
the HTTP cache warm. `new_page(**options)` is a lease of its own, released when the page closes.

Options that Chromium fixes for a context's life (is_mobile, has_touch, device_scale_factor,
java_script_enabled...) choose the pooled context; those a page can take on its own (viewport,
color_scheme, reduced_motion) are set on each page. Two leases open at once get two contexts.
A test that must meet a cold browser (the first download of Python, say) takes `cold_browser`.
"""

import collections
import itertools
import os
from urllib.parse import urlsplit

# What a page can be given on its own, Playwright's name -> how (tests/conftest.py: PER_PAGE).
PER_PAGE = ("viewport", "color_scheme", "reduced_motion", "forced_colors")
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's default for a new context
# Storage.clearDataForOrigin's types: everything a page can keep but the HTTP cache (which is
# not one of them) and the compiled code kept with it.
STORAGE = ("cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,"
           "shared_storage,storage_buckets")

tally = {"contexts": 0, "leases": 0, "python_starts": 0}  # this worker's, for the run's summary
python_starts = collections.Counter()  # test module -> Python workers its pages started


def count_python_starts(page):
    """Count each worker of the reader's Python that `page` starts, in tally and by test module."""
    def started(worker):
        if "python-worker" in worker.url:
            tally["python_starts"] += 1
            python_starts[os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[0]] += 1
    page.on("worker", started)


class Pool:
    """Contexts of one Chromium, by the options fixed for a context's life: free or lent."""

    def __init__(self, make_context):
        self.make_context = make_context  # options -> a new Playwright BrowserContext
        self.free = {}  # key -> [context, ...]

    def lend(self, options):
        key = tuple(sorted((name, repr(value)) for name, value in options.items()))
        contexts = self.free.setdefault(key, [])
        if contexts:
            context = contexts.pop()
        else:
            context = self.make_context(options)
            tally["contexts"] += 1
            context.bv_keeper = context.new_page()  # about:blank: the door to clear storage through
            context.bv_cdp = context.new_cdp_session(context.bv_keeper)
            context.bv_closed = False
            context.on("close", lambda _: setattr(context, "bv_closed", True))
        tally["leases"] += 1
        return context, key

    def give_back(self, context, key, lease):
        """Clear what the lease's pages kept, undo what it changed, and put the context back;
        or drop it if a test closed it (page.context.close()) or clearing failed."""
        if context.bv_closed:
            return
        try:
            for origin in sorted(lease.origins):
                context.bv_cdp.send("Storage.clearDataForOrigin",
                                    {"origin": origin, "storageTypes": STORAGE})
            context.clear_cookies()
            if lease.granted:  # back to the permissions the context was made with
                context.clear_permissions()
                if lease.options.get("permissions"):
                    context.grant_permissions(lease.options["permissions"])
            if lease.offline:
                context.set_offline(False)
        except Exception:  # the browser closed under it: this context is done
            context.close()
            return
        self.free[key].append(context)

    def close(self):
        for context in itertools.chain.from_iterable(self.free.values()):
            context.close()
        self.free.clear()


class Lease:
    """A pooled context lent to one test (or fixture) until close(): a Playwright
    BrowserContext for what tests do with one. Routes, init scripts and listeners are put on
    its own pages, never on the pooled context, so none outlives the lease."""

    def __init__(self, pool, options):
        self.pool = pool
        self.per_page = {name: options.pop(name) for name in PER_PAGE if name in options}
        self.options = options
        self.context, self.key = pool.lend(options)
        self.granted = self.offline = False
        self.pages, self.origins, self.scripts, self.routes, self.listeners = [], set(), [], [], []
        self.closed = False

    # --- what a BrowserContext does ------------------------------------------------------
    def new_page(self):
        page = self.context.new_page()
        self.pages.append(page)
        page.on("close", lambda closed: closed in self.pages and self.pages.remove(closed))
        page.on("request", self._saw)
        page.set_viewport_size(self.per_page.get("viewport", DEFAULT_VIEWPORT))
        media = {name: self.per_page[name] for name in PER_PAGE[1:] if name in self.per_page}
        page.emulate_media(**({"color_scheme": "light"} | media))
        for script in self.scripts:
            page.add_init_script(**script)
        for args, kwargs in self.routes:
            page.route(*args, **kwargs)
        for event, handler in self.listeners:
            if event == "page":
                handler(page)
        return page

    def add_init_script(self, script=None, path=None):
        self.scripts.append({"script": script, "path": path})
        for page in self.pages:
            page.add_init_script(script=script, path=path)

    def route(self, *args, **kwargs):
        self.routes.append((args, kwargs))
        for page in self.pages:
            page.route(*args, **kwargs)

    def on(self, event, handler):
        if event != "page":
            raise NotImplementedError(f"a pooled context passes on only 'page' events, not {event!r}")
        self.listeners.append((event, handler))

    def close(self):
        if self.closed:
            return
        self.closed = True
        for page in list(self.pages):
            page.close()
        self.pool.give_back(self.context, self.key, self)

    def grant_permissions(self, *args, **kwargs):
        self.granted = True
        self.context.grant_permissions(*args, **kwargs)

    def set_offline(self, offline):
        self.offline = self.offline or offline
        self.context.set_offline(offline)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getattr__(self, name):  # new_cdp_session, expect_page, ...
        return getattr(self.context, name)

    def _saw(self, request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https"):
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

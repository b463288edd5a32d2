"""One build of the site: what the MkDocs hooks (scripts/build/hooks/) compute in one event and
read in a later one, kept on one object per build.

MkDocs loads each hook file once per process and calls it for every build: `mkdocs serve`
rebuilds with the same modules, and a test may build twice in one process. So no hook keeps a
build's work in its module; SiteBuild.of(config) gives the build's own SiteBuild, made the first
time a hook asks for it, on the config itself (MkDocs makes a new config for every build, a
rebuild under `serve` too), so nothing of one build reaches the next. It holds:

- the Markdown pages' runs (scripts.build.page_runs.runs), started once per build in a thread of
  their own: page_runs() is the same Future for every hook that asks (the pages hook starts it
  when the build starts, progress.json reads it at the end);
- the notebook chapters' runs, one process each (start(), started(): jobs that
  scripts/build/notebook_runs.py names);
- the site's Python zip, which every page names with its hash (python_zip);
- each page's links to its source and to itself as a notebook (page_links).
"""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scripts.build import page_runs

PAGE_RUNS = "page runs"  # the job of every docs/**/*.md page's run


class SiteBuild:
    """The state of one build of the site (the config MkDocs made for it).

    docs: the build's docs_dir (Path). python_zip: bytes of the site's Python zip, once the
    python_runtime hook made it (None before). page_links: page src_uri -> {"page_source_url",
    "page_notebook_url"}, filled by the sources hook.
    """

    def __init__(self, docs_dir):
        self.docs = Path(docs_dir)
        self.python_zip = None
        self.page_links = {}
        self._jobs = {}  # name -> Future, each started at most once in this build

    @classmethod
    def of(cls, config):
        """The SiteBuild of the build `config` (a MkDocsConfig) belongs to: the same object for
        every hook and event of that build, a new one for another config."""
        build = getattr(config, "_site_build", None)
        if build is None:
            build = cls(config["docs_dir"])
            config._site_build = build  # lives and goes with the config
        return build

    def start(self, name, function, *args, **kwargs):
        """The Future of function(*args, **kwargs), running in a thread of its own: started now
        if no job called `name` was started in this build, else the one that was."""
        if name not in self._jobs:
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name.split()[0])
            self._jobs[name] = pool.submit(function, *args, **kwargs)
            pool.shutdown(wait=False)  # its thread ends with the job
        return self._jobs[name]

    def started(self, name):
        """Whether a job called `name` was started in this build."""
        return name in self._jobs

    def page_runs(self):
        """The Future of {src_uri: scripts.build.page_runs.Run} for every Markdown page of
        docs/ (Path.rglob("*.md")): computed once per build, started by the first call. Its
        result() raises scripts.build.page_runs.PageError for a page that failed."""
        if not self.started(PAGE_RUNS):
            pages = [page_runs.Page(path.relative_to(self.docs).as_posix(), path)
                     for path in sorted(self.docs.rglob("*.md"))]
            self.start(PAGE_RUNS, page_runs.runs, pages)
        return self._jobs[PAGE_RUNS]

"""Each chapter's checks, for the reader's progress (docs/javascripts/progress.js).

A check is a quiz (answered right) or an exercise (every test passed). The
totals come from what the build runs, never from a count by hand: a Markdown
page's quizzes and exercises are the outputs of its run's directives
(scripts.build.page_runs, the same run that puts them on the page), a notebook
page's quizzes are the quiz directives of its Markdown cells (found by
QuizParser, as scripts.notebooks.training_notebook finds them to evaluate them).

The site serves them as one small JSON file, TOTALS, keyed by page URL:

    {"pages": {"04-engine/": {"quizzes": ["quiz-3f0c…", ...], "exercises": ["local_add_mul", ...],
                              "versions": {"local_add_mul": "9b1e…", ...}}, ...}}

A quiz is named by its id (scripts.pages.quizzes.quiz_id: a hash of its call), so a kept
answer is counted only while the quiz it answered is on the page; an exercise's pass counts
only for the version it passed (scripts.pages.exercise_directive.version: its starter and tests).

Only chapters (docs/NN-*.md, docs/NN-*.py) with at least one check are listed. What the reader has done is
kept in their browser only (localStorage): no account, no server.
"""

import json
import re

from scripts.build.sources import source_of

TOTALS = "progress.json"
CHAPTER = re.compile(r"[0-9]{2}-[^/]+")
_EXERCISE = re.compile(r'data-exercise="([a-z0-9_]+)" data-starter-hash="[0-9a-f]+" data-version="([0-9a-f]+)"')
_QUIZ = re.compile(r'class="bv-quiz" id="(quiz-[0-9a-f]+)-box"')


def checks_of_run(outputs):
    """{"quizzes": [ids], "exercises": [names], "versions": {name: version}} from a page run's
    outputs ({kind, line, markdown})."""
    versions = dict(found for output in outputs if output["kind"] == "exercise"
                    for found in _EXERCISE.findall(output["markdown"])[:1])
    quizzes = [name for output in outputs if output["kind"] == "quiz"
               for name in _QUIZ.findall(output["markdown"])[:1]]
    return {"quizzes": quizzes, "exercises": list(versions), "versions": versions}


def checks_of_notebook(path):
    """{"quizzes": [ids], "exercises": [], "versions": {}} for a jupytext notebook chapter (docs/NN-*.py)."""
    from scripts.notebooks.training_notebook import quiz_ids

    return {"quizzes": quiz_ids(path), "exercises": [], "versions": {}}


def totals(files, docs_dir, runs):
    """The TOTALS JSON text for the build's `files` (MkDocs Files) of the documentation pages.

    runs: {src_uri: scripts.build.page_runs.Run} of the build's Markdown pages (the runs that
    put the quizzes and exercises on the pages: scripts.build.site_build.SiteBuild.page_runs);
    KeyError for a Markdown chapter without one."""
    pages = [f for f in files.documentation_pages() if CHAPTER.fullmatch(f.src_uri)]
    markdown = [f for f in pages if f.src_uri.endswith(".md")]
    checks = {f.url: checks_of_run(runs[f.src_uri].result["outputs"]) for f in markdown}
    for f in pages:
        source = source_of(f.src_uri, docs_dir)
        if f.src_uri.endswith(".ipynb") and source.suffix == ".py":
            checks[f.url] = checks_of_notebook(source)
    listed = {url: c for url, c in sorted(checks.items()) if c["quizzes"] or c["exercises"]}
    return json.dumps({"pages": listed}, indent=1)

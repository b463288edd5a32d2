"""The MkDocs hooks (scripts/build/hooks/) share one build's state, scripts/build/site_build.py's
SiteBuild: made for each build's config, so nothing of one build reaches the next (MkDocs loads
a hook once per process: `serve` and a test build many times with the same modules), and the
Markdown pages' runs computed once per build, for the pages and for progress.json alike. The
notebook chapters' runs are jobs of the same build (scripts/build/notebook_runs.py). The hooks
stay thin adapters, within their budget of lines."""

import json
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from scripts import ROOT
from scripts.build import notebook_runs, page_runs
from scripts.build.site_build import SiteBuild
from scripts.pages.quizzes import quiz_id

HOOKS = ["pages.py", "python_runtime.py"]  # the runs' two readers: the pages, progress.json
# The build-as-cache budget (issue 43, item 8), in lines as `wc -l` counts them: a hook adapts
# MkDocs' events to plain functions in scripts/ that have tests of their own, so logic that
# grows a hook past it belongs in one of those.
HOOK_LINES_IN_ALL, HOOK_LINES_EACH = 400, 80


def test_the_hooks_stay_within_their_budget_of_lines():
    lines = {path.relative_to(ROOT).as_posix(): path.read_bytes().count(b"\n")
             for path in sorted((ROOT / "scripts" / "build" / "hooks").rglob("*.py"))}
    assert len(lines) > 5, lines  # the hooks were found
    over = {path: n for path, n in lines.items() if n > HOOK_LINES_EACH}
    assert over == {}, f"over {HOOK_LINES_EACH} lines: move their logic into scripts/: {over}"
    total = sum(lines.values())
    assert total <= HOOK_LINES_IN_ALL, f"{total} lines in all, over {HOOK_LINES_IN_ALL}: {lines}"


QUIZZES = ["number(x, answer=2)", "number(x + 1, answer=3)"]


def tiny_site(folder, page, quizzes):
    """mkdocs.yml of a site in `folder` whose one chapter, docs/`page`, has `quizzes` quizzes."""
    docs = folder / "docs"
    docs.mkdir(parents=True)
    asked = "".join(f'!!! question "Check"\n    <!-- quiz: {quiz} -->\n\n' for quiz in QUIZZES[:quizzes])
    (docs / page).write_text(f"# A chapter\n\n```python\n>>> x = 2\n```\n\n{asked}", encoding="utf-8")
    config = folder / "mkdocs.yml"
    config.write_text(json.dumps({  # YAML is a superset of JSON
        "site_name": "tiny", "site_url": "http://127.0.0.1:8000/", "docs_dir": str(docs),
        "hooks": [str(ROOT / "scripts" / "build" / "hooks" / hook) for hook in HOOKS],
        "markdown_extensions": ["admonition", "attr_list", "pymdownx.superfences"],
    }), encoding="utf-8")
    return config


def test_two_builds_in_one_process_each_run_their_own_pages_once(tmp_path, monkeypatch):
    """Two sites built one after the other by the same hook modules: each build asks for its
    pages' runs once (the pages hook and progress.json read the same ones), and each site shows
    only its own page's checks."""
    calls = []
    runs = page_runs.runs

    def counted(pages):
        calls.append([page.src_uri for page in pages])
        return runs(pages)

    monkeypatch.setattr(page_runs, "runs", counted)
    for name, quizzes in [("01-first-build.md", 1), ("01-second-build.md", 2)]:
        site = tmp_path / name / "site"
        build(load_config(str(tiny_site(tmp_path / name, name, quizzes)), site_dir=str(site), strict=True))
        chapter = name.removesuffix(".md")
        assert calls[-1] == [name] and len(calls) == quizzes, calls
        progress = json.loads((site / "progress.json").read_text(encoding="utf-8"))
        ids = [quiz_id(quiz) for quiz in QUIZZES[:quizzes]]
        assert progress == {"pages": {f"{chapter}/": {"quizzes": ids, "exercises": [], "versions": {}}}}
        html = (site / chapter / "index.html").read_text(encoding="utf-8")
        assert html.count('class="bv-quiz" ') == quizzes and 'class="bv-python"' in html


def test_each_config_gets_a_build_of_its_own_whose_jobs_start_once(tmp_path):
    first, second = (load_config(str(tiny_site(tmp_path / name, "01-a.md", 0))) for name in "ab")
    assert SiteBuild.of(first) is SiteBuild.of(first)
    assert SiteBuild.of(second) is not SiteBuild.of(first)
    started = []
    job = SiteBuild.of(first).start("job", started.append, "ran")
    assert SiteBuild.of(first).start("job", started.append, "again") is job
    job.result()
    assert started == ["ran"] and SiteBuild.of(first).started("job")
    assert not SiteBuild.of(second).started("job")


def test_a_failing_page_fails_the_build_with_its_page_and_line(tmp_path, caplog):
    """The runs' Future holds the page's failure; the pages hook reports it as before."""
    config = tiny_site(tmp_path, "01-broken.md", 0)
    page = tmp_path / "docs" / "01-broken.md"
    page.write_text("# Broken\n\n```python\n>>> 1 / 0\n1\n```\n", encoding="utf-8")
    with pytest.raises(Abort):
        build(load_config(str(config), site_dir=str(tmp_path / "site"), strict=True))
    assert re.search(r"docs/01-broken\.md:4: .*ZeroDivisionError", caplog.text, re.DOTALL), caplog.text


@pytest.fixture
def notebooks(tmp_path, monkeypatch):
    """Two notebook chapters in tmp_path/docs whose runs are recorded, not run: each run's
    process ends with the returncode and stderr in `ended`; a chapter's prepared notebook is
    cached when tmp_path/prepared/<its name> exists."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ["06-training.py", "07-more.py"]:
        (docs / name).write_text("# %%\n1\n", encoding="utf-8")
    (tmp_path / "prepared").mkdir()
    ran, ended = [], {"returncode": 0, "stderr": ""}

    def run(command, **kwargs):
        ran.append(Path(command[-1]).name)
        return subprocess.CompletedProcess(command, ended["returncode"], "", ended["stderr"])

    monkeypatch.setattr(notebook_runs, "site_notebook_path", lambda path: tmp_path / "prepared" / Path(path).name)
    monkeypatch.setattr(notebook_runs, "subprocess", SimpleNamespace(run=run))
    return SimpleNamespace(docs=docs, prepared=tmp_path / "prepared", ran=ran, ended=ended)


def test_a_notebook_not_cached_starts_with_the_build_once_and_is_waited_for(notebooks):
    (notebooks.prepared / "07-more.py").touch()
    build = SiteBuild(notebooks.docs)
    notebook_runs.start_uncached(build, notebooks.docs)
    training, more = notebooks.docs / "06-training.py", notebooks.docs / "07-more.py"
    assert notebook_runs.prepared(build, str(training)) == notebooks.prepared / "06-training.py"
    assert notebook_runs.prepared(build, str(more)) == notebooks.prepared / "07-more.py"  # cached
    assert notebooks.ran == ["06-training.py"]  # once: prepared() waited for the run started
    notebook_runs.prepared(SiteBuild(notebooks.docs), training)  # another build: a run of its own
    assert notebooks.ran == ["06-training.py"] * 2


def test_a_failed_notebook_run_names_its_end_of_stderr(notebooks):
    notebooks.ended.update(returncode=1, stderr="x" * 9000 + "ZeroDivisionError: division by zero\n")
    with pytest.raises(notebook_runs.NotebookFailed) as failed:
        notebook_runs.prepared(SiteBuild(notebooks.docs), notebooks.docs / "06-training.py")
    message = str(failed.value)
    assert message.startswith("the notebook failed\n") and message.endswith("ZeroDivisionError: division by zero\n")
    assert len(message) == len("the notebook failed\n") + notebook_runs.STDERR_SHOWN

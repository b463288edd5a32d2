"""The suite's own order (tests/schedule.py) and markers (tests/conftest.py): computed from the
last run's timings, estimated on a fresh clone, never a list kept by hand."""

import subprocess
import sys
import textwrap
import types

import pytest

from scripts import ROOT
from tests import schedule


def item(nodeid, *markers):
    return types.SimpleNamespace(nodeid=nodeid, get_closest_marker=lambda name: name if name in markers else None)


def test_modules_go_longest_first_by_the_last_runs_seconds_and_keep_their_own_order():
    items = [item("tests/a.py::one"), item("tests/a.py::two"), item("tests/b.py::one"), item("docs/c.md::line:3")]
    used = schedule.order(items, {"tests/a.py": 4.0, "tests/b.py": 9.5, "docs/c.md": 0.2})
    assert [i.nodeid for i in items] == ["tests/b.py::one", "tests/a.py::one", "tests/a.py::two", "docs/c.md::line:3"]
    assert used == {"tests/a.py": 4.0, "tests/b.py": 9.5, "docs/c.md": 0.2}


def test_a_module_no_run_has_timed_is_estimated_from_what_its_tests_use():
    items = [item("tests/quick.py::x")] * 30 + [item("tests/pages.py::y", "browser")] * 2 + [
        item("tests/registry.py::z", "network")]
    used = schedule.order(items, {"tests/quick.py": 0.4})  # a fresh clone knows none; here one
    assert used["tests/registry.py"] == schedule.ESTIMATE["network"]
    assert used["tests/pages.py"] == 2 * schedule.ESTIMATE["browser"]
    first = [schedule.module_of(i.nodeid) for i in items[:3]]
    assert first == ["tests/registry.py", "tests/pages.py", "tests/pages.py"]


def test_a_run_of_some_modules_keeps_the_others_last_figures_while_their_files_exist(tmp_path):
    for name in ("a.py", "b.py", "old.py"):
        (tmp_path / "tests").mkdir(exist_ok=True)
        (tmp_path / "tests" / name).write_text("")
    timings = schedule.Timings()
    for nodeid, seconds in [("tests/a.py::x", 1.25), ("tests/a.py::x", 0.5), ("tests/b.py::y", 2.0)]:
        timings.add(types.SimpleNamespace(nodeid=nodeid, duration=seconds))
    before = {"tests/a.py": 9.0, "tests/old.py": 3.0, "tests/deleted.py": 45.4}
    # tests/deleted.py: a module removed since the last run, whose seconds go with it
    assert timings.merged(before, tmp_path) == {"tests/a.py": 1.75, "tests/b.py": 2.0, "tests/old.py": 3.0}


@pytest.fixture()
def project(tmp_path):
    """A throwaway project whose conftest is this suite's schedule and markers: three modules,
    one of which drives a (fake) browser."""
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "conftest.py").write_text(textwrap.dedent("""
        import pytest
        from tests.conftest import pytest_collection_modifyitems, pytest_runtest_logreport, pytest_sessionfinish

        @pytest.fixture()
        def browser():
            return "chromium"
    """))
    (tmp_path / "suite" / "test_slow.py").write_text("import time\ndef test_s():\n    time.sleep(0.3)\n")
    (tmp_path / "suite" / "test_page.py").write_text("def test_p(browser):\n    assert browser\n")
    (tmp_path / "suite" / "test_fast.py").write_text("def test_f():\n    assert 1\n")
    return tmp_path


def run(project, *args):
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", *args, "suite"],
                            cwd=project, capture_output=True, text=True,
                            env={"PYTHONPATH": f"{project}:{ROOT}", "PATH": ""})
    return result


def test_a_fresh_clone_runs_browser_modules_first_and_the_next_run_uses_the_timings(project):
    first = run(project, "--collect-only")  # -q: one node id a line, in the order they run
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.splitlines()[0].startswith("suite/test_page.py"), first.stdout  # estimated longest
    timed = run(project)
    assert timed.returncode == 0, timed.stdout + timed.stderr
    second = run(project, "--collect-only")
    assert second.stdout.splitlines()[0].startswith("suite/test_slow.py"), second.stdout  # timed: 0.3 s


def test_a_test_that_drives_the_browser_is_marked_and_not_browser_leaves_it_out(project):
    result = run(project, "-m", "not browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed, 1 deselected" in result.stdout, result.stdout

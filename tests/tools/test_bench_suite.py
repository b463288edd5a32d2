"""The suite's benchmark (scripts/tools/bench_suite.py) clones the repository for each run, runs
the README's test command there, and prints pytest's seconds and every failure by its test id."""

import subprocess
import textwrap

from scripts.tools.bench_suite import main, summarize

GREEN = "..\n========== 2300 passed, 482 skipped, 1 warning in 171.42s (0:02:51) ==========\n"
RED = textwrap.dedent("""\
    =========================== short test summary info ============================
    FAILED tests/run/test_copy.py::test_x[chapter 4] - AssertionError: 3 != 4
    ERROR tests/site/test_browser.py::test_y - TimeoutError
    ========= 1 failed, 2299 passed, 1 error in 180.05s (0:03:00) =========
    """)


def test_a_green_runs_seconds_and_counts_are_pytests_own():
    assert summarize(GREEN) == {"seconds": 171.42, "counts": {"passed": 2300, "skipped": 482, "warning": 1},
                                "problems": []}


def test_a_red_run_names_each_failure_and_error_by_its_test_id():
    summary = summarize(RED)
    assert summary["problems"] == ["FAILED tests/run/test_copy.py::test_x[chapter 4]",
                                  "ERROR tests/site/test_browser.py::test_y"]
    assert summary["counts"] == {"failed": 1, "passed": 2299, "error": 1} and summary["seconds"] == 180.05


def test_a_run_killed_before_its_summary_has_no_seconds():
    assert summarize("==> Installing npm packages\nKilled\n")["seconds"] is None


def test_each_run_is_a_fresh_clone_of_the_committed_tree(tmp_path, capsys):
    """A repository whose dev.sh prints a pytest summary and fails if it finds a file left by
    an earlier run (or not committed): both runs are fresh clones, both green."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "dev.sh").write_text(textwrap.dedent("""\
        [ "$1" = test ] || exit 2
        [ -e left-by-a-run ] && { echo "FAILED tests/t.py::test_fresh - not a fresh clone"; exit 1; }
        touch left-by-a-run
        echo "== 3 passed in 1.50s =="
        """))
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=repo, check=True)
    (repo / "left-by-a-run").touch()  # in the working tree, not committed: a clone has none
    main(["--runs", "2", "--repo", str(repo), "--logs", str(tmp_path / "logs")])
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[:2] for row in rows[1:3]] == [["1", "1.5"], ["2", "1.5"]], rows
    assert all("green: 3 passed" in row for row in rows[1:3]) and rows[3].startswith("pytest seconds over 2 runs"), rows

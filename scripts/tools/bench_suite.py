"""The README's test command, run N times from fresh clones: a benchmark that prints figures, not
a test (issue 43: pytest in 180 s or less on this 2-core machine, five runs green, none retried).

    python scripts/tools/bench_suite.py [--runs 5] [--repo .] [pytest args...]

Each run clones the repository's HEAD (its committed state: what CI sees) into a new folder and
runs `bash scripts/dev.sh test` there, which installs what it needs (pip's and npm's own caches
make that faster after the first run) and then runs pytest. A fresh clone has no
`.pytest_cache/`, so each run orders the modules by its estimate (tests/schedule.py), as CI's
first run does. Prints one row per run: pytest's own seconds (its summary line), the seconds of
the whole command, the counts, and each failure or error with its test id; then the spread.
Take the figures with nothing else running on the machine.
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# pytest's last line: "== 1 failed, 2300 passed, 3 skipped in 171.42s (0:02:51) =="
SUMMARY = re.compile(r"^=+ (?P<counts>.+) in (?P<seconds>[\d.]+)s\b.*=+$", re.M)
# -ra's short summary: "FAILED tests/x.py::test_y - AssertionError..." / "ERROR tests/x.py::test_z"
PROBLEM = re.compile(r"^(FAILED|ERROR) (.+?)(?: - .*)?$", re.M)  # an id may hold spaces: [chapter 4]


def summarize(output):
    """pytest's output -> {"seconds": float | None, "counts": {"passed": n, ...},
    "problems": ["FAILED <id>", ...]}; seconds is None when pytest printed no summary (it
    never started, or was killed)."""
    found = SUMMARY.findall(output) and list(SUMMARY.finditer(output))[-1]
    counts = {}
    if found:
        for part in found["counts"].split(", "):
            number, _, name = part.partition(" ")
            if number.isdigit():
                counts[name.rstrip("s") if name in ("errors", "warnings") else name] = int(number)
    return {"seconds": float(found["seconds"]) if found else None, "counts": counts,
            "problems": [f"{kind} {test}" for kind, test in PROBLEM.findall(output)]}


def one_run(repo, pytest_args, log):
    """Clone `repo` into a new folder and run the README's test command there; the summary
    (summarize's) with "wall" seconds and the command's "returncode". Its output goes to `log`."""
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as folder:
        clone = Path(folder) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(repo), str(clone)], check=True)
        start = time.perf_counter()
        result = subprocess.run(["bash", "scripts/dev.sh", "test", *pytest_args], cwd=clone,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.perf_counter() - start
    log.write_text(result.stdout)
    return {**summarize(result.stdout), "wall": wall, "returncode": result.returncode}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repo", type=Path, default=ROOT, help="the repository to clone (default: this one)")
    parser.add_argument("--logs", type=Path, default=Path(tempfile.gettempdir()) / "bench-suite",
                        help="where each run's whole output is kept (default: %(default)s)")
    options, pytest_args = parser.parse_known_args(argv)
    options.logs.mkdir(parents=True, exist_ok=True)
    seconds = []
    print(f"{'run':>3} {'pytest s':>9} {'command s':>10}  result", flush=True)
    for n in range(1, options.runs + 1):
        log = options.logs / f"run-{n}.log"
        run = one_run(options.repo, pytest_args, log)
        counts = ", ".join(f"{count} {name}" for name, count in run["counts"].items()) or "no summary"
        pytest_s = "-" if run["seconds"] is None else f"{run['seconds']:.1f}"
        green = run["returncode"] == 0
        print(f"{n:>3} {pytest_s:>9} {run['wall']:>10.1f}  {'green' if green else 'RED'}: {counts} ({log})",
              flush=True)
        for problem in run["problems"]:
            print(f"      {problem}", flush=True)
        if run["seconds"] is not None:
            seconds.append(run["seconds"])
    if seconds:
        print(f"pytest seconds over {len(seconds)} runs: min {min(seconds):.1f}, "
              f"median {statistics.median(seconds):.1f}, max {max(seconds):.1f}")


if __name__ == "__main__":
    sys.exit(main())

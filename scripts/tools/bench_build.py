"""Benchmark the site build: a cold build, and how fast `mkdocs serve` shows an edit. Prints; not a test.

    .venv/bin/python scripts/tools/bench_build.py [--runs 3]

Works in a temporary copy of the repository (the files git knows, node_modules linked),
so nothing here is touched. Measures:

- cold build: `mkdocs build --strict` with no .cache/ (every page run, the notebook executed),
  --runs times;
- serve, the way `bash scripts/dev.sh serve` runs it (`mkdocs serve --dirty --no-strict`,
  no bytecode written), after its first build: the time from saving a file to the end of the rebuild
  (serve's "Reloading browsers": the reader sees the edit), and how many rebuilds that one save
  caused, for
  1. a sentence added to one chapter's prose,
  2. a comment added to micrograd/engine.py (every page and the notebook run again).

Goals on the project's 2-core machine: prose edit <= 2 s, micrograd/ edit <= 30 s,
cold build <= 25 s (issue 15 gave back the scheduling tricks' few seconds), one rebuild per save.
"""

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"Serving on http")  # the first build is done
RELOADED = re.compile(r"Reloading browsers")  # a rebuild is done and shown
GOALS = {"cold build": 25.0, "prose edit": 2.0, "micrograd/ edit": 30.0}


def copy_repository(target):
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")


def environment():
    # as scripts/dev.sh runs MkDocs (NBCONVERT_DISABLE_CONFIG_EXPORTERS, PYTHONDONTWRITEBYTECODE for serve)
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NBCONVERT_DISABLE_CONFIG_EXPORTERS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


def cold_build(copy):
    shutil.rmtree(copy / ".cache", ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(copy / "site")],
                   cwd=copy, env=environment(), check=True, capture_output=True)
    return time.perf_counter() - start


class Serve:
    """`mkdocs serve --dirty` in the copy, its log read line by line in a thread."""

    def __init__(self, copy):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--no-strict",
             "--dev-addr", f"127.0.0.1:{port}"],
            cwd=copy, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []  # (time, line)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append((time.perf_counter(), line.rstrip()))

    def builds_since(self, start, pattern=RELOADED):
        """The times of the log lines matching `pattern` since `start`: when each build ended."""
        return [t for t, line in list(self.lines) if t >= start and pattern.search(line)]

    def wait_for_build(self, start, pattern=RELOADED, timeout=180):
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("mkdocs serve stopped:\n" + "\n".join(line for _, line in self.lines[-30:]))
            builds = self.builds_since(start, pattern)
            if builds:
                return builds[0]
            time.sleep(0.02)
        raise TimeoutError(f"no rebuild within {timeout} s:\n" + "\n".join(line for _, line in self.lines[-30:]))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def edit_and_time(serve, path, change, settle=6.0):
    """Save `change(text)` to `path`; return (seconds to the end of the rebuild, rebuilds caused)."""
    time.sleep(1.0)  # let the watcher go quiet after the last build
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    path.write_text(change(text), encoding="utf-8")
    ended = serve.wait_for_build(start)
    time.sleep(settle)  # a second rebuild (e.g. from __pycache__) would show up here
    return ended - start, len(serve.builds_since(start))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold builds, and edits of each kind (default 3)")
    args = parser.parse_args(argv)
    results = {name: [] for name in GOALS}
    counts = {name: [] for name in GOALS}
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        copy = Path(tmp)
        copy_repository(copy)
        print(f"copy of the repository in {copy}", file=sys.stderr)
        for _ in range(args.runs):  # the training notebook alone varies by 2-3 s run to run here
            results["cold build"].append(cold_build(copy))
            counts["cold build"].append(1)
        serve = Serve(copy)
        try:
            serve.wait_for_build(0, SERVING)
            chapter = copy / "docs" / "02-chain-rule.md"
            engine = copy / "micrograd" / "engine.py"
            for run in range(args.runs):
                def add_sentence(text, run=run):
                    return text.replace("\n## ", f"\nAn added sentence, edit {run}.\n\n## ", 1)

                seconds, builds = edit_and_time(serve, chapter, add_sentence)
                results["prose edit"].append(seconds)
                counts["prose edit"].append(builds)
            for run in range(args.runs):
                seconds, builds = edit_and_time(
                    serve, engine, lambda t, run=run: t + f"\n# an added comment, edit {run}\n", settle=8.0)
                results["micrograd/ edit"].append(seconds)
                counts["micrograd/ edit"].append(builds)
        finally:
            serve.stop()
    print(f"{'what':<18}{'median s':>10}  {'runs (s)':<40}{'goal s':>8}{'rebuilds per save':>20}")
    for name, goal in GOALS.items():
        runs = results[name]
        verdict = "ok" if statistics.median(runs) <= goal else "OVER"
        print(f"{name:<18}{statistics.median(runs):>10.2f}  {', '.join(f'{s:.2f}' for s in runs):<40}"
              f"{goal:>8.0f}{', '.join(map(str, counts[name])):>20}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

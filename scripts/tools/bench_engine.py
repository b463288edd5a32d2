"""Benchmark this engine against micrograd 0.1.0 from PyPI. A benchmark, not a test: it prints.

    .venv/bin/python scripts/tools/bench_engine.py [--runs 5] [--steps 5] [--python PATH ...]

Workload (the training step of chapter 6): one SGD step of MLP(2, [16, 16, 1])
on 100 two-moons points (noise 0.1), SVM max-margin loss + 1e-4 L2, full
batch: forward, zero_grad, backward, update; the loss function is the one of
micrograd's demo notebook (it also computes the accuracy). Two loop shapes:

  fresh  each step's graph is freed before the next step builds its own
         (a step is a function call; its graph dies when it returns)
  demo   micrograd's demo loop, `total_loss, acc = loss()` at the top of each
         step: the previous graph stays alive while the new one is built, so
         the garbage collector walks both

micrograd 0.1.0 is installed with pip into .cache/bench/ (never imported by
anything else). Each run is a fresh process of the Python given by --python
(repeatable; default: the one running this script); the two engines
alternate run by run so that machine noise falls on both. The data are made
once with scikit-learn's make_moons and handed to the workers, so neither
engine's process carries scikit-learn's objects through its collections.

Prints, per Python and engine: CPU seconds per step for each loop shape
(time.process_time, so other programs on the machine count less; the mean
over a run's steps, so collections are paid for where they fall; the median
over runs), bytes per node (tracemalloc, over the graph one forward pass
builds) and the deepest chain y = y + 1 that backward() handled (doubling up
to 1,000,000); then the speed-ups, and whether both engines computed the
same losses.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THEIRS = ROOT / ".cache" / "bench" / "micrograd-0.1.0"
MAX_CHAIN = 1_000_000
SHAPES = ("fresh", "demo")
ENGINES = ("this", "0.1.0")


def worker(mode, steps):
    """Runs inside a fresh process with one engine importable as `micrograd`."""
    import random
    import time
    import tracemalloc

    import micrograd
    from micrograd.engine import Value
    from micrograd.nn import MLP

    if mode == "chain":  # deepest chain, doubling
        depth, deepest = 250, 0
        while depth <= MAX_CHAIN:
            one, y = Value(1.0), Value(0.0)
            for _ in range(depth):
                y = y + one
            try:
                y.backward()
            except RecursionError:
                break
            deepest = depth
            depth = depth * 2 if depth * 2 <= MAX_CHAIN or depth == MAX_CHAIN else MAX_CHAIN
            if deepest == MAX_CHAIN:
                break
        return {"deepest_chain": deepest, "module": micrograd.__file__}

    X, y = json.loads(sys.stdin.read())  # the data, made by the parent (no sklearn in this heap)
    random.seed(1337)
    model = MLP(2, [16, 16, 1])

    def loss():  # micrograd's demo notebook, full batch
        inputs = [list(map(Value, xrow)) for xrow in X]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(y, scores)]
        return data_loss + reg_loss, sum(accuracy) / len(accuracy)

    def update(k):
        lr = 1.0 - 0.9 * k / 100
        for p in model.parameters():
            p.data -= lr * p.grad

    if mode == "memory":
        tracemalloc.start()
        total, _ = loss()
        traced, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        nodes, stack = set(), [total]
        while stack:
            node = stack.pop()
            if node not in nodes:
                nodes.add(node)
                stack.extend(node._prev)
        return {"bytes_per_node": traced / len(nodes), "nodes": len(nodes)}

    def step(k):  # "fresh": the graph dies when the step returns
        total_loss, acc = loss()
        model.zero_grad()
        total_loss.backward()
        update(k)
        return total_loss.data

    losses, start = [], 0.0
    if mode == "fresh":
        for k in range(steps + 1):  # step 0 warms up
            if k == 1:
                start = time.process_time()
            losses.append(step(k))
    else:  # "demo": the loop of micrograd's notebook, the last graph alive
        for k in range(steps + 1):
            if k == 1:
                start = time.process_time()
            total_loss, acc = loss()
            model.zero_grad()
            total_loss.backward()
            update(k)
            losses.append(total_loss.data)
    return {"seconds_per_step": (time.process_time() - start) / steps, "losses": losses,
            "python": sys.version.split()[0]}


def two_moons():
    """100 two-moons points, noise 0.1, labels -1/+1, as JSON for the workers."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    return json.dumps([X.tolist(), [float(2 * label - 1) for label in y]])


def run(python, engine, mode, steps, data=""):
    path = str(ROOT) if engine == "this" else str(THEIRS)
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run(
        [python, __file__, "--worker", mode, "--steps", str(steps)],
        env=env, cwd="/", input=data, capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def install_theirs():
    if not (THEIRS / "micrograd" / "engine.py").exists():
        print("Installing micrograd 0.1.0 into", THEIRS.relative_to(ROOT))
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                        "--target", str(THEIRS), "micrograd==0.1.0"], check=True)


def measure(python, runs, steps, data):
    """Every figure for one Python: {engine: {...}}, engines alternating run by run."""
    seconds = {(e, s): [] for e in ENGINES for s in SHAPES}
    losses, version = {}, None
    for r in range(runs):
        for engine in ENGINES if r % 2 == 0 else ENGINES[::-1]:  # alternate who goes first
            for shape in SHAPES if r % 2 == 0 else SHAPES[::-1]:
                result = run(python, engine, shape, steps, data)
                seconds[engine, shape].append(result["seconds_per_step"])
                losses[engine, shape] = result["losses"]
                version = result["python"]
    figures = {}
    for e in ENGINES:
        figures[e] = {s: statistics.median(seconds[e, s]) for s in SHAPES}
        figures[e].update(run(python, e, "memory", 0, data))
        figures[e].update(run(python, e, "chain", 0))
    same = all(abs(a - b) < 1e-9 for s in SHAPES
               for a, b in zip(losses["this", s], losses["0.1.0", s]))
    return version, figures, same


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--python", action="append", metavar="PATH",
                        help="interpreter to run the workers under (repeatable; default: this one)")
    parser.add_argument("--worker", choices=["fresh", "demo", "memory", "chain"])
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.steps)))
        return
    install_theirs()
    data = two_moons()
    results = [measure(python, args.runs, args.steps, data) for python in args.python or [sys.executable]]

    nodes = results[0][1]["this"]["nodes"]
    print(f"workload: 1 SGD step of MLP(2, [16, 16, 1]), 100 two-moons points, {nodes} nodes "
          f"per forward pass; {args.runs} runs x {args.steps} steps; CPU s/step")
    print(f"{'python':<9}{'engine':<8}{'fresh s/step':>14}{'demo s/step':>13}"
          f"{'bytes/node':>12}{'deepest chain':>15}")
    for version, figures, _ in results:
        for e in ENGINES:
            f = figures[e]
            print(f"{version:<9}{e:<8}{f['fresh']:>14.4f}{f['demo']:>13.4f}"
                  f"{f['bytes_per_node']:>12.0f}{f['deepest_chain']:>15,}")
    print("speed-up of this engine over 0.1.0 (0.1.0's s/step / this engine's):")
    for version, figures, same in results:
        ratios = "  ".join(f"{s} {figures['0.1.0'][s] / figures['this'][s]:.1f}x" for s in SHAPES)
        memory = figures["this"]["bytes_per_node"] / figures["0.1.0"]["bytes_per_node"]
        print(f"  python {version}: {ratios}; memory {memory:.0%} of 0.1.0's bytes per node; "
              f"same losses step by step: {same}")


if __name__ == "__main__":
    main()

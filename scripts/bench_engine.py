"""Benchmark this engine against micrograd 0.1.0 from PyPI. A benchmark, not a test: it prints.

    .venv/bin/python scripts/bench_engine.py [--runs 5] [--steps 3]

Workload (the training step of chapter 6): one SGD step of MLP(2, [16, 16, 1])
on 100 two-moons points (noise 0.1), SVM max-margin loss + 1e-4 L2, full
batch: forward, zero_grad, backward, update. micrograd 0.1.0 is installed
with pip into .cache/bench/ (never imported by anything else). Each run is a
fresh process; the two engines alternate run by run so that machine noise
falls on both. The data are made once with scikit-learn's make_moons and
handed to the workers, so neither engine's process carries scikit-learn's
objects through its garbage collections.

Prints, for each engine: seconds per step (median over runs), bytes per node
(tracemalloc, over the graph one forward pass builds), and the deepest chain
y = y + 1 that backward() handled (doubling up to 1,000,000); then the ratios.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THEIRS = ROOT / ".cache" / "bench" / "micrograd-0.1.0"
MAX_CHAIN = 1_000_000


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

    def loss():
        scores = [model([Value(a), Value(b)]) for a, b in X]
        losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        return data_loss + reg_loss

    def step(k):
        total = loss()
        model.zero_grad()
        total.backward()
        lr = 1.0 - 0.9 * k / 100
        for p in model.parameters():
            p.data -= lr * p.grad
        return total.data

    if mode == "memory":
        tracemalloc.start()
        total = loss()
        traced, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        nodes, stack = set(), [total]
        while stack:
            node = stack.pop()
            if node not in nodes:
                nodes.add(node)
                stack.extend(node._prev)
        return {"bytes_per_node": traced / len(nodes), "nodes": len(nodes)}

    step(0)  # warm-up
    times, losses = [], []
    for k in range(1, steps + 1):
        start = time.perf_counter()
        losses.append(step(k))
        times.append(time.perf_counter() - start)
    return {"seconds_per_step": min(times), "losses": losses}


def two_moons():
    """100 two-moons points, noise 0.1, labels -1/+1, as JSON for the workers."""
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    return json.dumps([X.tolist(), [float(2 * label - 1) for label in y]])


def run(engine, mode, steps, data=""):
    path = str(ROOT) if engine == "this" else str(THEIRS)
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run(
        [sys.executable, __file__, "--worker", mode, "--steps", str(steps)],
        env=env, cwd="/", input=data, capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def install_theirs():
    if not (THEIRS / "micrograd" / "engine.py").exists():
        print("Installing micrograd 0.1.0 into", THEIRS.relative_to(ROOT))
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                        "--target", str(THEIRS), "micrograd==0.1.0"], check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--worker", choices=["step", "memory", "chain"])
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.steps)))
        return
    install_theirs()
    data = two_moons()
    engines = ["this", "0.1.0"]
    seconds = {e: [] for e in engines}
    losses = {}
    for r in range(args.runs):
        for engine in engines if r % 2 == 0 else engines[::-1]:  # alternate who goes first
            result = run(engine, "step", args.steps, data)
            seconds[engine].append(result["seconds_per_step"])
            losses[engine] = result["losses"]
    memory = {e: run(e, "memory", 0, data) for e in engines}
    chain = {e: run(e, "chain", 0) for e in engines}

    print(f"workload: 1 SGD step of MLP(2, [16, 16, 1]), 100 two-moons points, "
          f"{memory['this']['nodes']} nodes per forward pass; {args.runs} runs x {args.steps} steps")
    print(f"{'engine':<10}{'s/step':>10}{'bytes/node':>12}{'deepest chain':>15}")
    for e in engines:
        print(f"{e:<10}{statistics.median(seconds[e]):>10.4f}"
              f"{memory[e]['bytes_per_node']:>12.0f}{chain[e]['deepest_chain']:>15,}")
    speedup = statistics.median(seconds["0.1.0"]) / statistics.median(seconds["this"])
    memory_share = memory["this"]["bytes_per_node"] / memory["0.1.0"]["bytes_per_node"]
    print(f"speed-up: {speedup:.1f}x faster per step; memory: {memory_share:.0%} of 0.1.0's bytes per node")
    same = all(abs(a - b) < 1e-9 for a, b in zip(losses["this"], losses["0.1.0"]))
    print(f"same losses step by step on both engines: {same}")


if __name__ == "__main__":
    main()

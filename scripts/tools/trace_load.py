"""What a page's load does on the browser's main thread: a diagnosis to read beside
scripts/tools/bench_lighthouse.py's figures (issue 27, item 6), not a test.

    python -m scripts.tools.trace_load [site_dir] [--page 04-engine] [--runs 5] [--min-ms 10]

Loads the page of a built site (default site/, served with gzip as bench_lighthouse serves it)
in the tests' Chromium at 390 x 844 as a phone, without throttling, and reads Chromium's trace
of each load. Prints, per load: when the first paint came and DOMContentLoaded ended (ms from
the first task); how long Material's bundle took to evaluate and its DOMContentLoaded handler
to run; the style, layout and paint work after DOMContentLoaded; and "TBT x4", the blocking
time the load's tasks would have at Lighthouse's 4x slower CPU (each task after the first
paint counts 4 x its length - 50 ms). Then the median of each, and the tasks of the last load
of --min-ms or more, each with its parts: a style recalculation or layout that a script forced
names the script's function, file, line and column.

Lighthouse simulates its figures from one such load (4x slower), so the two agree on what is
long, not on the numbers. On 2026-11-27, chapter 4: Material's bundle, at the end of the body,
evaluated in 57-66 ms, mostly a style and layout forced by its read of scrollX; its handler
took 35-72 ms. Deferred since (scripts/overrides/main.html), it evaluates in 27-40 ms, after a
frame that has done that layout.
"""

import argparse
import functools
import json
import statistics
import sys
import threading
from pathlib import Path

from scripts.tools.bench_lighthouse import ROOT, GzipHandler, StaticHost, chromium

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
              "disabled-by-default-devtools.timeline.stack", "loading"]
PARTS = {"EvaluateScript", "FunctionCall", "EventDispatch", "ParseHTML", "UpdateLayoutTree", "Layout",
         "PrePaint", "Paint", "TimerFire", "FireAnimationFrame", "RunMicrotasks"}
RENDERING = {"UpdateLayoutTree", "Layout", "PrePaint", "Paint"}
BUNDLE = "/assets/javascripts/bundle."  # Material's bundle, as the site serves it


def _data(event):
    args = event.get("args", {})
    return args.get("beginData") or args.get("data") or {}


def ms(microseconds):
    """A trace's time (microseconds) in milliseconds."""
    return microseconds / 1000


def summary(events, min_ms=10.0):
    """The load in a Chromium trace (its "traceEvents" list) as a dict: paint and dcl (ms from
    the main thread's first task), bundle_ms, handler_ms, rendering_ms (after DOMContentLoaded),
    tbt4_ms, and tasks: [(start ms, length ms, [(start ms, name, length ms, what)])] of the
    tasks of min_ms or more. Raises ValueError if the trace has no renderer main thread."""
    names = {(e["pid"], e["tid"]) for e in events
             if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    main = sorted((e for e in events if (e.get("pid"), e.get("tid")) in names and e.get("ph") == "X"),
                  key=lambda e: (e["ts"], -e.get("dur", 0)))
    tasks = [e for e in main if e["name"] == "RunTask"]
    if not tasks:
        raise ValueError("no task on the renderer's main thread in this trace")
    start = tasks[0]["ts"]
    paint = min((e["ts"] for e in events if e.get("name") == "firstContentfulPaint"
                 and (e.get("pid"), e.get("tid")) in names), default=start)
    handlers = [e for e in main if e["name"] == "EventDispatch" and _data(e).get("type") == "DOMContentLoaded"]
    dcl = max((e["ts"] + e["dur"] for e in handlers), default=start)
    long = []
    for task in tasks:
        if ms(task.get("dur", 0)) < min_ms:
            continue
        end = task["ts"] + task["dur"]
        parts = []
        for e in main:
            if e is task or not task["ts"] <= e["ts"] <= end or e["name"] not in PARTS or ms(e.get("dur", 0)) < 1:
                continue
            data = _data(e)
            what = " ".join(str(x) for x in (data.get("url", "").rsplit("/", 1)[-1], data.get("functionName", ""),
                                              data.get("type", "")) if x)
            stack = data.get("stackTrace") or []
            if stack:
                top = stack[0]
                what += f" forced by {top.get('functionName') or '(anonymous)'} in " \
                        f"{top.get('url', '').rsplit('/', 1)[-1]}:{top.get('lineNumber')}:{top.get('columnNumber')}"
            parts.append((ms(e["ts"] - start), e["name"], ms(e["dur"]), what.strip()))
        long.append((ms(task["ts"] - start), ms(task["dur"]), parts))
    bundle = [e for e in main if e["name"] == "EvaluateScript" and BUNDLE in _data(e).get("url", "")]
    return {
        "paint": ms(paint - start), "dcl": ms(dcl - start),
        "bundle_ms": sum(ms(e["dur"]) for e in bundle),
        "handler_ms": sum(ms(e["dur"]) for e in handlers),
        "rendering_ms": sum(ms(e["dur"]) for e in main if e["name"] in RENDERING and e["ts"] >= dcl),
        "tbt4_ms": sum(max(0.0, 4 * ms(t["dur"]) - 50) for t in tasks if t["ts"] >= paint),
        "tasks": long,
    }


def trace(url, browser):
    """Chromium's trace of one load of url (its "traceEvents"), as a phone, in a fresh context."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chrome = playwright.chromium.launch(executable_path=browser, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = chrome.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
            chrome.start_tracing(page=page, categories=CATEGORIES)
            page.goto(url, wait_until="load")
            page.wait_for_function("() => !document.querySelector('script[src*=\"widgets.js\"]')"
                                   " || document.documentElement.dataset.bvBound", timeout=60_000)
            page.wait_for_timeout(1500)
            return json.loads(chrome.stop_tracing())["traceEvents"]
        finally:
            chrome.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--page", default="04-engine", help="a page's folder, or index for the home page")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--min-ms", type=float, default=10.0)
    args = parser.parse_args()
    site = Path(args.site)
    if not (site / "index.html").exists():
        sys.exit(f"{site}: no built site (mkdocs build -d {site})")
    server = StaticHost(("127.0.0.1", 0), functools.partial(GzipHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    path = "" if args.page in ("", "index", "home") else f"{args.page}/"
    url = f"http://127.0.0.1:{server.server_address[1]}/{path}"
    keys = ["paint", "dcl", "bundle_ms", "handler_ms", "rendering_ms", "tbt4_ms"]
    print(" ".join(f"{k:>12}" for k in keys))
    loads = []
    try:
        for _ in range(args.runs):
            loads.append(summary(trace(url, chromium()), args.min_ms))
            print(" ".join(f"{loads[-1][k]:>12.1f}" for k in keys), flush=True)
    finally:
        server.shutdown()
    print(" ".join(f"{statistics.median(load[k] for load in loads):>12.1f}" for k in keys), "(median)")
    print(f"\nTasks of {args.min_ms:g} ms or more in the last load:")
    for at, length, parts in loads[-1]["tasks"]:
        print(f"{at:8.1f} ms  task {length:6.1f} ms")
        for part_at, name, part_length, what in parts:
            print(f"{part_at:8.1f}      {name:18} {part_length:6.1f}  {what}")


if __name__ == "__main__":
    main()

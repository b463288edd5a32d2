"""One Python in the browser kept up for a pytest-xdist worker's whole run, for the checks that
compare the browser's Python with CPython (the `warm_python` fixture of tests/conftest.py).

The page's own door into Python (docs/javascripts/python/python.js: call) starts a new worker for
each exercise it grades and for any call after the reader's code ran, as a reader's isolation
needs; each start is Pyodide's whole start-up (about 1.5 s here). A check that grades the book's
own versions of an exercise (solution, starter, classic mistakes: code that changes nothing
outside its own namespace, as tests/exercises/test_exercises.py shows in CPython) needs none of
that. This module opens the worker itself, through the same messages python.js sends
(docs/javascripts/python/calls.js: Load, Call), and keeps it: `call(fn, args)` is
scripts/reader/calls.py's call_json in Pyodide.
"""

import json

# Start python-worker.js as python.js does (its MessageChannel, then "load"), and define
# window.bvWarmCall(fn, argsJson) -> Promise of the worker's answer ({type: "result", value} or
# {type: "error", message}), one call at a time in call order.
START = """async () => {
  const marker = document.querySelector(".bv-python");
  const runtime = { runtimeURL: new URL(marker.dataset.runtime, location.href).href,
    pythonURL: new URL(marker.dataset.python, location.href).href,
    runtimeBytes: Number(marker.dataset.runtimeBytes) || 0 };
  const worker = new Worker(new URL("/javascripts/python/python-worker.js", location.origin),
                            { type: "module", name: "python" });
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: "connect" }, [port2]);
  const waiting = new Map();
  let next = 0;
  port1.onmessage = ({ data }) => {
    if (data.type === "loaded") waiting.get("loaded")?.(data);
    if (data.type === "result" || data.type === "error") waiting.get(data.id)?.(data);
  };
  const loaded = new Promise((resolve) => waiting.set("loaded", resolve));
  port1.postMessage({ type: "load", ...runtime });
  await loaded;
  window.bvWarmCall = (fn, args) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    port1.postMessage({ type: "call", id, fn, args, ...runtime });
  });
}"""


class WarmPython:
    """The kept Python: call(fn, args) -> the function's value (scripts/reader/calls.py).
    Raises AssertionError with Python's message if the call failed."""

    def __init__(self, page):
        self.page = page
        page.evaluate(START)

    def call(self, fn, args):
        answer = self.page.evaluate("([fn, args]) => window.bvWarmCall(fn, args)", [fn, json.dumps(args)])
        assert answer["type"] == "result", f"{fn}: {answer.get('message')}"
        return answer["value"]

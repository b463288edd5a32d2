"""scripts/tools/trace_load.py reads a load's Chromium trace into the figures it prints: checked
on a small trace written here, whose every figure is known."""

import pytest

from scripts.tools.trace_load import summary

MAIN, OTHER = (1, 10), (1, 20)  # (pid, tid) of the renderer's main thread and of another thread
BUNDLE = "http://127.0.0.1:8000/assets/javascripts/bundle.a5f9d56c.min.js"


def event(name, ts_ms, dur_ms, thread=MAIN, **data):
    """A complete ("X") trace event at ts_ms for dur_ms (the trace counts microseconds)."""
    return {"name": name, "ph": "X", "pid": thread[0], "tid": thread[1], "ts": int(ts_ms * 1000),
            "dur": int(dur_ms * 1000), "args": {"data": data}}


def load():
    """A load: a first task (0-5 ms), a paint at 20 ms, Material's bundle evaluating in a 40 ms
    task that forces a style recalculation, its DOMContentLoaded handler in a 30 ms task, then a
    frame of 12 ms; and a 90 ms task on another thread, which is not the page's."""
    return [
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 10, "args": {"name": "CrRendererMain"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 20, "args": {"name": "Compositor"}},
        event("RunTask", 0, 5),
        {"name": "firstContentfulPaint", "ph": "R", "pid": 1, "tid": 10, "ts": 20_000},
        event("RunTask", 30, 40),
        event("EvaluateScript", 31, 35, url=BUNDLE),
        {**event("UpdateLayoutTree", 32, 20), "args": {"beginData": {"stackTrace": [
            {"functionName": "wn", "url": BUNDLE, "lineNumber": 14, "columnNumber": 41611}]}}},
        event("RunTask", 100, 30),
        event("EventDispatch", 101, 28, type="DOMContentLoaded"),
        event("RunTask", 150, 12),
        event("Layout", 151, 4),
        event("Paint", 156, 3),
        event("RunTask", 0, 90, thread=OTHER),
    ]


def test_the_figures_of_a_load():
    figures = summary(load(), min_ms=10)
    assert figures["paint"] == 20 and figures["dcl"] == 129
    assert figures["bundle_ms"] == 35 and figures["handler_ms"] == 28
    assert figures["rendering_ms"] == 7  # the frame after DOMContentLoaded: layout 4, paint 3
    # after the paint, at 4x: 160 - 50, 120 - 50, 48 - 50 (nothing); the first task came before it
    assert figures["tbt4_ms"] == 110 + 70


def test_the_long_tasks_name_the_function_that_forced_a_style():
    tasks = summary(load(), min_ms=25)["tasks"]
    assert [(at, length) for at, length, _ in tasks] == [(30, 40), (100, 30)]
    parts = tasks[0][2]
    assert parts[0] == (31, "EvaluateScript", 35, "bundle.a5f9d56c.min.js")
    assert parts[1] == (32, "UpdateLayoutTree", 20, "forced by wn in bundle.a5f9d56c.min.js:14:41611")
    assert tasks[1][2] == [(101, "EventDispatch", 28, "DOMContentLoaded")]


def test_a_trace_without_the_pages_main_thread_is_refused():
    with pytest.raises(ValueError, match="no task on the renderer's main thread"):
        summary([event("RunTask", 0, 50, thread=OTHER)])

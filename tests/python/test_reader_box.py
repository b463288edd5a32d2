"""Issue 25, in CPython: every text of the reader's code reaches the page clipped, with its
invisible controls made visible (scripts/reader/reader_code.py), from a chapter's blocks
(scripts/reader/run_blocks.py) and from an exercise (scripts/reader/exercise_runner.py).
tests/python/test_box_runs.py checks the same in the browser, with what only the browser has
(the worker, its timers, a Run's Stop)."""

import re
import time

import pytest

from scripts import ROOT
from scripts.reader import exercise_runner, reader_code, run_blocks
from scripts.reader.reader_code import MAX_OUTPUT, clip

HUGE = 10**8  # an error message this long crashed the reader's tab after about 10 s
CUT = f"(message cut: the first {MAX_OUTPUT:,} of its {HUGE:,} characters are shown)"


def code(source):
    return {"line": 1, "kind": "code", "hidden": False, "source": source, "skip": None, "figure": False}


def doctest_block(source):
    return {**code(source), "kind": "doctest"}


def only(source):
    (result,) = run_blocks.run([code(source)], 0)
    return result


# --- Every text clipped ---------------------------------------------------------------


def test_a_huge_error_message_in_a_block_is_clipped_and_says_so():
    start = time.perf_counter()
    result = only(f'print("before")\nraise ValueError("x" * {HUGE})\n')
    seconds = time.perf_counter() - start
    error = result["error"]
    assert len(error) < MAX_OUTPUT + 400, len(error)
    assert result["status"] == "error" and result["output"] == "before\n"
    assert error.startswith('Traceback (most recent call last):\n  File "<block 1>", line 2, in <module>\n')
    last = error.split("\n")[-1]
    assert last == f"... {CUT}", last
    assert error.count("x") == MAX_OUTPUT + error.split("ValueError: ")[0].count("x")
    assert seconds < 5, "the message is cut, not formatted whole"


def test_a_huge_unexpected_exception_in_a_doctest_is_clipped_and_says_so():
    (result,) = run_blocks.run([doctest_block(f'>>> raise KeyError("k" * {HUGE})\n1\n')], 0)
    text = result["transcript"][-1]["text"]
    assert len(text) < MAX_OUTPUT + 400, len(text)
    assert result["status"] == "error" and result["transcript"][-1]["exception"]
    assert text.endswith(CUT.replace(f"{HUGE:,}", f"{HUGE + 2:,}")), text[-200:]  # KeyError quotes it


def test_a_huge_printed_doctest_result_and_a_huge_missing_module_are_clipped():
    (result,) = run_blocks.run([doctest_block(">>> print('p' * 50_000)\np\n")], 0)
    got = result["transcript"][-1]["text"]
    assert len(got) < MAX_OUTPUT + 400, len(got)
    assert got.endswith(f"(output cut: the first {MAX_OUTPUT:,} of its 50,001 characters are shown)\n")
    missing = only(f'raise ModuleNotFoundError("m" * {HUGE}, name="n" * {HUGE})\n')
    assert missing["status"] == "unavailable"
    assert all(len(missing[key]) < MAX_OUTPUT + 400 for key in ("error", "module", "why")), missing.keys()


def test_a_huge_type_name_and_huge_notes_are_clipped():
    result = only(f'E = type("E" * {HUGE}, (Exception,), {{"__module__": "m"}})\nerror = E("m")\n'
                  f'error.add_note("n" * {HUGE})\nraise error\n')
    assert len(result["error"]) < 2 * MAX_OUTPUT + 600, len(result["error"])
    lines = result["error"].split("\n")
    assert lines[-1] == f"... (note cut: the first {MAX_OUTPUT:,} of its {HUGE:,} characters are shown)"


def test_an_exercise_clips_its_errors_and_its_tests_messages():
    report = exercise_runner.run("backward", f'raise ValueError("y" * {HUGE})\n')
    (row,) = report.results
    assert len(row.message) < MAX_OUTPUT + 400, len(row.message)
    assert row.message.startswith("ValueError on line 1 of your code: yyy")
    assert row.message.endswith(CUT), row.message[-200:]
    # A test's message quotes the reader's values (fmt: their repr): one whose repr is huge.
    huge_repr = (f"class Value:\n    def __init__(self, data, _prev=(), _local=()):\n"
                 f"        self.data, self.grad, self._prev, self._local = data, 0.0, _prev, _local\n"
                 f"    def __repr__(self):\n        return 'v' * {HUGE}\n"
                 f"def backward(root):\n    return 'w' * {HUGE}\n")
    report = exercise_runner.run("backward", huge_repr)
    assert report.results and all(len(r.message) < MAX_OUTPUT + 400 for r in report.results), \
        [len(r.message) for r in report.results]


def test_an_error_whose_str_fails_is_named_not_raised():
    source = "class E(Exception):\n    def __str__(self):\n        raise ValueError('no')\nraise E()\n"
    assert only(source)["error"].endswith("\nE: <exception str() failed>")
    (row,) = exercise_runner.run("backward", source).results
    assert row.message == "E on line 4 of your code: <exception str() failed>"


def test_a_short_error_is_as_python_prints_it():
    error = only("value = 1\nx = valeu\n")["error"]
    assert error.split("\n")[-1].startswith("NameError: name 'valeu' is not defined"), error


# --- Visible controls -------------------------------------------------------------------

SPOOF = "print('access: \u202eNOT\u202c granted\u200b')\n"


@pytest.mark.parametrize("char", ["\u061c", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b",
                                  "\u202c", "\u202d", "\u202e", "\u2060", "\u2066", "\u2067", "\u2068", "\u2069",
                                  "\ufeff"])
def test_each_bidi_and_zero_width_character_is_shown_as_its_code_point(char):
    assert reader_code.visible(f"a{char}b") == f"a<U+{ord(char):04X}>b"
    assert clip(f"a{char}b") == f"a<U+{ord(char):04X}>b"


def test_output_errors_and_exercise_feedback_show_the_controls():
    result = only(SPOOF + "raise ValueError('\u202eoops')\n")
    assert result["output"] == "access: <U+202E>NOT<U+202C> granted<U+200B>\n"
    assert result["error"].endswith("ValueError: <U+202E>oops")
    assert "\u202e" not in result["error"]
    report = exercise_runner.run("backward", SPOOF + "raise ValueError('\u2066oops')\n")
    assert report.output == "access: <U+202E>NOT<U+202C> granted<U+200B>\n"
    assert report.results[0].message == "ValueError on line 2 of your code: <U+2066>oops"


def test_a_doctest_whose_output_holds_a_control_is_still_the_same_as_the_page():
    (result,) = run_blocks.run([doctest_block(">>> print('a\u200bb')\na\u200bb\n>>> print('c')\nd\n")], 0)
    outputs = [s for s in result["transcript"] if s["output"]]
    assert [(s["text"], s["same"]) for s in outputs] == [("a<U+200B>b\n", True), ("c\n", False)]
    assert result["status"] == "differs"


JAVASCRIPTS = ROOT / "docs" / "javascripts"
READER_TEXT = JAVASCRIPTS / "shared" / "reader-text.js"  # the browser's one copy of the two constants


def test_the_page_cuts_a_text_where_python_cuts_it():
    """python.js and python-worker.js cut a text Python could not (a worker's own error) at the
    length reader_code.clip cuts: shared/reader-text.js's MAX_TEXT is MAX_OUTPUT."""
    source = READER_TEXT.read_text(encoding="utf-8")
    assert re.findall(r"^export const MAX_TEXT = (\d+);", source, re.M) == [str(MAX_OUTPUT)]


def test_the_page_shows_the_same_controls_as_python():
    """The page writes a text's controls visible (a Run's message, a chosen file's name on the
    engine switch) by a regex that copies reader_code.CONTROLS (JavaScript against Python): over
    every character of the Basic Multilingual Plane, the two match the same ones."""
    source = READER_TEXT.read_text(encoding="utf-8")
    (pattern,) = re.findall(r"^const CONTROLS = /(\[[^\]]*\])/g;", source, re.M)
    page = re.compile(pattern)  # \uXXXX ranges read the same in Python's re
    differ = [f"U+{c:04X}" for c in range(0x10000)
              if bool(page.fullmatch(chr(c))) != bool(reader_code.CONTROLS.fullmatch(chr(c)))]
    assert not differ, differ


def test_no_other_module_of_the_page_writes_its_own_clip_or_controls():
    """Both constants were written three times in docs/javascripts/ (python.js, python-worker.js,
    engine-switch.js), and one copy was tied to Python by no test: every module takes them from
    shared/reader-text.js now, and a new copy fails here."""
    copies = re.compile(r"\b10_?000\b.*(text|TEXT|character)|\\u202[ae]|<U\+\$\{")  # the clip, the set, <U+...>
    found = [f"{path.relative_to(JAVASCRIPTS)}:{n}" for path in sorted(JAVASCRIPTS.rglob("*.js"))
             if path != READER_TEXT
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if copies.search(line)]
    assert found == []

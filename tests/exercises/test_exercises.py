"""The exercises, without a browser: every solution passes, every starter fails,
every classic mistake fails with its own message; the runner's reports; the
build hook that puts exercises on pages and packs the site's Python."""

import io
import json
import re
import subprocess
import sys
import zipfile

import markdown
import pytest
from mkdocs.utils.yaml import yaml_load

from scripts import ROOT
from scripts.build import site_python
from scripts.build.editor_bundle import editor_bundle
from scripts.pages import exercise_directive
from scripts.reader import calls, exercise_checks, exercise_format, exercise_runner

NAMES = exercise_format.names()
MISTAKES = [(name, m.name) for name in NAMES for m in exercise_format.load(name).mistakes]
CHAPTERS = sorted((ROOT / "docs").glob("*.md"))

# The classic mistakes the issue names, and where each must be caught.
CLASSIC = {
    ("chain_rule", "= instead of +="): "a value used twice needs +=, not =",
    ("backward", "= instead of +="): "a value used twice needs +=, not =",
    ("backward", "no topological sort"): "reverse topological order",
    ("local_pow_tanh_exp_relu", "tanh's derivative from the input"): "not the input x",
    ("whole_engine", "tanh's derivative from the input"): "not the input x",
    ("zero_grad", "zero_grad forgotten"): "call zero_grad(model.parameters()) before loss.backward()",
}


def failing_messages(report):
    return [r.message for r in report.results if not r.passed]


def test_the_engine_is_built_in_seven_steps_in_chapter_4():
    included = re.findall(r"^<!-- exercise: (\w+) -->$", (ROOT / "docs" / "04-engine.md").read_text(), re.M)
    assert included == ["local_add_mul", "local_pow_tanh_exp_relu", "chain_rule", "topological_sort",
                        "backward", "zero_grad", "whole_engine"]


def test_every_exercise_is_on_exactly_one_page_and_every_include_exists():
    includes = [name for page in CHAPTERS
                for name in re.findall(r"<!-- exercise: (\w+) -->", page.read_text(encoding="utf-8"))]
    assert sorted(includes) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_solution_passes_every_test(name):
    exercise = exercise_format.load(name)
    report = exercise_runner.run(exercise, exercise.solution)
    assert len(report.results) >= 4, "an exercise needs several tests"
    assert report.passed, failing_messages(report)
    assert report.note == ""


@pytest.mark.parametrize("name", NAMES)
def test_the_starter_fails_and_says_where_the_blanks_are(name):
    """A debug exercise's starter is the code with its bug: it fails, and has no blank."""
    exercise = exercise_format.load(name)
    report = exercise_runner.run(exercise, exercise.starter)
    assert not report.passed
    if exercise.kind == "debug":
        assert report.note == "" and report.tests_ran, report.note
    else:
        assert report.note.startswith("Your code still has blanks (...) to fill in, on line")


@pytest.mark.parametrize("name, mistake", MISTAKES, ids=[f"{n}: {m}" for n, m in MISTAKES])
def test_each_classic_mistake_fails_with_its_message(name, mistake):
    exercise = exercise_format.load(name)
    (wrong,) = [m for m in exercise.mistakes if m.name == mistake]
    code = wrong.apply(exercise.solution)
    assert code != exercise.solution
    report = exercise_runner.run(exercise, code)
    assert not report.passed
    assert any(wrong.message in message for message in failing_messages(report)), failing_messages(report)


@pytest.mark.parametrize("name, mistake", sorted(CLASSIC), ids=[f"{n}: {m}" for n, m in sorted(CLASSIC)])
def test_the_issues_classic_mistakes_are_covered(name, mistake):
    exercise = exercise_format.load(name)
    (wrong,) = [m for m in exercise.mistakes if m.name == mistake]
    messages = failing_messages(exercise_runner.run(exercise, wrong.apply(exercise.solution)))
    assert any(CLASSIC[name, mistake] in message for message in messages), messages


def test_the_message_for_assignment_names_the_value_the_numbers_and_the_cause():
    exercise = exercise_format.load("chain_rule")
    code = exercise.solution.replace("parent.grad += local", "parent.grad = local")
    messages = failing_messages(exercise_runner.run(exercise, code))
    assert ("a.grad for b = a * a with a = 3 is 3.0, expected 6.0: "
            "a value used twice needs +=, not =: each edge adds its share") in messages


# Wrong solutions that make none of the mistakes a test names: the message must not name
# one (a reader's audit: these were told to call zero_grad, or to use +=, which they did).
UNNAMED = {
    "uphill update": ("zero_grad", "p.data -= learning_rate * p.grad", "p.data += learning_rate * p.grad",
                      ["zero_grad(", "loss.backward() before", "+=, not ="]),
    "no local derivative": ("chain_rule", "parent.grad += local * node.grad", "parent.grad += node.grad",
                            ["+=, not =", "threw away", "upstream"]),
}


@pytest.mark.parametrize("case", sorted(UNNAMED))
def test_a_mistake_the_code_does_not_make_is_not_named(case):
    name, right, wrong, false_causes = UNNAMED[case]
    exercise = exercise_format.load(name)
    assert right in exercise.solution
    messages = failing_messages(exercise_runner.run(exercise, exercise.solution.replace(right, wrong)))
    assert messages
    for message in messages:
        assert not [cause for cause in false_causes if cause in message], message


def test_an_uphill_update_is_named_from_its_numbers():
    exercise = exercise_format.load("zero_grad")
    code = exercise.solution.replace("p.data -= learning_rate", "p.data += learning_rate")
    messages = failing_messages(exercise_runner.run(exercise, code))
    assert any("w1.data after one step is -1.99424, expected 0.531693: the parameters moved uphill" in m
               for m in messages), messages


def test_a_missing_local_derivative_is_named_from_its_numbers():
    exercise = exercise_format.load("chain_rule")
    code = exercise.solution.replace("parent.grad += local * node.grad", "parent.grad += node.grad")
    messages = failing_messages(exercise_runner.run(exercise, code))
    assert "a.grad for b = a * a with a = 3 is 2.0, expected 6.0: the local derivative is missing" in " ".join(
        messages), messages


@pytest.mark.parametrize("name", NAMES)
def test_no_fallback_states_a_cause_that_only_a_matching_value_may_name(name, monkeypatch):
    """Every expect() call of the exercise's tests, on the solution: the text said for a value
    that matches no likely mistake must not be (or contain) the cause of a likely mistake."""
    calls_seen = []
    real = exercise_checks.expect

    def spy(what, actual, expected, likely=(), check="", cause=""):  # cause: the old name of check
        check = check or cause
        calls_seen.append((what, [why for _, why in likely], check))
        return real(what, actual, expected, likely, check)

    monkeypatch.setattr(exercise_checks, "expect", spy)
    exercise = exercise_format.load(name)
    report = exercise_runner.run(exercise, exercise.solution)
    assert report.passed and calls_seen
    causes = {why for _, whys, _ in calls_seen for why in whys}
    for what, _, check in calls_seen:
        assert not [why for why in causes if why in check], (what, check)


def test_tanh_from_the_input_gets_its_own_cause():
    exercise = exercise_format.load("local_pow_tanh_exp_relu")
    code = exercise.solution.replace("(1.0 - t * t,)", "(1.0 - self.data ** 2,)")
    messages = failing_messages(exercise_runner.run(exercise, code))
    assert any(m.startswith("tanh(x)._local with x = 0.5 is (0.75,), expected (0.786448,)") and "not the input x" in m
               for m in messages), messages


# --- The runner ------------------------------------------------------------------


def test_a_syntax_error_is_one_failed_result_with_its_line():
    report = exercise_runner.run("local_add_mul", "class Value:\n    def f(self)\n        pass\n")
    assert [(r.name, r.passed) for r in report.results] == [("your code runs", False)]
    assert report.results[0].message.startswith("SyntaxError on line 2 of your code")
    assert not report.tests_ran and exercise_runner.run("local_add_mul", "1 / 0\n").tests_ran is False
    assert not report.code_ran and exercise_runner.run("local_add_mul", "1 / 0\n").code_ran is True


def test_an_exception_names_the_line_of_the_readers_code():
    report = exercise_runner.run("local_add_mul", "x = 1\ny = 1 / 0\n")
    assert report.results[0].message == "ZeroDivisionError on line 2 of your code: division by zero"


def test_an_exception_inside_a_test_points_at_the_readers_line():
    code = exercise_format.load("chain_rule").solution.replace("parent.grad += local * node.grad",
                                                               "parent.grad += local / 0")
    messages = failing_messages(exercise_runner.run("chain_rule", code))
    assert messages and all(m.startswith("ZeroDivisionError on line 4 of your code") for m in messages)


def test_an_exception_without_a_message_is_named_and_explained_not_left_at_a_colon():
    report = exercise_runner.run("local_add_mul", "x = 1\nraise MemoryError\n")
    assert report.results[0].message == ("MemoryError on line 2 of your code: Python ran out of memory "
                                         "(something grew far too big)")
    report = exercise_runner.run("local_add_mul", "raise ValueError()\n")
    assert report.results[0].message == "ValueError on line 1 of your code"


def test_input_says_it_is_not_available_and_suggests_a_variable():
    report = exercise_runner.run("local_add_mul", "n = input('How many? ')\n")
    assert report.results[0].message == (
        "RuntimeError on line 1 of your code: input() is not available in the browser: Python here has no "
        "keyboard to read from. Put the value in a variable instead (for example x = 2.0 where you would "
        "type 2.0).")
    assert input.__module__ == "builtins", "input() is the real one again after the run"


def test_a_missing_name_says_which():
    report = exercise_runner.run("chain_rule", "def propagated(node):\n    pass\n")
    assert failing_messages(report)[0] == "your code defines no `propagate`: keep the name from the starter code"


def test_print_output_is_captured_not_printed(capsys):
    code = exercise_format.load("chain_rule").solution + "print('hello from the reader')\n"
    report = exercise_runner.run("chain_rule", code)
    assert report.passed and report.output == "hello from the reader\n"
    assert capsys.readouterr().out == ""


def test_the_page_calls_run_exercise_with_json_and_reads_json():
    args = {"exercise": "chain_rule", "code": exercise_format.load("chain_rule").solution}
    data = json.loads(calls.call_json("run_exercise", json.dumps(args)))["value"]
    assert set(data) == {"results", "output", "note", "tests_ran", "code_ran", "summary", "engine"}
    assert data["engine"] == "micrograd"
    assert data["tests_ran"] is True and data["code_ran"] is True
    assert data["results"] and all(set(r) == {"name", "passed", "message"} and r["passed"] for r in data["results"])


def test_expect_formats_numbers_tuples_and_blanks():
    with pytest.raises(exercise_checks.Fail, match=r"^x is 0.786448, expected 0.75. To check: the rule$"):
        exercise_checks.expect("x", 0.7864477329659274, 0.75, check="the rule")
    with pytest.raises(exercise_checks.Fail, match=r"^t is \(2.0, -3.0\), expected \(-3.0, 2.0\): swap$"):
        exercise_checks.expect("t", (2.0, -3.0), (-3.0, 2.0), likely=[((2.0, -3.0), "swap")], check="other")
    with pytest.raises(exercise_checks.Fail, match=r"^t is \(2.0, 3.0\), expected \(-3.0, 2.0\)$"):
        exercise_checks.expect("t", (2.0, 3.0), (-3.0, 2.0), likely=[((2.0, -3.0), "swap")])
    with pytest.raises(exercise_checks.Fail, match=r"fill in the blank"):
        exercise_checks.expect("t", (Ellipsis,), (1.0,))
    exercise_checks.expect("close enough", 0.1 + 0.2, 0.3)


# --- The file format -------------------------------------------------------------

GOOD = '''"""Title

Instructions.
"""

# ---- starter ----
def f():
    ...

# ---- solution ----
def f():
    return 1

# ---- tests ----
from scripts.reader.exercise_checks import expect


def test_f(user):
    """f returns 1"""
    expect("f()", user.f(), 1)

# ---- hints ----
# - Return one.

# ---- mistake: returns two ----
# message: f() is 2
# replace: return 1
# with: return 2
'''


def test_a_well_formed_file_parses():
    exercise = exercise_format.parse(GOOD, "demo", "docs/exercises/demo.py")
    assert (exercise.title, exercise.instructions, exercise.hints) == ("Title", "Instructions.", ["Return one."])
    assert exercise_runner.run(exercise, exercise.solution).passed
    assert exercise.mistakes[0].apply(exercise.solution) == "def f():\n    return 2\n"


@pytest.mark.parametrize("broken, error", [
    (GOOD.replace('"""Title\n\nInstructions.\n"""\n', ""), "must open with a docstring"),
    (GOOD.replace("# ---- solution ----\n", ""), "no `# ---- solution ----` section"),
    (GOOD.replace("# replace: return 1", "# replace: return 3"), "occur 0 times in the solution"),
    (GOOD.replace("# message: f() is 2\n", ""), "has no `# message:`"),
    (GOOD.replace("# - Return one.", "Return one."), "a hint line starts with"),
    (GOOD.replace("    return 1\n\n# ---- tests", "    return (1\n\n# ---- tests"), "the solution is not valid Python"),
])
def test_a_malformed_file_is_an_error_that_names_the_file(broken, error):
    with pytest.raises(exercise_format.ExerciseFormatError, match=re.escape(error)) as info:
        exercise_format.parse(broken, "demo", "docs/exercises/demo.py")
    assert "docs/exercises/demo.py" in str(info.value) or "mistake" in str(info.value)


def test_an_unknown_exercise_lists_the_known_ones():
    with pytest.raises(FileNotFoundError, match="chain_rule"):
        exercise_format.load("no_such_exercise")


# --- The exercise directive and the site's Python ------------------------------------


def exercise_outputs(tmp_path, text):
    """The outputs of the exercise directives of a page whose text is `text`, evaluated as
    the build evaluates them (scripts/pages/exercise_directive.py, through Sybil)."""
    from sybil import Document

    from scripts.pages.directives import Collector
    from scripts.pages.exercise_directive import ExerciseParser

    page = tmp_path / "04-engine.md"
    page.write_text(text, encoding="utf-8")
    collector = Collector("04-engine.md")
    for example in Document.parse(str(page), ExerciseParser(collector)):
        example.evaluate()
    return collector.outputs


def test_an_unknown_exercise_fails_with_page_and_line(tmp_path):
    from scripts.pages.directives import DirectiveError

    with pytest.raises(DirectiveError, match=r"04-engine.md:5: no exercise 'no_such_exercise'"):
        exercise_outputs(tmp_path, "# Title\n\nText.\n\n<!-- exercise: no_such_exercise -->\n")


def test_an_exercise_comment_with_more_on_its_line_is_an_error(tmp_path):
    """(A comment inside a sentence is no directive, of any kind: Sybil reads them at the
    start of a line; tests/pages/test_docs.py counts every page's examples.)"""
    from scripts.pages.directives import DirectiveError

    with pytest.raises(DirectiveError, match=r"04-engine.md:3: write an exercise as a line of its own"):
        exercise_outputs(tmp_path, "# T\n\n<!-- exercise: chain_rule --> and more.\n")


def test_the_exercise_becomes_a_heading_instructions_starter_and_folds(tmp_path):
    text = ("# Chapter\n\n## Section\n\n### Sub\n\n```python\n# not a heading\n```\n\n"
            "<!-- exercise: chain_rule -->\n\n<!-- exercise: backward -->\n")
    outputs = exercise_outputs(tmp_path, text)
    assert [(o.kind, o.line) for o in outputs] == [("exercise", 11), ("exercise", 13)]
    out = "\n\n".join(o.markdown for o in outputs)
    assert "<script" not in out  # widgets.js, on every page, loads exercise.js where one is
    listed = yaml_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]  # the site's Markdown
    extensions = [e if isinstance(e, str) else next(iter(e)) for e in listed]
    configs = {k: v or {} for e in listed if isinstance(e, dict) for k, v in e.items()}
    html = markdown.markdown(out, extensions=extensions, extension_configs=configs)
    chain = exercise_format.load("chain_rule")
    hashed = (f'data-starter-hash="{exercise_directive.starter_hash(chain)}" '
              f'data-version="{exercise_directive.version(chain)}"')  # a pass counts for this version
    assert f'<div class="exercise" data-exercise="chain_rule" {hashed}>' in html  # the runtime is the page's
    assert re.search(r'<h3 id="exercise-chain-rule">Exercise 1: One chain-rule step: '
                     r'<code>\+=</code>, not <code>=</code>', html)
    assert re.search(r'<h3 id="exercise-backward">Exercise 2: <code>backward\(\)</code>', html)
    starter = re.search(r'<div class="exercise-starter">\s*<div class="[^"]*highlight"><pre>.*?</pre>',
                        html, re.S).group()
    assert re.sub(r"<[^>]+>", "", starter).replace("&quot;", '"').strip() == chain.starter.strip()
    assert '<summary>Hints</summary>' in html and '<summary>Solution</summary>' in html


def test_a_page_names_its_python_runtime_relative_to_itself():
    from scripts.build.site_assets import package_version, pyodide_bytes
    from scripts.build.site_python import runtime_attributes

    version = package_version("pyodide")
    attributes = runtime_attributes("04-engine/", b"zip bytes")
    assert f'data-runtime="../assets/pyodide/{version}/"' in attributes
    assert re.search(r'data-python="../assets/python/site-python.zip\?v=[0-9a-f]{12}"', attributes)
    assert f'data-runtime-bytes="{pyodide_bytes()}"' in attributes and pyodide_bytes() > 10_000_000


def test_the_site_python_zip_is_deterministic_and_self_contained(tmp_path):
    first, second = site_python.python_zip(), site_python.python_zip()
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        names = archive.namelist()
        assert names == sorted(set(names))  # sorted, and no name twice
        assert any(name.startswith("graphviz/LICENSE") for name in names)
        assert {"micrograd/engine.py", "micrograd/nn.py", "scripts/reader/exercise_runner.py",
                "docs/exercises/chain_rule.py"} <= set(names)
        assert {info.date_time for info in archive.infolist()} == {site_python.ZIP_TIME}
        archive.extractall(tmp_path)
    # A fresh, isolated Python sees only the zip's files, as Pyodide does.
    check = ("import json, sys; sys.path.insert(0, '.')\n"
             "from scripts.reader import calls, exercise_format\n"
             "for name in exercise_format.names():\n"
             "    args = {'exercise': name, 'code': exercise_format.load(name).solution}\n"
             "    report = json.loads(calls.call_json('run_exercise', json.dumps(args)))['value']\n"
             "    assert all(r['passed'] for r in report['results']), name\n"
             "print(len(exercise_format.names()))\n")
    result = subprocess.run([sys.executable, "-I", "-c", check], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) == len(NAMES)


def test_the_editor_bundle_is_codemirror_6_in_one_file():
    bundle = editor_bundle(ROOT / "docs" / "javascripts" / "editor" / "editor.js")
    assert bundle.startswith("/* The exercise editor: CodeMirror 6")
    assert "export{" in bundle
    assert not re.search(r'(from|import)\s*"(@|\.|/)', bundle), "a bare import was left: the bundle must be one file"


def test_front_end_packages_are_pinned_exactly():
    package = json.loads((ROOT / "package.json").read_text())["dependencies"]
    for name in ["pyodide", "codemirror", "@codemirror/state", "@codemirror/view", "@codemirror/commands",
                 "@codemirror/language", "@codemirror/lang-python", "@lezer/highlight", "esbuild"]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", package[name]), f"{name} {package[name]} is not an exact version"
    # The registry's `latest` codemirror is a CodeMirror 5 build; the installed one must be 6.
    installed = json.loads((ROOT / "node_modules" / "codemirror" / "package.json").read_text())
    assert installed["version"] == package["codemirror"] and installed["version"].startswith("6.")
    pyodide = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())
    assert pyodide["version"] == package["pyodide"]


def test_a_snippet_section_marker_is_not_part_of_the_code():
    """Chapter 4 includes the whole_engine solution with pymdownx.snippets' section markers
    (`# --8<-- [start:engine]`); the reader's fold and the tests get the code without them."""
    raw = (ROOT / "docs" / "exercises" / "whole_engine.py").read_text(encoding="utf-8")
    assert "# --8<-- [start:engine]" in raw and "# --8<-- [end:engine]" in raw
    solution = exercise_format.load("whole_engine").solution
    assert "--8<--" not in solution and solution.startswith("import math\n")

"""Issue 45 item 4: a number the reader is told to take (a chosen input: `a = 2`, the 32 of
`count_parameters(2, [32, 32, 1])`) links to the line of code that sets it, and its box says "Set
here", never a result printed later; a recap's names link to where the chapter computed them; at
least 10 linked numbers in every chapter; and the box opens in place by click, keyboard and tap
(scripts/pages/number_sources.py: set_source, docs/javascripts/widgets/number-source.js)."""

import html
import json
import re

import pytest

from scripts import ROOT
from scripts.build.page_build import number_sources
from scripts.pages.number_sources import describe, sources
from tests.pages.test_number_sources import DESKTOP, PHONE, QUIZ, open_chapter, outcome, source_of

CHOSEN = '''# A page

Take $a = 2$ and $b = -3$.

```python
>>> a = Value(2.0, label="a")
>>> b = Value(-3.0, label="b")
>>> (a * b).data, a.data
(-6.0, 2.0)
```

A layer of 32 neurons gives 32 outputs, and $a = 2$ still.

```python
>>> layer(2, [32, 32, 1])
32
```
'''


def test_a_chosen_input_links_to_where_it_is_set_not_to_a_printed_result():
    """Issue 45: a number the reader is told to take (`a = 2`) is set by the code, not printed by
    it: its source is the line that sets it, said so, even where a later output prints it too."""
    found, by = source_of(CHOSEN)
    assert not found.problems, found.problems
    a, b = by[(3, "2")], by[(3, "3")]
    assert a.kind == b.kind == "set" and a.block == b.block == 1
    assert a.code == 'a = Value(2.0, label="a")' and b.code == 'b = Value(-3.0, label="b")'
    assert describe(a)["label"] == "Set here, in block 1 (a chosen input)"
    assert describe(a)["href"] == "#block-1"
    assert by[(12, "2")].kind == "set" and by[(12, "2")].block == 1  # a recap: the set above it
    # "32 neurons" is the literal the next block passes; "32 outputs" is the result it prints
    assert [(n.start, shown.kind, shown.code) for n, shown in found.numbers if n.text == "32"] == [
        (CHOSEN.index("32 neurons"), "set", "layer(2, [32, 32, 1])"),
        (CHOSEN.index("32 outputs"), "printed", "layer(2, [32, 32, 1])")]


@pytest.mark.parametrize("prose, code", [
    ("That is $(-3) \\cdot (-2) = 6$.", ">>> round(a * 2.0, 6)\n4.0"),  # arithmetic's result; round's digits
    ("Every gradient is 3 times too large.", ">>> for step in range(3):\n...     pass"),  # after [3.0]
])
def test_a_literal_is_no_source_for_a_result(prose, code):
    """Chapter 3's (-3)·(-2) = 6 once cited round(..., 6), chapter 7's "3 times too large" (printed
    just above as [3.0]) the range(3) of the fix: a literal of the next block is a chosen input
    only where the number is not a result."""
    text = f"# P\n\n```python\n>>> a = 2.0\n>>> [3.0, 6.0]\n[3.0, 6.0]\n```\n\n{prose}\n\n```python\n{code}\n```\n"
    found = sources(text, "docs/page.md")
    assert not any(shown.kind == "set" for _, shown in found.numbers), found.numbers


def test_a_list_of_literals_sets_each_of_them():
    """Chapter 13's "hidden layers of 4 to 32 neurons" before `widths = [4, 8, 16, 32]`."""
    text = "# P\n\nFor layers of 4 to 32 neurons:\n\n```python\nwidths = [4, 8, 16, 32]\n```\n"
    found, by = source_of(text)
    assert [(n.text, s.kind, s.code) for n, s in found.numbers] == [
        ("4", "set", "widths = [4, 8, 16, 32]"), ("32", "set", "widths = [4, 8, 16, 32]")]


def test_a_set_is_no_source_for_another_name_a_result_or_a_folded_answer():
    # the same value set as `a` is not "sends 3 to the inner node" (a gradient), nor a 0, 1 or 2
    text = ('# P\n\n```python\n>>> a = Value(3.0, label="a")\n>>> a.data * 3, a.data\n(9.0, 3.0)\n```\n\n'
            'It sends 9 to `a`, and 3 to the inner node.\n')
    assert outcome(text, "3")[1].kind == "printed"  # what the code printed, not where `a` is set
    assert outcome(text, "9")[1].kind == "printed"
    # a number in the question cites no set inside the answer's fold; inside the fold it does
    found, by = source_of(QUIZ)
    assert (4, "13") not in by and by[(7, "39")].kind == "printed"


RECAP = '''# A page

## Build

```python
>>> f = 2.5 * 4
>>> f
10.0
```

??? success "Answer"
    ```python
    >>> f * 2
    20.0
    ```

## Recap

- It gives $f = 10$.
'''


def test_a_recaps_name_takes_the_first_place_that_showed_it():
    """A recap restates what sections above computed (chapter 1's f = -10): a name there takes the
    first place of the page that showed it, never a quiz's folded answer; elsewhere it stays in
    its own section."""
    found, by = source_of(RECAP)
    assert by[(19, "10")].kind == "printed" and by[(19, "10")].code == "f"
    assert outcome(RECAP.replace("## Recap", "## More"), "10", 19)[0] == "plain"
    # a value the recap's prose names (chapter 4's "`a.grad` is 15") takes the place shown as that
    # name; an unnamed one, or one named otherwise, stays plain
    # name; an unnamed one, or one named otherwise, stays plain, and so does all of it elsewhere:
    # a 10 that two places print (f and g) is no value's in running text without the name
    other = "## Other\n\n```python\n>>> g = 5.0 * 2\n>>> g\n10.0\n```\n\n## Recap"
    named = RECAP.replace("- It gives $f = 10$.\n", "").replace("## Recap", other)
    named += "- Then `f` is 10.\n- Then `h` is 10.\n- Then 10.\n"
    assert outcome(named, "10", 27)[1].code == "f"
    assert outcome(named, "10", 28)[0] == outcome(named, "10", 29)[0] == "plain"
    assert outcome(named.replace("## Recap", "## Later"), "10", 27)[0] == "plain"


@pytest.mark.parametrize("chapter", [page.stem for page in sorted((ROOT / "docs").glob("[01][0-9]-*.md"))])
def test_every_chapter_links_at_least_10_of_its_prose_numbers(fresh_run, chapter):
    """Issue 45 item 4: at least 10 linked numbers in every chapter that has prose numbers, its
    recap included (chapter 1's a = 2, b = -3 and c = 10 are set by its first block)."""
    page = ROOT / "docs" / f"{chapter}.md"
    found = number_sources(page, fresh_run(page))
    assert not found.problems
    total = len(found.numbers) + len(found.withheld)
    assert len(found.numbers) >= 10, f"{chapter}: {len(found.numbers)} linked of {total}"
    if chapter == "01-computational-graphs":
        text = page.read_text(encoding="utf-8")
        recap = text.index("## Recap") if "## Recap" in text else text.rindex("\n## ")
        linked = {(n.text, shown.code) for n, shown in found.numbers if n.start > recap}
        assert {("2", 'a = Value(2.0, label="a")'), ("3", 'b = Value(-3.0, label="b")'),
                ("10", 'c = Value(10.0, label="c")'), ("10", "draw_dot(f)")} <= linked
        assert "f | data -10.0000" in {shown.text for n, shown in found.numbers if n.start > recap}
    if chapter == "04-engine":  # "`a.grad` is 6 ... `a_wrong.grad` at 3 ... 15 ... `a` with 9"
        text = page.read_text(encoding="utf-8")
        recap = text.index("## Recap")
        linked = [(n.text, shown.code) for n, shown in found.numbers if n.start > recap]
        assert linked == [("3", 'a = Value(3.0, label="a")'), ("6", "a.grad"), ("3", "a_wrong.grad"),
                          ("15", "a.grad"), ("9", linked[-1][1])] and "visit([node])" in linked[-1][1]


def recap_input(page):
    """Chapter 1's recap's $a = 2$: a chosen input, set by the chapter's first block."""
    index = page.evaluate("""() => [...document.querySelectorAll('a.bv-number')].findIndex((a) => {
        const s = JSON.parse(a.dataset.bvSource);
        return s[0].kind === 'set' && s[0].number === '2' && a.closest('li') !== null; })""")
    link = page.locator("a.bv-number").nth(index)
    return link, json.loads(link.get_attribute("data-bv-source"))[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_chosen_inputs_source_says_set_here_by_click_keyboard_and_tap(browser, origin, scheme):
    """Issue 45 item 4: the recap's a = 2 opens in place where the reader is, says it is set
    (not printed) there, and its link goes on to that block; by click and keyboard at 1280 px,
    by tap at 390 px."""
    context, page, errors = open_chapter(browser, origin, viewport=DESKTOP, color_scheme=scheme)
    page.goto(f"{origin}/01-computational-graphs/")
    link, source = recap_input(page)
    assert source["label"] == "Set here, in block 1 (a chosen input)" and source["href"] == "#block-1"
    box = page.locator(".bv-number-pop")
    link.click()
    box.wait_for(state="visible")
    assert page.url.endswith("/01-computational-graphs/")  # in place: the reader keeps their place
    text = " ".join(box.inner_text().split())
    assert text.startswith('Set here, in block 1 (a chosen input): a = Value(2.0, label="a")'), text
    assert "printed" not in text and "→" not in text
    go = box.get_by_role("link", name="Go to block 1")
    assert go.get_attribute("href").endswith("#block-1")
    page.keyboard.press("Escape")
    box.wait_for(state="hidden")
    page.keyboard.press("Shift+Tab")  # the keyboard: Tab to the number shows its source,
    page.keyboard.press("Tab")  # its description says it, Enter goes on to the block
    box.wait_for(state="visible")
    assert link.evaluate("(a) => a === document.activeElement")
    description = page.evaluate("(a) => document.getElementById(a.getAttribute('aria-describedby')).textContent",
                                link.element_handle())
    assert description.startswith("Source: Set here, in block 1 (a chosen input): a = Value(2.0"), description
    page.keyboard.press("Enter")
    page.wait_for_url("**/01-computational-graphs/#block-1")
    assert not errors, errors
    context.close()

    context, page, errors = open_chapter(browser, origin, viewport=PHONE, color_scheme=scheme,
                                         has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(f"{origin}/01-computational-graphs/")
    link, _ = recap_input(page)
    link.scroll_into_view_if_needed()
    box = page.locator(".bv-number-pop")
    link.tap()
    box.wait_for(state="visible")
    assert page.url.endswith("/01-computational-graphs/") and "Set here, in block 1" in box.inner_text()
    rect = box.bounding_box()
    assert rect["x"] >= 0 and rect["x"] + rect["width"] <= PHONE["width"]
    box.get_by_role("link", name="Go to block 1").tap()
    page.wait_for_url("**/01-computational-graphs/#block-1")
    assert not errors, errors
    context.close()


def test_the_two_stretched_sources_now_say_where_the_input_is_set(fresh_run):
    """Issue 45: chapter 2's quiz on z = a·a·b linked a and b to the figure of a·b + a, and chapter
    5's "32" to an output line where 32 is an input. Both are chosen inputs: they link to the
    line that sets them (the quiz reads the a and b of that line)."""
    page = ROOT / "docs" / "02-chain-rule.md"
    text = page.read_text(encoding="utf-8")
    quiz = text.index("Let $a = 2$, $b = -3$ and $z = a \\cdot a \\cdot b$")
    found = number_sources(page, fresh_run(page))
    on_quiz = [(n.text, s.kind, s.code) for n, s in found.numbers if quiz <= n.start < quiz + 30]
    assert on_quiz == [("2", "set", 'a = Value(2.0, label="a")'), ("3", "set", 'b = Value(-3.0, label="b")')]
    page = ROOT / "docs" / "05-neurons-layers-networks.md"
    text = page.read_text(encoding="utf-8")
    at = text.index("hidden layers to 32") + len("hidden layers to ")
    found = number_sources(page, fresh_run(page))
    (source,) = [s for n, s in found.numbers if n.start == at]
    assert source.kind == "set" and source.code == "count_parameters(2, [32, 32, 1])"


def test_chapter_10s_100_points_is_set_by_range_100(site):
    """Chapter 10's "100 points" once cited a bound on a speed-up, and was made plain text: the
    100 is the range(100) that builds the points."""
    under = (site / "10-under-the-hood" / "index.html").read_text(encoding="utf-8")
    hundred = re.search(r'MLP\(2, \[16, 16, 1\]\)</code>,\s*<a class="bv-number" href="[^"]*" '
                        r'data-bv-source="([^"]*)">100</a>', under)
    (source,) = json.loads(html.unescape(hundred[1]))
    assert source["kind"] == "set" and "range(100)" in source["code"], source

"""What each chapter must hold, read from its source and from the built site: a length a
learner can finish (under 3,500 words, as `wc -w` counts them, Sybil's skip directives and the
claims' expressions left out: the reader never reads them as prose), figures no taller than a
screen, a "Sources" line, a quiz in every "Check yourself", and the
widgets each chapter is promised; and, in Debian's Chromium, the text around chapter 4's
engine and chapter 1's count of nodes as a reader sees them (issue 16)."""

import re
import urllib.request

import pytest
from mkdocs.utils.yaml import yaml_load

from scripts import ROOT
from scripts.pages.figures import PHONE_COLUMN
from scripts.reader import exercise_format
from tests.helpers import CHAPTERS

DOCS = ROOT / "docs"
NOTEBOOK = DOCS / "06-training.py"
MAX_WORDS = 3500
SCREEN_PX = 800  # a 1280 x 800 screen
PHONE_SCREEN_PX = 844  # a 390 x 844 phone
WIDGETS = {  # chapter -> directives it must have, at least
    "01-computational-graphs.md": {"stepper": 1},
    "03-backprop-by-hand.md": {"stepper": 1},
    "04-engine.md": {"stepper": 1, "visit-order": 1, "exercise": 7},
}


# skip: for pytest and Run only, never rendered; claim: an expression that checks the sentence
# before it, shown only when the reader opens the sentence's mark
SKIP_DIRECTIVE = re.compile(r"<!-- (?:skip|claim):.*?-->", re.DOTALL)


def words(path):
    return len(SKIP_DIRECTIVE.sub("", path.read_text(encoding="utf-8")).split())  # what `wc -w` counts


@pytest.mark.parametrize("page", [*CHAPTERS, NOTEBOOK], ids=lambda p: p.name)
def test_a_chapter_is_under_3500_words(page):
    assert words(page) < MAX_WORDS, f"{page.name}: {words(page)} words"


@pytest.mark.parametrize("page", [*CHAPTERS, NOTEBOOK], ids=lambda p: p.name)
def test_a_chapter_names_its_sources(page):
    text = page.read_text(encoding="utf-8")
    assert re.search(r"^(# )?\*\*Sources\*\*: .*https?://", text, re.MULTILINE), page.name


def questions(text):
    """What each "Check yourself" of a page asks, in order: its text up to its Answer."""
    asked = []
    for question in re.split(r"Check yourself", text)[1:]:
        answer = re.search(r"Answer|<details", question)
        asked.append(question[: answer.start()] if answer else question)
    return asked


@pytest.mark.parametrize("page", [*CHAPTERS, NOTEBOOK], ids=lambda p: p.name)
def test_every_check_yourself_has_a_quiz_and_a_chapter_has_three(page):
    text = page.read_text(encoding="utf-8")
    assert questions(text), page.name
    for number, asked in enumerate(questions(text), start=1):
        assert "<!-- quiz:" in asked, f"{page.name}: Check yourself no. {number} has no quiz"
    assert text.count("<!-- quiz:") >= 3, page.name


@pytest.mark.parametrize("page", [*CHAPTERS, NOTEBOOK], ids=lambda p: p.name)
def test_a_question_with_two_answer_boxes_names_each(page):
    """Two boxes both called "Your answer" left a learner guessing which part goes where, and a
    screen reader says the same name twice: each gets its own label= (scripts/pages/quizzes.py)."""
    for number, asked in enumerate(questions(page.read_text(encoding="utf-8")), start=1):
        quizzes = re.findall(r"<!-- quiz:.*?-->", asked, re.DOTALL)
        if len(quizzes) > 1:
            labels = [re.search(r'label="([^"]+)"', quiz) for quiz in quizzes]
            assert all(labels), f"{page.name}: Check yourself no. {number} has a box without label="
            assert len({label[1] for label in labels}) == len(labels), f"{page.name}: no. {number}"


@pytest.mark.parametrize("page, promised", WIDGETS.items())
def test_a_chapter_has_the_widgets_it_promises(page, promised):
    text = (DOCS / page).read_text(encoding="utf-8")
    for kind, count in promised.items():
        assert text.count(f"<!-- {kind}:") >= count, (page, kind)


def test_the_navigation_lists_every_chapter_in_order_under_its_number():
    """Every chapter is in the navigation, in the order of its number, its title starting with
    that number: a new chapter cannot be left out of the book's order (issue 46)."""
    nav = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]  # MkDocs reads its !ENV tags
    listed = [next(iter(entry.items())) for entry in nav]
    chapters = [(title, page) for title, page in listed if page[:2].isdigit()]
    assert [page[:2] for _, page in chapters] == sorted(page[:2] for _, page in chapters)
    assert all(title.startswith(f"{int(page[:2])}. ") for title, page in chapters), chapters
    assert {page.replace(".ipynb", ".py") for _, page in chapters} == {p.name for p in [*CHAPTERS, NOTEBOOK]}


@pytest.mark.parametrize("page", CHAPTERS, ids=lambda p: p.name)
def test_no_figure_is_taller_than_a_screen(site, page):
    """A figure is shown at most at the size its <img> gives (scripts/pages/figures.py: its
    SVG's, 1 pt = 96/72 CSS px, or scaled down to a window's height), scaled down to fit its
    column, never up (docs/stylesheets/figures.css): on a 1280 x 800 screen its height is at
    most the <img>'s height; on a 390 x 844 phone it is its <source>'s (shown up to 44.9375em),
    else the <img>'s, scaled into the 358 px column."""
    built = (site / page.stem / "index.html").read_text(encoding="utf-8")
    pictures = re.findall(r"<picture>(.*?)</picture>", built, re.DOTALL)
    assert len(pictures) == len([p for p in (site / page.stem).glob("figure-*.svg") if not p.stem.endswith("-narrow")])
    too_tall = []
    for picture in pictures:
        img = re.search(r'<img [^>]*?src="([^"]+)"[^>]*? width="(\d+)" height="(\d+)"', picture)
        phone = re.search(r'<source [^>]*?srcset="([^"]+)" width="(\d+)" height="(\d+)"', picture) or img
        if int(img[3]) > SCREEN_PX:
            too_tall.append(f"{img[1]}: {img[3]} px tall")
        on_phone = int(phone[3]) * min(1, PHONE_COLUMN / int(phone[2]))
        if on_phone > PHONE_SCREEN_PX:
            too_tall.append(f"{phone[1]}: {on_phone:.0f} px tall on a phone")
    assert not too_tall, f"{page.name}: {too_tall}"


# --- The text around the engine (issue 16) ---------------------------------------------


def test_chapter_4_shows_first_the_engine_the_reader_wrote_then_how_micrograd_differs(chromium, origin):
    """Issue 16: "the whole engine" listed micrograd/engine.py with support.py's helpers,
    __reduce__ and deque(maxlen=0), far from the home page's "short enough to print on one
    page". It shows the whole_engine exercise's tested solution, then how engine.py differs,
    pointing to chapter 10, with engine.py itself folded."""
    page = chromium.new_page()
    page.goto(f"{origin}/04-engine/", wait_until="load")
    section = page.evaluate("""() => {
        const out = [];
        for (let node = document.getElementById('the-whole-engine').nextElementSibling;
             node && node.tagName !== 'H2'; node = node.nextElementSibling) {
            if (node.matches('.exercise, [class^="bv-run"]')) continue;  // the exercise; Run's bar and output
            const code = node.matches('div.highlight') ? node.querySelector('code').textContent : null;
            out.push([node.tagName, code, node.textContent.trim(), node.matches('details') && !node.open,
                      [...node.querySelectorAll('a')].map(a => a.getAttribute('href'))]);
        }
        return out;
    }""")
    home = urllib.request.urlopen(f"{origin}/").read().decode()
    page.close()
    codes = [(i, code) for i, (_, code, _, _, _) in enumerate(section) if code is not None]
    first_at, first = codes[0]
    assert first.strip() == exercise_format.load("whole_engine").solution.strip()
    assert "__reduce__" not in first and "deque" not in first and len(first.splitlines()) < 80
    differs = next(row for row in section[first_at + 1:] if row[0] == "P")
    assert differs[2].startswith("micrograd/engine.py computes the same gradients")
    assert any(href.endswith("/10-under-the-hood/") for href in differs[4])  # made absolute by Material
    folded = next(row for row in section[first_at + 1:] if row[0] == "DETAILS")
    assert folded[3] and "def backward_steps" in folded[2], "engine.py itself, folded"
    assert "short enough to print on one page" in home


def test_chapter_4_explains_three_backward_calls_where_it_shows_them(chromium, origin):
    """Issue 16: [10.0, 6.0, 6.0] after three backward() calls was not explained there."""
    page = chromium.new_page()
    page.goto(f"{origin}/04-engine/", wait_until="load")
    after = page.evaluate("""() => {
        const code = [...document.querySelectorAll('div.highlight')]
            .find(block => block.textContent.includes('[10.0, 6.0, 6.0]'));
        let node = code.nextElementSibling;
        while (node && !(node.tagName === 'P' && !node.className)) node = node.nextElementSibling;  // not Run's
        return node?.innerText;  // as read: a number's source (number-source.js) is not in the line
    }""")
    page.close()
    assert after and "ends at 10 times" in after and "One + deeper" in after and "1, 2, 3" in after, after


def test_chapter_1_says_its_61_nodes_count_the_constants(chromium, origin):
    """Issue 16: "61 nodes" counted the constant nodes without saying so."""
    page = chromium.new_page()
    page.goto(f"{origin}/01-computational-graphs/", wait_until="load")
    text = page.locator("p", has_text="A million paths run through").inner_text()  # 61 is a link to its source
    page.close()
    assert "A million paths run through 61 nodes" in text
    assert "the constant 2 (a node too), a product and a sum" in text

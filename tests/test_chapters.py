"""What each chapter must hold, read from its source and from the built site: a length a
learner can finish (under 3,500 words, as `wc -w` counts them, Sybil's skip directives left
out: they are never shown), figures no taller than a
screen, a "Sources" line, a quiz in every "Check yourself", and the
widgets each chapter is promised."""

import re

import pytest
from mkdocs.utils.yaml import yaml_load

from scripts import ROOT
from tests.test_site import CHAPTERS

DOCS = ROOT / "docs"
NOTEBOOK = DOCS / "06-training.py"
MAX_WORDS = 3500
SCREEN_PX = 800  # a 1280 x 800 screen
WIDGETS = {  # chapter -> directives it must have, at least
    "01-computational-graphs.md": {"stepper": 1},
    "03-backprop-by-hand.md": {"stepper": 1},
    "04-engine.md": {"stepper": 1, "visit-order": 1, "exercise": 7},
}


SKIP_DIRECTIVE = re.compile(r"<!-- skip:.*?-->")  # for pytest and Run only: never rendered


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


def test_the_last_chapter_is_under_the_hood():
    nav = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]  # MkDocs reads its !ENV tags
    title, page = next(iter(nav[-1].items()))
    assert "Under the hood" in title and (DOCS / page).exists()


@pytest.mark.parametrize("page", CHAPTERS, ids=lambda p: p.name)
def test_no_figure_is_taller_than_a_screen(site, page):
    """A figure is shown at the size Graphviz drew it (1 pt = 96/72 CSS px, never scaled to the
    column: docs/stylesheets/extra.css), so its height on screen is its SVG's height."""
    too_tall = []
    for svg in sorted((site / page.stem).glob("figure-*.svg")):
        head = svg.read_text(encoding="utf-8")[:3000]
        size = re.search(r'<svg[^>]*?width="([\d.]+)(pt|px)?"[^>]*?height="([\d.]+)(pt|px)?"', head, re.DOTALL)
        scale = 96 / 72 if size[2] == "pt" else 1
        shown = float(size[3]) * scale
        if shown > SCREEN_PX:
            too_tall.append(f"{svg.name}: {shown:.0f} px tall")
    assert not too_tall, f"{page.name}: {too_tall}"

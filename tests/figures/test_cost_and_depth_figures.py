"""Chapters 13 (what reverse mode costs) and 14 (deep networks), issue 46: their plots read at
11 px or more on a phone and on a desktop, the timing plot states the ratio the page measured,
the depth plot draws every setting the page computes, and their quizzes answer in Chromium
as a reader answers them, by keyboard too, on a 390 px phone."""

import re
import xml.etree.ElementTree as ET

import pytest

from scripts.pages.figures import DESKTOP_COLUMN, PHONE_COLUMN, READABLE_PX, text_px

PAGES = ["13-what-reverse-mode-costs", "14-deep-networks"]
SVG = "{http://www.w3.org/2000/svg}"


def smallest_text_px(svg, column):
    """CSS px of the smallest text of a figure's SVG shown `column` px wide at most, never blown
    up: a Graphviz SVG by scripts.pages.figures.text_px, a matplotlib one (svg.fonttype none: a
    font size in a style per text, in the SVG's user units) here."""
    if 'font-size="' in svg:  # Graphviz
        return text_px(svg, column)
    root = ET.fromstring(svg)
    width_px = float(re.match(r"[\d.]+", root.get("width"))[0]) * 4 / 3  # matplotlib writes pt
    units = float(root.get("viewBox").split()[2])
    sizes = [float(m) for element in root.iter() if element.tag in (f"{SVG}text", f"{SVG}tspan")
             for m in re.findall(r"font(?:-size)?:\D*?([\d.]+)px", element.get("style", ""))]
    assert sizes, "no text with a font size"
    return min(sizes) * min(width_px, column) / units


@pytest.mark.parametrize("page", PAGES)
def test_every_plot_reads_at_11_px_on_a_phone_and_a_desktop(site, page):
    figures = sorted((site / page).glob("figure-*.svg"))
    assert len([f for f in figures if not f.stem.endswith("-narrow")]) == 3
    for figure in figures:
        if figure.stem.endswith("-narrow"):
            continue
        narrow = figure.with_name(f"{figure.stem}-narrow.svg")  # what a phone gets, if any
        phone = (narrow if narrow.exists() else figure).read_text(encoding="utf-8")
        assert smallest_text_px(phone, PHONE_COLUMN) >= READABLE_PX, (figure.name, "phone")
        assert smallest_text_px(figure.read_text(encoding="utf-8"), DESKTOP_COLUMN) >= READABLE_PX, figure.name


def test_the_timing_plot_states_the_ratios_the_page_asserts(site):
    """The ratio is measured at build time: the plot says it, the prose bounds it (0.2 to 4)."""
    svg = (site / "13-what-reverse-mode-costs" / "figure-1.svg").read_text(encoding="utf-8")
    texts = ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]
    ratios = [float(m[1]) for text in texts if (m := re.fullmatch(r"backward, ([\d.]+)×", text))]
    forwards = [text for text in texts if re.fullmatch(r"forward [\d.]+ (µs|ms)", text)]
    assert len(ratios) == 2 and all(0.2 < r < 4 for r in ratios), texts
    assert len(forwards) == 2, texts


def test_the_depth_plot_draws_five_settings_of_20_layers(site):
    svg = (site / "14-deep-networks" / "figure-3.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    lines = [g for g in root.iter(f"{SVG}g") if re.fullmatch(r"line2d_\d+", g.get("id", ""))
             and g.find(f"{SVG}path") is not None
             and len(re.findall(r"[ML] ", g.find(f"{SVG}path").get("d", ""))) == 20]
    assert len(lines) == 5  # tanh: three ranges; ReLU: two
    legend = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    assert {"[−1, 1]", "[−0.1, 0.1]", "fan-in, ±√(3/n)", "fan-in, ±√(6/n)"} <= legend, legend


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("path, answer, wrong", [
    ("14-deep-networks", "0.0199", "0.99"),  # a saturated tanh passes back 1 - 0.99²
    ("13-what-reverse-mode-costs", "460,046", "69018"),  # edges of the wider network's step
])
def test_a_number_quiz_of_the_new_chapters_answers_on_a_phone(chromium, origin, path, answer, wrong):
    page = chromium.new_page(viewport=PHONE)
    page.goto(f"{origin}/{path}/")
    quiz = page.locator('.bv-quiz[data-quiz="number"]').first
    quiz.scroll_into_view_if_needed()
    quiz.wait_for(state="visible")
    box = quiz.get_by_label("Your answer")
    box.fill(wrong)
    box.press("Enter")  # the keyboard alone
    assert quiz.get_attribute("data-state") == "wrong"
    box.fill(answer)
    box.press("Enter")
    assert quiz.get_attribute("data-state") == "right"
    page.close()


@pytest.mark.parametrize("path", PAGES)
def test_every_choice_quiz_of_the_new_chapters_says_right_or_wrong(chromium, origin, path):
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{origin}/{path}/")
    quizzes = page.locator('.bv-quiz[data-quiz="choice"]')
    quizzes.first.wait_for(state="visible")
    assert quizzes.count() >= 1
    for k in range(quizzes.count()):
        quiz = quizzes.nth(k)
        key = int(quiz.get_attribute("data-key"))
        options = quiz.locator("input[type=radio]")
        options.nth((key + 1) % options.count()).check()
        quiz.get_by_role("button", name="Check").click()
        assert quiz.get_attribute("data-state") == "wrong"
        options.nth(key).check()
        quiz.get_by_role("button", name="Check").click()
        assert quiz.get_attribute("data-state") == "right"
    page.close()

"""The reader's progress (docs/javascripts/progress.js, scripts/build/progress.py), in Debian's
Chromium on the built site: each chapter's checks done out of its total, on the page and in
the navigation, kept in the browser, complete, cleared and undone. Issue 16: "nothing says
how far a reader has got".

Checks are recorded from "bv-check" events (quiz.js and exercise.js dispatch them); these
tests dispatch them as quiz.js does. tests/exercises/test_exercises_browser.py checks that a passed
exercise counts.
"""

import json
import re

import pytest

from scripts import ROOT
from scripts.build import progress
from tests.helpers import foreign, recorded, report_shot

CHECK = """([kind, id, version]) => document.dispatchEvent(new CustomEvent("bv-check",
    { detail: { kind, id, passed: true, version } }))"""


@pytest.fixture(scope="module")
def totals(site):
    return json.loads((site / progress.TOTALS).read_text(encoding="utf-8"))["pages"]


def test_the_totals_are_the_quizzes_and_exercises_each_chapter_shows(site, totals):
    """Every chapter with a quiz or an exercise is listed, with the ids the built page shows."""
    chapters = sorted(p.parent.name + "/" for p in site.glob("[0-9][0-9]-*/index.html"))
    found = {}
    for name in chapters:
        html = (site / name / "index.html").read_text(encoding="utf-8")
        quizzes = re.findall(r'id="(quiz-[0-9a-f]{10})-box"', html)
        versions = dict(re.findall(r'<div class="exercise" data-exercise="([a-z0-9_]+)" '
                                   r'data-starter-hash="[0-9a-f]+" data-version="([0-9a-f]{16})"', html))
        if quizzes or versions:
            found[name] = {"quizzes": quizzes, "exercises": list(versions), "versions": versions}
    assert totals == found
    assert "06-training/" in totals, "the notebook chapter's quizzes count too"
    assert totals["04-engine/"]["exercises"][:1] == ["local_add_mul"]


def progress_page(browser, origin, path):
    """The page at `path`, 1280 px wide, its requests recorded, once the navigation's badges show."""
    page = recorded(browser.new_page(viewport={"width": 1280, "height": 900}))
    page.goto(f"{origin}/{path}", wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    return page


def on_page(page):
    return page.evaluate("""() => {
        const box = document.querySelector('.bv-progress');
        return box && [box.querySelector('.bv-progress__text').textContent,
                       box.querySelector('progress').value, box.querySelector('progress').max,
                       box.classList.contains('is-complete')];
    }""")


def in_nav(page, name):
    """The nav entry of chapter `name` ("02-chain-rule/"): its badge's shown and spoken text."""
    return page.evaluate("""name => {
        const link = [...document.querySelectorAll('.md-nav--primary > .md-nav__list > .md-nav__item > a')]
            .find(a => a.getAttribute('href').replace(/^\\.\\.\\//, '').replace(/^\\.\\//, '') === name
                       || new URL(a.href).pathname.endsWith('/' + name));
        const badge = link?.querySelector('.bv-progress-badge');
        return badge && [badge.querySelector('[aria-hidden]').textContent,
                         link.textContent.replace(/\\s+/g, ' ').trim(), badge.classList.contains('is-complete')];
    }""", name)


def detail(chapter, quizzes=0, exercises=0):
    """The box's "(… quizzes answered right, … exercises passed)" for `chapter` (its totals), with
    the parts the page has: a chapter with exercises names them too (progress.js: showOnPage)."""
    parts = [f"{quizzes} of {len(chapter['quizzes'])} quizzes answered right"]
    if chapter["exercises"]:
        parts.append(f"{exercises} of {len(chapter['exercises'])} exercises passed")
    return f"({', '.join(parts)})"


def test_a_chapters_progress_shows_on_the_page_and_in_the_nav_is_kept_and_completes(browser, origin, totals):
    page = progress_page(browser, origin, "02-chain-rule/")
    chapter = totals["02-chain-rule/"]
    ids = chapter["quizzes"]
    total = len(ids) + len(chapter["exercises"])
    assert on_page(page) == [f"Your progress: 0 of {total} checks passed {detail(chapter)}. "
                             "Kept in this browser only.", 0, total, False]
    assert in_nav(page, "02-chain-rule/")[0] == f"0/{total}"
    page.evaluate(CHECK, ["quiz", ids[0]])
    page.evaluate(CHECK, ["quiz", ids[0]])  # the same quiz again counts once
    assert on_page(page)[:2] == [f"Your progress: 1 of {total} checks passed {detail(chapter, 1)}. "
                                 "Kept in this browser only.", 1]
    assert in_nav(page, "02-chain-rule/")[:2] == [f"1/{total}",
                                                  f"2. The chain rule 1/{total} (1 of {total} checks passed)"]
    assert page.evaluate("document.querySelector('.bv-progress__text').id") == \
        page.evaluate("document.querySelector('.bv-progress progress').getAttribute('aria-labelledby')")
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    assert on_page(page)[1] == 1, "kept in the browser across a reload"
    for quiz in ids[1:]:
        page.evaluate(CHECK, ["quiz", quiz])
    for name in chapter["exercises"]:  # a pass counts for the exercise's version on the page
        page.evaluate(CHECK, ["exercise", name, chapter["versions"][name]])
    done = detail(chapter, len(ids), len(chapter["exercises"]))
    assert on_page(page) == [f"Chapter complete: all {total} checks passed {done}.", total, total, True]
    assert in_nav(page, "02-chain-rule/") == [f"✓ {total}/{total}", f"2. The chain rule ✓ {total}/{total} "
                                              f"(chapter complete: all {total} checks passed)", True]
    page.locator('.md-nav__link[href$="/03-backprop-by-hand/"]').first.click()  # another chapter's nav
    page.wait_for_url("**/03-backprop-by-hand/")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    assert in_nav(page, "02-chain-rule/")[2], "the other pages' navigation shows it complete"
    assert on_page(page)[1] == 0
    left = foreign(page.requests, origin)
    page.close()
    assert left == []


def test_progress_can_be_cleared_and_the_clear_undone_by_keyboard(browser, origin, totals):
    page = progress_page(browser, origin, "03-backprop-by-hand/")
    assert page.locator(".bv-progress__clear").is_hidden(), "nothing to clear yet"
    page.evaluate(CHECK, ["quiz", totals["03-backprop-by-hand/"]["quizzes"][1]])
    page.locator(".bv-progress__clear").focus()
    page.keyboard.press("Enter")
    assert on_page(page)[1] == 0
    assert page.evaluate("[document.activeElement.textContent, document.querySelector('.bv-progress__status')"
                         ".textContent]") == ["Undo clear", "This chapter's progress is cleared, and its quiz answers."]
    assert in_nav(page, "03-backprop-by-hand/")[0].startswith("0/")
    page.keyboard.press("Enter")
    assert on_page(page)[1] == 1
    assert page.evaluate("document.activeElement.textContent") == "Clear this chapter's progress"
    page.keyboard.press("Enter")
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    assert on_page(page)[1] == 0, "cleared for good"
    page.close()


def test_a_check_that_did_not_pass_or_is_not_the_chapters_does_not_count(browser, origin, totals):
    page = progress_page(browser, origin, "04-engine/")
    page.evaluate("""id => document.dispatchEvent(new CustomEvent("bv-check",
        { detail: { kind: "quiz", id, passed: false } }))""", totals["04-engine/"]["quizzes"][0])
    page.evaluate(CHECK, ["quiz", "quiz-1"])  # no quiz of the page has this id (the old builds' ids)
    page.evaluate(CHECK, ["exercise", "no_such_exercise", "0" * 16])
    # A third read-only audit: a pass stayed counted after the exercise changed. A pass of another
    # version of it (its starter or tests since changed), or of none named (older builds), does not count.
    page.evaluate(CHECK, ["exercise", "backward", "0" * 16])
    page.evaluate(CHECK, ["exercise", "zero_grad"])
    assert on_page(page)[1] == 0
    page.evaluate(CHECK, ["exercise", "backward", totals["04-engine/"]["versions"]["backward"]])
    assert on_page(page)[1] == 1
    page.close()


def test_a_quiz_answered_right_then_wrong_is_not_counted_as_answered_right(browser, origin, totals):
    """A new reader's audit: after -10 (right) then 7 (wrong), the quiz said "Not quite." (also
    after a reload) while the progress still counted it as answered right."""
    page = progress_page(browser, origin, "01-computational-graphs/")
    chapter = totals["01-computational-graphs/"]
    total = len(chapter["quizzes"]) + len(chapter["exercises"])
    quiz = page.locator('.bv-quiz[data-quiz="number"]').first
    key = quiz.get_attribute("data-shown")
    box = quiz.get_by_label("Your answer")
    box.fill(key)
    box.press("Enter")
    assert quiz.get_attribute("data-state") == "right"
    assert on_page(page)[1] == 1
    box.fill(key + "1")  # a wrong answer now: the quiz shows it, and the count follows
    box.press("Enter")
    assert quiz.get_attribute("data-state") == "wrong"
    assert on_page(page)[:2] == [f"Your progress: 0 of {total} checks passed {detail(chapter)}. "
                                 "Kept in this browser only.", 0]
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    assert quiz.get_attribute("data-state") == "wrong" and on_page(page)[1] == 0, "the same after a reload"
    box.fill(key)
    box.press("Enter")
    assert on_page(page)[1] == 1, "right again, counted again"
    page.close()


VIEWS = [(1280, "light"), (1280, "dark"), (390, "light"), (390, "dark")]
SCHEME = {"light": "default", "dark": "slate"}  # Material's palettes


def test_the_progress_reads_well_at_each_width_and_scheme(browser, origin, totals):
    """No sideways scrolling, buttons at least 44 x 44 on a phone, axe's WCAG AA on the display and
    the nav badges; a screenshot of each (page and navigation) in BV_SHOTS if set
    (tests/helpers.py). One page goes through the four views as a reader would: the window
    resized, the scheme switched by Material's own toggle."""
    page = progress_page(browser, origin, "04-engine/")
    first = totals["04-engine/"]["quizzes"][0]
    page.evaluate(CHECK, ["quiz", first])
    page.evaluate(CHECK, ["exercise", "local_add_mul", totals["04-engine/"]["versions"]["local_add_mul"]])
    page.evaluate(CHECK, ["quiz", first])
    page.evaluate("""chapter => {  // another chapter, complete, in the nav: its quizzes and exercises
        const all = JSON.parse(localStorage.getItem('bv-progress'));
        all['02-chain-rule/'] = { quiz: chapter.quizzes, exercise: chapter.exercises, versions: chapter.versions };
        localStorage.setItem('bv-progress', JSON.stringify(all));
    }""", totals["02-chain-rule/"])
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge.is-complete')")
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    page.add_script_tag(content=(ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    problems = []
    for width, scheme in VIEWS:
        view = f"{width} px, {scheme}"
        page.set_viewport_size({"width": width, "height": 900})
        if page.evaluate("document.body.dataset.mdColorScheme") != SCHEME[scheme]:
            page.get_by_title(f"Switch to {scheme} mode").click()
        page.wait_for_function("scheme => document.body.dataset.mdColorScheme === scheme", arg=SCHEME[scheme])
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if scroll_width > width:
            problems.append(f"{view}: the page is {scroll_width} px wide")
        sizes = page.evaluate("""() => [...document.querySelectorAll('.bv-progress button:not([hidden])')]
            .map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])""")
        if not sizes or (width < 400 and not all(w >= 44 and h >= 44 for w, h in sizes)):
            problems.append(f"{view}: buttons {sizes}")
        report_shot(page.locator(".bv-progress"), f"progress-page-{width}-{scheme}.png")
        drawer = page.locator('label.md-header__button[for="__drawer"]')
        if width < 400:  # the navigation is a drawer on a phone
            drawer.click()
            # open (transitions are off): the nav's first badge lies across the window, not off it
            page.wait_for_function("""() => { const r = document.querySelector('.md-nav--primary .bv-progress-badge')
                .getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= innerWidth; }""")
        nav = page.locator(".md-nav--primary").first
        report_shot(nav, f"progress-nav-{width}-{scheme}.png")
        problems += [f"{view}: {v}" for v in page.evaluate("""async () => {
            const result = await axe.run({ include: [['.bv-progress'], ['.md-nav--primary .bv-progress-badge']] },
                                         { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
            return result.violations.map(v =>
                `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
        }""")]
        if width < 400:
            page.evaluate("() => { document.getElementById('__drawer').checked = false; }")
    page.close()
    assert problems == []


QUIZZES = """() => [...document.querySelectorAll('.bv-quiz')].map(box => [box.id, box.dataset.state ?? null,
    box.querySelector('input.bv-quiz__input')?.value ?? box.querySelector('input:checked')?.value ?? null,
    box.querySelector('.bv-quiz__feedback').textContent])"""


def test_an_answered_quiz_stays_answered_after_a_reload_and_clear_forgets_it(browser, origin):
    """Issue 27, item 4: a quiz answered right showed nothing of it after a reload (only the
    chapter's count was kept). A number answered right, a choice answered wrong: both come back
    with their marks, from the progress's storage; Clear blanks them, Undo brings them back."""
    page = progress_page(browser, origin, "03-backprop-by-hand/")
    number = page.locator('.bv-quiz[data-quiz="number"]').first
    choice = page.locator('.bv-quiz[data-quiz="choice"]').first
    number.locator("input").fill(number.get_attribute("data-key"))
    number.get_by_role("button", name="Check").click()
    wrong = next(o for o in choice.locator("input[type=radio]").all()
                 if o.get_attribute("value") != choice.get_attribute("data-key"))
    wrong.check()
    choice.get_by_role("button", name="Check").click()
    answered = {box[0]: box for box in page.evaluate(QUIZZES)}
    ids = number.get_attribute("id"), choice.get_attribute("id")
    assert [answered[i][1] for i in ids] == ["right", "wrong"]
    # Clear, then Undo, in this visit: the answers come back, and nothing says "from your last
    # visit" of them (a second read-only audit: it did)
    page.locator(".bv-progress__clear").click()
    page.locator(".bv-progress__undo").click()
    page.wait_for_function("id => document.getElementById(id).dataset.state", arg=ids[0])
    back = {box[0]: box for box in page.evaluate(QUIZZES)}
    assert all(back[i][3].endswith("(Your earlier answer.)") for i in ids), back

    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    page.wait_for_function("id => document.getElementById(id).dataset.state", arg=ids[1])
    kept = {box[0]: box for box in page.evaluate(QUIZZES)}
    for i in ids:
        assert kept[i][1:3] == answered[i][1:3], (kept[i], answered[i])
        assert kept[i][3].endswith("(Your earlier answer.)"), kept[i]
    others = [box for box in kept.values() if box[0] not in ids]
    assert all(box[1] is None and not box[3] for box in others), "only the answered quizzes come back"
    assert on_page(page)[1] == 1, "the right answer counts; the wrong one does not"

    page.locator(".bv-progress__clear").click()
    page.wait_for_function("id => !document.getElementById(id).dataset.state", arg=ids[0])
    cleared = {box[0]: box for box in page.evaluate(QUIZZES)}
    assert [cleared[i][1:] for i in ids] == [[None, "", ""], [None, None, ""]]
    page.locator(".bv-progress__undo").click()
    page.wait_for_function("id => document.getElementById(id).dataset.state", arg=ids[0])
    back = {box[0]: box for box in page.evaluate(QUIZZES)}
    assert [back[i][1:3] for i in ids] == [answered[i][1:3] for i in ids]
    page.locator(".bv-progress__clear").click()
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    assert all(box[1] is None for box in page.evaluate(QUIZZES)), "cleared for good"
    page.close()


def test_an_answer_kept_for_another_quiz_does_not_come_back_on_this_one(browser, origin, totals):
    """An audit of issue 27, item 4: quizzes were numbered by their place (quiz-1, quiz-2, ...), so
    after a rebuild that put a quiz above them, each kept answer came back, marked, on the quiz
    now in its place: a question the reader never answered. Kept as an older build kept them:
    the answer to chapter 1's first quiz under "quiz-1". This build's quizzes are named by what
    they ask (scripts/pages/quizzes.py: quiz_id): none takes it, and it does not count."""
    page = progress_page(browser, origin, "01-computational-graphs/")
    first = page.locator('.bv-quiz[data-quiz="number"]').first
    page.evaluate("""value => localStorage.setItem('bv-progress', JSON.stringify({'01-computational-graphs/':
        { quiz: ['quiz-1'], exercise: [], answers: { 'quiz-1': { value, state: 'right' } } } }))""",
                  first.get_attribute("data-shown"))
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    page.wait_for_function("() => !document.querySelector('.bv-quiz[hidden]')")  # quiz.js has bound them
    assert all(box[1] is None and not box[3] for box in page.evaluate(QUIZZES)), page.evaluate(QUIZZES)
    assert on_page(page)[1] == 0
    # the same answer, kept under the quiz's own id, comes back on it and counts
    page.evaluate("""([id, value]) => localStorage.setItem('bv-progress', JSON.stringify({'01-computational-graphs/':
        { quiz: [id], exercise: [], answers: { [id]: { value, state: 'right' } } } }))""",
                  [first.get_attribute("id").removesuffix("-box"), first.get_attribute("data-shown")])
    page.reload(wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    page.wait_for_function("() => document.querySelector('.bv-quiz[data-state]')")
    assert first.get_attribute("data-state") == "right" and on_page(page)[1] == 1
    assert totals["01-computational-graphs/"]["quizzes"][0] == first.get_attribute("id").removesuffix("-box")
    page.close()


def test_progress_this_browser_will_not_store_is_counted_and_said_to_be_unkept(browser, origin):
    """A second read-only audit: with storage refused (site data blocked, or full), a quiz said
    "Right." and the box read back the empty storage: "0 of N checks passed … Kept in this
    browser only." The check counts for the page's life, and the box says it is not kept."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("Storage.prototype.setItem = () => { throw new DOMException('refused', "
                            "'QuotaExceededError'); };")
    page = context.new_page()
    page.goto(f"{origin}/03-backprop-by-hand/", wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-progress-badge')")
    number = page.locator('.bv-quiz[data-quiz="number"]').first
    number.locator("input").fill(number.get_attribute("data-key"))
    number.get_by_role("button", name="Check").click()
    text, done, _, _ = on_page(page)
    assert done == 1 and text.endswith("Not kept: this browser would not store it, so a reload forgets it."), text
    context.close()

"""What the reader gave as their engine, as the Your engine page and every page's switch show it
(docs/javascripts/engine-switch.js), in Debian's Chromium on the built site: an engine's message
and a chosen file's name with their invisible characters shown and cut, and code over the limit
refused. Split from test_your_engine_browser.py, which reached the 600-line limit
(tests/tools/test_lint.py)."""

from tests import engines
from tests.helpers import wait_for_text
from tests.your_engine.test_your_engine_browser import (
    MAP_SOON,
    ON_YOURS,
    engine_page,
    give_engine,
    switch,
)


def test_a_chosen_files_name_shows_its_invisible_characters_and_is_cut(browser, origin):
    """A hostile audit: a file named "my_engine<U+202E>yp.xxx….py" (2,016 characters) read raw on
    every page's switch: the override reversed the page's words after it, and the switch was
    600 px tall. The name is shown as an engine's message is (<U+202E>) and cut."""
    page = engine_page(browser, origin)
    name = "my_engine\u202eyp." + "x" * 2000 + ".py"
    page.get_by_label("or choose a file:").set_input_files(files=[{
        "name": name, "mimeType": "text/x-python", "buffer": engines.source("book").encode()}])
    wait_for_text(page, ".bv-map__status", r"passed its check|did not pass", timeout=120_000)
    shown = "my_engine<U+202E>yp." + "x" * 87 + "… (a name of 2,016 characters, cut here)"
    status = switch(page)["status"]
    assert status.startswith(f"{ON_YOURS}: {shown}, in this book's shape"), status
    assert page.locator(".bv-map__from").text_content().startswith(f"Your engine: {shown}, checked")
    assert "\u202e" not in page.locator("body").inner_text()
    height = page.locator(".bv-engine__status").bounding_box()["height"]
    assert height < 150, height  # four lines at 1280 px (96 px measured), not 600 px
    page.close()


def test_an_engines_message_shows_its_invisible_characters_and_a_full_storage_keeps_the_verdict(browser, origin):
    """A hostile audit: an engine's error with a bidi override read "logged OK" on every page's
    switch; and where storage refused the verdict (full), every page said "Checking the code you
    pasted…" for good. Here storage refuses it: the verdict holds for the visit."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("""(() => {
        const setItem = Storage.prototype.setItem;
        Storage.prototype.setItem = function (key, value) {
            if (key === 'bv-engine' && String(value).includes('"check"')) {
                throw new DOMException('full', 'QuotaExceededError');
            }
            return setItem.call(this, key, value);
        };
    })()""")
    page = context.new_page()
    page.goto(origin + "/your-engine/")
    page.wait_for_function(f"() => {MAP_SOON}", timeout=30_000)
    page.get_by_role("radio", name="your engine", exact=True).check()
    page.get_by_label("Paste your engine").fill("raise ValueError('my engine \\u202eKO deggol\\u202c end')\n")
    page.get_by_role("button", name="Use this code").click()
    wait_for_text(page, ".bv-map__status", r"did not pass", timeout=120_000)
    said = "your engine raised ValueError: my engine <U+202E>KO deggol<U+202C> end"
    assert said in page.locator(".bv-map__status").text_content()
    page.locator('.md-nav--primary a[href$="/01-computational-graphs/"]').first.click()  # instant navigation
    page.wait_for_url("**/01-computational-graphs/")
    page.wait_for_function("() => /did not pass/.test(document.querySelector('.bv-engine__status')?.textContent)",
                           timeout=30_000)
    status = switch(page)["status"]
    assert status == f"Every Run still runs on micrograd: the code you pasted did not pass its check: {said}", status
    assert "\u202e" not in page.locator("body").inner_text()
    context.close()


def test_an_engine_longer_than_the_limit_is_refused_not_cut(browser, origin):
    """A re-audit: 250,000 characters (a long comment, then Value) were cut to 200,000 without a word,
    and the check said "your engine defines no class Value" of code that does."""
    page = engine_page(browser, origin)
    page.get_by_label("Paste your engine").fill("#" * 250_000 + "\nfrom micrograd.engine import Value\n")
    page.get_by_role("button", name="Use this code").click()
    assert page.locator(".bv-map__status").text_content() == (
        "Your code is 250,036 characters; an engine here may have at most 200,000 (a Value class is a few "
        "thousand). Nothing was changed.")
    assert "You have no engine yet" in switch(page)["status"] or "micrograd" in switch(page)["status"]
    page.close()


def test_the_map_says_what_it_did_not_check(browser, origin):
    """A new reader's audit: with a chapter that did not finish (its time limit), the map said "No
    block failed: every block that applies gives the page's results on your engine."; and Node by
    node said every grad was micrograd's for a block whose graph the engine never built."""
    page = engine_page(browser, origin)
    give_engine(page, "book")
    page.evaluate("""async () => {
        const { readerEngine } = await import('/javascripts/engine-switch.js');
        const chapter = { page: '05-neurons-layers-networks/', title: 'Neurons', url: '/05-neurons-layers-networks/' };
        sessionStorage.setItem('bv-engine-map', JSON.stringify({ source: readerEngine().text, ms: 1000,
          entries: [{ chapter, error: 'Stopped after 60 s.', blocks: null, results: null }] }));
    }""")
    page.reload()
    wait_for_text(page, ".bv-map__status", r"from earlier in this visit")  # built after the reload
    assert page.locator(".bv-map__status").text_content() == (
        "Your engine's map from earlier in this visit: 0 blocks passed, 0 failed, 0 did not apply, 1 chapter "
        "did not finish, in 1.0 s. Run the book again to run it now.")
    assert page.locator(".bv-map__failures > p").text_content() == (
        "No block failed in the chapters that finished, but 1 chapter did not finish (above): their blocks "
        "were not all checked.")
    said = page.evaluate("""async () => {
        const { agreed } = await import('/javascripts/widgets/engine-map.js');
        return [agreed({ compared: [], uncompared: ['y'] }), agreed({ compared: ['L'], uncompared: [] })];
    }""")
    assert said == ["The graph of y could not be compared: your engine left no Value there, or its graph could "
                    "not be walked.", "Every node's grad in the graph of L is micrograd's: the difference is in "
                    "what the block prints."]


PASSED_ENGINE = "the code that passed your whole-engine exercise (chapter 4)"
NO_ENGINE = "You have no engine yet, so every Run still runs on micrograd"


def test_clearing_chapter_4_takes_its_engine_off_the_switch_and_undo_puts_it_back(browser, origin):
    """A third read-only audit: after chapter 4's Clear, which forgets the whole-engine exercise's
    pass, the switch still said Runs used the reader's engine, over Runs that said "Ran on
    micrograd." (nothing told it)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(origin + "/04-engine/")
    source = engines.source("book")
    page.evaluate("""async source => {
        const { pages } = await (await fetch('/progress.json')).json();  // the pass of this version
        localStorage.setItem('bv-progress', JSON.stringify({'04-engine/': { quiz: [], exercise: ['whole_engine'],
            versions: { whole_engine: pages['04-engine/'].versions.whole_engine } }}));
        localStorage.setItem('bv-engine-passed', JSON.stringify({ text: source }));
        localStorage.setItem('bv-engine', JSON.stringify({ use: 'yours',
            check: { text: source, ok: true, shape: 'book', message: '' } }));
    }""", source)
    page.reload()
    page.wait_for_function("() => document.querySelector('.bv-progress__clear:not([hidden])')")
    assert switch(page)["status"].startswith(f"{ON_YOURS}: {PASSED_ENGINE}, in this book's shape")
    page.locator(".bv-progress__clear").click()
    assert switch(page)["status"].startswith(NO_ENGINE)
    page.locator(".bv-progress__undo").click()
    assert switch(page)["status"].startswith(f"{ON_YOURS}: {PASSED_ENGINE}")
    page.close()


def test_with_storage_refused_a_passed_whole_engine_is_the_readers_engine_for_the_visit(browser, origin):
    """A third read-only audit: with storage refused, passing the whole-engine exercise kept its pass
    in the page (progress.js) but the switch read the empty storage: "You have no engine yet"."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("Storage.prototype.setItem = () => { throw new DOMException('refused', "
                            "'QuotaExceededError'); };")
    page = context.new_page()
    page.goto(origin + "/04-engine/")
    page.wait_for_function("() => document.querySelector('.bv-engine__status')?.textContent")
    page.get_by_role("radio", name="your engine", exact=True).check()
    assert switch(page)["status"].startswith(NO_ENGINE)
    page.evaluate("""code => document.dispatchEvent(new CustomEvent('bv-check', { detail: { kind: 'exercise',
        id: 'whole_engine', passed: true, code } }))""", engines.source("book"))  # as exercise.js says a pass
    page.wait_for_function("() => { const s = document.querySelector('.bv-engine__status'); "
                           "return s !== null && !/no engine yet/.test(s.textContent); }")
    assert PASSED_ENGINE in switch(page)["status"] and switch(page)["yours"]
    context.close()

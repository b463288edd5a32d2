"""The quizzes in Chromium, answered as a reader would: a number in every form it may be typed,
a wrong one, a classic mistake named, a multiple choice, the keyboard a phone shows. Each test
gets a fresh `page` (tests/conftest.py) that fails it on a console error or a request to
another host. tests/widgets/test_quizzes.py checks the quizzes' keys and how the build writes them."""





QUIZ_ANSWERS = [
    ("0.5", "right"), ("0.50", "right"), ("5e-1", "right"), (" .5 ", "right"), ("0.50004", "right"),
    ("0.6", "wrong"), ("−0.5", "wrong"), ("half", "invalid"), ("", "invalid"),
]


def test_a_quiz_accepts_its_answer_in_every_form_and_rejects_a_wrong_one(page, origin):
    """Each answer typed into the same quiz in turn, as a reader corrects an answer."""
    page.goto(origin + "/01-computational-graphs/")
    quiz = page.locator('.bv-quiz[data-quiz="number"][data-shown="0.5"]')
    quiz.wait_for(state="visible")
    expected = {"right": "Right", "wrong": "Not quite", "invalid": "Type a number"}
    for answer, state in QUIZ_ANSWERS:
        quiz.get_by_label("Your answer").fill(answer)
        quiz.get_by_label("Your answer").press("Enter")
        assert quiz.get_attribute("data-state") == state, answer
        assert quiz.locator(".bv-quiz__feedback").text_content().startswith(expected[state]), answer


def test_an_answer_folds_out_the_explanation_and_a_classic_mistake_is_named(page, origin):
    """Chapter 4's diamond quiz: 9 is the path through c alone (computed by a wrong visit order),
    the explanation below opens once answered, and each answer tells the progress display."""
    page.goto(origin + "/04-engine/")
    quiz = page.locator('.bv-quiz[data-shown="15"]')
    quiz.wait_for(state="visible")
    page.evaluate("""() => { window.checks = [];
        document.addEventListener("bv-check", e => window.checks.push(e.detail)); }""")
    answer = quiz.locator("xpath=ancestor::div[contains(@class, 'admonition')]/following-sibling::details[1]")
    assert answer.get_attribute("open") is None
    quiz.get_by_label("Your answer").fill("9")
    quiz.get_by_role("button", name="Check").click()
    feedback = quiz.locator(".bv-quiz__feedback").text_content()
    assert "a lost path: a node passed its gradient on before all of it had arrived" in feedback, feedback
    assert answer.get_attribute("open") is not None  # folded out below, as the home page says
    quiz.get_by_label("Your answer").fill("15")
    quiz.get_by_label("Your answer").press("Enter")
    assert quiz.get_attribute("data-state") == "right"
    quiz_id = quiz.get_attribute("id").removesuffix("-box")
    assert page.evaluate("window.checks") == [  # with the answer and its mark, which progress.js keeps
        {"kind": "quiz", "id": quiz_id, "passed": False, "answer": {"value": "9", "state": "wrong"}},
        {"kind": "quiz", "id": quiz_id, "passed": True, "answer": {"value": "15", "state": "right"}}]


def test_quiz_boxes_get_a_keyboard_with_a_minus_sign(page, origin):
    """inputmode=decimal gives iOS's keypad, which has no minus; many answers are negative."""
    page.goto(origin + "/01-computational-graphs/")
    page.locator(".bv-quiz__input").first.wait_for(state="visible")
    modes = page.eval_on_selector_all(".bv-quiz__input", "els => els.map(e => e.inputMode)")
    assert modes and all(mode == "text" for mode in modes), modes
    # at 1280 px too, the box is as tall as its Check button (it was 28 px beside 45)
    heights = page.eval_on_selector_all(".bv-quiz__input", """els => els.map(e => [e.offsetHeight,
        e.parentElement.querySelector('.bv-quiz__check').offsetHeight])""")
    assert all(box == check for box, check in heights), heights


def test_a_negative_answer_reads_with_either_minus_sign(page, origin):
    page.goto(origin + "/")  # the home page: any page of the site imports the module
    key = page.evaluate("""() => import("/javascripts/widgets/quiz.js").then(m =>
        [m.parseNumber("−10"), m.parseNumber("-10.0"), m.parseNumber("-1e1"), m.parseNumber("+10"),
         m.parseNumber("1,0"), m.close(-10, -10.00000000001, 0), m.close(-10, -9.9, 0)])""")
    assert key == [-10, -10, -10, 10, None, True, False]


THOUSANDS = [("61,539", 61539), ("−61,539", -61539), ("4,001", 4001), ("1,234,567.5", 1234567.5),
             ("1,5", None), ("1,50", None), ("61,5390", None), ("1234,567", None), ("1,,000", None),
             (",539", None), ("61,539,", None), ("1.5", 1.5)]


def test_a_thousands_comma_is_read_and_a_decimal_comma_is_not(page, origin):
    page.goto(origin + "/")  # the home page: any page of the site imports the module
    texts = [text for text, _ in THOUSANDS]
    read = page.evaluate("""texts => import("/javascripts/widgets/quiz.js").then(m =>
        texts.map(t => m.parseNumber(t)))""", texts)
    assert read == [value for _, value in THOUSANDS]


def test_chapter_10_takes_its_answers_written_as_the_page_writes_them(page, origin):
    """The site writes 61,539 and 4,001 (in the Answer fold too); a reader typing them so is right.
    "1,5" is not read, and the message says why (a comma only separates thousands)."""
    page.goto(origin + "/10-under-the-hood/")
    for shown, typed in [("61,539", "61,539"), ("4,001", "4,001")]:
        quiz = page.locator(f'.bv-quiz[data-quiz="number"][data-shown="{shown}"]')
        quiz.wait_for(state="visible")
        quiz.get_by_label("Your answer").fill(typed)
        quiz.get_by_role("button", name="Check").click()
        assert quiz.get_attribute("data-state") == "right", typed
        assert quiz.locator(".bv-quiz__feedback").text_content().startswith(f"Right: {shown}."), typed
    quiz.get_by_label("Your answer").fill("1,5")
    quiz.get_by_label("Your answer").press("Enter")
    assert quiz.get_attribute("data-state") == "invalid"
    feedback = quiz.locator(".bv-quiz__feedback").text_content()
    assert feedback == ("Not read as a number: a comma separates thousands (61,539). For a decimal, type a "
                        "point: 1.5."), feedback


def test_a_multiple_choice_quiz_says_right_or_wrong_at_once(page, origin):
    page.goto(origin + "/01-computational-graphs/")
    quiz = page.locator('.bv-quiz[data-quiz="choice"]').first
    quiz.wait_for(state="visible")
    key = int(quiz.get_attribute("data-key"))
    options = quiz.locator("input[type=radio]")
    options.nth((key + 1) % options.count()).check()
    quiz.get_by_role("button", name="Check").click()
    assert quiz.get_attribute("data-state") == "wrong"
    # no "Try again": the explanation, answer included, is open once answered
    assert quiz.locator(".bv-quiz__feedback").text_content() == "Not this one. The explanation is open below."
    options.nth(key).check()
    quiz.get_by_role("button", name="Check").click()
    assert quiz.get_attribute("data-state") == "right"
    assert page.locator("details.success[open]").count() >= 1  # the explanation folded out below

"""On a phone, in one hand (issue 27, items 2 and 3), in Debian's Chromium on the built site
at 390 × 844, touch, 2×: every control of every page is at least 44 × 44 px
(docs/stylesheets/touch.css), Material's own included; a graph's edge offers at least
24 × 24; "Back to top" covers nothing; and every kind of control shows a focus ring you can
see, in light and dark.

What counts as a control: buttons, fields, folds (summary), anything with role=button, and
links, but for links inside running text (WCAG 2.5.5 exempts them; a formula's numbers are
text), Material's skip link (off screen until focused) and a figure's link (as large as its
figure)."""

import pytest

from tests.helpers import page_urls, settled

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
# Every page of the site ("" is the home page); a test checks the list against the built site.
PAGES = ["", "01-computational-graphs", "02-chain-rule", "03-backprop-by-hand", "04-engine",
         "05-neurons-layers-networks", "06-training", "07-check-break-fix", "08-pytorch", "09-tensors",
         "10-under-the-hood", "11-gates-and-granularity", "12-jacobians-and-vjps", "13-what-reverse-mode-costs",
         "14-deep-networks", "playground", "your-engine"]
TOO_SMALL = r"""() => {
  const found = [];
  const controls = 'button, input:not([type=hidden]), select, textarea, summary, [role=button], a[href]';
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('.md-sidebar, .md-search, .md-header__title, [hidden]')) continue;  // not on screen
    if (el.matches('.md-skip, a:has(> img)')) continue;
    const text = 'p, li, td, th, dd, h1, h2, h3, h4, h5, h6, figcaption, .arithmatex, .md-copyright';
    if (el.matches('a:not(.md-button)') && el.closest(text)) continue;
    const label = (el.textContent || el.title || el.getAttribute('aria-label') || '').trim().slice(0, 30);
    const name = `${el.parentElement.tagName.toLowerCase()} > ${el.tagName.toLowerCase()}.` +
      `${[...el.classList].join('.')} "${label}"`;
    if (el.matches('g.edge')) {  // its target is its hit line's stroke (graph.js), drawn at the SVG's scale
      const hit = el.querySelector('.bv-hit');
      const across = hit ? parseFloat(getComputedStyle(hit).strokeWidth) * hit.getScreenCTM().a : 0;
      if (across < 24) found.push(`${name}: hit line ${across.toFixed(1)} px across`);
      continue;
    }
    let box = r;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) {
      box = el.closest('label').getBoundingClientRect();  // the label is the target
    }
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
      found.push(`${name}: ${box.width.toFixed(0)} × ${box.height.toFixed(0)} px`);
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    yield page
    context.close()


def test_the_pages_measured_are_every_page_of_the_site(site):
    assert sorted(f"/{name}/" if name else "/" for name in PAGES) == sorted(url for _, url in page_urls(site))


@pytest.mark.parametrize("name", PAGES, ids=lambda name: name or "home")
def test_every_control_is_at_least_44px_on_a_touch_screen(phone, origin, name):
    phone.goto(f"{origin}/{name}/" if name else f"{origin}/", wait_until="load")  # and widgets bound
    phone.evaluate("document.fonts.ready.then(() => true)")  # a control's size depends on its font
    assert phone.evaluate("matchMedia('(pointer: coarse)').matches")
    small = phone.evaluate(TOO_SMALL)
    assert small == [], f"{len(small)} controls under 44 × 44 px on {name}:\n" + "\n".join(small)


def test_back_to_top_covers_nothing_on_a_touch_screen(phone, origin):
    """Material's floating button showed over the stepper's graph and a block's Edit button."""
    phone.goto(f"{origin}/01-computational-graphs/", wait_until="load")
    phone.mouse.wheel(0, 3000)
    phone.wait_for_function("scrollY >= 3000")
    settled(phone)
    phone.mouse.wheel(0, -400)  # Material shows it while the reader scrolls back up
    phone.wait_for_function("scrollY <= 2600")
    settled(phone)  # Material's scroll handler has run
    shown = phone.evaluate("""() => [...document.querySelectorAll('.md-top')]
        .filter(b => !b.hidden && b.getBoundingClientRect().width > 0).length""")
    assert shown == 0


# One of each kind of control a reader focuses, on chapter 4 (quizzes of both kinds, a
# stepper's leaf boxes, folds, code, exercises, Run bars) and Material's own.
KINDS = {
    "a quiz's answer box": ".bv-quiz__input",
    "a quiz's choice": ".bv-quiz__option input",
    "a stepper's leaf box": ".bv-widget__leaf",
    "a fold": "details > summary",
    "a copy button": ".md-code__button",
    "the page's source link": ".md-content__button",
    "a Run button": ".bv-run-run",
    "a link in the text": ".md-typeset p > a[href]",
    "the search button": "label.md-header__button[for=__search], .md-search__input",
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_kind_of_control_shows_a_focus_ring(browser, origin, scheme):
    """Focused from the keyboard (Tab from the element before it), each kind draws an outline
    of 2 px or more whose colour stands 3:1 or more against the page's background."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{origin}/04-engine/", wait_until="load")
    page.wait_for_function("() => document.querySelector('.bv-stepper .bv-widget__leaf')")
    weak = {}
    for kind, selector in KINDS.items():
        ring = page.evaluate("""async selector => {
            const shown = () => [...document.querySelectorAll(selector)].find(e => e.getClientRects().length
                && getComputedStyle(e).visibility !== 'hidden');
            // Material adds a code block's copy button when the block comes into view: bring one
            // into view and wait for it (up to 5 s), rather than read the page before it is there.
            for (let i = 0; i < 100 && !shown(); i++) {
                document.querySelector('div.highlight')?.scrollIntoView({ block: 'center' });
                await new Promise(resolve => setTimeout(resolve, 50));
            }
            const el = shown();
            if (!el) return null;
            // Tab onto it, as a keyboard does: focus the element before it in tab order, then Tab.
            el.scrollIntoView({ block: 'center' });
            el.setAttribute('data-target', '');
            return true;
        }""", selector)
        assert ring, f"chapter 4 has no {kind} ({selector})"
        target = page.locator("[data-target]")
        page.evaluate("() => { const el = document.querySelector('[data-target]'); el.focus(); }")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.hasAttribute('data-target')"), kind
        found = target.evaluate("""el => {
            const drawn = el.matches('input[type=radio]') ? el.closest('label') : el;
            const style = getComputedStyle(drawn);
            const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
            const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
                : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
            const back = rgb(getComputedStyle(document.body).backgroundColor);
            const line = rgb(style.outlineColor);
            const [hi, lo] = [lum(line), lum(back)].sort((a, b) => b - a);
            return { style: style.outlineStyle, width: parseFloat(style.outlineWidth),
                     contrast: (hi + 0.05) / (lo + 0.05) };
        }""")
        target.evaluate("el => el.removeAttribute('data-target')")
        if found["style"] == "none" or found["width"] < 2 or found["contrast"] < 3:
            weak[kind] = found
    context.close()
    assert weak == {}, weak


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_notebooks_copy_buttons_cover_no_code_and_stand_out(browser, origin, scheme):
    """Chapter 6's copy buttons (mkdocs-jupyter's) sat over the end of their cell's first line
    on a phone, and in the dark scheme their icon was #555 on dark grey (1.9:1). Each shown
    button now leaves its cell's code text alone, and its icon stands 3:1 or more against the
    cell's background (WCAG 1.4.11)."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{origin}/06-training/", wait_until="load")
    found = page.evaluate("""() => {
      const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
          : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const background = (el) => {  // the first opaque background at or above el
        for (; el; el = el.parentElement) {
          const c = rgb(getComputedStyle(el).backgroundColor);
          if (c.length === 3 || c[3] === 1) return c.slice(0, 3);
        }
        return [255, 255, 255];
      };
      const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const buttons = [...document.querySelectorAll('.jupyter-wrapper clipboard-copy')]
        .filter(b => b.getClientRects().length);
      return { count: buttons.length, problems: buttons.flatMap((button, i) => {
        const box = button.getBoundingClientRect();
        const code = button.closest('.zeroclipboard-container').parentElement.querySelector('pre');
        const text = document.createRange();
        text.selectNodeContents(code);
        const lines = [...text.getClientRects()].filter(r => r.width && over(r, box));
        const back = background(button);
        const icon = rgb(getComputedStyle(button.querySelector('svg')).color);
        const a = icon.length === 4 ? icon[3] : 1;  // a translucent icon, over its background
        const drawn = icon.slice(0, 3).map((v, k) => v * a + back[k] * (1 - a));
        const [hi, lo] = [lum(drawn), lum(back)].sort((x, y) => y - x);
        const contrast = (hi + 0.05) / (lo + 0.05);
        return [...(lines.length ? [`button ${i}: over its code's text`] : []),
                ...(contrast < 3 ? [`button ${i}: icon ${contrast.toFixed(2)}:1`] : [])];
      }) };
    }""")
    context.close()
    assert found["count"] > 5 and found["problems"] == [], found


@pytest.mark.parametrize("touch", [True, False], ids=["phone", "desktop"])
def test_the_editors_key_hints_show_only_where_there_are_keys(browser, origin, touch):
    """A new reader's audit: on a phone, "Ctrl+Enter runs. Tab indents…" read as an instruction
    that could not be followed. A touch screen without hover hides it; 1280 px with a mouse shows it."""
    context = browser.new_context(**PHONE) if touch else browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{origin}/04-engine/", wait_until="load")
    exercise = page.locator(".exercise[data-exercise]").first
    exercise.scroll_into_view_if_needed()
    keys = exercise.locator(".exercise-keys")
    assert keys.count() == 1 and "+Enter runs" in keys.text_content()
    assert keys.is_visible() is not touch
    page.evaluate("() => document.querySelector('.bv-run').runState.blocks[0].edit.click()")
    page.wait_for_function("() => document.querySelector('.bv-run-keys')")
    assert page.locator(".bv-run-keys").first.is_visible() is not touch
    context.close()

"""The Content-Security-Policy travels with every page (issue 44, item 15): a host that sends no
headers (GitHub Pages) still has the browser enforce it. A <meta> policy cannot hold
frame-ancestors (the browser ignores it there, and says so in the console), so the meta is
MAINTAINERS.md's header without it (tests/helpers.py: documented_csp, never a copy). Every
built page carries it before anything it governs, and every page opens, and a chapter block
runs, under it alone with no violation: chapter 6's MathJax `<script src="data:…">` was one."""

import re

from tests.helpers import Tags, page_urls, recorded

META_ONLY = {"frame-ancestors", "report-uri", "sandbox"}  # directives a <meta> policy cannot hold


def meta_policy():
    """The documented header's directives a <meta> can hold, in the header's order."""
    from tests.helpers import documented_csp

    kept = [d.strip() for d in documented_csp().split(";") if d.split()[0] not in META_ONLY]
    return "; ".join(kept)


def test_every_built_page_carries_the_policy_before_anything_it_governs(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20, pages  # the chapters, the playground, 404, the view-source pages
    expected = meta_policy()
    for path in pages:
        tags = Tags(path.read_text(encoding="utf-8")).tags
        metas = [i for i, (tag, a) in enumerate(tags)
                 if tag == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
        assert len(metas) == 1, path
        assert tags[metas[0]][1]["content"] == expected, path
        governed = [i for i, (tag, a) in enumerate(tags) if tag in ("script", "style", "img", "iframe")
                    or (tag == "link" and a.get("rel") in ("stylesheet", "preload", "icon"))]
        assert not governed or metas[0] < governed[0], path
        assert not [a for tag, a in tags if tag == "script" and a.get("src", "").startswith("data:")], path


VIOLATIONS = """document.addEventListener('securitypolicyviolation', (e) =>
    (window.bvViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`));"""
RUN = "document.querySelector('.bv-run').runState"


def test_every_page_opens_under_its_meta_policy_and_a_block_runs(browser, origin, site):
    """Served with no header at all (`origin`): the meta is the only policy."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(VIOLATIONS)
    page = recorded(context.new_page())
    for path, url in page_urls(site):
        page.goto(origin + url, wait_until="load")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # lazy images, late scripts
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.bvViolations ?? []") == [], path
    page.goto(origin + "/01-computational-graphs/", wait_until="load")
    page.evaluate(f"() => {RUN}.blocks[0].run.click()")
    page.wait_for_function(f"() => {{ const b = {RUN}.blocks[0]; return !b.running && b.result; }}",
                           timeout=120_000)
    assert page.evaluate(f"{RUN}.blocks[0].result.kind") == "result"
    assert page.evaluate("window.bvViolations ?? []") == []
    assert not [e for e in page.errors if re.search("Content Security Policy|Refused to", e)], page.errors
    context.close()

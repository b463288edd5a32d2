"""The training notebook's prose numbers as links to the cell that printed them, as a chapter's
are to its block (scripts/pages/number_sources.py).

The executed notebook is read as one page: each Markdown cell as written, each code cell the
page shows as a ```python block whose output is what the cell printed. The same rules find
each number's source there; a number links to the cell, `#cell-id=block-N`, the id nbconvert
gives the cell that this module names `block-N` (N counts the code cells the page shows, as
its In [N] does). A number in a folded answer, or in a question's quiz, stays plain text: the
answer's code is not a cell of the page.
"""

import re

from scripts.pages.directives import relative
from scripts.pages.number_sources import link_numbers, sources

HIDDEN = {"quiz", "claim-check", "answer"}  # tags of cells the page does not show as cells
CELL_ANCHOR = "cell-id="  # nbconvert writes a cell's id as id="cell-id=<id>"


def shown_cells(cells):
    """The code cells the page shows as cells, in order (the ones In [1], In [2], ... number)."""
    return [c for c in cells if c.cell_type == "code" and not HIDDEN & set(c.metadata.get("tags", []))]


def as_page(cells):
    """(the Markdown page the cells read as, {id(markdown cell): (first line, last line)},
    {fence line: what that code cell printed})."""
    lines, spans, printed = [], {}, {}
    for cell in cells:
        tags = set(cell.metadata.get("tags", []))
        if tags & HIDDEN:
            continue
        if cell.cell_type == "markdown":
            rows = cell.source.split("\n")
            spans[id(cell)] = (len(lines) + 1, len(lines) + len(rows))
            lines += [*rows, ""]
        elif cell.cell_type == "code":
            printed[len(lines) + 1] = "".join(_text(o) for o in cell.outputs)
            lines += ["```python", *cell.source.split("\n"), "```", ""]
    return "\n".join(lines), spans, printed


def _text(output):
    if output.get("output_type") == "stream":
        return output.get("text", "")
    return output.get("data", {}).get("text/plain", "") + "\n" if "data" in output else ""


def found(cells, path):
    """scripts.pages.number_sources.Found for the notebook's cells (an executed notebook's)."""
    text, _, printed = as_page(cells)
    return sources(text, _where(path), printed)


def _where(path):
    """docs/<name>: where the number rules find the page's exemptions (scripts/pages/prose.py)."""
    return f"docs/{relative(path).rsplit('/', 1)[-1]}"


def link(cells, path):
    """Each number of the shown Markdown cells' prose made a link to the code cell that printed
    it, in place; each shown code cell's id set to block-N. Raises
    scripts.pages.number_sources.NumberSourceError with the notebook's name when a number cannot
    be linked (as a chapter's build fails)."""
    from scripts.pages.number_sources import NumberSourceError

    text, spans, printed = as_page(cells)
    result = sources(text, _where(path), printed)
    if result.problems:
        raise NumberSourceError("\n".join(_at_file_lines(problem, cells, spans, path) for problem in result.problems))
    data = result.as_json()
    for entry in data["numbers"]:  # the cell's id on the page, and the page's word for it
        source = entry["source"]
        source["href"] = source["href"].replace("#", f"#{CELL_ANCHOR}", 1)
        source["label"] = re.sub(r"\b([Bb])lock (\d+)", lambda m: f"{'C' if m[1] == 'B' else 'c'}ell {m[2]}",
                                 source["label"])
    linked = link_numbers(text, data, relative(path)).split("\n")
    for cell in cells:
        if id(cell) in spans:
            first, last = spans[id(cell)]
            cell.source = "\n".join(linked[first - 1:last])
    for number, cell in enumerate(shown_cells(cells), start=1):
        cell.id = f"block-{number}"
    return result


def _at_file_lines(problem, cells, spans, path):
    """A problem's "docs/06-training.py:<line of the page read>:" at the notebook file's line: a
    Markdown cell's lines are the file's `# ` lines from its first one on, in order."""
    match = re.match(r"([^:]+):(\d+):", problem)
    if not match:
        return problem
    line = int(match[2])
    lines = open(path, encoding="utf-8").read().split("\n")
    for cell in cells:
        first, last = spans.get(id(cell), (0, -1))
        if first <= line <= last:
            head = f"# {cell.source.split(chr(10))[0]}".rstrip()  # the cell's first line in the file
            start = next((k + 1 for k, row in enumerate(lines) if row == head), 0)
            return f"{match[1]}:{start + line - first}:{problem[match.end():]}"
    return problem

"""MkDocs hook: the copy button of a doctest block copies its code only (scripts/pages/copy_code.py).

Registers scripts.pages.copy_code's custom fences with pymdownx.superfences: mkdocs.yml
cannot name them itself (`!!python/name:scripts...` fails: `scripts` is not
importable while MkDocs reads its config).
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)

from scripts.pages.copy_code import LANGUAGES, custom_fences

SUPERFENCES = "pymdownx.superfences"


def on_config(config):
    if SUPERFENCES not in config.markdown_extensions:
        raise ValueError(f"scripts/build/hooks/copy_code.py needs {SUPERFENCES} in mkdocs.yml's markdown_extensions")
    fences = config.mdx_configs.setdefault(SUPERFENCES, {}).setdefault("custom_fences", [])
    taken = sorted({fence.get("name") for fence in fences} & set(LANGUAGES))
    if taken:
        raise ValueError(f"mkdocs.yml gives {SUPERFENCES} custom fences for {taken}; "
                         "scripts/build/hooks/copy_code.py formats those fences")
    fences.extend(custom_fences())
    return config

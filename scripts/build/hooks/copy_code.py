"""MkDocs hook: the copy button of a doctest block copies its code only (scripts/pages/copy_code.py).

Registers scripts.pages.copy_code's custom fences with pymdownx.superfences: mkdocs.yml
cannot name them itself (`!!python/name:scripts...` fails: `scripts` is not
importable while MkDocs reads its config).
"""

import _repository  # noqa: F401  (scripts/build/hooks/_repository.py: `scripts` importable)

from scripts.pages.copy_code import add_custom_fences


def on_config(config):
    add_custom_fences(config.markdown_extensions, config.mdx_configs)  # ValueError: a clash in mkdocs.yml
    return config

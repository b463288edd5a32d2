"""The MkDocs side: hooks/ adapts MkDocs' events to the functions here and in scripts/pages/ and
scripts/notebooks/: a page's run (cached), the reader's progress totals, the site's assets,
the reader's Python zip, the editor bundle, page sources. What one event of a build computes
and a later one reads is kept on the build's SiteBuild (site_build.py), never in a hook.
"""

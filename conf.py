"""Sphinx configuration for the lesson site (source dir = repo root).

Build with `./build` (or `python -m sitebuild`); see sitebuild/ for the logic.
"""

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # our own extensions live in sitebuild/

# Lesson cells `import compute`, and their kernel runs in posts/: give it the
# repo root. No bytecode, so compute/ (a build dependency) stays untouched.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

project = "Next-word prediction, computed"
html_title = project
language = "en"

# The pages are written by these extensions too: when their code changes, every page is
# written again (Sphinx re-reads all sources when an "env" config value changes).
sitebuild_extensions_hash = hashlib.sha256(b"".join(
    (ROOT / "sitebuild" / f"{name}.py").read_bytes()
    for name in ("pages/stamps", "pages/extension", "pages/reading", "pages/claimroles", "pages/lessonlist",
                 "pages/frontbox", "pages/glossary", "prints/editions", "notebooks/write", "theme/__init__",
                 "theme/bundle", "math/typeset", "math/fonts"))).hexdigest()

extensions = [
    "myst_nb",
    "sphinx.ext.mathjax",
    "sitebuild.pages.stamps",  # stale-cache guard: a lesson re-executes when a file it reads changes
    "sitebuild.pages.ahead",  # the lessons to execute, executed side by side before Sphinx reads them
    "sitebuild.pages.extension",  # per-page: plotly.js only where needed, handout link, matrix scroll
    "sitebuild.pages.reading",  # the landing page's reading times, counted from the lessons
    "sitebuild.pages.lessonlist",  # the landing and 404 pages' lesson lists, from compute's lesson records
    "sitebuild.pages.claimroles",  # {claim} and {about} bind sentences (rendered as nothing); honest glued numbers
    "sitebuild.pages.glossary",  # each lesson links every glossary term from its first use
    "sitebuild.pages.frontbox",  # each lesson's front box: objectives, what to read first, time, addresses and QR codes
    "sitebuild.theme",  # the site's own theme: the page template, the lessons, the sections, the colour mode
    "sitebuild.progress",  # the build's progress: each page read, each lesson executed or taken from the cache
]

# Only index.md and posts/ are pages. ".*" covers .venv, .ci, .git and the
# .site.new-* staging folder of sitebuild.publish.site; docs/ holds the repository's guides.
exclude_patterns = [
    ".*", "_build", "site", "tests", "compute", "sitebuild", "tools", "benchmarks", "docs",
    "_static", "_templates", "README.md", "**/README.md", "**/__pycache__",
]

# A lesson's `:::{only} <tag>` blocks are published where the tag's condition holds for the models this build
# reads (compute.conditions: Part III's template families exist only in the generated stories).
from sitebuild.notebooks.write import conditions_holding  # noqa: E402

for _tag in conditions_holding():
    tags.add(_tag)  # noqa: F821 - Sphinx gives conf.py its tags

# --- MyST-NB: execute lessons at build time, cache outputs -------------------
nb_execution_mode = "cache"
nb_execution_cache_path = str(ROOT / "_build" / ".jupyter_cache")
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_render_markdown_format = "myst"  # $$ math in Markdown() outputs is typeset
nb_ipywidgets_js = {}  # the default loads require.js from a CDN and hides window.Plotly
# attrs_inline and attrs_block: a lesson marks what goes on its slides ([words]{.on-slide}, {.on-slide} before a
# paragraph) and its reading route ({.reading-route} before a list): sitebuild.decks.cut
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "substitution", "attrs_inline", "attrs_block"]

# --- Offline assets (see _static/vendor/README.md) --------------------------
# Relative to _static/: loads vendor/mathjax/es5/tex-chtml.js. Used only while building: sitebuild/math/typeset.py
# typesets each page's math in Chromium and writes it into the page, which then loads no MathJax.
mathjax_path = "mathjax-loader.js"
html_static_path = ["_static"]
html_css_files = ["page.css"]  # site.css, the code colours and print.css joined (sitebuild/theme/bundle.py)
html_js_files = [("site.js", {"defer": "defer"})]  # a page with figures: page-figures.js instead
html_copy_source = False  # no page links to its source
html_favicon = "_static/favicon.svg"  # a causal attention pattern; browsers ask for one

# --- Theme ------------------------------------------------------------------
# The site's own (sitebuild/theme): one page template, one style sheet (page.css), no framework.
html_theme = "lesson"
html_permalinks_icon = "#"  # a heading's link to itself

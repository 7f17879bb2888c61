"""Sphinx extension: what each HTML page gets, and which pages are left.

On `html-page-context`:

* Pages whose body holds a plotly figure get _static/figures.js, which shows
  each figure's picture drawn at build (sitebuild.figures.render) and fetches
  plotly.js to draw the live figure only when the reader first touches one;
  _static/plotly-keyboard.js,
  which makes plotly's SVG buttons and sliders reachable and operable by
  keyboard; _static/plotly-theme.js, which gives figures the page's
  light or dark colours; and _static/plotly-inspect.js, which writes a table
  cell's arithmetic below its figure when the cell is clicked or tapped.
* Each lesson page (posts/<stem>) shows a "PDF handout" and a "Jupyter
  notebook" link under its title, pointing to ../handouts/<stem>.pdf (made by
  sitebuild.prints) and ../notebooks/<stem>.ipynb (sitebuild.notebooks.write).
* A table of class `matrix` not already inside `<div class="matrix-wrap">`
  (compute.present.tables emits that pair) gets wrapped in one; site.css makes the
  wrapper scroll sideways, so a wide matrix never widens the page.

On `env-get-outdated`: the page of a deleted source file is removed from the
output, where Sphinx itself leaves it; else a deleted lesson would stay
published.

When the site is published (sitebuild.publish.site): every relative URL in 404.html
is made absolute from the site's base path (`_static/x.css` -> `/_static/x.css`,
or `/project/_static/x.css` with `--base /project/`). A static host serves
that page for a missing URL at any depth, where relative links would point
nowhere. Every other page links relatively and works under any base.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitebuild.decks import cut as decks
from sitebuild.prints.editions import APPENDIX, EDITIONS
from sitebuild.theme.bundle import FIGURE_SCRIPT

# plotly.js, relative to _static/: not loaded with the page; figures.js fetches it when the reader first
# touches a figure (its URL rides on the tag of the script figures.js is joined into, as data-plotly).
PLOTLY = "vendor/plotly/plotly-lesson.min.js"
# Scripts of pages with figures, relative to _static/, in the order they run; a page loads them joined, after site.js,
# as one file (FIGURE_SCRIPT, sitebuild/theme/bundle.py).
FIGURE_SCRIPTS = (
    "plotly-keyboard.js",  # keyboard access to plotly's buttons and sliders
    "plotly-menus.js",  # a row of buttons too wide for the screen is drawn as a drop-down (figures.js asks)
    "plotly-theme.js",  # figure colours follow the light/dark mode
    "plotly-inspect.js",  # a table figure's cell arithmetic by click, tap or keyboard, below the figure
    "figures.js",  # draws the live figure when the reader touches its picture (last: the others listen for it)
)

_WRAPPER = '<div class="matrix-wrap">'
_MATRIX_TABLE = re.compile(
    r'(?P<wrapped><div class="matrix-wrap">\s*)?<table\b[^>]*\bclass="[^"]*\bmatrix\b[^"]*"[^>]*>.*?</table>', re.S
)


def handout_href(pagename: str) -> str | None:
    """The handout URL relative to a lesson page, or None for pages that are not lessons."""
    parts = pagename.split("/")
    if len(parts) != 2 or parts[0] != "posts":
        return None
    return f"../handouts/{parts[1]}.pdf"


def notebook_href(pagename: str) -> str | None:
    """The lesson's notebook URL relative to its page, or None for pages that are not lessons."""
    if handout_href(pagename) is None:
        return None
    return f"../notebooks/{pagename.split('/')[1]}.ipynb"


def add_handout_link(body: str, href: str, notebook: str | None = None) -> str:
    """Put the handout link (and the notebook's) right after the page's first <h1> (or at the top)."""
    base = href.removesuffix(".pdf")   # the other prints (sitebuild.prints.editions) beside it
    links = " · ".join([f'<a href="{href}">PDF handout</a>'] + [f'<a href="{base}{suffix}.pdf">{words}</a>'
                                                               for suffix, words in list(EDITIONS.values())[1:]])
    if re.search(r'class="[^"]*\bprint-appendix\b', body):   # optional listings, printed apart
        links += f' · <a href="{base}{APPENDIX[0]}.pdf">{APPENDIX[1]}</a>'
    if notebook:
        links += f' · <a href="{notebook}" download>Jupyter notebook</a>'
    stem = base.rsplit("/", 1)[-1]
    links += f' · <a href="{decks.href(stem)}">Present (slides)</a> · <a href="{base}-slides.pdf">slides as PDF</a>'
    if re.search(rf'<ol class="[^"]*\b{decks.ROUTE}\b', body):     # a reading route: a deck of its own
        links += f' · <a href="{decks.route_href(stem)}">the reading route as slides</a>'
    link = f'<p class="handout-link">{links}</p>'
    at = body.find("</h1>")
    if at < 0:
        return link + body
    at += len("</h1>")
    return body[:at] + link + body[at:]


def wrap_matrices(body: str) -> str:
    """Wrap each <table class="matrix"> that has no wrapper in <div class="matrix-wrap">."""

    def wrap(m: re.Match) -> str:
        return m.group(0) if m.group("wrapped") else f"{_WRAPPER}{m.group(0)}</div>"

    return _MATRIX_TABLE.sub(wrap, body)


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if not body:
        return
    if "plotly-graph-div" in body:
        # The figure scripts and site.js joined (sitebuild/theme/bundle.py), deferred: run after parsing, before
        # DOMContentLoaded; plotly.js's URL rides on its tag for figures.js.
        app.add_js_file(FIGURE_SCRIPT, priority=100, loading_method="defer",
                        **{"data-plotly": context["pathto"]("_static/" + PLOTLY, 1)})
    body = wrap_matrices(body)
    href = handout_href(pagename)
    if href:
        body = add_handout_link(body, href, notebook_href(pagename))
    context["body"] = body


def _on_outdated(app, env, added, changed, removed) -> list[str]:
    outdir = Path(app.outdir)
    for docname in removed:
        (outdir / app.builder.get_target_uri(docname)).unlink(missing_ok=True)
    return []


_RELATIVE_URL = re.compile(r'(?P<attr>\b(?:href|src|action|data-content_root)=")(?![a-z][a-z0-9+.-]*:|[/#])(?:\./)?')


def root_relative(html: str, base: str = "/") -> str:
    """`html` (a page at the site root) with each relative href/src/action made absolute from `base`."""
    return _RELATIVE_URL.sub(lambda m: m.group("attr") + base, html)


def setup(app):
    # conf.py sets it to a hash of the extensions' code: a change rewrites every page
    app.add_config_value("sitebuild_extensions_hash", "", "env")
    app.connect("html-page-context", _on_page_context)
    app.connect("env-get-outdated", _on_outdated)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

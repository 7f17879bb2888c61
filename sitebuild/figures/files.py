"""Figures as files: each page's plotly figure data moved out of its HTML when the site is published.

compute.present.figures.figure_html leaves a figure's JSON in the page, in
`<script type="application/json" class="plotly-figure-spec" data-for=ID>`, where
a notebook and the handout printer read it. On the published site the browser
would parse that JSON with the page, before its first paint, for figures the
reader may never scroll to. So `externalize` writes each one to
`_static/figures/<sha256 of the JSON, 20 hex digits>.json` and leaves the
script empty with `data-src` pointing at the file (relative to the page):
_static/figures.js fetches it when it draws the figure. The name changes when
the data does, so no cache ever serves a stale figure, and two builds of one
commit give the same files.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

FOLDER = "_static/figures"
SPEC = re.compile(r'<script type="application/json" class="plotly-figure-spec" data-for="(?P<id>[^"]+)">'
                  r'(?P<json>.*?)</script>', re.S)


def file_name(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()[:20] + ".json"


def externalize_page(page: Path, site: Path) -> int:
    """Move one page's figure data into files; the number moved."""
    html = page.read_text()
    up = "../" * (len(page.relative_to(site).parts) - 1)
    moved = 0

    def move(m: re.Match) -> str:
        nonlocal moved
        name = file_name(m["json"])
        target = site / FOLDER / name
        if not target.exists():
            target.write_text(m["json"])
        moved += 1
        return (f'<script type="application/json" class="plotly-figure-spec" data-for="{m["id"]}" '
                f'data-src="{up}{FOLDER}/{name}"></script>')

    new = SPEC.sub(move, html)
    if moved:
        page.write_text(new)
    return moved


def externalize(site: Path) -> int:
    """Every page of the folder `site`: its figures' data into `_static/figures/`; the number of figures moved."""
    (site / FOLDER).mkdir(parents=True, exist_ok=True)
    return sum(externalize_page(p, site) for p in sorted(site.rglob("*.html")) if FOLDER not in p.as_posix())

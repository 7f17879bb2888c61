"""A warm build's output made the same as a cold one's: cache busters from the files, no stale search terms.

Cache-busting `?v=` on every page's links to _static/ scripts and styles: Sphinx writes `?v=<checksum>` itself, but only on the pages it rewrites and only
for files already in the output: an unchanged page keeps the checksum of a
script that has since changed (a returning reader's browser keeps the old
script), and a cold build leaves some links without one. Setting them all
after the build, from the files as published, makes every link current and a
warm build byte for byte the same as a cold one.

The search index: an incremental build keeps every word a page once had, with
an empty list of pages once the word is gone; those are dropped.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from sphinx.search import js_index

# href="../_static/site.css?v=5ede4bc5", src="_static/figures.js", data-plotly="..." or a box's module
# (data-src="...js", compute.present.widgets.box_module): the URL, and an old buster if any.
_STATIC_LINK = re.compile(r'((?:href|src|data-plotly|data-src)=")([^"?#]*_static/[^"?#]+\.(?:css|js))(?:\?v=[0-9a-f]+)?(")')


def checksum(path: Path) -> str:
    """The buster for one file: the first 8 hex digits of its sha256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def bust_page(html: str, page: Path, html_dir: Path) -> str:
    """`html` (the page at `page` under `html_dir`) with each local _static link's `?v=` set from its file."""
    folder = page.parent.relative_to(html_dir).as_posix()

    def relink(match: re.Match) -> str:
        url = match.group(2)
        target = html_dir / posixpath.normpath(posixpath.join(folder, url))
        if "://" in url or not target.is_file():
            return match.group(0)
        return f"{match.group(1)}{url}?v={checksum(target)}{match.group(3)}"

    return _STATIC_LINK.sub(relink, html)


def set_cache_busters(html_dir: Path) -> None:
    """Rewrite, in place, every page under `html_dir` (not _static/) whose busters are not current."""
    for page in sorted(html_dir.rglob("*.html")):
        if page.relative_to(html_dir).parts[0] == "_static":
            continue
        html = page.read_text(encoding="utf-8")
        busted = bust_page(html, page, html_dir)
        if busted != html:
            page.write_text(busted, encoding="utf-8")


def drop_stale_terms(html_dir: Path) -> None:
    """Remove the words that no page holds any more from `html_dir`/searchindex.js, in place."""
    index_file = html_dir / "searchindex.js"
    if not index_file.is_file():
        return
    index = js_index.loads(index_file.read_text(encoding="utf-8"))
    for key in ("terms", "titleterms"):
        index[key] = {word: pages for word, pages in index[key].items() if pages != []}
    index_file.write_text(js_index.dumps(index), encoding="utf-8")


def freshen(html_dir: Path) -> None:
    """Both steps, in place."""
    set_cache_busters(html_dir)
    drop_stale_terms(html_dir)

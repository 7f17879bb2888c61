"""A built page must never show MyST source: raw roles, directives or code fences mean a typo upstream.

An unclosed ``` fence, for one, turns everything after it into literal text
that still builds; this check makes such a build fail instead of publishing it.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitebuild.sitecheck import visible_text

RAW = re.compile(r"\{(?:glue(?::\w+)?|doc|ref|numref|eq|math|download|term|code-cell|list-table|figure)\}|```")


class RawMarkupError(Exception):
    """A built page shows MyST markup as text."""


def raw_markup(html: str) -> list[str]:
    """Each piece of raw markup in a page's visible text, with a little context."""
    text = visible_text(html)
    return [text[max(0, m.start() - 20):m.end() + 20] for m in RAW.finditer(text)]


def check_pages(html_dir: Path) -> None:
    """Raise RawMarkupError naming the first page (and its source) that shows raw markup."""
    for page in sorted(html_dir.rglob("*.html")):
        if "_static" in page.relative_to(html_dir).parts:
            continue
        found = raw_markup(page.read_text(encoding="utf-8"))
        if found:
            name = page.relative_to(html_dir).with_suffix("").as_posix()
            raise RawMarkupError(f"{name}.html shows raw markup as text ({found[0]!r}): an unclosed code fence "
                                 f"or a mistyped role or directive in {name}.md?")

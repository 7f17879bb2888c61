"""The readers' guide on the site: docs/readers.md, the repository's guide for readers and teachers, as the page
guide.html, rendered at build as it is written (CommonMark and tables), linked from the landing page. Its links
to the repository's other files become plain words: those files are not on the site."""
from __future__ import annotations

import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

from sitebuild.theme import FIRST_SCREEN_SCRIPT

SOURCE = "docs/readers.md"
PAGE = "guide.html"
SITE = "Next-word prediction, computed"
OFF_SITE = re.compile(r'<a href="(?!https?://|#)[^"]*">(.*?)</a>', re.S)


def sections(body: str) -> str:
    """The guide's HTML with its opening and each part under a second-level heading in a <section> of its own (the
    sections after the first screen are skipped until the first frame is drawn: guide.css)."""
    return "".join(f"<section>\n{part}</section>\n" for part in re.split(r"(?=<h2>)", body) if part.strip())


def guide_html(markdown: str) -> str:
    """The guide's Markdown as the site's page."""
    body = sections(OFF_SITE.sub(r"\1", MarkdownIt("commonmark").enable("table").render(markdown)))
    title = re.search(r"<h1>(.*?)</h1>", body).group(1)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: {html.escape(SITE)}</title>
<link rel="icon" href="_static/favicon.svg" type="image/svg+xml">
<script>{FIRST_SCREEN_SCRIPT}</script>
<link rel="stylesheet" href="_static/guide.css">
</head>
<body><header><a href="index.html">{html.escape(SITE)}</a></header>
<main>
{body}</main>
</body></html>
"""


def write_guide(root: Path, html_dir: Path) -> Path | None:
    """guide.html in `html_dir`, from the repository's docs/readers.md; None for a project without the guide (the
    tests' miniature sites): the site's own test holds that its landing page links the page."""
    source = root / SOURCE
    if not source.is_file():
        return None
    page = html_dir / PAGE
    page.write_text(guide_html(source.read_text()))
    return page

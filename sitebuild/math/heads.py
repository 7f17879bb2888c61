"""Each page's <head> made lighter for its first screen, after Sphinx has written it.

* Sphinx's search scripts (searchtools.js, language_data.js and the search
  index, 80 kB together and growing with the lessons) are render-blocking
  scripts in every page's <head>: pydata-sphinx-theme loads them everywhere for
  its search-as-you-type, which the theme's options leave off (the search box
  opens search.html, which loads them itself). They are dropped from every
  page but search.html.
* The theme's first style sheet, `styles/theme.css`, is nothing but
  `@import "../basic.css"`: a second sheet the browser finds only once the
  first has arrived, one more round trip before the first paint. The page
  links basic.css itself, when theme.css is still only that import.
* The header's icons are drawn with the theme's icon font (cut down by
  sitebuild.math.iconfont) with `font-display: block`: blank until the font
  arrives, and the browser asks for it only once the style sheets are parsed
  and the header laid out. The page preloads it.

A page already done is left as it is (the step runs on every build, over pages
Sphinx did not rewrite too).
"""

from __future__ import annotations

import re
from pathlib import Path

from sitebuild.math.iconfont import FONT

SEARCH_PAGE = "search.html"
_SEARCH_SCRIPTS = re.compile(r'\n?[ \t]*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
                             r'searchindex\.js)(?:\?[^"]*)?"></script>')
_THEME_SHEET = re.compile(r'<link href="(?P<up>[^"]*)_static/styles/theme\.css(?:\?[^"]*)?" rel="stylesheet" />')
_IMPORT_ONLY = re.compile(r'\s*(?:/\*.*?\*/\s*)*@import\s+(?:url\()?"\.\./basic\.css"\)?;\s*', re.S)


def theme_sheet_is_basic(html_dir: Path) -> bool:
    """Whether the theme's theme.css is only an import of basic.css (so linking basic.css is the same)."""
    sheet = html_dir / "_static" / "styles" / "theme.css"
    return sheet.is_file() and _IMPORT_ONLY.fullmatch(sheet.read_text()) is not None


def font_preload(up: str) -> str:
    return f'<link rel="preload" href="{up}{FONT.as_posix()}" as="font" type="font/woff2" crossorigin>'


def lighten(html: str, page_name: str, basic: bool) -> str:
    """One page's HTML with the search scripts dropped (but on the search page), basic.css linked in place
    of the sheet that imports it (`basic`), and the icon font preloaded."""
    if page_name != SEARCH_PAGE:
        html = _SEARCH_SCRIPTS.sub("", html)
    sheet = _THEME_SHEET.search(html)
    if sheet is None:
        return html
    up = sheet["up"]
    preload = font_preload(up)
    if preload in html:
        return html
    link = f'<link href="{up}_static/basic.css" rel="stylesheet" />' if basic else sheet.group(0)
    return html[:sheet.start()] + preload + "\n" + link + html[sheet.end():]


def lighten_pages(html_dir: Path) -> int:
    """Every page of `html_dir` lightened (lighten); the number changed."""
    basic = theme_sheet_is_basic(html_dir)
    changed = 0
    for page in sorted(html_dir.rglob("*.html")):
        if page.relative_to(html_dir).parts[0] == "_static":
            continue
        html = page.read_text(encoding="utf-8")
        new = lighten(html, page.name if page.parent == html_dir else "", basic)
        if new != html:
            page.write_text(new, encoding="utf-8")
            changed += 1
    return changed

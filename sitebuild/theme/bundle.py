"""One style sheet for every page and one script for each, joined from their parts when the site is built.

Each file a page asks for before its first paint is a round trip on a phone's network, so a page asks for two:

    _static/page.css          the code colours of both modes (sitebuild.theme.code_colours), site.css, and
                              print.css inside @media print: the order they had as three files
    _static/page-figures.js   a page with figures: site.js, then the figure scripts
                              (sitebuild.pages.extension.FIGURE_SCRIPTS), in the order they ran as separate files
    _static/site.js           a page without figures: the site's behaviour alone, as it is
    _static/page-search.js    the search page: Sphinx's search scripts (as Sphinx wrote them into the site), then
                              site.js; the search index is loaded after it

The first two are deferred: they run once the page is parsed, before DOMContentLoaded, and the parser never waits
for them. The search page's runs where it stands, as Sphinx's scripts did: joined, one of them calling another's
names at once (as a deferred script finds the page parsed) would meet them not yet defined.

The parts stay files of their own under _static/ (the figure pictures are drawn with site.css, the decks load the
figure scripts one by one). Joined they run as they did apart: the site's are immediately invoked functions,
Sphinx's share names between its files on purpose (as separate classic scripts do, through the global scope).
"""
from __future__ import annotations

from pathlib import Path

STYLE = "page.css"
FIGURE_SCRIPT = "page-figures.js"
SEARCH_SCRIPT = "page-search.js"
SITE_SCRIPT = "site.js"
PRINT = "print.css"
# Sphinx's scripts of the search page, in the order its own template gave them.
SEARCH_SCRIPTS = ("documentation_options.js", "doctools.js", "sphinx_highlight.js", "searchtools.js",
                  "language_data.js")


def style_sheet(static: Path, code: str) -> str:
    """The page's one style sheet from the source folder `static` and the code colours `code`."""
    site = (static / "site.css").read_text(encoding="utf-8")
    paper = (static / PRINT).read_text(encoding="utf-8")
    return f"{code.rstrip()}\n\n{site.rstrip()}\n\n@media print {{\n{paper.rstrip()}\n}}\n"


def joined(parts: list[Path]) -> str:
    """Scripts as one, in order, each headed by its file's name."""
    return "".join(f"// _static/{p.name}\n{p.read_text(encoding='utf-8').rstrip()}\n;\n" for p in parts)


def figure_script(static: Path, figure_scripts: tuple[str, ...]) -> str:
    """site.js, then the figure scripts, as one script."""
    return joined([static / name for name in (SITE_SCRIPT, *figure_scripts)])


def search_script(static: Path, written: Path) -> str:
    """Sphinx's search scripts as it wrote them into the site (`written`: its _static/), then site.js."""
    return joined([*(written / name for name in SEARCH_SCRIPTS), static / SITE_SCRIPT])

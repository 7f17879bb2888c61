"""Math typeset when the site is built, not in the reader's browser.

Each page with math is opened once in Chromium, where the site's own MathJax
(_static/vendor/mathjax, CommonHTML output with its assistive MathML for
screen readers) typesets it as it would for a reader. Every formula MathJax
found, in the prose or in a computed output, is then written into the page in
place of its TeX, with the style sheet MathJax made for the page (the
fonts inside it: sitebuild/math/fonts.py), and the page's MathJax scripts
are dropped: a reader's browser loads no math engine and fetches no font,
and nothing reflows when the math appears.

A page already done (it no longer loads MathJax) is left as it is, so a warm
build typesets only the pages Sphinx rewrote.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from sitebuild import browser, progress
from sitebuild.math import fonts
from sitebuild.serve import serve

LOADER = "mathjax-loader.js"
_SCRIPTS = re.compile(r'\s*<script>window\.MathJax = .*?</script>|\s*<script[^>]*mathjax-loader\.js[^>]*></script>',
                      re.S)
# MathJax's menu is not on the page, so its keyboard stop and counter go.
_MENU_ATTRS = re.compile(r'<mjx-container([^>]*?) (?:tabindex="0"|ctxtmenu_counter="\d+")')

# Every section laid out from the start (site.css skips those off screen until site.js marks the page
# laid out): the math is measured where it will be.
WHOLE_PAGE_JS = """
new MutationObserver((changes, observer) => {
  if (!document.documentElement) return;
  document.documentElement.classList.add('page-laid-out');
  observer.disconnect();
}).observe(document, {childList: true});
"""

# Right after the math's style sheet: its fonts (inside it, as data) start loading while the page is parsed. Left
# to load when the first layout asks for them, they arrived a frame after it, and the lines holding math moved
# (their heights are the fonts' until then a stand-in's).
LOAD_FONTS = '<script>document.fonts.forEach(function (f) { if (/^"?MJX/.test(f.family)) f.load(); });</script>'

TYPESET_JS = """async () => {
  await window.siteMath;
  const items = [];
  for (const item of MathJax.startup.document.math) {
    items.push({open: item.start.delim, tex: item.math, close: item.end.delim, html: item.typesetRoot.outerHTML});
  }
  const style = document.getElementById('MJX-CHTML-styles');
  return {items, css: style ? style.textContent : ''};
}"""


class MathError(Exception):
    """A page's math could not be typeset or put in place."""


def pages_with_math(html_dir: Path) -> list[Path]:
    """The pages that still load MathJax in the reader's browser."""
    return [p for p in sorted(html_dir.rglob("*.html"))
            if p.relative_to(html_dir).parts[0] != "_static" and LOADER in p.read_text(encoding="utf-8")]


def without_menu(container: str) -> str:
    """A typeset formula without the attributes of MathJax's (absent) context menu."""
    while True:
        shorter = _MENU_ATTRS.sub(r"<mjx-container\1", container)
        if shorter == container:
            return container
        container = shorter


def place_math(page_html: str, items: list[dict], css: str, server: str, to_root: str, name: str,
               read: Callable[[str], bytes]) -> str:
    """`page_html` with each formula's TeX (in document order) replaced by its typeset form, MathJax's
    style sheet in the head with its fonts inside it (fonts.inline; `read(url)` gives a font file's bytes, its
    URL relative to the page), and MathJax's scripts removed."""
    out, pos = [], 0
    for item in items:
        source = html.escape(item["open"] + item["tex"] + item["close"], quote=False)
        at = page_html.find(source, pos)
        if at < 0:
            raise MathError(f"{name}: the formula {item['tex'][:60]!r} typeset by MathJax is not in the page's HTML")
        out.append(page_html[pos:at])
        out.append(without_menu(item["html"]))
        pos = at + len(source)
    out.append(page_html[pos:])
    done = "".join(out)
    try:
        css = fonts.inline(css.replace(server, to_root), read)
    except (OSError, fonts.FontError) as err:
        raise MathError(f"{name}: its math's fonts could not be put in the page: {err}") from err
    style = f'<style id="MJX-CHTML-styles">{css}</style>\n{LOAD_FONTS}\n'
    return _SCRIPTS.sub("", done).replace("</head>", style + "</head>", 1)


def typeset_pages(html_dir: Path) -> list[str]:
    """Typeset every page under `html_dir` that still loads MathJax, in place. Returns the pages done.
    Raises MathError."""
    pages = pages_with_math(html_dir)
    if not pages:
        return []
    from playwright.sync_api import sync_playwright

    done = []
    progress.expect(len(pages))
    with serve(html_dir) as base, sync_playwright() as pw:
        chromium = browser.launch(pw)
        try:
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            context.route("**/figures.js*", lambda route: route.abort())  # figures are not needed here
            context.add_init_script(WHOLE_PAGE_JS)
            for path in pages:
                name = path.relative_to(html_dir).as_posix()
                page = context.new_page()
                try:
                    page.goto(base + name, wait_until="load")
                    result = page.evaluate(TYPESET_JS)
                finally:
                    page.close()
                if any("mjx-merror" in item["html"] for item in result["items"]):
                    raise MathError(f"{name}: MathJax reports a TeX error")
                to_root = "../" * (len(Path(name).parts) - 1)
                folder = path.parent
                path.write_text(place_math(path.read_text(encoding="utf-8"), result["items"], result["css"],
                                           base, to_root, name, lambda url: (folder / url).read_bytes()),
                                encoding="utf-8")
                done.append(name)
                progress.advance(name)
        finally:
            chromium.close()
    return done

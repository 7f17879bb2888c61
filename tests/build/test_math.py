"""Math is typeset when the site is built (sitebuild.math.typeset): every page carries its formulas as
MathJax's CommonHTML with assistive MathML, no raw TeX, loads no math engine, and holds its math's fonts
(sitebuild.math.fonts): every character its math draws is in the page's own font for it."""

from __future__ import annotations

import base64
import io
import re

from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont

from sitebuild.math import fonts
from sitebuild.sitecheck import html_pages

TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\frac|\\operatorname|\\begin\{")


def test_no_page_loads_mathjax_and_every_formula_is_typeset(built_site):
    formulas = 0
    for page in html_pages(built_site):
        html = page.read_text()
        name = page.relative_to(built_site).as_posix()
        assert "mathjax-loader" not in html and "tex-chtml" not in html and "window.MathJax" not in html, name
        soup = BeautifulSoup(html, "html.parser")
        for math in soup.select(".math"):
            container = math.find("mjx-container")
            assert container is not None, (name, math.get_text()[:60])
            # a screen reader gets MathML; the drawn glyphs are hidden from it
            assert container.find("mjx-assistive-mml") and container.find("math"), (name, math.get_text()[:60])
            assert not container.has_attr("tabindex")  # no stop for a menu that is not there
            formulas += 1
        for tag in soup(["script", "style", "pre", "code", "mjx-container"]):
            tag.decompose()
        assert not TEX.search(soup.get_text(" ")), (name, TEX.search(soup.get_text(" ")))
        if soup.select(".math"):
            assert '<style id="MJX-CHTML-styles">' in html and "rel=\"preload\"" not in html, name
    assert formulas > 100


FACE = re.compile(r"font-family: ([\w-]+);\n  src: url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)")
CHAR = re.compile(r'mjx-c\.mjx-c([0-9A-F]+)((?:\.TEX-[A-Z0-9]+)?)::before\s*\{[^}"]*content: "((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}) ?|\\(.)")
FAMILY = re.compile(r"^\.(MJX-TEX|TEX-[A-Z0-9]+) \{\n  font-family: ([^;]+);", re.M)


def test_every_character_the_math_draws_is_in_the_page_s_own_font_for_it(built_site):
    """Read from the fonts themselves: each mjx-c of the page (its character and its class) against the cmap of
    the first font of its class's list that the page holds (the fonts MathJax's style sheet names, MJXZERO a
    zero-width font first in every list)."""
    pages = 0
    for page in html_pages(built_site):
        html = page.read_text()
        style = re.search(r'<style id="MJX-CHTML-styles">(.*?)</style>', html, re.S)
        if not style:
            continue
        css, name = style.group(1), page.relative_to(built_site).as_posix()
        assert "url(\"" not in css and ".woff" not in css, name                 # no font to fetch
        held = {family: set(TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap())
                for family, data in FACE.findall(css)}
        lists = {cls: [f.strip() for f in names.split(",") if f.strip() != "MJXZERO"]
                 for cls, names in FAMILY.findall(css)}
        # the text each (character class, font class) is drawn as: the rule's content, its escapes read
        rules = {(code, cls.lstrip(".") or "MJX-TEX"): ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1)
                                                                  else m.group(2), text)
                 for code, cls, text in CHAR.findall(css)}
        drawn = set()                                 # (character class, font class) of each mjx-c of the page
        for c in BeautifulSoup(html, "html.parser").select("mjx-c[class]"):
            code = next(k[len("mjx-c"):] for k in c["class"] if re.fullmatch(r"mjx-c[0-9A-F]+", k))
            drawn.add((code, next((k for k in c["class"] if k.startswith("TEX-")), "MJX-TEX")))
        assert drawn <= set(rules), (name, sorted(drawn - set(rules))[:5])   # (a deck may carry the style alone)
        for code, cls in sorted(drawn):
            family = next((f for f in lists[cls] if f in held), None)
            missing = [hex(ord(ch)) for ch in rules[code, cls] if ch != "\xa0" and ord(ch) not in held.get(family, ())]
            assert family and not missing, (name, code, cls, family, missing)
        assert set(held) <= set(fonts.drawn(css)), name
        pages += bool(drawn)
    assert pages >= 4

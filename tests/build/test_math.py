"""Math is typeset when the site is built (sitebuild.math.typeset): every page carries its formulas as
MathJax's CommonHTML with assistive MathML, no raw TeX, and loads no math engine."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup

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
            assert '<style id="MJX-CHTML-styles">' in html and 'rel="preload"' in html, name
    assert formulas > 100

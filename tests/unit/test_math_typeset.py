"""sitebuild.math.typeset.place_math: typeset formulas put in place of their TeX, in order, with MathJax's
style sheet and without its scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitebuild.math.typeset import MathError, place_math

SERVER = "http://127.0.0.1:8123/"
PAGE = """<html><head>
<script>window.MathJax = {"options": {}}</script>
<script defer="defer" src="../_static/mathjax-loader.js?v=1234abcd"></script>
</head><body><p>Rows <span class="math notranslate nohighlight">\\(e_i\\)</span> and
<span class="math notranslate nohighlight">\\(a &lt; b\\)</span>, again <span class="math">\\(e_i\\)</span>.</p>
<div class="math notranslate nohighlight">\\[x &amp; y\\]</div></body></html>"""


def _item(tex, n, open_="\\(", close="\\)"):
    return {"open": open_, "tex": tex, "close": close,
            "html": f'<mjx-container class="MathJax" jax="CHTML" tabindex="0" ctxtmenu_counter="{n}">F{n}</mjx-container>'}


ITEMS = [_item("e_i", 0), _item("a < b", 1), _item("e_i", 2), _item("x & y", 3, "\\[", "\\]")]


FONTS = Path(__file__).resolve().parents[2] / "_static/vendor/mathjax/es5/output/chtml/fonts/woff-v2"


def read(url: str) -> bytes:
    return (FONTS / url.rsplit("/", 1)[-1]).read_bytes()


def test_each_formula_replaces_its_own_tex_in_order():
    fonts = "_static/vendor/mathjax/es5/output/chtml/fonts/woff-v2"
    css = (".MJX-TEX {\n  font-family: MJXZERO, MJXTEX;\n}\n"
           f'@font-face /* 0 */ {{\n  font-family: MJXTEX;\n  src: url("{SERVER}{fonts}/MathJax_Main-Regular.woff") format("woff");\n}}\n'
           f'@font-face /* 1 */ {{\n  font-family: MJXTEX-B;\n  src: url("{SERVER}{fonts}/MathJax_Main-Bold.woff") format("woff");\n}}\n'
           'mjx-c.mjx-c3D::before {\n  padding: 0.583em 0.778em 0.082em 0;\n  content: "=";\n}')
    asked = []
    out = place_math(PAGE, ITEMS, css, SERVER, "../", "posts/x.html", lambda url: asked.append(url) or read(url))
    body = out.split("<body>")[1]
    assert [body.index(f">F{n}<") for n in range(4)] == sorted(body.index(f">F{n}<") for n in range(4))
    assert "\\(" not in out and "\\[" not in out  # no TeX left
    assert 'class="math notranslate nohighlight"><mjx-container class="MathJax" jax="CHTML">F1</mjx-container>' in out
    assert "mathjax-loader" not in out and "window.MathJax" not in out
    assert "tabindex" not in out and "ctxtmenu_counter" not in out  # no menu on the page: no tab stop for it
    head = out.split("</head>")[0]
    # the fonts are read relative to the page, and the one the math draws in is inside the page: nothing to fetch
    assert asked == [f"../{fonts}/MathJax_Main-Regular.woff", f"../{fonts}/MathJax_Main-Bold.woff"]
    assert "font-family: MJXTEX;\n  src: url(data:font/woff2;base64," in head
    assert ".woff" not in head and "MJXTEX-B;" not in head and "preload" not in head
    assert head.index("MJX-CHTML-styles") < head.index("f.load()")   # loaded from the start, not at first use


def test_a_missing_font_file_is_an_error_naming_the_page():
    css = '@font-face {\n  font-family: MJXTEX;\n  src: url("../gone/MathJax_Main-Regular.woff") format("woff");\n}'

    def gone(url):
        raise FileNotFoundError(2, "No such file or directory", url)

    with pytest.raises(MathError, match=r"posts/x\.html: its math's fonts could not be put in the page: .*gone/Math"):
        place_math(PAGE, ITEMS, css, SERVER, "../", "posts/x.html", gone)


def test_a_formula_missing_from_the_page_is_an_error_naming_it():
    with pytest.raises(MathError, match=r"posts/x\.html: the formula 'z\^2'"):
        place_math(PAGE, [_item("z^2", 0)], "", SERVER, "../", "posts/x.html", read)

"""sitebuild.math.typeset.place_math: typeset formulas put in place of their TeX, in order, with MathJax's
style sheet and without its scripts."""

from __future__ import annotations

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


def test_each_formula_replaces_its_own_tex_in_order():
    fonts = "_static/vendor/mathjax/es5/output/chtml/fonts/woff-v2"
    css = (f'@font-face /* 0 */ {{\n  font-family: MJXTEX;\n  src: url("{SERVER}{fonts}/Main.woff") format("woff");\n}}\n'
           f'@font-face /* 1 */ {{\n  font-family: MJXTEX-B;\n  src: url("{SERVER}{fonts}/Bold.woff") format("woff");\n}}')
    out = place_math(PAGE, ITEMS, css, SERVER, "../", "posts/x.html", fonts=["MJXTEX"])
    body = out.split("<body>")[1]
    assert [body.index(f">F{n}<") for n in range(4)] == sorted(body.index(f">F{n}<") for n in range(4))
    assert "\\(" not in out and "\\[" not in out  # no TeX left
    assert 'class="math notranslate nohighlight"><mjx-container class="MathJax" jax="CHTML">F1</mjx-container>' in out
    assert "mathjax-loader" not in out and "window.MathJax" not in out
    assert "tabindex" not in out and "ctxtmenu_counter" not in out  # no menu on the page: no tab stop for it
    head = out.split("</head>")[0]
    assert f'url("../{fonts}/Main.woff")' in head and f'url("../{fonts}/Bold.woff")' in head
    # only the font the page uses is fetched ahead, so no line moves when it arrives
    assert f'<link rel="preload" href="../{fonts}/Main.woff" as="font" type="font/woff" crossorigin>' in head
    assert "Bold.woff\" as=" not in head


def test_a_formula_missing_from_the_page_is_an_error_naming_it():
    with pytest.raises(MathError, match=r"posts/x\.html: the formula 'z\^2'"):
        place_math(PAGE, [_item("z^2", 0)], "", SERVER, "../", "posts/x.html")

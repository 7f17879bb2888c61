"""sitebuild.math.fonts: the characters MathJax's style sheet draws in each font, and each font cut to them and
written into the style sheet, so a page fetches no font."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from sitebuild.math import fonts

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "_static/vendor/mathjax/es5/output/chtml/fonts/woff-v2"
MAIN, ITALIC, SIZE4, FRAKTUR = (f"MathJax_{n}.woff" for n in ("Main-Regular", "Math-Italic", "Size4-Regular",
                                                             "Fraktur-Regular"))

# The shape of MathJax's CommonHTML style sheet: fonts, the classes that name them, one rule per character.
CSS = f"""
.MJX-TEX {{
  font-family: MJXZERO, MJXTEX;
}}
.TEX-I {{
  font-family: MJXZERO, MJXTEX-I;
}}
.TEX-FR {{
  font-family: MJXZERO, MJXTEX-FR;
}}
mjx-stretchy-v mjx-c, mjx-stretchy-h mjx-c {{
  font-family: MJXZERO, MJXTEX-S4, MJXTEX ! important;
}}
@font-face /* 1 */ {{
  font-family: MJXTEX;
  src: url("../fonts/{MAIN}") format("woff");
}}
@font-face /* 2 */ {{
  font-family: MJXTEX-I;
  src: url("../fonts/{ITALIC}") format("woff");
}}
@font-face /* 3 */ {{
  font-family: MJXTEX-S4;
  src: url("../fonts/{SIZE4}") format("woff");
}}
@font-face /* 4 */ {{
  font-family: MJXTEX-FR;
  src: url("../fonts/{FRAKTUR}") format("woff");
}}
mjx-c.mjx-c1D465.TEX-I::before {{
  padding: 0.442em 0.572em 0.011em 0;
  content: "x";
}}
mjx-c.mjx-c3D::before {{
  padding: 0.583em 0.778em 0.082em 0;
  content: "=";
}}
mjx-c.mjx-c2212::before {{
  padding: 0.583em 0.778em 0.082em 0;
  content: "\\2212";
}}
mjx-stretchy-v.mjx-c28 mjx-beg mjx-c::before {{
  content: "\\239B";
}}
mjx-c.mjx-c7B.TEX-I::before {{
  padding: 0.75em 0.5em 0.25em 0;
  content: "{{";
}}
mjx-c.mjx-c7D.TEX-I::before {{
  padding: 0.75em 0.5em 0.25em 0;
  content: "}}";
}}
"""


def read(url: str) -> bytes:
    return (FONTS / url.rsplit("/", 1)[-1]).read_bytes()


def cmap(data: bytes) -> set[int]:
    return set(TTFont(io.BytesIO(data)).getBestCmap())


def test_each_character_goes_to_the_font_its_class_names():
    drawn = fonts.drawn(CSS)
    assert drawn["MJXTEX-I"] == {ord("x"), ord("{"), ord("}")}    # classed: its class's font, braces read as text
    assert {ord("="), 0x2212} <= drawn["MJXTEX"]                   # no class, an escape read: the default font
    assert 0x239B in drawn["MJXTEX-S4"] and 0x239B in drawn["MJXTEX"]   # a stretched part: the stretchy fonts
    assert "MJXTEX-FR" not in drawn                                # a font no character is drawn in
    assert ord("x") not in drawn["MJXTEX"]                         # not where its class does not send it


def test_a_cut_font_holds_exactly_the_characters_asked_that_it_has():
    main = read(MAIN)
    asked = {ord("="), 0x2212, ord("x"), 0x1D465}                  # the last is Math-Italic's, not Main's
    cut = fonts.cut(main, asked)
    assert cut[:4] == b"wOF2"
    assert cmap(cut) == asked & cmap(main) == {ord("="), 0x2212, ord("x")}
    assert len(cut) < len(main) / 4
    assert fonts.cut(main, {0x1D465}) is None                      # none of them: no font


def test_a_damaged_font_is_an_error_naming_it():
    with pytest.raises(fonts.FontError, match=r"a math font \(sha256 [0-9a-f]{12}\.\.\.\) could not be cut"):
        fonts.cut(read(MAIN)[:200], {ord("=")})


def test_the_style_sheet_holds_each_font_drawn_in_and_fetches_none():
    out = fonts.inline(CSS, read)
    assert ".woff\")" not in out and "url(\"../" not in out        # no file left to fetch
    faces = dict(re.findall(r"font-family: ([\w-]+);\n  src: url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)", out))
    assert set(faces) == {"MJXTEX", "MJXTEX-I", "MJXTEX-S4"}          # Fraktur draws nothing here: gone
    assert cmap(base64.b64decode(faces["MJXTEX-I"])) == {ord("x"), ord("{"), ord("}")} & cmap(read(ITALIC))
    assert cmap(base64.b64decode(faces["MJXTEX"])) == {ord("="), 0x2212}       # the stretched part: Main has none
    assert cmap(base64.b64decode(faces["MJXTEX-S4"])) == {0x239B}
    assert "mjx-c.mjx-c3D::before" in out                          # the rest of the sheet as it was


def test_a_cut_font_is_the_same_bytes_whatever_the_clock_says(monkeypatch):
    """Two builds of one source are byte-identical: fontTools dates a font it saves unless told not to."""
    from fontTools.ttLib.tables import _h_e_a_d

    asked = {ord("="), ord("x")}
    fonts._cut.cache_clear()
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_000_000)
    first = fonts.cut(read(MAIN), asked)
    fonts._cut.cache_clear()
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_100_000_000)
    assert fonts.cut(read(MAIN), asked) == first

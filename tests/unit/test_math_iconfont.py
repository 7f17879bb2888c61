"""sitebuild.math.iconfont: the theme's solid icon font keeps exactly the icons the pages and scripts name."""

from __future__ import annotations

import shutil

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import _h_e_a_d as head_table

from sitebuild.math.iconfont import FONT, STYLE, icon_codepoints, subset_icon_font, theme_font


def test_icon_classes_and_their_aliases_map_to_codepoints():
    css = '.fa-music{--fa:"\\f001"}.fa-magnifying-glass,.fa-search{--fa:"\\f002"}'
    assert icon_codepoints(css) == {"fa-music": 0xF001, "fa-magnifying-glass": 0xF002, "fa-search": 0xF002}


def test_the_font_keeps_the_named_icons_only(tmp_path, monkeypatch):
    import pydata_sphinx_theme  # noqa: F401  (the theme's font and style sheet are the inputs)
    theme_static = theme_font().parents[3]
    for part in (FONT, STYLE):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(theme_static / part.relative_to("_static"), tmp_path / part)
    (tmp_path / "page.html").write_text('<i class="fa-solid fa-sun"></i><span class="fa-solid fa-list"></span>')
    (tmp_path / "_static" / "menu.js").write_text('el.className = "fa-solid fa-xmark";')
    whole = len(TTFont(tmp_path / FONT).getBestCmap())
    assert subset_icon_font(tmp_path) == 3
    assert set(TTFont(tmp_path / FONT).getBestCmap()) == {0xF185, 0xF03A, 0xF00D} and whole > 1000
    assert (tmp_path / FONT).stat().st_size < 5_000
    # the same bytes from a cut a minute later (the font carries no build time): builds stay reproducible
    first = (tmp_path / FONT).read_bytes()
    shutil.copy2(theme_static / FONT.relative_to("_static"), tmp_path / FONT)
    later = head_table.timestampNow() + 60
    monkeypatch.setattr(head_table, "timestampNow", lambda: later)
    subset_icon_font(tmp_path)
    assert (tmp_path / FONT).read_bytes() == first
    # a page that starts to use another icon gets it on the next build (cut from the whole font again)
    (tmp_path / "page2.html").write_text('<i class="fa-solid fa-moon"></i>')
    assert subset_icon_font(tmp_path) == 4 and 0xF186 in TTFont(tmp_path / FONT).getBestCmap()

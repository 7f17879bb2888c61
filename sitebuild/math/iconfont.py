"""The theme's icon font cut down to the icons the site shows.

pydata-sphinx-theme draws its header and sidebar icons (search, light/dark,
contents, arrows) with Font Awesome's solid font: 115 kB compressed, the
largest single file of a page without figures, for about a dozen glyphs. The
build keeps only the glyphs of the `fa-*` icon classes that the pages and the
theme's scripts name (codepoints from the theme's style sheet) and writes the
font back in place, as WOFF2.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

FONT = Path("_static/vendor/fontawesome/webfonts/fa-solid-900.woff2")
STYLE = Path("_static/styles/pydata-sphinx-theme.css")
# .fa-magnifying-glass,.fa-search{--fa:"\f002"}
_ICON_RULE = re.compile(r'((?:\.fa-[\w-]+,?)+)\{--fa:"\\([0-9a-f]+)"\}')
_ICON_CLASS = re.compile(r"\bfa-[a-z0-9-]+")


def icon_codepoints(style: str) -> dict[str, int]:
    """Each icon class of the style sheet ("fa-search") and its codepoint."""
    out = {}
    for names, hex_code in _ICON_RULE.findall(style):
        for name in names.split(","):
            out[name.lstrip(".")] = int(hex_code, 16)
    return out


def classes_named(html_dir: Path) -> set[str]:
    """Every fa-* class named by a page or by one of the theme's scripts."""
    texts = [p.read_text(encoding="utf-8") for p in html_dir.rglob("*.html")
             if p.relative_to(html_dir).parts[0] != "_static"]
    texts += [p.read_text(encoding="utf-8", errors="replace") for p in (html_dir / "_static").rglob("*.js")]
    return {name for text in texts for name in _ICON_CLASS.findall(text)}


def theme_font() -> Path:
    """The theme's own, whole icon font (the build's copy may be cut already)."""
    import pydata_sphinx_theme
    return Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static" / FONT.relative_to("_static")


def subset_icon_font(html_dir: Path) -> int:
    """Cut `html_dir`'s solid icon font down to the icons named; returns how many glyphs are kept (0: no font).
    Always cut from the theme's whole font, so an icon a page starts to use is never missing."""
    font_path, style_path = html_dir / FONT, html_dir / STYLE
    if not font_path.is_file() or not style_path.is_file():
        return 0
    from fontTools import subset
    from fontTools.ttLib import TTFont

    codes = icon_codepoints(style_path.read_text(encoding="utf-8"))
    wanted = sorted({codes[name] for name in classes_named(html_dir) if name in codes})
    font = TTFont(io.BytesIO(theme_font().read_bytes()), recalcTimestamp=False)  # same bytes every build
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    if font_path.read_bytes() != out.getvalue():
        font_path.write_bytes(out.getvalue())
    return len(wanted)

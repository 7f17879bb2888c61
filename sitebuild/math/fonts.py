"""A page's math fonts inside the page: each font its math uses, cut to the characters its math draws.

MathJax's CommonHTML output draws each character as a box whose size its style sheet states (the character's
padding), filled by a web font: `mjx-c.mjx-c1D465.TEX-I::before { padding: ...; content: "\\1D465" }`, where
the class `.TEX-I` names the font (`font-family: MJXZERO, MJXTEX-I`) and a character with no such class is drawn
in the page's default math font (`.MJX-TEX`) or, stretched, in the sizes' fonts. Fetched as files, the fonts were
six requests before a lesson's first paint, and the first screen was ready only once they had all arrived; here
each used font is cut (fontTools' subsetter) to the characters the style sheet gives its classes and written into
its @font-face as data (WOFF2), so a page fetches no font at all.

    families(css)                           # {font family: its file's URL}, from the @font-face rules
    drawn(css)                              # {font family: the characters drawn in it}
    cut(font, chars)                        # the font's bytes, only those characters, as WOFF2
    inline(css, read)                       # css with each font the math draws in as data, the others gone
"""
from __future__ import annotations

import base64
import hashlib
import io
import logging
import re
from collections.abc import Callable
from functools import lru_cache

_FONT_FACE = re.compile(r'@font-face\b[^{]*\{[^}]*?font-family:\s*"?([\w-]+)"?;[^}]*?'
                        r'src:\s*url\("?([^")]+\.woff)"?\)\s*format\("woff"\);?[^}]*\}', re.S)
_RULE = re.compile(r'([^{}]+)\{((?:[^{}"]|"(?:[^"\\]|\\.)*")*)\}')   # a declaration may hold "{" or "}"
_CHAR_RULE = re.compile(r"mjx-c\.mjx-c[0-9A-F]+((?:\.TEX-[A-Z0-9]+)?)::before")
_CONTENT = re.compile(r'content:\s*"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}) ?|\\(.)", re.S)
_FAMILY = re.compile(r"font-family:\s*([^;}]+)")
DEFAULT = ".MJX-TEX"                                  # the class of every formula: its characters' font
STRETCHY = "mjx-stretchy-v mjx-c"                     # the fonts a stretched delimiter's parts are drawn in


class FontError(Exception):
    """A math font could not be read or cut."""


def families(css: str) -> dict[str, str]:
    """Each @font-face's family and its file's URL, as MathJax's style sheet gives them."""
    return dict(_FONT_FACE.findall(css))


def _text(content: str) -> str:
    """A CSS string's characters, its escapes read."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), content)


def _fonts_of(declarations: str) -> list[str]:
    m = _FAMILY.search(declarations)
    return [f.strip().strip('"') for f in m.group(1).replace("!important", "").replace("! important", "").split(",")] \
        if m else []


def drawn(css: str) -> dict[str, set[int]]:
    """{font family: the code points MathJax's style sheet draws in it}. A character of a class goes to the
    class's fonts, one with no class to the default math font's, a part of a stretched delimiter (a rule under
    `mjx-stretchy-v` or `-h`) to the fonts stretched parts are drawn in."""
    rules = [(selectors.strip(), body) for selectors, body in _RULE.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.S))]
    by_class = {sel: _fonts_of(body) for sel, body in rules if re.fullmatch(r"\.(TEX-[A-Z0-9]+|MJX-TEX)", sel)}
    stretchy = next((_fonts_of(body) for sel, body in rules if sel.startswith(STRETCHY)), [])
    out: dict[str, set[int]] = {}
    for selectors, body in rules:
        content = _CONTENT.search(body)
        if not content:
            continue
        for selector in (s.strip() for s in selectors.split(",")):
            m = _CHAR_RULE.fullmatch(selector)
            if m:
                fonts = by_class.get(m.group(1), []) if m.group(1) else by_class.get(DEFAULT, [])
            elif selector.startswith("mjx-stretchy"):
                fonts = stretchy
            else:
                continue
            for family in fonts:
                out.setdefault(family, set()).update(ord(c) for c in _text(content.group(1)))
    return out


@lru_cache(maxsize=256)
def _cut(font: bytes, chars: frozenset[int]) -> bytes | None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.ERROR)     # "FFTM NOT subset": a timestamp table, dropped
    tt = TTFont(io.BytesIO(font), recalcTimestamp=False)     # its own date kept: the same bytes every build
    if not chars & set(tt.getBestCmap()):
        return None
    options = subset.Options()
    options.flavor = "woff2"
    options.notdef_outline = True
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(chars))
    subsetter.subset(tt)
    out = io.BytesIO()
    tt.flavor = "woff2"
    tt.save(out, reorderTables=False)
    return out.getvalue()


def cut(font: bytes, chars: set[int]) -> bytes | None:
    """The font (WOFF bytes) with only the glyphs of `chars` it has, as WOFF2; None when it has none of them.
    Raises FontError."""
    try:
        return _cut(font, frozenset(chars))
    except Exception as err:   # fontTools raises its own kinds for a damaged file
        digest = hashlib.sha256(font).hexdigest()[:12]
        raise FontError(f"a math font (sha256 {digest}...) could not be cut: {err}") from err


def inline(css: str, read: Callable[[str], bytes]) -> str:
    """`css` with each @font-face holding its font cut to the characters drawn in it, as data, and without the
    @font-face of a font none of whose characters is drawn; `read(url)` gives a font file's bytes. Raises
    FontError."""
    chars = drawn(css)

    def face(m: re.Match) -> str:
        family, url = m.group(1), m.group(2)
        font = cut(read(url), chars.get(family, set()))
        if font is None:
            return ""
        data = base64.b64encode(font).decode("ascii")
        return (f"@font-face {{\n  font-family: {family};\n"
                f'  src: url(data:font/woff2;base64,{data}) format("woff2");\n}}')

    return _FONT_FACE.sub(face, css)

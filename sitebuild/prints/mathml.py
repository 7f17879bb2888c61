"""A formula's MathML (the assistive MathML the math stage wrote into each page, beside MathJax's HTML) as Typst math.

The page keeps no TeX once its math is typeset; its MathML says the same formula in a tree, and each MathML
element has one Typst form: `msub` is `base_(sub)`, `mfrac` is `(num)/(den)`, `msqrt` is `sqrt(x)`, a table's
cells are joined by `&` and its rows by `\\`. Tokens are written with every ASCII mark escaped, so a `(` the
formula opens and never closes stays a character, and are kept apart by spaces, so `Q` and `K` never merge into
a name Typst would look up.
"""
from __future__ import annotations

from bs4 import Tag

# MathML's double-struck and other variants, as Typst's functions
_VARIANT = {"double-struck": "bb", "bold": "bold", "script": "cal", "fraktur": "frak"}
_ACCENT = {"^": "hat", "ˆ": "hat", "~": "tilde", "˜": "tilde", "¯": "macron", "‾": "overline", "→": "arrow",
           "˙": "dot", "¨": "dot.double"}
_LARGE = set("∑∏∫⋃⋂")


class MathMLError(ValueError):
    """A MathML element the printed math has no form for."""


def token(text: str) -> str:
    """A token's characters as Typst math: ASCII marks escaped, letters and other symbols as they are."""
    out = []
    for ch in text:
        if ch.isascii() and not ch.isalnum() and not ch.isspace():
            out.append("\\" + ch)
        elif ch == "\u2061" or ch == "\u2062":      # function application, invisible times
            continue
        else:
            out.append(ch)
    return "".join(out)


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def group(parts: str) -> str:
    """Parentheses Typst removes where they group (an attachment, a fraction's part)."""
    return f"({parts})" if parts.strip() else '""'


def attach(base: str, b: str = "", t: str = "") -> str:
    """Scripts on a base: `x_(i)` where the base is one token; `attach(...)` where it is several, which
    parentheses would show."""
    scripts = (f"_{group(b)}" if b else "") + (f"^{group(t)}" if t else "")
    if base and " " not in base and "(" not in base:
        return base + scripts
    parts = ([f"b: {b or quoted('')}"] if b else []) + ([f"t: {t}"] if t else [])
    return f"attach({base or quoted('')}, {', '.join(parts)})"


def children(el: Tag) -> list[Tag]:
    return [c for c in el.children if isinstance(c, Tag)]


def typst_math(el: Tag) -> str:
    """A MathML element as Typst math."""
    name = el.name
    kids = children(el)
    if name in ("math", "mrow", "mstyle", "mpadded", "mphantom", "semantics", "mtd"):
        return " ".join(part for part in (typst_math(k) for k in kids) if part)
    if name == "annotation":
        return ""
    if name == "mi":
        text = el.get_text()
        if not text:
            return ""
        variant = el.get("mathvariant")
        if variant in _VARIANT:
            return f"{_VARIANT[variant]}({token(text)})"
        if len(text) > 1:
            return f"op({quoted(text)})"
        if variant == "normal" and text.isalpha():
            return f"upright({text})"
        return token(text)
    if name == "mn":
        return token(el.get_text())
    if name == "mo":
        text = el.get_text()
        if len(text) > 1 and text.isalpha():
            return f"op({quoted(text)})"
        return token(text)
    if name == "mtext":
        text = el.get_text()
        return quoted(text) if text.strip() else "space"
    if name == "mspace":
        width = el.get("width", "0em")
        return f"#h({width})" if width not in ("0em", "0") else ""
    if name == "msub":
        return attach(typst_math(kids[0]), b=typst_math(kids[1]))
    if name == "msup":
        return attach(typst_math(kids[0]), t=typst_math(kids[1]))
    if name == "msubsup":
        base, sub, sup = (typst_math(k) for k in kids)
        return attach(base, b=sub, t=sup)
    if name in ("munder", "mover", "munderover"):
        return under_over(name, kids)
    if name == "mfrac":
        return f"frac({typst_math(kids[0]) or quoted('')}, {typst_math(kids[1]) or quoted('')})"
    if name == "msqrt":
        return f"sqrt({' '.join(typst_math(k) for k in kids)})"
    if name == "mroot":
        return f"root({typst_math(kids[1])}, {typst_math(kids[0])})"
    if name == "mtable":
        return table(el)
    raise MathMLError(f"no printed form for the MathML element <{name}>")


def under_over(name: str, kids: list[Tag]) -> str:
    """munder, mover, munderover: a large operator's limits, or an accent over its base."""
    base = typst_math(kids[0])
    if name == "mover" and kids[1].name == "mo" and kids[1].get_text() in _ACCENT:
        return f"{_ACCENT[kids[1].get_text()]}({base})"
    limits = base if kids[0].get_text() in _LARGE else f"limits({base})"
    if name == "munder":
        return f"{limits}_{group(typst_math(kids[1]))}"
    if name == "mover":
        return f"{limits}^{group(typst_math(kids[1]))}"
    return f"{limits}_{group(typst_math(kids[1]))}^{group(typst_math(kids[2]))}"


def table(el: Tag) -> str:
    """An mtable as aligned rows: cells joined by `&` (Typst aligns right, then left, in turn), rows by `\\`.
    A table of one column whose cells are tables (an align inside a display) is its inner rows."""
    rows = [children(row) for row in children(el) if row.name in ("mtr", "mlabeledtr")]
    lines = []
    for cells in rows:
        inner = [c for c in cells if children(c) and children(c)[0].name == "mtable"]
        if len(cells) == 1 and inner:
            lines.append(table(children(inner[0])[0]))
            continue
        lines.append(" & ".join(typst_math(c) for c in cells))
    return " \\\n".join(lines)


def formula(math: Tag) -> str:
    """A <math> element as a Typst equation, displayed (`$ ... $`) or inline (`$...$`)."""
    body = typst_math(math)
    if math.get("display") == "block":
        return f"$ {body} $"
    return f"${body}$"

"""Where a printed PDF puts its text: lines with their page, height on the page, right edge and type size.

The PDF tests read every print with it (sitebuild.prints sets them):
no glyph beyond the right margin, no heading stranded at a page's foot. Headings are told by the PDF's own
structure (Typst tags each heading as H1-H6 in the tagged PDF it writes), not by type size, which a figure's labels share.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

MM = 72 / 25.4                      # PDF points per millimetre
MARGIN_MM = {"top": 20, "right": 20, "bottom": 22, "left": 20}   # as sitebuild/prints/chapter.typ sets them


@dataclass
class Line:
    page: int                       # from 0
    top: float                      # share of the page's text area above the line's top: 0 at the top margin
    right: float                    # points beyond the right margin (negative: inside it)
    level: int                      # a heading's level (1 for H1), 0 for other text
    text: str
    baseline: float = 0.0           # points from the page's foot

    @property
    def heading(self) -> bool:
        return self.level > 0


def heading_levels(page) -> dict[int, int]:
    """{marked-content id: heading level} of a page, from the tagged PDF's structure tree."""
    import pypdfium2.raw as raw
    levels: dict[int, int] = {}

    def walk(element, level: int) -> None:
        name = ctypes.create_string_buffer(64)
        size = raw.FPDF_StructElement_GetType(element, name, 64)
        kind = name.raw[:size].decode("utf-16-le").rstrip("\x00")
        if not level and len(kind) == 2 and kind[0] == "H" and kind[1].isdigit():
            level = int(kind[1])
        if level:
            for k in range(raw.FPDF_StructElement_GetMarkedContentIdCount(element)):
                levels[raw.FPDF_StructElement_GetMarkedContentIdAtIndex(element, k)] = level
        for i in range(raw.FPDF_StructElement_CountChildren(element)):
            child = raw.FPDF_StructElement_GetChildAtIndex(element, i)
            if child:
                walk(child, level)

    tree = raw.FPDF_StructTree_GetForPage(page.raw)
    try:
        for i in range(raw.FPDF_StructTree_CountChildren(tree)):
            walk(raw.FPDF_StructTree_GetChildAtIndex(tree, i), 0)
    finally:
        raw.FPDF_StructTree_Close(tree)
    return levels


def lines(pdf: bytes | Path) -> list[Line]:
    """The PDF's lines of text in reading order (the footer's page number left out)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    out: list[Line] = []
    for number in range(len(doc)):
        page = doc[number]
        width, height = page.get_size()
        area_top, area = height - MARGIN_MM["top"] * MM, height - (MARGIN_MM["top"] + MARGIN_MM["bottom"]) * MM
        right_edge = width - MARGIN_MM["right"] * MM
        textpage, levels = page.get_textpage(), heading_levels(page)
        current, last_bottom = None, None
        for i in range(textpage.count_chars()):
            char = textpage.get_text_range(i, 1)
            left, bottom, right, top = textpage.get_charbox(i)
            if not char.strip() or right <= left or (top - bottom) <= 0:
                continue
            if (area_top - top) / area > 1:          # the footer, in the bottom margin
                continue
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x), ctypes.byref(y))
            bottom = y.value                         # the baseline: a descender ("g") stays on its line
            level = levels.get(raw.FPDFPageObj_GetMarkedContentID(raw.FPDFText_GetTextObject(textpage.raw, i)), 0)
            if current is None or abs(bottom - last_bottom) > 3 or level != current.level:
                current = Line(number, (area_top - top) / area, right - right_edge, level, "", bottom)
                out.append(current)
            current.text += char
            current.right = max(current.right, right - right_edge)
            last_bottom = bottom
    return inline_marks_as_text(out)


def inline_marks_as_text(found: list[Line]) -> list[Line]:
    """A heading stands on lines of its own: text tagged as a heading that shares its baseline with other text
    (a marked-content id the structure tree lends from another page) is text."""
    text_baselines = {(line.page, round(line.baseline)) for line in found if not line.heading}
    for line in found:
        if line.heading and any((line.page, round(line.baseline) + d) in text_baselines for d in (-1, 0, 1)):
            line.level = 0
    return found


def beyond_margin(found: list[Line], tolerance: float = 0.5) -> list[Line]:
    """Lines with a glyph more than `tolerance` points into the right margin. Chromium prints nothing past the
    margin: a line too long for the page shows as one glyph standing across it, the rest cut."""
    return [line for line in found if line.right > tolerance]


def squeezed(text: str) -> str:
    """Text without its whitespace: what a PDF's lines keep of it, wherever they break."""
    return "".join(text.split())


def cut_listings(found: list[Line], listings: list[str], start: int = 16) -> list[str]:
    """The listings printed in part: their first `start` characters are on paper but not the whole text (a
    line cut at the margin loses what stood past it, whether or not its last glyph is printed across it).
    A listing whose start is not printed (an edition that leaves it out) is not read."""
    printed = "".join(line.text for line in found).replace("↪", "")   # a wrapped line's continuation mark
    return [text for text in listings
            if squeezed(text)[:start] in printed and squeezed(text) not in printed]


def continues(found: list[Line], i: int) -> bool:
    """Whether line i is a heading's second or later line."""
    return bool(i) and found[i].heading and found[i - 1].level == found[i].level and found[i - 1].page == found[i].page


def stranded(found: list[Line], first_lines: int = 1) -> list[Line]:
    """Headings (their first line) printed without their first lines: fewer than `first_lines` lines of their
    section stand under them on their page, and the section goes on overleaf."""
    out = []
    for i, line in enumerate(found):
        if not line.heading or continues(found, i):
            continue                                  # not a heading, or a heading's second line
        under = 0
        for after in found[i + 1:]:
            if after.heading and after.level <= line.level:
                break                                 # the section ended on this page
            if after.page > line.page:
                if under < first_lines:
                    out.append(line)
                break
            if not after.heading:
                under += 1
    return out


CODE_FILL = (0xF3, 0xF4, 0xF5)      # a code box's fill on paper (_static/print.css, div.highlight)


def empty_code_boxes(pdf: bytes | Path) -> list[tuple[int, float]]:
    """(page, share of the text area above it) of each code box printed with no text in it: a box whose lines
    all went overleaf."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    out = []
    for number in range(len(doc)):
        page = doc[number]
        height = page.get_size()[1]
        area_top, area = height - MARGIN_MM["top"] * MM, height - (MARGIN_MM["top"] + MARGIN_MM["bottom"]) * MM
        textpage = page.get_textpage()
        centres = []
        for i in range(textpage.count_chars()):
            left, bottom, right, top = textpage.get_charbox(i)
            if right > left:
                centres.append(((left + right) / 2, (bottom + top) / 2))
        for obj in page.get_objects(max_depth=4):
            if obj.type != raw.FPDF_PAGEOBJ_PATH:
                continue
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            raw.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(c) for c in (r, g, b, a)))
            if (r.value, g.value, b.value) != CODE_FILL:
                continue
            left, bottom, right, top = obj.get_bounds()
            if right - left < 100 or top - bottom < 4:
                continue                               # not a box: a rule, a tint in a table
            if not any(left <= x <= right and bottom <= y <= top for x, y in centres):
                out.append((number, (area_top - top) / area))
    return out


@dataclass
class Drawn:
    page: int                       # from 0
    size: float                     # points on paper
    text: str
    baseline: float = 0.0           # points from the page's foot


def drawing_text(pdf: bytes | Path) -> list[Drawn]:
    """Every text a drawing puts on the PDF's pages (a figure's printed state, a block diagram), at the size it
    prints: Typst sets its own text at its size with a unit matrix, and a drawing's text at the drawing's font
    size scaled by the matrix that places the drawing."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    out: list[Drawn] = []
    for number in range(len(doc)):
        page = doc[number]
        textpage = page.get_textpage()
        for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_TEXT,), max_depth=4):
            m = raw.FS_MATRIX()
            raw.FPDFPageObj_GetMatrix(obj.raw, ctypes.byref(m))
            scale = abs(m.a * m.d - m.b * m.c) ** 0.5
            if abs(scale - 1) < 1e-6:
                continue                              # Typst's own text
            size = ctypes.c_float()
            raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
            length = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
            buffer = ctypes.create_string_buffer(length + 2)
            raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), length + 2)
            text = buffer.raw.decode("utf-16-le", "ignore").split("\x00", 1)[0].strip()
            if not text:
                continue
            last = out[-1] if out else None
            if last and last.page == number and abs(last.size - size.value * scale) < 1e-3 and abs(last.baseline - m.f) < 0.5:
                last.text += text
            else:
                out.append(Drawn(number, size.value * scale, text, m.f))
    return out


def too_small(drawn: list[Drawn], least: float) -> list[Drawn]:
    """The drawings' texts printed under `least` points (a hundredth of a point of rounding allowed)."""
    return [d for d in drawn if d.size < least - 0.01]

"""Every print of every lesson, read by its text positions (sitebuild.prints.pdftext): no glyph beyond the right
margin, no heading printed without its first lines under it, no listing printed in part, no empty code box.

The reading is shown to find each fault on a page made to have it: a stranded heading (a page break forced under
it), an empty code box and a listing too wide for the page, each set by Typst with the prints' own template; and
that template, given the same material, prints none of them. A glyph across the margin and a listing printed in
part are also written into a PDF directly."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS
from helpers import typeset
from sitebuild.prints import pdftext
from sitebuild.prints.editions import files

PRINTS = [(stem, name) for stem in LESSONS for name in files(stem)]


def where(lines):
    return [f"p. {line.page + 1} at {line.top:.0%}: {line.text[:40]}" for line in lines]


@pytest.mark.parametrize("stem,name", PRINTS)
def test_no_glyph_beyond_the_right_margin(built_site, stem, name):
    found = pdftext.lines(built_site / "handouts" / name)
    assert len(found) > 10
    assert where(pdftext.beyond_margin(found, tolerance=1.5)) == []   # a glyph's ink, not a line run on


def listings(site, stem: str) -> list[str]:
    """The code listings of a lesson's page, as its HTML holds them."""
    soup = BeautifulSoup((site / "posts" / f"{stem}.html").read_text(), "html.parser")
    return [pre.get_text() for pre in soup.select("article div.highlight pre")
            if not pre.find_parent("section", id=lambda i: i and i.endswith("-answers"))]   # printed as answers


@pytest.mark.parametrize("stem,name", PRINTS)
def test_every_listing_printed_is_printed_whole(built_site, stem, name):
    found = pdftext.lines(built_site / "handouts" / name)
    assert pdftext.cut_listings(found, listings(built_site, stem)) == []


def test_the_listings_are_read_in_the_prints_that_hold_them(built_site):
    # the lab's handout prints its code: every listing's start is found, so none escapes the reading above
    found = "".join(line.text for line in pdftext.lines(built_site / "handouts" / "lab.pdf"))
    code = listings(built_site, "lab")
    assert len(code) > 10 and all(pdftext.squeezed(text)[:16] in found for text in code)


@pytest.mark.parametrize("stem,name", PRINTS)
def test_no_heading_stranded_at_a_page_foot(built_site, stem, name):
    found = pdftext.lines(built_site / "handouts" / name)
    assert sum(line.heading for line in found) >= 3      # the headings are found (by the PDF's structure)
    assert where(pdftext.stranded(found)) == []


@pytest.mark.parametrize("stem,name", PRINTS)
def test_no_empty_code_box(built_site, stem, name):
    assert pdftext.empty_code_boxes(built_site / "handouts" / name) == []


FILLER = "#par[" + "A line of running text that fills the page. " * 12 + "]\n"


def test_the_reading_finds_a_stranded_heading_and_the_template_strands_none(tmp_path):
    # a heading with a page break forced under it: its section goes on overleaf, nothing of it under the heading
    planted = FILLER * 8 + "#heading(level: 1)[A stranded heading]\n#pagebreak()\n" + FILLER * 2
    [low] = pdftext.stranded(pdftext.lines(typeset(tmp_path, planted)))
    assert low.text == "Astrandedheading" and low.page == 0
    # the template, with the heading wherever the filler leaves it on the page, keeps it with its first lines
    for words in range(200, 1300, 100):
        body = "#par[" + "word " * words + "]\n" + "#heading(level: 1)[A heading]\n" + FILLER * 3
        found = pdftext.lines(typeset(tmp_path, body))
        assert sum(line.heading for line in found) == 1 and pdftext.stranded(found) == [], words
    # a heading at a page's foot whose section ends on its page is not stranded
    ends_here = FILLER * 8 + "#heading(level: 1)[Last words]\n#par[End.]\n#pagebreak()\n#heading(level: 1)[Next]\n"
    assert pdftext.stranded(pdftext.lines(typeset(tmp_path, ends_here))) == []


def test_the_reading_finds_an_empty_code_box_and_a_listing_too_wide(tmp_path):
    # a code box with no line in it (what a box whose lines all went overleaf would leave), against one with code
    empty = FILLER * 2 + "#block(fill: tint, width: 100%, height: 30pt)[]\n" + FILLER
    assert [page for page, _ in pdftext.empty_code_boxes(typeset(tmp_path, empty))] == [0]
    full = FILLER * 2 + '#listing("code", (("x = 1", false),))\n' + FILLER
    assert pdftext.empty_code_boxes(typeset(tmp_path, full)) == []
    # a listing with no place to break, set as it is: it runs into the margin (or is cut at it); set by the prints'
    # listing (sitebuild.prints.code), it is wrapped with a continuation mark and printed whole inside the margin
    from sitebuild.prints.code import listing
    code = "x = " + "1234567890" * 12
    wide = f'#block(fill: tint, inset: 6pt, raw("{code}"))\n' + FILLER
    found = pdftext.lines(typeset(tmp_path, wide))
    assert pdftext.cut_listings(found, [code]) or pdftext.beyond_margin(found)
    found = pdftext.lines(typeset(tmp_path, listing(code) + "\n" + FILLER))
    assert pdftext.beyond_margin(found, tolerance=1.5) == [] and pdftext.cut_listings(found, [code]) == []
    assert pdftext.squeezed(code) in "".join(line.text for line in found).replace("↪", "")


def test_the_reading_finds_a_listing_cut_and_one_printed_whole():
    # the first listing printed whole, the second only up to where a margin would cut it
    found = pdftext.lines(pdf_of_lines([("x = 1234567890 1234567890", 15), ("y = 1234567890 123456", 15)]))
    listings = ["x = 1234567890 1234567890", "y = 1234567890 1234567890 1234567890", "not printed at all"]
    assert pdftext.cut_listings(found, listings) == ["y = 1234567890 1234567890 1234567890"]


def test_the_reading_finds_a_glyph_across_the_margin_and_nothing_inside_it():
    # What a browser does with a line too long for the page depends on its version (one prints the glyph
    # standing across the margin, a later one prints none): the defect is written into a PDF here instead.
    edge = A4_WIDTH_MM - pdftext.MARGIN_MM["right"]          # the right margin's inner edge, in mm from the left
    cut = ("x = 1234567890", edge - 13.5 * COURIER_MM)        # its last glyph stands half across the edge
    inside = ("y = 1234567890", edge - 14 * COURIER_MM - 1)   # its last glyph ends 1 mm before the edge
    beyond = ("z = 1234567890", edge + 5)                      # printed wholly in the margin
    found = pdftext.lines(pdf_of_lines([cut, inside, beyond, ("A short line", 15)]))
    assert [line.text for line in found] == ["x=1234567890", "y=1234567890", "z=1234567890", "Ashortline"]
    assert [line.text for line in pdftext.beyond_margin(found)] == ["x=1234567890", "z=1234567890"]
    assert pdftext.beyond_margin(pdftext.lines(pdf_of_lines([inside, ("A short line", 15)]))) == []


A4_WIDTH_MM, A4_HEIGHT_MM = 210, 297
COURIER_MM = 0.6 * 10 / pdftext.MM                           # one Courier glyph at 10 pt is 0.6 em wide


def pdf_of_lines(lines: list[tuple[str, float]]) -> bytes:
    """An A4 page holding each (text, left edge in mm) in 10-pt Courier, a line under the other from the top
    margin down: written by PDFium itself, no browser."""
    import ctypes
    import io

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument.new()
    page = doc.new_page(A4_WIDTH_MM * pdftext.MM, A4_HEIGHT_MM * pdftext.MM)
    font = raw.FPDFText_LoadStandardFont(doc.raw, b"Courier")
    for row, (text, left) in enumerate(lines):
        obj = raw.FPDFPageObj_CreateTextObj(doc.raw, font, 10.0)
        raw.FPDFText_SetText(obj, ctypes.cast(ctypes.create_string_buffer((text + "\0").encode("utf-16-le")),
                                              raw.FPDF_WIDESTRING))
        baseline = A4_HEIGHT_MM - pdftext.MARGIN_MM["top"] - 10 * (row + 1)
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, left * pdftext.MM, baseline * pdftext.MM)
        raw.FPDFPage_InsertObject(page.raw, obj)
    raw.FPDFPage_GenerateContent(page.raw)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()

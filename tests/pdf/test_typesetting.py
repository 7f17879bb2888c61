"""Every print of every lesson, read by its text positions (sitebuild.handouts.pdftext): no glyph beyond the right margin,
no heading at the foot of a page (its last 15 %) whose section goes on overleaf, no listing printed in part.

The reading is shown to find each fault on a page made to have it: a stranded heading, an empty code box and a
listing too wide for the page printed by the same browser (what a browser prints of a line it cuts at the margin
depends on its version: one of two readings finds it on any), a glyph across the margin and a listing printed in
part written into a PDF directly."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS
from sitebuild.handouts import pdftext
from sitebuild.handouts.editions import files

PRINTS = [(stem, name) for stem in LESSONS for name in files(stem)]


def where(lines):
    return [f"p. {line.page + 1} at {line.top:.0%}: {line.text[:40]}" for line in lines]


@pytest.mark.parametrize("stem,name", PRINTS)
def test_no_glyph_beyond_the_right_margin(built_site, stem, name):
    found = pdftext.lines(built_site / "handouts" / name)
    assert len(found) > 10
    assert where(pdftext.beyond_margin(found)) == []


def listings(site, stem: str) -> list[str]:
    """The code listings of a lesson's page, as its HTML holds them."""
    soup = BeautifulSoup((site / "posts" / f"{stem}.html").read_text(), "html.parser")
    return [pre.get_text() for pre in soup.select("article div.highlight pre")]


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


def printed(browser, html: str) -> bytes:
    page = browser.new_page()
    try:
        page.set_content(html)
        return page.pdf(format="A4", margin={k: f"{v}mm" for k, v in pdftext.MARGIN_MM.items()}, tagged=True,
                        print_background=True)
    finally:
        page.close()


FILLER = "<p>" + "A line of running text that fills the page. " * 12 + "</p>"


def test_the_reading_finds_a_stranded_heading_and_an_empty_code_box(browser):
    # a page of text, then a heading with little room under it and its section running on overleaf
    stranded_page = ("<style>body{font:14px sans-serif} p{margin:0 0 8px}</style>" + FILLER * 10
                     + "<h2>A stranded heading</h2>" + FILLER * 3)
    found = pdftext.lines(printed(browser, stranded_page))
    [low] = pdftext.stranded(found)
    assert low.text == "Astrandedheading" and low.page == 0 and low.top > pdftext.FOOT
    kept = stranded_page.replace("<h2>", "<h2 style='break-before: page'>")
    assert pdftext.stranded(pdftext.lines(printed(browser, kept))) == []
    # a heading at the foot whose section ends on its page is not stranded
    ends_here = "<style>body{font:14px sans-serif} p{margin:0 0 8px}</style>" + FILLER * 10 + "<h2>Last words</h2><p>End.</p>"
    assert pdftext.stranded(pdftext.lines(printed(browser, ends_here))) == []

    # a code box with no line in it (what a box whose lines all went overleaf leaves), against one with its code
    fill = "#%02x%02x%02x" % pdftext.CODE_FILL
    box = f"<div style='background:{fill}; padding: 8px; min-height: 30px'>%s</div>"
    page = FILLER * 2 + box + FILLER * 11 + box
    assert [p for p, _ in pdftext.empty_code_boxes(printed(browser, page % ("<pre>x = 1</pre>", "")))] == [1]
    assert pdftext.empty_code_boxes(printed(browser, page % ("<pre>x = 1</pre>", "<pre>y = 2</pre>"))) == []

    # a listing too long for the page, not wrapped: whatever this browser does with it (prints its last glyph
    # across the margin and cuts the rest, cuts it all at the margin, or prints it into the margin), one of the
    # two readings finds it; wrapped as the print style sheet wraps code, neither does, and it is printed whole
    code = "x = " + "1234567890 " * 20
    wide = f"<pre style='white-space: pre; font-size: 14px'>{code}</pre>" + FILLER
    found = pdftext.lines(printed(browser, wide))
    assert pdftext.cut_listings(found, [code]) or pdftext.beyond_margin(found)
    found = pdftext.lines(printed(browser, wide.replace("pre;", "pre-wrap;")))
    assert pdftext.cut_listings(found, [code]) == [] and pdftext.beyond_margin(found) == []
    assert pdftext.squeezed(code) in "".join(line.text for line in found)


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

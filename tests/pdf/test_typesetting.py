"""Every print of every lesson, read by its text positions (sitebuild.pdftext): no glyph beyond the right margin,
no heading at the foot of a page (its last 15 %) whose section goes on overleaf.

The reading itself is shown to find both faults on a page made to have them, printed by the same browser."""
from __future__ import annotations

import pytest

from conftest import LESSONS
from sitebuild import pdftext
from sitebuild.editions import files

PRINTS = [(stem, name) for stem in LESSONS for name in files(stem)]


def where(lines):
    return [f"p. {line.page + 1} at {line.top:.0%}: {line.text[:40]}" for line in lines]


@pytest.mark.parametrize("stem,name", PRINTS)
def test_no_glyph_beyond_the_right_margin(built_site, stem, name):
    found = pdftext.lines(built_site / "handouts" / name)
    assert len(found) > 10
    assert where(pdftext.beyond_margin(found)) == []


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


def test_the_reading_finds_a_stranded_heading_and_a_glyph_in_the_margin(browser):
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

    wide = "<pre style='white-space: pre; font-size: 14px'>" + "x = " + "1234567890 " * 20 + "</pre>" + FILLER
    [cut] = pdftext.beyond_margin(pdftext.lines(printed(browser, wide)))
    assert cut.text.startswith("x=123") and cut.right > 0   # Chromium cuts the line at the margin: its last glyph
                                                            # stands across it, the rest is not printed
    assert pdftext.beyond_margin(pdftext.lines(printed(browser, wide.replace("pre;", "pre-wrap;")))) == []

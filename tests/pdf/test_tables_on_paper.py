"""A table on paper (sitebuild.prints.tables): a column of numbers stands on its decimal point, and no cell breaks a
word or a number across lines. Shown on a table set by Typst with the prints' own template and read back by each
glyph's place on the page; the same numbers set left-aligned, as a table without that care would set them, are
shown not to line up, so the reading can tell."""
from __future__ import annotations

import pypdfium2 as pdfium
from bs4 import BeautifulSoup

from sitebuild.prints import markup, pdftext, tables
from helpers import typeset

NUMBERS = ["1.5", "12.25", "1,234.125", "0.0625", "7"]   # one to four decimals, thousands, a whole number
WORDS = "characterisation", "counterbalancing", "interchangeability"


def planted_table(tmp_path, words=WORDS) -> str:
    """The Typst the prints write for a table with a numeric column and long words in narrow cells."""
    rows = "".join(f"<tr><td>model {i}</td><td>{n}</td>" + "".join(f"<td>{w}</td>" for w in words) + "</tr>"
                   for i, n in enumerate(NUMBERS))
    head = "<tr><th>model</th><th>loss</th>" + "".join(f"<th>{w}</th>" for w in words) + "</tr>"
    html = f"<table><caption>Planted</caption><thead>{head}</thead><tbody>{rows}</tbody></table>"
    table = BeautifulSoup(html, "html.parser").table
    return tables.table(table, markup.Page(page_dir=tmp_path, root=tmp_path), markup.inline, markup.label)


def glyphs(pdf: bytes) -> list[tuple[str, float, float]]:
    """Every glyph of the first page: (character, its box's left and right, in points)."""
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    found = []
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.strip():
            left, _, right, _ = text.get_charbox(i)
            found.append((char, left, right))
    return found


def points(pdf: bytes) -> list[float]:
    """The centre of each decimal point of the numbers' column, top to bottom (the points of the caption's
    'Table 1.' aside: every decimal point follows a digit and precedes one)."""
    found = glyphs(pdf)
    return [(left + right) / 2 for k, (char, left, right) in enumerate(found)
            if char == "." and 0 < k < len(found) - 1 and found[k - 1][0].isdigit() and found[k + 1][0].isdigit()]


def test_a_column_of_numbers_stands_on_its_decimal_point(tmp_path):
    source = planted_table(tmp_path)
    assert "#hide[" in source                      # the shorter decimals padded with invisible zeros
    centres = points(typeset(tmp_path, source))
    assert len(centres) == 4                       # 1.5, 12.25, 1,234.125, 0.0625 (7 has none)
    assert max(centres) - min(centres) < 0.3, centres
    # the same numbers set left-aligned: their points stand where each number's digits end
    plain = "#table(columns: 1, " + ", ".join(f"[{n}]" for n in NUMBERS) + ")"
    ragged = points(typeset(tmp_path, plain))
    assert len(ragged) == 4 and max(ragged) - min(ragged) > 3, ragged


def whole(pdf: bytes, word: str) -> int:
    """How many times `word` is printed within one line, as the prints' reading finds the lines (a word broken
    over two lines is in neither whole)."""
    return sum(line.text.count(word) for line in pdftext.lines(pdf))


def test_no_cell_breaks_a_word_or_a_number(tmp_path):
    """The planted table takes the page's whole width (its long words leave Typst no room to spare); each word
    and each number is still printed whole, on one line."""
    pdf = typeset(tmp_path, planted_table(tmp_path))
    assert max(right for _, _, right in glyphs(pdf)) > 500  # as wide as the text column
    for word in WORDS:
        assert whole(pdf, word) == len(NUMBERS) + 1, word   # in the header and in every row
    for number in NUMBERS[:-1]:
        assert whole(pdf, number) == 1, number
    # the same word in a cell too narrow for it, hyphenated as running text is: read back broken
    narrow = '#table(columns: (48pt,), [#set text(hyphenate: true, lang: "en"); characterisation])'
    assert whole(typeset(tmp_path, narrow), "characterisation") == 0


def test_a_table_wider_than_the_page_is_scaled_to_fit_its_words_whole(tmp_path):
    """Four times the long words: their whole words need more than the text's width. The prints' table is scaled
    down to fit inside the margins, each word still on one line; the same cells set as a plain table run into the
    right margin, so the reading can tell."""
    wide = WORDS * 4
    pdf = typeset(tmp_path, planted_table(tmp_path, wide))
    found = pdftext.lines(pdf)
    assert pdftext.beyond_margin(found) == []
    assert max(right for _, _, right in glyphs(pdf)) > 500          # it takes the whole width it has
    for word in WORDS:
        assert whole(pdf, word) == len(wide) // len(WORDS) * (len(NUMBERS) + 1), word
    cells = ", ".join(f"[{w}]" for w in ["model", "loss", *wide])
    plain = f'#set text(size: 6.6pt, hyphenate: false)\n#table(columns: {len(wide) + 2}, {cells})'
    assert pdftext.beyond_margin(pdftext.lines(typeset(tmp_path, plain)))

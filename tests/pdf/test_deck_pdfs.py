"""Each deck as a PDF (sitebuild.prints.slides, typeset by Typst): one slide a page at 16:9, a figure as a page per
state its page prints, each labelled; no slide that holds a title alone; on paper no control and no word about one."""
from __future__ import annotations

import re
import unicodedata

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import LESSONS
from sitebuild.prints import pdftext

DECKS = [*LESSONS, "attention-by-hand-route"]
CONTROL_WORDS = re.compile(r"▶|▾|\bPlay\b|\bslider\b|\bbuttons?\b|\bclick\b|\btap\b|Back to the page|Show a cell", re.I)


def soup(path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(), "html.parser")


@pytest.mark.parametrize("deck", DECKS)
def test_a_decks_pdf_has_a_page_per_slide_and_per_printed_state(built_site, deck):
    reader = PdfReader(built_site / "handouts" / f"{deck}-slides.pdf")
    assert b"127.0.0.1" not in (built_site / "handouts" / f"{deck}-slides.pdf").read_bytes()   # links as text
    page = soup(built_site / "posts" / f"{deck.removesuffix('-route')}.html")
    slides = soup(built_site / "slides" / f"{deck}.html").select(".slides > section:not(.deck-paper)")
    states = {figure.select_one(".plotly-graph-div")["id"]: figure.select(".figure-print .figure-state")
              for figure in page.select("figure.plotly-figure")}
    # a slide without a figure is a page, unless it holds a title alone (it would announce what it does not
    # hold); a figure's slide is a page per state the lesson page prints
    alone = [s for s in slides if not s.get("data-figure") and not s.select(".deck-lead, .deck-equation, .deck-goals")]
    assert len(reader.pages) == sum(len(states[s["data-figure"]]) if s.get("data-figure") else 1 for s in slides) \
        - len(alone)
    assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages} == {(960, 540)}
    lines = pdftext.lines(built_site / "handouts" / f"{deck}-slides.pdf")
    text = [" ".join(line.text for line in lines if line.page == k) for k in range(len(reader.pages))]
    squeeze = lambda t: re.sub(r"\s+", "", unicodedata.normalize("NFKC", t))     # a ligature's letters, apart
    found = squeeze("".join(text))
    labels = [squeeze(label.get_text()) for s in slides if s.get("data-figure")
              for label in (state.select_one(".figure-state-label") for state in states[s["data-figure"]]) if label]
    assert [label for label in labels if label not in found] == []      # each state says which it is
    controls = [(k + 1, m.group(0)) for k, t in enumerate(text) for m in CONTROL_WORDS.finditer(t)]
    assert controls == []


def test_the_control_words_are_found_where_they_are():
    """The check above finds a word about a control: the page's caption, before its web-only words are left out."""
    caption = "Pooling rows 1 to 7 with weights. Buttons choose a token to favour; a slider moves weight onto it."
    assert [m.group(0) for m in CONTROL_WORDS.finditer(caption)] == ["Buttons", "slider"]

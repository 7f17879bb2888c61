"""The attention-by-hand handout: every section, figures in their default state, notes on other states."""
import re
import unicodedata

from pypdf import PdfReader

from conftest import ROOT

STEM = "attention-by-hand"


def test_handout_has_every_section_and_says_where_the_page_has_more(built_site):
    source = (ROOT / "posts" / f"{STEM}.md").read_text()
    sections = re.findall(r"^## (\d+)\. ", source, re.M)
    assert [int(s) for s in sections] == list(range(1, 21))
    text = " ".join(p.extract_text() for p in PdfReader(built_site / "handouts" / f"{STEM}.pdf").pages)
    text = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))  # ﬁ ligatures -> fi
    for title in re.findall(r"^## (\d+\. .+)$", source, re.M):
        plain = re.sub(r"[`*$\\]", "", title)
        assert plain[:25] in text, plain
    html = (built_site / "posts" / f"{STEM}.html").read_text()
    notes = html.count('class="print-only widget-note"')
    assert notes >= 10
    assert text.count("On the web page") >= notes
    assert html.count('class="plotly-graph-div"') >= 15

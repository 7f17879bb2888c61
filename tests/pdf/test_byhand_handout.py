"""The attention-by-hand handout: every section, and every figure in the states its text cites."""
import html as html_lib
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
    # every figure prints the states its text cites, each under its label (no note about the controls)
    labels = [re.sub(r"\s+", " ", unicodedata.normalize("NFKC", html_lib.unescape(s)))
              for s in re.findall(r'<p class="figure-state-label">([^<]+)</p>', html)]
    assert len(labels) >= 40 and html.count('class="plotly-graph-div"') >= 15
    assert [label for label in labels if label not in text] == []
    assert "On the web page" not in text


def test_check_yourself_answers_print_at_the_end(built_site):
    """The questions stay in section 19, each pointing to its answer; the answers follow the last section."""
    pages = [re.sub(r"\s+", " ", unicodedata.normalize("NFKC", p.extract_text()))
             for p in PdfReader(built_site / "handouts" / f"{STEM}.pdf").pages]
    text = " ".join(pages)
    html = (built_site / "posts" / f"{STEM}.html").read_text()
    n = html.count('<details class="answer">')
    assert n >= 3
    refs = [text.find(f"(answer {k} at the end)") for k in range(1, n + 1)]
    assert all(r >= 0 for r in refs) and refs == sorted(refs)
    answers = text.rfind("Answers")
    last_section = text.rfind("20. ", 0, answers)          # the section, not its line in the contents
    assert answers > last_section > refs[-1] > 0
    first_answer_page = next(i for i, p in enumerate(pages) if "Answers" in p and "1. " in p and "Contents" not in p)
    question_page = next(i for i, p in enumerate(pages) if "(answer 1 at the end)" in p)
    assert first_answer_page > question_page

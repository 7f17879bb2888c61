"""The attention-by-hand handout: every section, and every figure in the states its text cites."""
import re
import unicodedata

from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import ROOT

STEM = "attention-by-hand"


def printed(path) -> str:
    """A PDF's text, ligatures undone and spaces squeezed."""
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))  # ﬁ ligatures -> fi


def plain_title(title: str) -> str:
    """A heading's words as printed: no role ({about}`method`), no markup marks."""
    return re.sub(r"[`*$\\]", "", re.sub(r"\s*\{[a-z-]+\}`[^`]*`", "", title))


def test_handout_has_every_section_and_says_where_the_page_has_more(built_site):
    source = (ROOT / "posts" / f"{STEM}.md").read_text()
    sections = re.findall(r"^## (\d+)\. ", source, re.M)
    assert [int(s) for s in sections] == list(range(1, 21))
    text = printed(built_site / "handouts" / f"{STEM}.pdf")
    appendix = printed(built_site / "handouts" / f"{STEM}-appendix.pdf")
    for title in re.findall(r"^## (\d+\. .+)$", source, re.M):
        assert plain_title(title)[:25] in text, title
    page = BeautifulSoup((built_site / "posts" / f"{STEM}.html").read_text(), "html.parser")
    # every figure prints the states its text cites, each under its label (no note about the controls): in the
    # handout, or in the appendix where its section is printed apart
    labels = [(re.sub(r"\s+", " ", unicodedata.normalize("NFKC", p.get_text())),
               p.find_parent(class_="print-appendix") is not None) for p in page.select("p.figure-state-label")]
    assert len(labels) >= 40 and len(page.select(".plotly-graph-div")) >= 15
    assert [label for label, apart in labels if label not in (appendix if apart else text)] == []
    assert "On the web page" not in text + appendix


def test_sections_printed_apart_keep_their_heading_and_print_whole_in_the_appendix(built_site):
    """The optional sections (marked {.print-appendix} before their heading) keep their heading in the handout
    with a line naming the appendix; the appendix prints each whole, its heading named by section."""
    source = (ROOT / "posts" / f"{STEM}.md").read_text()
    apart = re.findall(r"^\{\.print-appendix\}\n## (\d+)\. (.+)$", source, re.M)
    assert len(apart) >= 3
    text = printed(built_site / "handouts" / f"{STEM}.pdf")
    appendix = printed(built_site / "handouts" / f"{STEM}-appendix.pdf")
    for k, (n, title) in enumerate(apart):
        letter = chr(65 + k)
        line = f"This section is printed apart, as appendix {letter} ({STEM}-appendix.pdf)."
        assert f"{n}. {plain_title(title)} {line}" in text, title
        assert f"{letter}. Section {n}: {plain_title(title)}" in appendix
    page = BeautifulSoup((built_site / "posts" / f"{STEM}.html").read_text(), "html.parser")
    for section in page.select("section.print-appendix"):
        first = section.find("p", recursive=False)             # its first paragraph: in the appendix alone
        words = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", first.get_text()))[:60]
        assert words in appendix and words not in text, words


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

"""Three prints of every lesson: the handout (answers at its end), the student edition (no answer, room to write)
and the answer key (the answers alone), each listed on the landing page with its size."""
from __future__ import annotations

import re
import unicodedata

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import LESSONS
from sitebuild.prints import pdftext


def squeezed(text: str) -> str:
    """`text` squeezed as the prints' reading squeezes it (sitebuild.prints.pdftext), and without hyphens: a hyphen
    where a line breaks reads back from a PDF as a soft hyphen (U+00AD), a word's own ("GPT-2", "multiply-adds") as
    well as one the typesetter added."""
    return re.sub("[\u00ad-]", "", pdftext.squeezed(text))


def squeezed_text(pdf) -> str:
    """The PDF's text squeezed, its ligatures (ﬁ, ﬀ) as letters."""
    return squeezed(unicodedata.normalize("NFKC", "".join(page.extract_text() for page in PdfReader(pdf).pages)))


def snippet(text: str, words: int = 6) -> str | None:
    """The first few words of an answer, as the PDF's text holds them (white space squeezed out); None where
    they hold math or symbols a PDF may set otherwise."""
    head = " ".join(text.split()[:words])
    return None if len(head) < 15 or re.search(r"[^\w\s,.;:'’“”()=+-]", head) else squeezed(head)


def answers_and_questions(site, stem) -> tuple[list[str], list[str]]:
    page = BeautifulSoup((site / "posts" / f"{stem}.html").read_text(), "html.parser")
    answers, questions = [], []
    for d in page.select("article details.answer"):
        summary = d.find("summary")
        questions.append(summary.get_text(" ", strip=True))
        summary.extract()
        answers.append(d.get_text(" ", strip=True))
    answers += [li.get_text(" ", strip=True) for li in page.select("article section[id$='-answers'] li")]
    return answers, questions


@pytest.mark.parametrize("stem", LESSONS)
def test_the_student_edition_holds_no_answer_and_the_key_every_one(built_site, stem):
    answers, questions = answers_and_questions(built_site, stem)
    student = squeezed_text(built_site / "handouts" / f"{stem}-student.pdf")
    key = squeezed_text(built_site / "handouts" / f"{stem}-key.pdf")
    handout = squeezed_text(built_site / "handouts" / f"{stem}.pdf")
    checked = [s for s in map(snippet, answers) if s]
    assert len(checked) >= len(answers) // 2, answers
    for s in checked:
        assert s in handout and s in key, (stem, s)
        assert s not in student, (stem, s)
    for q in filter(None, map(snippet, questions)):
        assert q in student and q in key, (stem, q)
    assert len(key) < len(handout) / 2, "the key holds the answers alone"


def test_the_landing_page_lists_every_print_with_its_size(built_site):
    page = BeautifulSoup((built_site / "index.html").read_text(), "html.parser")
    for stem in LESSONS:
        for suffix in ("", "-student", "-key"):
            file = built_site / "handouts" / f"{stem}{suffix}.pdf"
            link = page.find("a", href=f"handouts/{stem}{suffix}.pdf")
            assert link is not None and file.is_file(), file
            size = link.find_next_sibling("span", class_="pdf-size").get_text()
            m = re.fullmatch(r"\((\d+(?:\.\d)?) (KB|MB)\)", size)
            assert m, size
            shown = float(m[1]) * (1e3 if m[2] == "KB" else 1e6)
            assert abs(shown - file.stat().st_size) <= (500 if m[2] == "KB" else 5e4), (file, size)


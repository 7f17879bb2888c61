"""Every lesson asks at least four predict-then-check questions, each answer computed when the site builds."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS


@pytest.mark.parametrize("stem", LESSONS)
def test_every_lesson_asks_at_least_four_questions_with_computed_answers(built_site, stem):
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    reveals = page.select("article details.answer")
    exercises = [p for p in page.select("article section[id$='-exercises'] p")
                 if (p.find("strong") or "") and re.fullmatch(r"\d+\.", p.find("strong").get_text())]
    answers = page.select("article section[id$='-answers'] li")
    assert len(reveals) + len(exercises) >= 4, stem
    assert len(answers) == len(exercises)
    for d in reveals:   # each answer carries a number the build computed
        body = d.get_text(" ", strip=True).replace(d.summary.get_text(" ", strip=True), "")
        assert re.search(r"\d", body), body


@pytest.mark.parametrize("stem", LESSONS)
def test_every_lesson_asks_a_reader_to_predict_before_it_shows(built_site, stem):
    """Predict-first questions stand before what answers them: at least four per lesson, each ahead of the
    section's end (the student edition prints a box to write in under each, so the answer starts after it)."""
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    first = [d for d in page.select("article details.answer")
             if d.summary.get_text(" ", strip=True).startswith("Predict first")]
    assert len(first) >= 4, (stem, len(first))
    for d in first:     # something follows it in its section: the table, figure or sentence that answers it
        assert d.find_parent("div", class_="cell").find_next_sibling() is not None, d.summary.get_text()[:60]

"""The three prints of a lesson, declared once: the handout (answers at its end), the student edition (no answer;
room to write under each question) and the answer key (the answers alone). sitebuild.handouts prints them,
sitebuild.pages links them under each lesson's title, sitebuild.lessonlist lists them on the landing page."""
from __future__ import annotations

# edition -> (file suffix, the words of its link)
EDITIONS = {"handout": ("", "handout"), "student": ("-student", "student edition"), "key": ("-key", "answer key")}
SUFFIXES = tuple(suffix for suffix, _ in EDITIONS.values())


def files(stem: str) -> list[str]:
    """The file names of a lesson's prints: <stem>.pdf, <stem>-student.pdf, <stem>-key.pdf."""
    return [f"{stem}{suffix}.pdf" for suffix in SUFFIXES]

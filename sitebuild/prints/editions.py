"""The prints of a lesson, declared once: the handout (the lesson, its answers at the end), the student edition
(no answer; room to write under each question), the answer key (the answers alone, with where each is asked)
and, for a lesson with optional listings, the appendix. sitebuild.prints.typeset sets them,
sitebuild.pages.extension links them under each lesson's title, sitebuild.pages.lessonlist lists them on the
landing page."""
from __future__ import annotations

# edition -> (file suffix, the words of its link)
EDITIONS = {"handout": ("", "handout"), "student": ("-student", "student edition"), "key": ("-key", "answer key")}
APPENDIX = ("-appendix", "appendix")
SUFFIXES = tuple(suffix for suffix, _ in EDITIONS.values())


def files(stem: str, appendix: bool = False) -> list[str]:
    """The file names of a lesson's prints: <stem>.pdf, <stem>-student.pdf, <stem>-key.pdf (and
    <stem>-appendix.pdf when it has one)."""
    return [f"{stem}{suffix}.pdf" for suffix in SUFFIXES] + ([f"{stem}{APPENDIX[0]}.pdf"] if appendix else [])

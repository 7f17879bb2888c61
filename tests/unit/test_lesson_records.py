"""The lesson records: every page under posts/ that is a lesson has one, and the "Adding a lesson" section of the
authors' guide (docs/authors.md) holds the four files of a new one (tests/build/test_new_lesson.py builds them)."""

from conftest import LESSONS, ROOT
from helpers import template_files


def test_the_template_has_a_package_and_a_page():
    files = template_files((ROOT / "docs" / "authors.md").read_text())
    assert set(files) == {"compute/lessons/hello/__init__.py", "compute/lessons/hello/claims.py",
                          "compute/lessons/hello/figures.py", "posts/hello.md"}
    assert "LESSON = Lesson(" in files["compute/lessons/hello/__init__.py"]


def test_every_lesson_page_has_a_record_and_there_are_lessons():
    pages = sorted(p.stem for p in (ROOT / "posts").glob("*.md"))
    assert LESSONS and sorted(LESSONS) == pages


def test_the_landing_page_counts_the_lessons_and_says_what_each_builds_on():
    from compute.checks import lesson_records
    from sitebuild.pages import lessonlist
    records = lesson_records()
    assert f"The site has {lessonlist.NUMBERS[len(records)]} lessons;" in lessonlist.summary(records)
    assert lessonlist.summary(records[:1]).startswith("The site has one lesson;")
    table = lessonlist.table(records)
    # a lesson that builds on no model (the authors' guide's template) leaves its cell empty
    assert "  - Builds on" in table and any(r.models for r in records)
    assert all(r.models.split("{")[0].strip() in table for r in records if r.models)
    bare = [type(r)(page=r.page, order=r.order, does=r.does, handout=r.handout) for r in records]
    assert "Builds on" not in lessonlist.table(bare)          # a project whose records name no models

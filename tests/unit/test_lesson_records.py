"""The lesson records: every page under posts/ that is a lesson has one, and README's "Adding a lesson" section
holds the four files of a new one (tests/build/test_new_lesson.py builds them)."""

from conftest import LESSONS, ROOT
from helpers import template_files


def test_the_template_has_a_package_and_a_page():
    files = template_files((ROOT / "README.md").read_text())
    assert set(files) == {"compute/lessons/hello/__init__.py", "compute/lessons/hello/claims.py",
                          "compute/lessons/hello/figures.py", "posts/hello.md"}
    assert "LESSON = Lesson(" in files["compute/lessons/hello/__init__.py"]


def test_every_lesson_page_has_a_record_and_there_are_lessons():
    pages = sorted(p.stem for p in (ROOT / "posts").glob("*.md"))
    assert LESSONS and sorted(LESSONS) == pages

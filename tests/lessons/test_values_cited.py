"""Each lesson record's prose values (Lesson.values): plain Python values, and every name its page cites
with {glue:text} among them, so a page's numbers come from the one place its record names."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT
from compute.checks import lesson_records

CITED = re.compile(r"\{glue(?::\w+)?\}`([^`:]+)")


@pytest.fixture(scope="module", params=lesson_records(), ids=lambda r: r.page)
def lesson(request):
    record = request.param
    return record, record.values(), (ROOT / "posts" / f"{record.page}.md").read_text()


def test_every_value_a_page_cites_comes_from_its_record(lesson):
    record, values, text = lesson
    cited = set(CITED.findall(text))
    assert cited <= set(values), f"posts/{record.page}.md cites {sorted(cited - set(values))}, not in its record's values"


def test_prose_values_are_plain_python(lesson):
    record, values, _ = lesson
    odd = {k: type(v).__name__ for k, v in values.items() if type(v) not in (str, int, float)}
    assert not odd, f"{record.page}: {odd}"


def test_the_pattern_finds_what_a_page_cites():
    assert CITED.findall("a {glue:text}`p_A:.3f` and {glue}`seed`, not `code`") == ["p_A", "seed"]

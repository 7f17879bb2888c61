"""The figures each lesson record declares (Lesson.widgets): every one on its page exactly once, ids unique."""

from __future__ import annotations

import pytest

from compute.checks import lesson_records

RECORDS = lesson_records()


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.page)
def test_every_declared_figure_is_on_its_page_once(built_site, record):
    html = (built_site / "posts" / f"{record.page}.html").read_text()
    counts = {name: html.count(f'id="{w.id}"') for name, w in record.widgets().items()}
    assert {name: n for name, n in counts.items() if n != 1} == {}


def test_figure_ids_are_unique_across_the_site():
    ids = [w.id for r in RECORDS for w in r.widgets().values()]
    assert len(ids) >= 30 and len(ids) == len(set(ids))

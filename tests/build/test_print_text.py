"""A lesson read without its web-only words (the handout's text) still reads: where an instruction to work a
control is left out, the sentence after it starts with a capital, not in the middle of the instruction's
sentence ("Choose a query token: its scores ..." would print as "its scores ..."); the check itself is
sitebuild.sitecheck.cut_sentences (tested in tests/unit/test_sitecheck.py)."""

from __future__ import annotations

import pytest

from conftest import LESSONS
from sitebuild.sitecheck import cut_sentences


@pytest.mark.parametrize("stem", LESSONS)
def test_no_sentence_starts_inside_a_web_only_instruction(built_site, stem):
    assert cut_sentences((built_site / "posts" / f"{stem}.html").read_text()) == []

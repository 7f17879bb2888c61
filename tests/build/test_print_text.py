"""A lesson read without its web-only words (the handout's text) still reads: where an instruction to work a
control is left out, the sentence after it starts with a capital, not in the middle of the instruction's
sentence ("Choose a query token: its scores ..." would print as "its scores ...")."""

from __future__ import annotations

import re

import pytest

from conftest import LESSONS

WEB_ONLY = re.compile(r'<span class="web-only">(?P<words>.*?)</span>(?P<after>(?:\s|<[^>]+>)*)(?P<next>.)', re.S)


def cut_sentences(html: str) -> list[str]:
    """Each web-only instruction that ends a sentence (or a lead-in) and is followed by a lower-case word."""
    broken = []
    for m in WEB_ONLY.finditer(html):
        words = re.sub(r"<[^>]+>", "", m["words"]).strip()
        if re.search(r"[.:!?]$", words) and m["next"].islower():
            broken.append(f"{words!r} then {m['next']!r}")
    return broken


@pytest.mark.parametrize("stem", LESSONS)
def test_no_sentence_starts_inside_a_web_only_instruction(built_site, stem):
    assert cut_sentences((built_site / "posts" / f"{stem}.html").read_text()) == []


def test_the_check_catches_a_sentence_cut_in_two():
    cut = '<p>Rows change. <span class="web-only">Choose a token:</span> its scores appear.</p>'
    whole = ('<p>Rows change. <span class="web-only">Choose a token.</span> Its scores appear, '
             'one per row<span class="web-only">; hover a cell</span>.</p>')
    assert cut_sentences(cut) == ["'Choose a token:' then 'i'"] and cut_sentences(whole) == []

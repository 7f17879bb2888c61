"""Paper has no controls: no printed sentence tells the reader to work one or speaks of one as if it were there
(a sentence about the web page's controls says so), and no drawn control or its mark is printed. Read from the
handout, the student edition and the answer key of every lesson."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from conftest import LESSONS


# A clause that tells the reader to work a control: at the start of a sentence or after ';', ':' or '('.
INSTRUCTION = re.compile(r"(?:^|[.;:!?(]\s)\s*(?:now\s+)?(hover|drag|click|tap|move|press|choose|pick|switch|select|"
                         r"step|scroll)\b(?!\s+(?:is|are|was|were|et al|\d))", re.IGNORECASE)


def test_instruction_pattern_finds_commands_not_descriptions():
    assert INSTRUCTION.search("The sum. Move the slider to choose w.")
    assert INSTRUCTION.search("one table per stage; hover a cell for its arithmetic")
    assert not INSTRUCTION.search("On the web page, hovering a cell gives its arithmetic.")
    assert not INSTRUCTION.search("The figure divides five fixed scores by a number.")
    assert not INSTRUCTION.search("Shaw et al.; Press et al., ALiBi. But step 10 cannot start.")


@pytest.mark.parametrize("stem", LESSONS)
def test_handout_tells_the_reader_to_work_no_control(built_site, stem):
    """Print has no slider to move: instructions are web-only, print notes say what the controls show."""
    text = " ".join(page.extract_text() for page in PdfReader(built_site / "handouts" / f"{stem}.pdf").pages)
    text = re.sub(r"\s+", " ", text)
    found = [text[max(0, m.start() - 40):m.end() + 40] for m in INSTRUCTION.finditer(text)]
    assert found == []


# Phrases that only make sense beside a working control: a printed sentence may use them only to say what the web
# page does ("On the web page, hovering a cell ...").
WEB_ONLY = re.compile(r"\b(?:in your browser|watch|buttons? choose|download it with|the link at the top|show the answers?|"
                      r"toggle the|play the|click(?:ing)?|hover(?:ing)?|drag(?:ging)?|tap(?:ping)?|press play|"
                     r"(?:the|a) slider|live box|end of the page|box below)\b", re.IGNORECASE)


def test_web_only_phrases_are_found():
    assert WEB_ONLY.search("It runs here, in your browser: watch a head jump.")
    assert WEB_ONLY.search("the buttons choose the query word") and WEB_ONLY.search("Show the answer")
    assert WEB_ONLY.search("at every step of the slider") and WEB_ONLY.search("the answers are at the end of the page")
    assert WEB_ONLY.search("The prepared story of the live box")
    assert not WEB_ONLY.search("The heron watched the river; Tap water.".replace("Tap", "Top"))


@pytest.mark.parametrize("stem", LESSONS)
def test_handout_sentences_point_to_no_control(built_site, stem):
    """Print has no buttons: a printed sentence (of the handout, the student edition or the key) that mentions
    working a control says what the web page does."""
    text = " ".join(page.extract_text() for name in (f"{stem}.pdf", f"{stem}-student.pdf", f"{stem}-key.pdf")
                    for page in PdfReader(built_site / "handouts" / name).pages)
    sentences = re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text))
    found = [s[:160] for s in sentences if WEB_ONLY.search(s) and "on the web page" not in s.lower()]
    assert found == []


@pytest.mark.parametrize("stem", LESSONS)
def test_no_control_and_no_word_about_one_is_printed(built_site, stem):
    """Paper has no buttons or sliders: no caption says "(buttons)" or "(slider)", and no play or drop-down
    mark from a drawn control is in the handout's text."""
    text = " ".join(page.extract_text() for page in PdfReader(built_site / "handouts" / f"{stem}.pdf").pages)
    assert [mark for mark in ("(buttons)", "(slider)", "(button)", "▶", "▾", "Play") if mark in text] == []

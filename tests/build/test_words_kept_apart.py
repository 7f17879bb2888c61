"""Every word of a lesson's prose reaches the reader as written: no two source words run together and no space
stands before a full stop or comma, on the page, in the handout and in the downloaded notebook.

The binding roles ({claim}, {about}) render as nothing, and their removal once took the paragraph's first line
break instead of the one before the role ("everyproduct", "thesame", "… timegrows", " ."). Here each lesson's
source gives the pairs of neighbouring words; a rendered word that is one such pair joined (and is not itself a
word of the source) is a fused word."""
from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from conftest import LESSONS, ROOT
from sitebuild.audit.sentences import prose_blocks

WORD = re.compile(r"[A-Za-z]+")
ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
SPACE_BEFORE_STOP = re.compile(r"[\w)\]”’] [.,;:](?=\s|$)")
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)


def fused_pairs(stem: str) -> tuple[set[str], set[str]]:
    """(every word of the lesson's source, lower-case; the pairs of neighbouring prose words joined that are not
    themselves words of the source)."""
    text = (ROOT / "posts" / f"{stem}.md").read_text()
    vocabulary = {w.lower() for w in WORD.findall(text)}
    pairs = set()
    for block in prose_blocks(text):
        words = WORD.findall(ROLE.sub(" ", " ".join(line for _, line in block.lines)))
        pairs |= {(a + b).lower() for a, b in zip(words, words[1:]) if len(a) > 1 and len(b) > 1}
    return vocabulary, pairs - vocabulary


def fused_in(text: str, stem: str) -> list[str]:
    _, fused = fused_pairs(stem)
    return sorted({w for w in WORD.findall(text) if w.lower() in fused})


GLUE = re.compile(r"\{glue(?::text)?\}`[^`]*`")
TOKEN = re.compile(r"[A-Za-z0-9]+")


def number_neighbours(stem: str) -> tuple[set[str], set[str], set[str]]:
    """(the words that stand just before a glued number in the source, those just after it, every token of the
    source): "token {glue:text}`n`" printed "token66" is a word fused to a number."""
    text = (ROOT / "posts" / f"{stem}.md").read_text()
    before, after = set(), set()
    for block in prose_blocks(text):
        line = " ".join(line for _, line in block.lines)
        parts = re.split(r"(\s*" + GLUE.pattern + r"\s*)", ROLE.sub(lambda m: m.group(0) if m.group(0).startswith(
            "{glue") else " ", line))
        for i in range(1, len(parts), 2):
            if not parts[i].startswith((" ", "\t")) and (left := WORD.findall(parts[i - 1][-40:])):
                pass                                  # written against the word in the source: not a fusion
            elif left := re.findall(r"([A-Za-z]{2,})\W*$", parts[i - 1]):
                before.add(left[0].lower())
            if parts[i].endswith((" ", "\t")) and (right := re.findall(r"^\W*([A-Za-z]{2,})", parts[i + 1])):
                after.add(right[0].lower())
    return before, after, {t.lower() for t in TOKEN.findall(text)}


def fused_numbers_in(text: str, stem: str) -> list[str]:
    """Words run into a glued number ("token66", "0.49rise"): a word the source spaces from a number, joined to
    digits, where the joined token is not one the source writes (float16)."""
    before, after, tokens = number_neighbours(stem)
    out = {m.group(0) for m in re.finditer(r"\b([A-Za-z]{2,})[<>−-]?\d[\d.,]*", text)
           if m.group(1).lower() in before and TOKEN.match(m.group(0)).group(0).lower() not in tokens}
    out |= {m.group(0) for m in re.finditer(r"(?<![\w.])\d[\d.,]*%?([A-Za-z]{2,})\b", text)
            if m.group(1).lower() in after and TOKEN.findall(m.group(0))[-1].lower() not in tokens}
    return sorted(out)


def page_paragraphs(stem: str) -> list[str]:
    """The text of every paragraph and list item of the built page as it renders (inline elements joined as they
    stand, math left out)."""
    soup = BeautifulSoup((ROOT / "site" / "posts" / f"{stem}.html").read_text(), "html.parser")
    article = soup.select_one("article.bd-article")
    for element in article.select("script, style"):
        element.decompose()
    for math in article.select("mjx-container"):
        math.replace_with("x")  # a formula reads as a word
    # the lab's stories are printed as the model reads them, one token a word ("a car . it was"): not prose
    return [" ".join(p.get_text("").split()) for p in article.select("p, li") if "lab-story" not in p.get("class", [])]


def test_the_check_finds_a_fused_word():
    stem = LESSONS[0]
    vocabulary, fused = fused_pairs(stem)
    assert fused and "the" in vocabulary
    a_pair = sorted(fused)[0]
    assert fused_in(f"Some text with {a_pair} in it.", stem) == [a_pair]
    assert SPACE_BEFORE_STOP.search("the end of it .") and not SPACE_BEFORE_STOP.search("the end of it.")


GLUED_LESSONS = [s for s in LESSONS if GLUE.search((ROOT / "posts" / f"{s}.md").read_text())]


@pytest.mark.parametrize("stem", GLUED_LESSONS)
def test_the_check_finds_a_word_fused_to_a_number(stem):
    before, after, tokens = number_neighbours(stem)
    assert before
    word = sorted(before)[0]
    assert fused_numbers_in(f"the {word} 0.42 here", stem) == []
    assert fused_numbers_in(f"the {word}0.42 here", stem) == [f"{word}0.42"]
    if after:
        assert fused_numbers_in(f"0.42{sorted(after)[0]} here", stem) == [f"0.42{sorted(after)[0]}"]


@pytest.mark.parametrize("stem", LESSONS)
def test_no_fused_word_and_no_space_before_a_stop_on_the_page(built_site, stem):
    paragraphs = page_paragraphs(stem)
    assert len(paragraphs) > 10
    assert fused_in("\n".join(paragraphs), stem) == [] and fused_numbers_in("\n".join(paragraphs), stem) == []
    assert [p[:120] for p in paragraphs if SPACE_BEFORE_STOP.search(p)] == []


@pytest.mark.parametrize("stem", LESSONS)
def test_no_fused_word_in_the_handout(built_site, stem):
    """The handout's lines of prose (eight words or more, with a stop or a comma: a figure's tick labels come out
    of the PDF run together however they were drawn, and have none). Words the built page prints whole (a caption
    written by compute, the glossary's definitions the handout ends with) are words, not fusions."""
    text = "\n".join(page.extract_text() for page in PdfReader(built_site / "handouts" / f"{stem}.pdf").pages)
    prose = [line for line in text.splitlines() if len(line.split()) >= 8 and re.search(r"[.,;:]", line)]
    assert len(prose) > 50
    printed_whole = {w.lower() for name in (f"posts/{stem}.html", "glossary.html")
                     for w in WORD.findall(BeautifulSoup((built_site / name).read_text(), "html.parser").get_text(" "))}
    assert [w for w in fused_in("\n".join(prose), stem) if w.lower() not in printed_whole] == []
    labels = re.compile(r"(?:\b[A-Za-z]+\d+\b.*){3}|\b\d+ [A-Za-z]+\d+\b")  # tick labels ("5 was6 slow7", "1 The2")
    assert fused_numbers_in("\n".join(line for line in prose if not labels.search(line)), stem) == []  # "token66", "range1.2": a bold or glued number kept apart


@pytest.mark.parametrize("stem", LESSONS)
def test_no_fused_word_and_no_space_before_a_stop_in_the_notebook(built_site, stem):
    notebook = json.loads((built_site / "notebooks" / f"{stem}.ipynb").read_text())
    markdown = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]
    text = "\n\n".join(markdown)
    assert fused_in(text, stem) == []
    assert fused_numbers_in(re.sub(r"`[^`]*`", " ", text), stem) == []  # file names in code ("seed1.json") aside
    prose = MATH.sub("x", text)  # a formula reads as a word (display math keeps its own spacing)
    assert [line for line in prose.splitlines() if SPACE_BEFORE_STOP.search(line)] == []

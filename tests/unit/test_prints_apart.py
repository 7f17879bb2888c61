"""Material printed apart (sitebuild.prints.lesson.appendix): a marked section keeps its heading in the chapter and
prints its body in the appendix; a link into what moved names the appendix; a question never moves."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sitebuild.prints.lesson import ApartError, appendix
from sitebuild.prints.markup import Page, blocks

PAGE = """<article>
<section id="s1"><h2>1. First<a class="headerlink" href="#s1">#</a></h2>
  <p>See <a href="#s2">section 2</a> and <a href="#fig-x">its figure</a>.</p></section>
<section id="s2" class="print-appendix"><h2>2. Optional recap<a class="headerlink" href="#s2">#</a></h2>
  <p>The recap's first sentence.</p><div id="fig-x"><p>A figure's words.</p></div>{question}</section>
<div class="print-appendix" data-appendix="Every story"><p>A long listing.</p></div>
</article>"""


def plain(markup: str) -> str:
    """Typst markup's escaped marks as the marks it prints."""
    return re.sub(r"\\(.)", r"\1", markup)


def chapter(question: str = "") -> tuple[str, list[tuple[str, str]]]:
    """The chapter's markup and the appendix's parts (title, markup), each unescaped."""
    article = BeautifulSoup(PAGE.format(question=question), "html.parser").article
    page = Page(Path("."), Path("."), stem="lesson")
    parts = appendix(article, page)
    return plain("\n".join(blocks(article, page))), [(plain(t), plain(b)) for t, b in parts]


def test_a_section_printed_apart_keeps_its_heading_and_its_body_goes_to_the_appendix():
    body, parts = chapter()
    assert [title for title, _ in parts] == ["A. Section 2: Optional recap", "B. Every story"]
    assert "The recap's first sentence." in parts[0][1] and "A figure's words." in parts[0][1]
    assert "The recap" not in body and "A figure" not in body
    assert "Optional recap" in body and "<s2>" in body       # the heading stays, labelled: links find it
    assert "This section is printed apart, as appendix A (lesson-appendix.pdf)." in body
    assert "Every story: appendix B, printed apart (lesson-appendix.pdf)." in body


def test_a_link_into_what_moved_names_its_appendix_and_a_link_to_the_heading_its_page():
    body, _ = chapter()
    assert "its figure (appendix A)" in body
    assert '#xref("s2")[section 2]' in body


def test_a_section_holding_a_question_is_refused():
    with pytest.raises(ApartError, match=r"appendix A holds question 3 of the chapter"):
        chapter('<p data-question="3"></p>')

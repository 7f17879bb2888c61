"""One glossary for the site: every term it defines is linked from its first use in every lesson that uses it,
and every link lands on the term's entry."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS, ROOT
from sitebuild.pages.glossary import pattern, terms

TERMS = terms((ROOT / "glossary.md").read_text())


def test_the_glossary_defines_its_terms_under_the_ids_the_links_use(built_site):
    page = BeautifulSoup((built_site / "glossary.html").read_text(), "html.parser")
    ids = {dt.get("id") for dt in page.select("dl.glossary dt")}
    assert len(TERMS) >= 20
    for stem in LESSONS:
        lesson = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
        for a in lesson.select("a.glossary-link"):
            assert a["href"].startswith("../glossary.html#") and a["href"].split("#")[1] in ids, a


@pytest.mark.parametrize("stem", LESSONS)
def test_every_term_is_linked_at_its_first_use(built_site, stem):
    page = BeautifulSoup((built_site / "posts" / f"{stem}.html").read_text(), "html.parser")
    paragraphs = [p for p in page.select("article p")
                  if not p.find_parent(["figure", "table", "aside", "details", "h1", "h2", "h3"])]
    used = 0
    for term in TERMS:
        first = next((p for p in paragraphs if pattern(term).search(running_text(p))), None)
        if first is None:
            continue
        used += 1
        links = [a for a in first.select("a.glossary-link") if pattern(term).fullmatch(a.get_text())]
        assert links, (stem, term, first.get_text()[:200])
    assert used >= 5, stem


def running_text(p) -> str:
    """A paragraph's words a reader reads as prose: without code, math, links other than glossary links and
    glued numbers."""
    p = BeautifulSoup(str(p), "html.parser")
    for e in p.select("code, .math, mjx-container, .pasted-text, a:not(.glossary-link)"):
        e.decompose()
    return re.sub(r"\s+", " ", p.get_text())

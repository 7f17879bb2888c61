"""A lesson that says "section N" links to section N: the number a reader follows is the heading's own.

Typed references drift when sections move ("the baseline of section 2" once
pointed at section 3's content). Every "section N" in a lesson's text must be
a link to a heading that starts with "N.".
"""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS

SECTION = re.compile(r"\bsections? (\d+)\b(?!\.\d)")  # not "section 3.5" of a cited paper


def headings(soup) -> dict[str, str]:
    """id -> the text of the heading that section (or anchor before it) opens."""
    out = {}
    for sec in soup.select("section[id]"):
        h = sec.find(re.compile(r"^h[1-6]$"))
        if h:
            out[sec["id"]] = h.get_text(" ", strip=True)
    return out


@pytest.mark.parametrize("stem", LESSONS)
def test_every_section_number_in_the_text_links_to_that_section(built_site, stem):
    page = built_site / "posts" / f"{stem}.html"
    soup = BeautifulSoup(page.read_text(), "html.parser")
    main = soup.select_one("main") or soup
    for a in main.select('a[href*="#"]'):
        found = SECTION.search(a.get_text(" ", strip=True))
        if not found:
            continue
        path, target = a["href"].split("#", 1)
        other = (page.parent / path) if path else page  # a section of this lesson or of another
        titles = headings(BeautifulSoup(other.read_text(), "html.parser"))
        assert target in titles, f"{stem}: '{a.get_text()}' links to {a['href']}, which is no section"
        assert titles[target].startswith(f"{found.group(1)}."), \
            f"{stem}: '{a.get_text()}' links to a section titled '{titles[target]}'"
        a.replace_with("")  # checked; what is left must hold no section number
    for bad in ("script", "style", "nav", ".headerlink", "h1", "h2", "h3", "h4"):
        for el in main.select(bad):
            el.decompose()
    loose = [m.group(0) for m in SECTION.finditer(main.get_text(" "))]
    assert not loose, f"{stem}: section numbers typed without a link: {loose}"


def test_the_by_hand_lesson_does_link_its_sections(built_site):
    """The check above is not empty: the long lesson refers to its sections by number."""
    soup = BeautifulSoup((built_site / "posts" / "attention-by-hand.html").read_text(), "html.parser")
    refs = [a for a in soup.select('main a[href^="#bh-s"]') if SECTION.search(a.get_text())]
    assert len(refs) >= 5

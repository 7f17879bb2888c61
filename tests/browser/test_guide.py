"""The readers' guide on the site (sitebuild/prose/guide.py): docs/readers.md as guide.html, linked from the landing
page, its headings the guide's, its links to the repository's other files plain words; on a phone it reads in
one column, and it is dark on a dark system."""
from __future__ import annotations

import re

from bs4 import BeautifulSoup

from conftest import ROOT


def test_the_landing_page_links_the_readers_guide_which_is_the_repositorys(built_site):
    index = BeautifulSoup((built_site / "index.html").read_text(), "html.parser")
    assert index.find("article").find("a", href="guide.html") is not None
    page = BeautifulSoup((built_site / "guide.html").read_text(), "html.parser")
    source = (ROOT / "docs" / "readers.md").read_text()
    squeeze = lambda t: " ".join(t.split())
    assert [squeeze(h.get_text()) for h in page.select("main h1, main h2")] == \
        [squeeze(re.sub(r"[*`]", "", h)) for h in re.findall(r"^##? (.+)$", source, re.M)]
    assert [a["href"] for a in page.select("a") if not a["href"].startswith(("http", "#"))] == ["index.html"]
    assert "performance.md" not in str(page.select("a"))


def test_the_guide_reads_on_a_phone_and_follows_a_dark_system(visit):
    v = visit(None, width=375, height=740)
    v.page.emulate_media(color_scheme="dark")
    v.page.goto(v.base + "guide.html", wait_until="load")
    seen = v.page.evaluate("""() => ({wide: document.documentElement.scrollWidth,
        back: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color})""")
    assert seen["wide"] <= 375
    rgb = lambda c: [int(x) for x in re.findall(r"\d+", c)[:3]]
    assert sum(rgb(seen["back"])) < 150 < sum(rgb(seen["text"]))      # dark ground, light words
    assert v.external_requests == [] and v.console_errors == []

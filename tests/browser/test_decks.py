"""Each lesson as a deck (sitebuild/decks.py): cut from the built page, a slide per section and per figure, each
figure the page's own and drawn live, keys and a clicker move one slide, the address holds the slide, nothing
loads from outside the site, and a slide fits the screen."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS

SIZES = [(1280, 720), (1920, 1080)]


def deck(site, stem) -> BeautifulSoup:
    return BeautifulSoup((site / "slides" / f"{stem}.html").read_text(), "html.parser")


def page(site, stem) -> BeautifulSoup:
    return BeautifulSoup((site / "posts" / f"{stem}.html").read_text(), "html.parser")


@pytest.mark.parametrize("stem", LESSONS)
def test_a_deck_has_a_slide_per_section_and_every_figure_of_its_page(built_site, stem):
    p, d = page(built_site, stem), deck(built_site, stem)
    sections = [s["id"] for s in p.select("article section > section") if s.find("h2", recursive=False)]
    assert sections and [s["data-section"] for s in d.select("section[data-section]")] == sections
    figures = [gd["id"] for gd in p.select("figure.plotly-figure .plotly-graph-div")]
    assert [s["data-figure"] for s in d.select("section[data-figure]")] == figures
    # the figure's data is the page's, in the same file
    for gd in figures:
        spec = lambda soup: soup.select_one(f'script.plotly-figure-spec[data-for="{gd}"]')["data-src"]
        assert spec(d) == spec(p)
    # the speaker notes hold the section's prose; the slide links back to the same place in the page
    first = d.select_one("section[data-section]")
    assert len(first.select_one("aside.notes").get_text()) > 40
    assert first.select_one("a.deck-back")["href"] == f"../posts/{stem}.html#{first['data-section']}"


@pytest.mark.parametrize("stem", LESSONS)
def test_a_slide_says_only_what_its_page_says(built_site, stem):
    """A slide's sentences are the page's own (the page's audit and claims cover them): each slide's lead is the
    start of one of the page's paragraphs, each figure's caption is the page's."""
    squeeze = lambda t: " ".join(t.split())
    p, d = page(built_site, stem), deck(built_site, stem)
    paragraphs = [squeeze(x.get_text()) for x in p.select("article p")]
    leads = [squeeze(x.get_text()) for x in d.select(".deck-lead")]
    assert leads and all(any(par.startswith(lead) for par in paragraphs) for lead in leads)
    for printed_only in p.select("figure.plotly-figure figcaption .figure-files-print"):
        printed_only.decompose()                  # where the figure's files are: said on paper, not on a slide
    captions = {squeeze(x.get_text()) for x in p.select("figure.plotly-figure figcaption")}
    assert {squeeze(x.get_text()) for x in d.select("figure.plotly-figure figcaption")} <= captions


@pytest.mark.parametrize("stem", LESSONS)
def test_the_page_links_its_deck(built_site, stem):
    link = page(built_site, stem).select_one("p.handout-link a[href$='.html']")
    assert link["href"] == f"../slides/{stem}.html" and "Present" in link.get_text()


def test_keys_and_a_clicker_move_one_slide_and_the_address_holds_it(visit):
    v = visit(None, width=1280, height=720)
    p = v.page
    p.goto(v.base + "slides/trained-walkthrough.html", wait_until="load")
    p.wait_for_function("() => window.Reveal && Reveal.isReady()")
    at = lambda: p.evaluate("() => Reveal.getIndices().h")
    for key, then in (("ArrowRight", 1), ("PageDown", 2), (" ", 3), ("ArrowLeft", 2), ("PageUp", 1)):
        p.keyboard.press(key)
        p.wait_for_timeout(150)
        assert at() == then, key
    p.wait_for_function("() => location.hash === '#/1'")
    p.goto(v.base + "slides/trained-walkthrough.html#/4", wait_until="load")
    p.wait_for_function("() => window.Reveal && Reveal.isReady()")
    assert at() == 4
    p.keyboard.press("o")
    assert p.evaluate("() => Reveal.isOverview()")
    assert v.external_requests == [] and v.console_errors == []


@pytest.mark.parametrize("width,height", SIZES)
def test_every_slide_fits_the_screen_with_its_figure_drawn(visit, width, height):
    """The walkthrough's deck, every slide shown in turn: its figure drawn live, nothing taller or wider than
    the screen."""
    v = visit(None, width=width, height=height)
    p = v.page
    p.goto(v.base + "slides/trained-walkthrough.html", wait_until="load")
    p.wait_for_function("() => window.Reveal && Reveal.isReady()")
    total = p.evaluate("() => Reveal.getTotalSlides()")
    too_big = []
    for k in range(total):
        p.evaluate(f"() => Reveal.slide({k})")
        gd = p.evaluate("() => { const g = Reveal.getCurrentSlide().querySelector('.plotly-graph-div'); "
                        "return g ? g.id : null; }")
        if gd:
            p.wait_for_function(f"() => document.getElementById('{gd}').classList.contains('figure-live')",
                                timeout=20_000)
            p.wait_for_timeout(200)
        box = p.evaluate("""() => { const s = Reveal.getCurrentSlide(), r = s.getBoundingClientRect();
          let bottom = 0, right = 0;
          s.querySelectorAll('*').forEach((el) => { if (el.closest('aside.notes')) return;
            const b = el.getBoundingClientRect(); if (!b.width && !b.height) return;
            bottom = Math.max(bottom, b.bottom); right = Math.max(right, b.right); });
          return [bottom, right, innerHeight, innerWidth]; }""")
        if box[0] > box[2] + 1 or box[1] > box[3] + 1:
            too_big.append((k, gd, [round(x) for x in box]))
    assert too_big == []
    assert v.external_requests == [] and v.console_errors == []


def test_a_figure_slide_draws_the_pages_figure_large(visit):
    v = visit(None, width=1280, height=720)
    p = v.page
    p.goto(v.base + "slides/attention-by-hand.html", wait_until="load")
    p.wait_for_function("() => window.Reveal && Reveal.isReady()")
    index = p.evaluate("() => [...document.querySelectorAll('.reveal .slides > section')]"
                       ".findIndex((s) => s.dataset.figure === 'bh-s09-residual')")
    p.evaluate(f"() => Reveal.slide({index})")
    p.wait_for_function("() => document.getElementById('bh-s09-residual').classList.contains('figure-live')")
    width = p.evaluate("() => document.getElementById('bh-s09-residual').getBoundingClientRect().width")
    assert width >= 0.7 * 1280
    # the page's figure, in the state it opens in (its slider at the last step)
    title = lambda: p.evaluate("() => document.getElementById('bh-s09-residual').layout.title.text")
    assert re.match(r"Step \d of 4", title())
    assert v.external_requests == [] and v.console_errors == []

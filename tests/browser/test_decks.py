"""Each lesson as a deck (sitebuild/decks/cut.py): cut from the built page, a slide per section and per figure, each
figure the page's own and drawn live, keys and a clicker move one slide, the address holds the slide, nothing
loads from outside the site, and a slide fits the screen."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS

SIZES = [(1280, 720), (1920, 1080)]
DECKS = [*LESSONS, "attention-by-hand-route"]   # each lesson's deck, and the reading route's


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
    marked = {squeeze(x.get_text()) for x in p.select("article .on-slide")}     # what the lesson marks for a slide
    leads = [squeeze(x.get_text()) for x in d.select(".deck-lead")]
    assert leads and all(any(par.startswith(lead) for par in paragraphs) or lead in marked for lead in leads)
    captions = {squeeze(x.get_text()) for x in p.select("figure.plotly-figure figcaption")}
    # on screen a figure's caption is said in its notes; on paper it is printed without its words about the
    # controls and where the figure's files are
    bare = lambda t: "".join(t.split())
    notes = bare(" ".join(x.get_text() for x in d.select("section[data-figure] aside.notes")))
    assert [caption for caption in captions if bare(caption) not in notes] == []
    for web_only in p.select("figure.plotly-figure figcaption :is(.web-only, .figure-files-print)"):
        web_only.decompose()
    printed = {squeeze(x.get_text()) for x in p.select("figure.plotly-figure figcaption")}
    assert {squeeze(x.get_text()) for x in d.select("section.deck-paper figcaption")} == printed


@pytest.mark.parametrize("stem", LESSONS)
def test_the_page_links_its_deck(built_site, stem):
    link = page(built_site, stem).select_one("p.handout-link a[href$='.html']")
    assert link["href"] == f"../slides/{stem}.html" and "Present" in link.get_text()


def open_deck(v, deck: str, slide: str = ""):
    """`deck` opened in the visit's page (at `slide`, an address's '#/4'), reveal.js ready: the page."""
    v.page.goto(v.base + f"slides/{deck}.html{slide}", wait_until="load")
    v.page.wait_for_function("() => window.Reveal && Reveal.isReady()")
    return v.page


def show_figure(p, gd: str) -> None:
    """The slide of figure `gd` shown."""
    index = p.evaluate(f"() => [...document.querySelectorAll('.reveal .slides > section')]"
                       f".findIndex((s) => s.dataset.figure === '{gd}')")
    p.evaluate(f"() => Reveal.slide({index})")


def test_keys_and_a_clicker_move_one_slide_and_the_address_holds_it(visit):
    v = visit(None, width=1280, height=720)
    p = open_deck(v, "trained-walkthrough")
    at = lambda: p.evaluate("() => Reveal.getIndices().h")
    for key, then in (("ArrowRight", 1), ("PageDown", 2), (" ", 3), ("ArrowLeft", 2), ("PageUp", 1)):
        p.keyboard.press(key)
        p.wait_for_timeout(150)
        assert at() == then, key
    p.wait_for_function("() => location.hash === '#/1'")
    open_deck(v, "trained-walkthrough", "#/4")
    assert at() == 4
    p.keyboard.press("o")
    assert p.evaluate("() => Reveal.isOverview()")
    assert v.external_requests == [] and v.console_errors == []


# The slide's extent (an SVG's content is clipped to the SVG, so the SVG is measured, not what it holds) and its
# words smaller than `least` px as shown (a subscript sized as the letter it belongs to; a figure's words as its
# magnified drawing shows them), leaving out the speaker notes and what only a screen reader gets (the figure in
# words, its caption, MathJax's MathML).
SLIDE_JS = """(least) => {
  const s = Reveal.getCurrentSlide(), out = {bottom: 0, right: 0, small: []};
  const unseen = 'aside.notes, .figure-summary, .deck-figure figcaption, mjx-assistive-mml';
  s.querySelectorAll('*').forEach((el) => {
    if (el.closest(unseen) || (el.parentElement && el.parentElement.closest('svg'))) return;
    const b = el.getBoundingClientRect();
    if (b.width || b.height) { out.bottom = Math.max(out.bottom, b.bottom); out.right = Math.max(out.right, b.right); }
  });
  s.querySelectorAll('*').forEach((el) => {
    if (el.closest(unseen) || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return;
    if (el.matches('tspan') && /%/.test(el.style.fontSize)) return;   // plotly's W_O: sized as its W, below
    const word = el.closest('sub, sup') ? el.closest('sub, sup').parentElement : el;  // W_O: sized as its W
    const gd = el.closest('.plotly-graph-div');                // a figure is drawn magnified (slides.js)
    const scale = gd ? new DOMMatrix(getComputedStyle(gd).transform).a : 1;
    const size = parseFloat(getComputedStyle(word).fontSize) * scale;
    if (size < least - 0.01) out.small.push([el.tagName, size, el.textContent.trim().slice(0, 40)]);
  });
  return {...out, height: innerHeight, width: innerWidth};
}"""


def show_every_slide(v, deck):
    """Each slide of `deck` in turn, its figure drawn: yields (index, figure id or None)."""
    p = open_deck(v, deck)
    for k in range(p.evaluate("() => Reveal.getTotalSlides()")):
        p.evaluate(f"() => Reveal.slide({k})")
        gd = p.evaluate("() => { const g = Reveal.getCurrentSlide().querySelector('.plotly-graph-div'); "
                        "return g ? g.id : null; }")
        if gd:
            p.wait_for_function(f"() => document.getElementById('{gd}').classList.contains('figure-live')",
                                timeout=20_000)
            p.wait_for_timeout(150)
        yield k, gd


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("deck", DECKS)
def test_every_slide_fits_the_screen_with_its_figure_drawn_and_its_words_at_24_px(visit, deck, width, height):
    """Every deck at a projector's two sizes, every slide shown in turn: its figure drawn live, nothing taller or
    wider than the screen, no word of the slide under 24 px, no word of a figure over another, every figure at
    least 70 % of the slide's width."""
    from sitebuild.browser import CROWDED_WORDS_JS
    v = visit(None, width=width, height=height)
    too_big, small, crowded, narrow = [], [], [], []
    for k, gd in show_every_slide(v, deck):
        m = v.page.evaluate(SLIDE_JS, 24)
        if m["bottom"] > m["height"] + 1 or m["right"] > m["width"] + 1:
            too_big.append((k, gd, round(m["bottom"]), round(m["right"])))
        small += [(k, *word) for word in m["small"]]
        crowded += v.page.evaluate(CROWDED_WORDS_JS)
        shown = v.page.evaluate(f"() => document.getElementById('{gd}').getBoundingClientRect().width") if gd else width
        if shown < 0.7 * width:
            narrow.append((k, gd, round(shown)))
    assert too_big == [] and small == [] and crowded == [] and narrow == []
    assert v.external_requests == [] and v.console_errors == []


def test_a_figure_slide_draws_the_pages_figure_large(visit):
    v = visit(None, width=1280, height=720)
    p = open_deck(v, "attention-by-hand")
    show_figure(p, "bh-s09-residual")
    p.wait_for_function("() => document.getElementById('bh-s09-residual').classList.contains('figure-live')")
    width = p.evaluate("() => document.getElementById('bh-s09-residual').getBoundingClientRect().width")
    assert width >= 0.7 * 1280
    # the page's figure, in the state it opens in (its slider at the last step)
    title = lambda: p.evaluate("() => document.getElementById('bh-s09-residual').layout.title.text")
    assert re.match(r"Step \d of 4", title())
    assert v.external_requests == [] and v.console_errors == []


def test_a_figure_drawn_before_its_slide_comes_up_is_drawn_for_its_slide(visit):
    """Every figure of the deck drawn from its first slide, the far ones on slides reveal.js has not laid out
    (display: none): each is drawn at the size its slide gives it when it is shown."""
    from sitebuild.browser import WAIT_FOR_PAGE_JS
    v = visit(None, width=1280, height=720)
    p = open_deck(v, "attention-by-hand")
    unloaded = p.evaluate("() => [...document.querySelectorAll('.slides > section.deck-figure')]"
                          ".filter((s) => s.style.display === 'none').map((s) => s.dataset.figure)")
    assert len(unloaded) >= 5
    assert p.evaluate(WAIT_FOR_PAGE_JS) >= len(unloaded)     # every figure drawn, none refused
    drawn = lambda gd: p.evaluate(f"() => {{ const g = document.getElementById('{gd}'); "
                                  "return [g._fullLayout.width, g._fullLayout.height]; }")
    for gd in (unloaded[0], unloaded[-1]):
        show_figure(p, gd)
        at = drawn(gd)
        shown = p.evaluate(f"() => siteSlides.geometry(document.getElementById('{gd}'))")
        assert at == [shown["width"], shown["height"]], gd
    assert v.external_requests == [] and v.console_errors == []


def test_the_reading_route_is_a_deck_of_its_stops_each_with_its_example(built_site):
    """Attention by hand's first pass (the list its page marks as the reading route) as a short deck: a title slide,
    then a slide per stop with the stop's own words and its example, the figure the stop links to, on it."""
    squeeze = lambda t: " ".join(t.split())
    p, d = page(built_site, "attention-by-hand"), deck(built_site, "attention-by-hand-route")
    stops = p.select_one("ol.reading-route").find_all("li", recursive=False)
    slides = d.select(".slides > section:not(.deck-paper)")
    assert len(stops) == 4 and len(slides) == 1 + len(stops)
    for stop, slide in zip(stops, slides[1:]):
        assert squeeze(slide.h2.get_text()) == squeeze(stop.strong.get_text())
        rest = squeeze(stop.get_text()).removeprefix(squeeze(stop.strong.get_text())).strip()
        bare = lambda t: "".join(t.split())
        assert bare(rest) in bare(slide.select_one("aside.notes").get_text())     # the stop's words, said
        paper = slide.find_next_sibling("section")                                 # and printed with its figure
        assert "deck-paper" in paper["class"] and squeeze(paper.select_one(".deck-lead").get_text()) == rest
        example = p.find(id=stop.select("a")[-1]["href"].split("#")[1])      # the label above the figure's cell
        figure = example.find_next("figure", class_="plotly-figure")
        assert slide["data-figure"] == figure.select_one(".plotly-graph-div")["id"]
        assert "Example:" in stop.get_text()
    assert p.select_one(".handout-link a[href='../slides/attention-by-hand-route.html']") is not None


def test_a_deck_shows_what_its_lesson_marks_for_a_slide(built_site):
    """A section whose lesson marks words for its slide ({.on-slide}) shows those words, not its opening."""
    p, d = page(built_site, "attention-by-hand"), deck(built_site, "attention-by-hand")
    marked = p.select_one("#bh-s01 .on-slide")
    slide = d.select_one('section[data-section="bh-s01"]')
    assert [" ".join(x.get_text().split()) for x in slide.select(".deck-lead")] == [" ".join(marked.get_text().split())]
    assert not p.select_one("#bh-s01 p").get_text().startswith(marked.get_text()[:20])   # not the opening


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("deck", ["trained-walkthrough", "attention-by-hand-route"])
def test_a_deck_follows_the_system_scheme_and_is_axe_clean(visit, deck, scheme):
    """In the system's light or dark mode, on its title slide, a section's slide and a figure's slide with the
    figure drawn: the deck's colours are that mode's (the figure's too) and axe finds nothing serious."""
    from test_accessibility import _serious_violations

    v = visit(None, width=1280, height=720)
    v.page.emulate_media(color_scheme=scheme)
    found, seen = [], set()
    for k, gd in show_every_slide(v, deck):
        kind = "figure" if gd else ("title" if k == 0 else "section")
        if kind in seen:
            continue
        seen.add(kind)
        background = v.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        dark = sum(int(x) for x in re.findall(r"\d+", background)[:3]) < 3 * 128
        assert (dark, v.page.evaluate("() => document.documentElement.dataset.theme")) == (scheme == "dark", scheme)
        if gd:
            paper = v.page.evaluate(f"() => document.getElementById('{gd}')._fullLayout.paper_bgcolor")
            assert (sum(int(x) for x in re.findall(r"\d+", paper)[:3]) < 3 * 128
                    if paper.startswith("rgb") else paper.lower() not in ("#fff", "#ffffff", "white")) == (scheme == "dark")
        found += _serious_violations(v, f"slides/{deck}.html#/{k}")
    assert seen == {"title", "section", "figure"} or deck.endswith("-route") and seen == {"title", "figure"}
    assert found == []
    assert v.external_requests == [] and v.console_errors == []

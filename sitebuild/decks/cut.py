"""Slides: each lesson as a reveal.js deck for a projector, made from its built page.

The deck is cut from the page the build has just made (its math typeset, its figures declared), so it holds
no second copy of any sentence, number or figure: every value on a slide is the page's glued value, bound to
the page's claims and audited with the page. Written to `<html>/slides/<lesson>.html`:

* a title slide: the lesson's title and what the reader will be able to do (the front box's list);
* a slide per section: its heading, the first sentence or two of its opening paragraph and its first display
  equation; the section's whole prose goes to the speaker notes (`S` opens reveal.js's speaker view);
* a slide per figure, after its section's: the same live figure as the page (same data, same controls,
  keyboard and clicker included), drawn when its slide is shown, as large as the slide allows; its caption
  under it; the paragraph before it and the figure in words in the notes.

Each slide links back to the same place in the page. reveal.js (vendored, `_static/vendor/reveal/`) gives the
navigation: arrows, space, page up/down (a clicker), `O` or Esc for the overview of all slides, and the
slide's number in the address (`#/3`; slides carry no id, which reveal.js would put there instead), which
opens that slide. A display equation wider than the slide is shrunk to fit (slides.js).
"""
from __future__ import annotations

import copy
import html
import re
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.dammit import EntitySubstitution
from bs4.formatter import HTMLFormatter


class _AsWritten(HTMLFormatter):
    """bs4's "minimal" HTML output, with attributes in the page's own order (bs4 sorts them): the publisher
    finds a figure's data by its script tag as written (sitebuild.figures.files)."""

    def __init__(self):
        super().__init__(entity_substitution=EntitySubstitution.substitute_xml)

    def attributes(self, tag):
        return list(tag.attrs.items())


AS_WRITTEN = _AsWritten()

FOLDER = "slides"
MARK = "on-slide"    # the class a lesson gives what goes on its section's slide
ROUTE_SUFFIX = "-route"
ROUTE = "reading-route"   # the class of the ordered list that is a lesson's reading route (a short deck of its own)
OPENING = 240        # characters of a section's opening paragraph a slide shows: whole sentences up to about this
SCRIPTS = ("plotly-keyboard.js", "plotly-menus.js", "plotly-theme.js", "plotly-inspect.js")  # as a lesson page


def route_href(stem: str) -> str:
    """The deck of a lesson's reading route, relative to the lesson's page."""
    return f"../{FOLDER}/{stem}{ROUTE_SUFFIX}.html"


def href(stem: str) -> str:
    """The deck of a lesson, relative to the lesson's page."""
    return f"../{FOLDER}/{stem}.html"


def unlinked(tag: Tag) -> Tag:
    """A copy of a heading without its # link."""
    tag = copy.copy(tag)
    for link in tag.select("a.headerlink"):
        link.decompose()
    return tag


def text_of(tag: Tag) -> str:
    """A heading's words (its math as the words MathJax gives a screen reader)."""
    return " ".join(unlinked(tag).get_text(" ").split())


def inner(tag: Tag) -> str:
    """A heading's HTML as the page shows it (its math typeset)."""
    return unlinked(tag).decode_contents(formatter=AS_WRITTEN)


def opening(paragraph: Tag, limit: int = OPENING) -> str:
    """The paragraph's HTML up to the end of the sentence that reaches `limit` characters (the whole paragraph
    if it is shorter): inline math and links kept."""
    out, length = [], 0
    for child in paragraph.children:
        if isinstance(child, NavigableString) and length >= limit // 3:
            text = str(child)
            end = re.search(r"[.!?](?=\s|$)", text)
            if end and length + end.end() >= limit // 3:
                out.append(html.escape(text[: end.end()]))
                return "".join(out)
        piece = child.get_text() if isinstance(child, Tag) else str(child)
        out.append(child.decode(formatter=AS_WRITTEN) if isinstance(child, Tag) else html.escape(str(child)))
        length += len(piece)
    return "".join(out)


def prose_of(section: Tag) -> list[Tag]:
    """The section's own paragraphs and list items (not those of its figures, tables, answers or code)."""
    return [p for p in section.find_all(["p", "li"])
            if not p.find_parent(["figure", "table", "details", "pre", "aside"])
            and "handout-link" not in p.get("class", []) and not p.find_parent(class_="front-box")
            and p.get_text(strip=True)]


def notes(paragraphs: list[Tag]) -> str:
    words = " ".join(" ".join(p.get_text(" ").split()) for p in paragraphs)
    return f'<aside class="notes">{html.escape(words)}</aside>' if words else ""


def back(stem: str, anchor: str) -> str:
    return f'<a class="deck-back" href="../posts/{stem}.html#{anchor}">Back to the page</a>'


def marked(section: Tag) -> list[Tag]:
    """What the lesson marks for its section's slide, in order: `[words]{.on-slide}` in a sentence, `{.on-slide}`
    before a paragraph or a list (MyST's inline and block attributes)."""
    return [m for m in section.select(f".{MARK}") if m.name != "div" and not m.find_parent(class_=MARK)]


def leads(section: Tag, paragraphs: list[Tag]) -> list[str]:
    """The words on a section's slide: what the lesson marks for it, or else the opening of its prose, a
    sentence or two from one or two paragraphs."""
    marks = marked(section)
    if marks:
        tag = lambda m: "p" if m.name in ("p", "span") else m.name      # a marked sentence is a paragraph there
        return [f'<{tag(m)} class="deck-lead">{m.decode_contents(formatter=AS_WRITTEN)}</{tag(m)}>' for m in marks]
    out, shown = [], 0
    for p in (p for p in paragraphs if p.name == "p"):
        lead = opening(p, OPENING - shown)
        out.append(f'<p class="deck-lead">{lead}</p>')
        shown += len(BeautifulSoup(lead, "html.parser").get_text())
        if shown >= OPENING // 3 or len(out) > 1:
            break
    return out


def section_slides(section: Tag, stem: str) -> list[str]:
    heading = section.find(["h2"])
    title = inner(heading)
    paragraphs = prose_of(section)
    equation = section.select_one(f"div.math.{MARK}") or section.find("div", class_="math")
    slide = [f"<h2>{title}</h2>", *leads(section, paragraphs)]
    if equation is not None:
        slide.append(f'<div class="deck-equation">{equation.decode_contents(formatter=AS_WRITTEN)}</div>')
    out = [f'<section data-section="{section["id"]}">{"".join(slide)}'
           f'{back(stem, section["id"])}{notes(paragraphs)}</section>']
    for figure in section.select("figure.plotly-figure"):
        out.append(figure_slide(figure, title, stem))
    return out


def figure_slide(figure: Tag, title: str, stem: str, lead: str = "") -> str:
    """The figure's slide on screen, then its slides on paper (one per printed state, under `title` and over
    the caption). On screen the live figure has the slide to itself (a stop of a reading route puts its
    `title` over it): its caption, and a stop's `lead`, are said, in the notes; the caption is kept for a screen
    reader too (slides.css)."""
    gd = figure.select_one(".plotly-graph-div")["id"]
    heading = f'<h2 class="deck-small">{title}</h2>' if not lead else f"<h2>{title}</h2>{lead}"
    caption = figure.find("figcaption")
    said = [" ".join(BeautifulSoup(x, "html.parser").get_text(" ").split()) for x in (lead, str(caption or ""))]
    notes = " ".join(filter(None, (*said, figure_words(figure))))
    live = (f'<section class="deck-figure" data-figure="{gd}">{lead and f"<h2>{title}</h2>"}{live_figure(figure)}'
            f'{back(stem, gd)}<aside class="notes">{html.escape(notes)}</aside></section>')
    return live + "".join(f'<section class="deck-paper" data-paper="{gd}">{heading}{state}</section>'
                          for state in paper_states(figure))


def paper_states(figure: Tag) -> list[str]:
    """The figure on paper (the PDF of the deck): a figure for each state its page prints (the states its prose
    cites, drawn at build without a control), labelled with the state, and its caption without the words about
    controls. Shown only in reveal.js's print view (slides.js)."""
    states = figure.select(".figure-print .figure-state")
    caption = copy.copy(figure.find("figcaption"))
    for web in caption.select(".web-only, .figure-files-print"):
        web.decompose()
    out = []
    for k, state in enumerate(states, 1):
        state = copy.copy(state)
        img = state.find("img")
        img["loading"] = "eager"
        for attr in ("width", "height"):
            img.attrs.pop(attr, None)
        label = state.select_one(".figure-state-label")
        if label is not None and len(states) > 1:
            label.append(f" ({k} of {len(states)})")
        out.append(f'<figure class="figure-print">{state.decode(formatter=AS_WRITTEN)}'
                   f'{caption.decode(formatter=AS_WRITTEN)}</figure>')
    return out


def live_figure(figure: Tag) -> str:
    """The page's figure as a slide draws it: the same data and controls, drawn at the slide's size."""
    figure = copy.copy(figure)
    gd = figure.select_one(".plotly-graph-div")
    for attr in ("data-geometry", "style", "tabindex", "role", "aria-label"):
        gd.attrs.pop(attr, None)                  # drawn live at the slide's size, not the page's
    for kept_off in figure.select(".figure-print, .figure-files, .figure-files-print, .figure-why, .figure-scroll > br"):
        kept_off.decompose()
    scroll = figure.select_one(".figure-scroll")
    if scroll is not None:
        scroll.unwrap()
    return figure.decode(formatter=AS_WRITTEN)


def figure_words(figure: Tag) -> str:
    """The speaker's notes of a figure's slide: the paragraph before it and the figure in words."""
    summary = figure.select_one(".figure-summary")
    said = summary.get_text(" ", strip=True) if summary else ""
    before = figure.find_previous("p")
    return " ".join(x for x in (before.get_text(" ", strip=True) if before else "", said) if x)


def example_of(article: Tag, link: str) -> Tag | None:
    """The figure a link of a reading route points at: a figure, or a label right before one (a lesson's
    `(name)=` above the cell that draws it); None for a link to a section."""
    target = article.find(id=link.rpartition("#")[2])
    if target is None or target.name == "section":
        return None
    inside = target.find_parent("figure", class_="plotly-figure")
    if inside is not None:
        return inside
    is_figure = lambda t: t.name == "figure" and "plotly-figure" in t.get("class", [])
    after = target.find_next(lambda t: t.name in ("h2", "h3", "p") or is_figure(t))
    return after if after is not None and is_figure(after) else None


def route_slides(article: Tag, stem: str) -> list[str]:
    """A lesson's reading route as slides ([] without one): a slide per stop of the list the lesson marks
    `{.reading-route}`, headed by the stop's bold words, its other words under them, and the example it links
    to (a figure of the page) drawn live on the same slide."""
    route = article.select_one(f"ol.{ROUTE}")
    if route is None:
        return []
    slides = []
    for item in route.find_all("li", recursive=False):
        item = copy.copy(item.find("p") or item)
        head = item.find("strong")
        title = head.decode_contents(formatter=AS_WRITTEN) if head else ""
        if head is not None:
            head.decompose()
        example = next(filter(None, (example_of(article, a["href"]) for a in item.select("a[href]"))), None)
        if example is None:
            raise ValueError(f"{stem}: the reading route's stop {title or item.get_text()[:40]!r} links no figure "
                             f"of the page as its example")
        lead = f'<p class="deck-lead">{item.decode_contents(formatter=AS_WRITTEN).strip()}</p>'
        slides.append(figure_slide(example, title, stem, lead))
    return slides


def relink(article: Tag, stem: str) -> None:
    """Links as the deck needs them: one within the page (#x) or to a sibling page (y.html#z) points into the
    pages' folder; links up a level (../handouts/...) and outside stay as they are (same depth)."""
    for a in article.select("a[href]"):
        target = a["href"]
        if target.startswith("#"):
            a["href"] = f"../posts/{stem}.html{target}"
        elif not re.match(r"^(?:[a-z][a-z0-9+.-]*:|/|\.\./)", target):
            a["href"] = "../posts/" + target


def deck_html(page: str, stem: str) -> dict[str, str]:
    """The decks of a built lesson page: {name: deck} with the lesson's deck under its stem, and, for a lesson
    with a reading route, the route's under `<stem>-route`."""
    soup = BeautifulSoup(page, "html.parser")
    article = soup.select_one("article.bd-article")
    relink(article, stem)
    top = article.find("section")
    title = text_of(top.find("h1"))
    goals = article.select_one(".front-box ul")
    slides = [title_slide(title, goals.decode(formatter=AS_WRITTEN) if goals else "", stem, top["id"])]
    for section in top.find_all("section", recursive=False):
        if section.find("h2"):
            slides += section_slides(section, stem)
    decks = {stem: shell(soup, title, slides)}
    stops = route_slides(article, stem)
    if stops:
        route = article.select_one(f"ol.{ROUTE}")
        intro = route.find_previous_sibling("p")
        words = f'<p class="deck-lead">{intro.decode_contents(formatter=AS_WRITTEN)}</p>' if intro else ""
        anchor = route.find_parent("section")["id"]
        decks[f"{stem}{ROUTE_SUFFIX}"] = shell(soup, title, [title_slide(title, words, stem, anchor), *stops])
    return decks


def title_slide(title: str, words: str, stem: str, anchor: str) -> str:
    return (f'<section data-title><h1>{html.escape(title)}</h1><div class="deck-goals">{words}</div>'
            f'{back(stem, anchor)}</section>')


def shell(soup: BeautifulSoup, title: str, slides: list[str]) -> str:
    """A deck's page: reveal.js, the site's figure scripts and the page's typeset math styles around `slides`."""
    styles = "".join(s.decode(formatter=AS_WRITTEN) for s in soup.head.find_all("style")
                     if "mjx-" in s.get_text())                       # typeset math, its fonts inside (math/fonts.py)
    scripts = "".join(f'<script src="../_static/{s}"></script>' for s in SCRIPTS)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<script>document.documentElement.dataset.theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";</script>
<title>{html.escape(title)}: slides</title>
<link rel="icon" href="../_static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="../_static/vendor/reveal/reveal.css"><link rel="stylesheet" href="../_static/slides.css">
{styles}</head>
<body><div class="reveal"><div class="slides">
{chr(10).join(slides)}
</div></div>
<script src="../_static/vendor/reveal/reveal.js"></script><script src="../_static/vendor/reveal/notes.js"></script>
{scripts}<script src="../_static/figures.js" data-plotly="../_static/vendor/plotly/plotly-lesson.min.js"></script>
<script src="../_static/slides.js"></script>
</body></html>
"""


def slide_count(deck: str) -> int:
    """The slides a deck shows on screen (its paper-only slides left out)."""
    return deck.count("<section ") - deck.count('<section class="deck-paper"')


def make_decks(html_dir: Path, stems: list[str]) -> dict[str, int]:
    """Write each lesson's decks beside the pages; {deck name: its slides on screen}."""
    out = html_dir / FOLDER
    out.mkdir(exist_ok=True)
    counts = {}
    for stem in stems:
        for name, deck in deck_html((html_dir / "posts" / f"{stem}.html").read_text(encoding="utf-8"), stem).items():
            (out / f"{name}.html").write_text(deck, encoding="utf-8")
            counts[name] = slide_count(deck)
    return counts

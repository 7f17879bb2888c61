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
    finds a figure's data by its script tag as written (sitebuild.figurefiles)."""

    def __init__(self):
        super().__init__(entity_substitution=EntitySubstitution.substitute_xml)

    def attributes(self, tag):
        return list(tag.attrs.items())


AS_WRITTEN = _AsWritten()

FOLDER = "slides"
OPENING = 240        # characters of a section's opening paragraph a slide shows: whole sentences up to about this
SCRIPTS = ("plotly-keyboard.js", "plotly-menus.js", "plotly-theme.js", "plotly-inspect.js")  # as a lesson page


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


def section_slides(section: Tag, stem: str) -> list[str]:
    heading = section.find(["h2"])
    title = inner(heading)
    paragraphs = prose_of(section)
    equation = section.find("div", class_="math")
    slide = [f"<h2>{title}</h2>"]
    shown = 0
    for p in (p for p in paragraphs if p.name == "p"):   # the opening: a sentence or two, from one or two paragraphs
        lead = opening(p, OPENING - shown)
        slide.append(f'<p class="deck-lead">{lead}</p>')
        shown += len(BeautifulSoup(lead, "html.parser").get_text())
        if shown >= OPENING // 3 or len(slide) > 2:
            break
    if equation is not None:
        slide.append(f'<div class="deck-equation">{equation.decode_contents(formatter=AS_WRITTEN)}</div>')
    out = [f'<section data-section="{section["id"]}">{"".join(slide)}'
           f'{back(stem, section["id"])}{notes(paragraphs)}</section>']
    for figure in section.select("figure.plotly-figure"):
        out.append(figure_slide(figure, title, stem))
    return out


def figure_slide(figure: Tag, title: str, stem: str) -> str:
    figure = copy.copy(figure)
    gd = figure.select_one(".plotly-graph-div")
    for attr in ("data-geometry", "style", "tabindex", "role", "aria-label"):
        gd.attrs.pop(attr, None)                  # drawn live at the slide's size, not the page's
    for kept_off in figure.select(".figure-print, .figure-files, .figure-files-print, .figure-why, .figure-scroll > br"):
        kept_off.decompose()
    scroll = figure.select_one(".figure-scroll")
    if scroll is not None:
        scroll.unwrap()
    summary = figure.select_one(".figure-summary")
    said = summary.get_text(" ", strip=True) if summary else ""
    before = figure.find_previous("p")
    words = " ".join(x for x in (before.get_text(" ", strip=True) if before else "", said) if x)
    return (f'<section class="deck-figure" data-figure="{gd["id"]}"><h2 class="deck-small">{title}</h2>'
            f'{figure.decode(formatter=AS_WRITTEN)}{back(stem, gd["id"])}'
            f'<aside class="notes">{html.escape(words)}</aside></section>')


def relink(article: Tag, stem: str) -> None:
    """Links as the deck needs them: one within the page (#x) or to a sibling page (y.html#z) points into the
    pages' folder; links up a level (../handouts/...) and outside stay as they are (same depth)."""
    for a in article.select("a[href]"):
        target = a["href"]
        if target.startswith("#"):
            a["href"] = f"../posts/{stem}.html{target}"
        elif not re.match(r"^(?:[a-z][a-z0-9+.-]*:|/|\.\./)", target):
            a["href"] = "../posts/" + target


def deck_html(page: str, stem: str) -> str:
    """The deck of a built lesson page."""
    soup = BeautifulSoup(page, "html.parser")
    article = soup.select_one("article.bd-article")
    relink(article, stem)
    top = article.find("section")
    title = text_of(top.find("h1"))
    goals = article.select_one(".front-box ul")
    slides = [f'<section data-title><h1>{html.escape(title)}</h1>'
              + (f'<div class="deck-goals">{goals.decode(formatter=AS_WRITTEN)}</div>' if goals else "") + f'{back(stem, top["id"])}</section>']
    for section in top.find_all("section", recursive=False):
        if section.find("h2"):
            slides += section_slides(section, stem)
    styles = "".join(s.decode(formatter=AS_WRITTEN) for s in soup.head.find_all("style")
                     if "mjx-" in s.get_text())                                   # typeset math, and its fonts
    styles += "".join(link.decode(formatter=AS_WRITTEN) for link in soup.head.select('link[rel="preload"]')
                      if "mathjax" in link.get("href", ""))
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


def make_decks(html_dir: Path, stems: list[str]) -> int:
    """Write each lesson's deck beside the pages; the number of slides in all."""
    out = html_dir / FOLDER
    out.mkdir(exist_ok=True)
    slides = 0
    for stem in stems:
        deck = deck_html((html_dir / "posts" / f"{stem}.html").read_text(encoding="utf-8"), stem)
        (out / f"{stem}.html").write_text(deck, encoding="utf-8")
        slides += deck.count("<section ")
    return slides

"""Figures on paper: every category of a printed bar chart or heatmap is labelled (plotly labels every other
one of a crowded axis; sitebuild/figures/render.js labels each on paper), read off the printed pictures against
the numbers each state plots (the figure's CSV); and no text a drawing prints is under 7 pt on A4, read off the
prints themselves (sitebuild.prints.pdftext.drawing_text)."""
from __future__ import annotations

import csv
import io
import re

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS
from sitebuild.figures.forms import LEAST_PRINTED_PT
from sitebuild.prints import pdftext
from helpers import typeset

XTICK = re.compile(r'class="xtick"><text[^>]*>(.*?)</text>')


def numeric(value: str) -> bool:
    try:
        float(value)
        return True
    except ValueError:
        return False


def printed_states(site, stem):
    """(figure id, state, its printed SVG, the words along its x axis) for each printed state of a figure with
    one x axis whose categories are plain words."""
    page = site / "posts" / f"{stem}.html"
    soup = BeautifulSoup(page.read_text(), "html.parser")
    for figure in soup.select("figure.plotly-figure"):
        pictures = [img["src"] for img in figure.select(".figure-print .figure-state img")]
        data = figure.select_one('a[href$=".csv"]')
        if not pictures or data is None:
            continue
        states: list[tuple[str, list[dict]]] = []
        for row in csv.DictReader(io.StringIO((page.parent / data["href"]).resolve().read_text())):
            if not states or states[-1][0] != row.get("state", ""):
                states.append((row.get("state", ""), []))
            states[-1][1].append(row)
        for picture, (name, rows) in zip(pictures, states):
            svg = (page.parent / picture).resolve().read_text()
            words = list(dict.fromkeys(r["x"] for r in rows if r.get("x") and not numeric(r["x"])))
            if svg.count('class="xaxislayer-above"') == 1 and 0 < len(words) <= 40 and not any("<" in w for w in words):
                yield figure.select_one(".plotly-graph-div")["id"], name, svg, words


def unlabelled(svg: str, words: list[str]) -> list[str]:
    labels = {re.sub(r"<[^>]+>", "", text) for text in XTICK.findall(svg)}
    return [word for word in words if word not in labels]


@pytest.mark.parametrize("stem", LESSONS)
def test_every_category_of_a_printed_chart_is_labelled(built_site, stem):
    found = list(printed_states(built_site, stem))
    missing = [(fid, name, unlabelled(svg, words)[:3]) for fid, name, svg, words in found if unlabelled(svg, words)]
    assert missing == []


def test_the_check_reads_the_first_bar_chart_and_finds_a_label_gone(built_site):
    """The course's first bar chart (20 words) is read, each word labelled; one label taken out is found."""
    [(fid, name, svg, words)] = [s for s in printed_states(built_site, "attention-by-hand") if s[0] == "bh-s02-predict"][:1]
    assert len(words) >= 20 and "money" in words and unlabelled(svg, words) == []
    gone = re.sub(r'(class="xtick"><text[^>]*>)money(</text>)', r"\1\2", svg)
    assert unlabelled(gone, words) == ["money"]


def prints_of(site, stem) -> list:
    """The lesson's handout, its student edition and its appendix where it has one."""
    folder = site / "handouts"
    return [p for p in (folder / f"{stem}.pdf", folder / f"{stem}-student.pdf", folder / f"{stem}-appendix.pdf")
            if p.exists()]


@pytest.mark.parametrize("stem", LESSONS)
def test_no_drawing_prints_a_text_under_7_pt(built_site, stem):
    """Every figure's printed states and every block diagram: no label, tick, value or subscript under 7 pt."""
    handout, *others = prints_of(built_site, stem)
    drawn = pdftext.drawing_text(handout)
    assert drawn                                      # the handout's figures are read
    small = [(p.name, d.page + 1, round(d.size, 2), d.text) for p in [handout, *others]
             for d in pdftext.too_small(pdftext.drawing_text(p), LEAST_PRINTED_PT)]
    assert small == []


PLANTED_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="332" height="120" viewBox="0 0 332 120">
<text x="10" y="30" style="font-family: sans-serif; font-size: 8px">tiny</text>
<text x="10" y="80" style="font-family: sans-serif; font-size: 12px">plain</text></svg>"""


def test_the_reading_finds_a_drawings_text_under_7_pt(tmp_path):
    """A printed state of 332 px set two to a row (0.68 pt a px): its 8-px label prints at 5.5 pt and is found,
    its 12-px one at 8.2 pt is not; the page's own 6-pt text is Typst's, no drawing's."""
    (tmp_path / "planted.svg").write_text(PLANTED_SVG)
    pdf = typeset(tmp_path, '#states-figure(columns: 2, (fig-state(none, "/planted.svg", 332, 120),), [Planted])\n'
                            '#text(size: 6pt)[six points of running text]')
    drawn = {d.text: d.size for d in pdftext.drawing_text(pdf)}
    assert set(drawn) == {"tiny", "plain"}
    assert 5.2 < drawn["tiny"] < 5.8 and 8.0 < drawn["plain"] < 8.4
    assert [d.text for d in pdftext.too_small(pdftext.drawing_text(pdf), LEAST_PRINTED_PT)] == ["tiny"]

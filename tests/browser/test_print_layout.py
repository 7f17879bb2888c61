"""What the handout shows, checked on the page laid out in the order the prints set it (print media, the
handout's text width, every reveal open; sitebuild.prints sets the page's article in its order): a sentence that points to a table or
figure "below" has one below it in the same section, and no printed figure state's axis title covers its legend
(in print here, on the pictures the build drew;
on the web page at a desktop's and a phone's width in test_accessibility.py and test_reader.py, which open every
lesson with its figures drawn already)."""
from __future__ import annotations

import pytest

from conftest import LESSONS
from helpers import TITLES_OVER_LEGEND_JS

PRINT_VIEWPORT = {"width": 680, "height": 960}   # the prints' text width in CSS px (sitebuild.figures.forms)

# Every rendered element whose own text says "the table below" (or figure, chart, matrix): what it names must be
# the next such thing rendered after it, before the next section heading.
POINTS_BELOW_JS = r"""
() => {
  const KINDS = {table: 'table', figure: 'figure, .plotly-graph-div', chart: 'figure, .plotly-graph-div',
                 matrix: 'table, figure'};
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const all = [...document.querySelectorAll('article *')];
  const problems = [];
  all.forEach((e, i) => {
    if (!['P', 'LI', 'FIGCAPTION', 'DIV', 'SPAN', 'SUMMARY'].includes(e.tagName) || !shown(e)) return;
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ');
    const m = own.match(/\b(table|figure|chart|matrix) below\b/i);
    if (!m) return;
    const want = KINDS[m[1].toLowerCase()];
    const after = all.slice(i + 1).filter((x) => !e.contains(x) && shown(x));
    const target = after.find((x) => x.matches(want));
    const heading = after.find((x) => x.matches('h2'));
    const ok = target && (!heading || (heading.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING));
    if (!ok) problems.push(m[0] + ': ' + e.textContent.trim().slice(0, 120));
  });
  return problems;
}
"""

# Paper shows each figure's states as pictures drawn at build: put each picture's SVG into the page in its place,
# inside a box like a figure's, so that the legend check reads what the handout prints.
INLINE_PRINTED_JS = """async () => {
  const pictures = [...document.querySelectorAll('.figure-print img')];
  for (const [k, img] of pictures.entries()) {
    const svg = new DOMParser().parseFromString(await (await fetch(img.src)).text(), 'image/svg+xml').documentElement;
    const box = document.createElement('div');
    box.className = 'plotly-graph-div';
    box.id = 'printed-' + k + '-' + img.closest('figure').querySelector('.plotly-graph-div').id;
    box.append(document.importNode(svg, true));
    img.replaceWith(box);
  }
  return pictures.length;
}"""


def prepared_for_print(visit, stem):
    v = visit(None, width=PRINT_VIEWPORT["width"], height=PRINT_VIEWPORT["height"])
    v.page.emulate_media(media="print")
    v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
    v.page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    return v.page


@pytest.mark.parametrize("stem", LESSONS)
def test_in_print_a_sentence_pointing_below_has_what_it_names_below_it(visit, stem):
    page = prepared_for_print(visit, stem)
    assert page.evaluate(POINTS_BELOW_JS) == []
    assert page.evaluate(INLINE_PRINTED_JS) >= 1
    legends = page.evaluate(TITLES_OVER_LEGEND_JS)
    assert legends["out"] == []
    assert legends["legends"] >= 1 or stem in ("attention-by-hand", "lab"), legends  # the printed legends are seen


def test_the_legend_check_finds_legends_and_a_title_moved_over_one(visit):
    """The overlap check sees the site's legends, and a title placed on a legend is reported."""
    stem = "context-cost"
    page = visit(f"posts/{stem}.html", width=1280).page
    found = page.evaluate(TITLES_OVER_LEGEND_JS)
    assert found["legends"] >= 2 and found["out"] == []
    moved = page.evaluate("""() => {
        const gd = [...document.querySelectorAll('.plotly-graph-div')].find((g) => g.querySelector('.legend .bg')
                                                                             && g.querySelector('.g-xtitle text'));
        const l = gd.querySelector('.legend .bg').getBoundingClientRect(), t = gd.querySelector('.g-xtitle text');
        const r = t.getBoundingClientRect();
        t.setAttribute('transform', `translate(${l.left - r.left + 2}, ${l.top - r.top + 2})`);
        return gd.id;
    }""")
    assert any(line.startswith(moved) for line in page.evaluate(TITLES_OVER_LEGEND_JS)["out"])

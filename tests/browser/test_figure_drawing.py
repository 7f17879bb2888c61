"""_static/figures.js in Chromium, once figures are drawn live: nothing moves when they are, and their colours
follow the page's mode. The page is loaded as a reader's browser would, without the tests' drawAll (how a figure
opens as its picture and becomes live: tests/browser/test_figure_pictures.py)."""
from __future__ import annotations

import json

import pytest

from conftest import brightness
from sitebuild.sitecheck import figure_specs

PATH = "posts/attention-by-hand.html"
DRAWN_JS = "id => !!document.querySelector('#' + id + ' svg.main-svg')"
IDS_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(g => g.id)"
TOPS_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(g => g.getBoundingClientRect().top)"


def settle(page, ms: int = 1500):
    """Let figures.js finish the figures it has queued."""
    page.wait_for_timeout(ms)


@pytest.fixture
def reader(page):
    """The page fixture, but loaded without waiting for every figure (PageVisit.open draws all)."""
    def load(path: str = PATH):
        page.page.goto(page.base + path, wait_until="load")
        settle(page.page)
        return page.page
    yield load
    assert page.external_requests == []
    assert page.console_errors == []


def test_drawing_a_figure_moves_nothing(reader, built_site):
    p = reader()
    heights = [json.loads(s)["layout"].get("height", 450) for s in figure_specs((built_site / PATH).read_text(), built_site / PATH)]
    ids = p.evaluate(IDS_JS)
    last = ids[-1]
    before = p.evaluate(TOPS_JS)
    box = p.locator(f"#{last}").bounding_box()
    assert round(box["height"]) == heights[-1]        # undrawn, it keeps the figure's place
    p.evaluate("siteFigures.drawAll()")
    p.wait_for_function(DRAWN_JS, arg=last)
    assert p.evaluate(TOPS_JS) == before
    assert round(p.locator(f"#{last}").bounding_box()["height"]) == heights[-1]


def test_a_figure_drawn_on_a_dark_page_gets_dark_colours(visit):
    v = visit(init_script="localStorage.setItem('theme', 'dark'); localStorage.setItem('mode', 'dark');")
    p = v.page
    p.goto(v.base + PATH, wait_until="load")
    assert p.evaluate("document.documentElement.dataset.theme") == "dark"
    last = p.evaluate(IDS_JS)[-1]
    p.locator(f"#{last}").scroll_into_view_if_needed()
    p.locator(f"#{last}").hover()  # the reader touches it: the live figure is drawn
    p.wait_for_function(DRAWN_JS, arg=last, timeout=10_000)
    settle(p, 500)
    font, paper = p.evaluate("id => { const l = document.getElementById(id)._fullLayout; "
                             "return [l.font.color, l.paper_bgcolor]; }", last)
    assert brightness(font) > 0.6     # light text on the dark page
    assert paper in ("rgba(0, 0, 0, 0)", "rgba(0,0,0,0)")


# A drawn figure's colours, as plotly holds them after drawing.
COLOURS_JS = """id => {
  const l = document.getElementById(id)._fullLayout;
  const axes = Object.keys(l).filter((k) => /^[xy]axis\\d*$/.test(k)).sort();
  return [l.font.color, l.paper_bgcolor, l.plot_bgcolor,
          ...axes.flatMap((k) => [l[k].gridcolor, l[k].linecolor, l[k].zerolinecolor, l[k].tickfont.color])];
}"""


def test_light_mode_gives_a_figure_back_its_own_colours_and_redraws_only_on_a_change(reader):
    """The theme's script sets data-theme again, to the value it has, when the page has loaded: that must
    not redraw a figure (a redraw that nothing waits for could land while a handout prints); a switch to dark
    and back must leave the figure's colours as Python drew them."""
    p = reader()
    first = p.evaluate(IDS_JS)[0]
    p.locator(f"#{first}").scroll_into_view_if_needed()
    p.locator(f"#{first}").hover()
    p.wait_for_function(DRAWN_JS, arg=first, timeout=10_000)
    settle(p, 500)
    p.evaluate("id => { const gd = document.getElementById(id); window.relayouts = 0; "
               "gd.on('plotly_relayout', () => { window.relayouts += 1; }); }", first)
    drawn_colours = p.evaluate(COLOURS_JS, first)
    p.evaluate("document.documentElement.dataset.theme = 'light'")
    settle(p, 300)
    assert p.evaluate("window.relayouts") == 0
    p.evaluate("document.documentElement.dataset.theme = 'dark'")
    p.wait_for_function("() => window.relayouts === 1", timeout=5_000)
    assert brightness(p.evaluate(COLOURS_JS, first)[0]) > 0.6
    p.evaluate("document.documentElement.dataset.theme = 'light'")
    p.wait_for_function("() => window.relayouts === 2", timeout=5_000)
    assert p.evaluate(COLOURS_JS, first) == drawn_colours


def test_a_malformed_link_still_opens_the_page_with_its_pictures(reader):
    p = reader(f"{PATH}#%E0%A4%A")       # not valid percent-encoding: links nowhere
    first = p.evaluate(IDS_JS)[0]
    assert p.evaluate("window.scrollY") == 0  # the page opened at its top
    assert "-light-wide.svg" in p.evaluate(f"getComputedStyle(document.getElementById('{first}')).backgroundImage")
    p.locator(f"#{first}").hover()
    p.wait_for_function(DRAWN_JS, arg=first, timeout=10_000)

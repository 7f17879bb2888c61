"""_static/figures.js in Chromium: a figure is drawn when the reader nears it (on load, on
scrolling, on following a link to it), every figure before printing, and nothing moves when
one is drawn. The page is loaded as a reader's browser would, without the tests' drawAll."""
from __future__ import annotations

import json

import pytest

from conftest import LESSONS, brightness
from sitebuild.sitecheck import figure_specs

PATH = "posts/attention-by-hand.html"
DRAWN_JS = "id => !!document.querySelector('#' + id + ' svg.main-svg')"
IDS_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(g => g.id)"
TOPS_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(g => g.getBoundingClientRect().top)"


def settle(page, ms: int = 1500):
    """Let figures.js finish the figures it has queued."""
    page.wait_for_timeout(ms)


def drawn(page) -> dict[str, bool]:
    return {i: page.evaluate(DRAWN_JS, i) for i in page.evaluate(IDS_JS)}


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


def test_plotly_js_is_fetched_only_when_a_figure_nears_the_screen(page):
    """plotly.js is not part of a lesson's first load: figures.js fetches it when the first figure comes
    within a quarter of a screen of the viewport, or when a link leads into the page."""
    fetched_on_open, requests = {}, []
    page.page.on("request", lambda r: requests.append(r.url))
    for stem in LESSONS:
        requests.clear()
        page.page.goto(page.base + f"posts/{stem}.html", wait_until="load")
        settle(page.page, 800)
        near = page.page.evaluate("() => [...document.querySelectorAll('.plotly-graph-div')]"
                                  ".some(g => g.getBoundingClientRect().top < 1.25 * innerHeight)")
        fetched = any("plotly-lesson.min.js" in u for u in requests)
        assert fetched == near, (stem, near)
        fetched_on_open[stem] = fetched
        # scrolling to the first figure fetches it and draws the figure
        page.page.evaluate("document.querySelector('.plotly-graph-div').scrollIntoView()")
        page.page.wait_for_function("() => document.querySelector('.plotly-graph-div svg.main-svg')", timeout=10_000)
        assert sum("plotly-lesson.min.js" in u for u in requests) == 1
    assert not all(fetched_on_open.values()), "some lesson should open without plotly.js"


def test_opening_a_lesson_draws_only_the_figures_near_the_screen(reader):
    p = reader()
    height = p.evaluate("innerHeight")
    tops = dict(zip(p.evaluate(IDS_JS), p.evaluate(TOPS_JS)))
    state = drawn(p)
    near = [i for i, top in tops.items() if top < 1.25 * height]   # within a quarter screen below the first
    far = [i for i, top in tops.items() if top > 3 * height]
    assert far, "expected figures well below the first screens"
    assert all(state[i] for i in near), state
    assert not any(state[i] for i in far), [i for i in far if state[i]]


def test_scrolling_to_a_figure_draws_it_with_keyboard_access(reader):
    p = reader()
    last = p.evaluate(IDS_JS)[-1]
    assert not p.evaluate(DRAWN_JS, last)
    p.locator(f"#{last}").scroll_into_view_if_needed()
    p.wait_for_function(DRAWN_JS, arg=last, timeout=5_000)
    # plotly-keyboard.js has reached the newly drawn figure's controls
    controls = p.locator(f"#{last} [role=button], #{last} [role=slider]")
    controls.first.wait_for(timeout=5_000)
    assert controls.count() > 0
    assert controls.first.get_attribute("tabindex") == "0"


def test_a_link_to_a_figure_draws_it_and_not_the_page_above(reader):
    ids_top = reader().evaluate(IDS_JS)
    target, middle = ids_top[-1], ids_top[len(ids_top) // 2]
    p = reader(f"{PATH}#{target}")
    assert p.evaluate(DRAWN_JS, target)
    assert p.locator(f"#{target}").is_visible()
    assert not p.evaluate(DRAWN_JS, middle)


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


def test_printing_draws_every_figure(reader):
    p = reader()
    assert not all(drawn(p).values())
    p.evaluate("window.dispatchEvent(new Event('beforeprint'))")   # what the browser fires on Print
    # every figure is drawn, however slow the machine (a busy one took over 2 s for the first four)
    p.wait_for_function(f"() => ({IDS_JS})().every({DRAWN_JS})", timeout=20_000)
    assert all(drawn(p).values())


def test_a_figure_drawn_on_a_dark_page_gets_dark_colours(visit):
    v = visit(init_script="localStorage.setItem('theme', 'dark'); localStorage.setItem('mode', 'dark');")
    p = v.page
    p.goto(v.base + PATH, wait_until="load")
    assert p.evaluate("document.documentElement.dataset.theme") == "dark"
    last = p.evaluate(IDS_JS)[-1]
    p.locator(f"#{last}").scroll_into_view_if_needed()
    p.wait_for_function(DRAWN_JS, arg=last, timeout=5_000)
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
    p.wait_for_function(DRAWN_JS, arg=first, timeout=5_000)
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


def test_a_malformed_link_still_draws_the_first_screens(reader):
    p = reader(f"{PATH}#%E0%A4%A")       # not valid percent-encoding: links nowhere
    first = p.evaluate(IDS_JS)[0]
    # the page opened at its top, drawn as usual: what is near the screen, and the rest on scrolling
    near = p.evaluate(f"document.getElementById('{first}').getBoundingClientRect().top < 1.25 * innerHeight")
    assert p.evaluate(DRAWN_JS, first) == near
    p.locator(f"#{first}").scroll_into_view_if_needed()
    p.wait_for_function(DRAWN_JS, arg=first, timeout=5_000)

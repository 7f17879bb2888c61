"""Accessibility of every built page: axe-core, figure text alternatives, keyboard, colour maps.

axe-core is vendored under tests/vendor/axe-core/ (see its README) and
injected into each page from disk; nothing is fetched.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import plotly.colors
import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS, ROOT, brightness, new_visit

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
FAIL_IMPACTS = {"serious", "critical"}

# Violations that come from the theme's own markup and cannot be fixed by
# configuration or CSS: (rule id, CSS selector of the node) -> reason.
# Empty: the only theme finding (the search button's label without its visible
# "Ctrl+K", label-content-name-mismatch) is fixed in _static/site.js. Axe's
# moderate "region" finding on the sidebar logo is below the bar we assert.
THEME_EXCEPTIONS: dict[tuple[str, str], str] = {}

# Colours a figure may use: the named colour-blind-safe scales, the viridis
# anchors compute uses, neutral greys, and an amber that pairs with viridis
# blue (a blue/yellow contrast, readable with red-green colour blindness).
ALLOWED_SCALES = {"Viridis", "Cividis"}
# plotly's Python package writes a named scale out as its colour list
SCALE_COLOURS = {c.lower() for c in plotly.colors.sequential.Viridis + plotly.colors.sequential.Cividis}
VIRIDIS_FAMILY = {"#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"} | SCALE_COLOURS
NEUTRAL = {"#e8e8e8", "#888", "#888888", "#b8c2d6", "#444", "#444444"}
AMBER = {"#e3a71b"}
ALLOWED_COLOURS = VIRIDIS_FAMILY | NEUTRAL | AMBER

AXE_JS = """
async () => {
  const result = await axe.run(document);
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.map(n => n.target.join(' '))}));
}
"""


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the built site, relative to its root."""
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                  if not {"_static", "_sources", "_images"} & set(p.relative_to(site).parts))


def test_site_pages_include_the_known_ones(built_site):
    pages = site_pages(built_site)
    for page in ["index.html", "search.html", "genindex.html", *(f"posts/{name}.html" for name in LESSONS)]:
        assert page in pages


def _serious_violations(visit, path: str) -> list[str]:
    """axe's serious and critical findings on the page `visit` shows now."""
    visit.page.add_script_tag(path=str(AXE))
    found = []
    for v in visit.page.evaluate(AXE_JS):
        if v["impact"] not in FAIL_IMPACTS:
            continue
        nodes = [n for n in v["nodes"] if (v["id"], n) not in THEME_EXCEPTIONS]
        if nodes:
            found.append(f"{path}: {v['impact']} {v['id']} ({v['help']}): {nodes[:5]}")
    return found


@pytest.fixture(scope="module", params=LESSONS)
def opened(request, browser, http_server):
    """A lesson opened once, every figure drawn, on a light system (the theme's default mode follows the
    system); the tests below read it in turn (axe light, colours, the pressed button, then the system goes
    dark). Yields (page name, PageVisit)."""
    visit, context = new_visit(browser, http_server)
    visit.page.emulate_media(color_scheme="light")
    visit.open(f"posts/{request.param}.html")
    yield request.param, visit
    context.close()


def test_axe_light_mode_pages_other_than_lessons(page, built_site):
    """Each lesson is checked on its own open (the `opened` tests)."""
    found = []
    for path in site_pages(built_site):
        if not path.startswith("posts/"):
            page.open(path)
            found += _serious_violations(page, path)
    assert found == []
    assert page.external_requests == [] and page.console_errors == []


def test_no_axis_title_covers_a_legend_at_desktop_width(opened):
    from helpers import TITLES_OVER_LEGEND_JS
    assert opened[1].page.evaluate(TITLES_OVER_LEGEND_JS)["out"] == []


def test_axe_light_mode_lesson(opened):
    name, visit = opened
    assert visit.page.evaluate("document.documentElement.dataset.theme") == "light"
    assert _serious_violations(visit, f"posts/{name}.html") == []


def test_colours_are_colour_blind_safe(opened):
    _, visit = opened
    colours = visit.page.evaluate(COLOURS_JS)
    assert colours
    bad = [(where, value) for where, value in colours if not _colour_ok(value)]
    assert bad == []


def test_the_pressed_button_reads_clearly_in_both_modes(opened):
    """The pressed button's label is legible on it (4.5:1), and it stands apart from the others (1.5:1)."""
    _, visit = opened
    visit.page.mouse.move(0, 0)  # no hover: plotly paints a hovered button like the pressed one
    menus = visit.page.evaluate(BUTTON_MENUS_JS)
    for mode in ("dark", "light"):  # the theme's switch, as a reader's click sets it; light again after
        visit.page.evaluate(f"document.documentElement.dataset.theme = '{mode}'")
        visit.page.wait_for_timeout(600)
        pressed = visit.page.evaluate(PRESSED_JS)
        assert len(pressed) == menus  # one pressed button in each row of buttons the figures declare
        for b in pressed:
            assert contrast(b["text"], b["bg"]) >= 4.5, (mode, b)
            if b["other"]:
                assert contrast(b["bg"], b["other"]) >= 1.5, (mode, b)


def test_a_dark_system_turns_the_lesson_dark_and_axe_passes(opened):
    """Dark mode follows the reader's system, live; axe finds nothing serious in it."""
    name, visit = opened
    visit.page.emulate_media(color_scheme="dark")
    visit.page.wait_for_timeout(600)  # figures take the dark page's colours
    assert visit.page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert _serious_violations(visit, f"posts/{name}.html") == []
    assert visit.external_requests == [] and visit.console_errors == []


def test_figures_follow_the_system_back_and_forth(opened):
    """On the dark page (the test above turned the system dark) a figure sits on the page itself in light text;
    when the system turns light again, plotly's own colours return."""
    _, visit = opened
    p = visit.page
    first = p.locator(".plotly-graph-div").first.get_attribute("id")
    read = f"() => {{ const l = document.getElementById('{first}')._fullLayout; return [l.font.color, l.paper_bgcolor]; }}"
    font, paper = p.evaluate(read)
    assert brightness(font) > 0.6 and paper in ("rgba(0, 0, 0, 0)", "rgba(0,0,0,0)")
    box = p.evaluate(f"() => getComputedStyle(document.getElementById('{first}').closest('.output')).backgroundColor")
    assert box in ("rgba(0, 0, 0, 0)", "transparent"), box   # not on a light output box
    p.emulate_media(color_scheme="light")
    p.wait_for_timeout(600)
    assert p.evaluate("document.documentElement.dataset.theme") == "light"
    assert p.evaluate(read)[0] == "#2a3f5f"
    assert visit.console_errors == []


def test_every_figure_has_caption_and_text_alternative(built_site):
    count = 0
    for path in site_pages(built_site):
        soup = BeautifulSoup((built_site / path).read_text(encoding="utf-8"), "html.parser")
        for div in soup.select(".plotly-graph-div"):
            count += 1
            figure = div.find_parent("figure")
            assert figure is not None, f"{path} #{div['id']}: not inside a <figure>"
            caption = figure.find("figcaption")
            assert caption and caption.get_text(strip=True), f"{path} #{div['id']}: no caption"
            described = figure.get("aria-describedby") or div.get("aria-describedby")
            summary = soup.find(id=described) if described else None
            assert summary and summary.get_text(strip=True), f"{path} #{div['id']}: no text alternative"
            assert len(summary.get_text(strip=True)) > 40, f"{path} #{div['id']}: summary too short"
    assert count > 0


# --- keyboard ---------------------------------------------------------------

# Every control in the article a keyboard user should reach: links, <details> summaries, plotly's menu buttons
# and sliders; visible ones only. A figure's controls are named by figure and index (a figure redraws them); the
# others by the mark the focus left on them.
CONTROLS_JS = """() => [...document.querySelector('.bd-article').querySelectorAll('a[href], summary, .updatemenu-button, .slider-group')]
  .filter(el => el.getClientRects().length && el.checkVisibility({visibilityProperty: true}))
  .map(el => {
    const gd = el.closest('.plotly-graph-div');
    if (gd) return [true, gd.id + ' ' + [...gd.querySelectorAll('[role=button], [role=slider]')].indexOf(el)];
    return [false, el.hasAttribute('data-a11y-seen') ? 'seen'
      : (el.closest('[id]') || {}).id + ' ' + el.tagName + ' ' + (el.textContent || '').trim().slice(0, 40)];
  })"""
# Where the focus is: null on the page's body; else [focused before?, the control's name as CONTROLS_JS gives it]
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.classList.contains('plotly-graph-div')) return [false, 'box'];  // holding the focus for its controls
  const seen = el.hasAttribute('data-a11y-seen');
  el.setAttribute('data-a11y-seen', '');
  const gd = el.closest('.plotly-graph-div');
  return [seen, gd ? gd.id + ' ' + [...gd.querySelectorAll('[role=button], [role=slider]')].indexOf(el) : 'seen'];
}"""
# Buttons and sliders as the figures' JSON declares them (not as drawn); a hidden slider waits for its button.
# Each figure's JSON, from its file on the published site (sitebuild/figures/files.py) or from the page.
SPECS_JS = """() => Promise.all([...document.querySelectorAll('script.plotly-figure-spec')]
  .map(async (s) => s.dataset.src ? (await fetch(s.dataset.src)).json() : JSON.parse(s.textContent)))"""
DECLARED_JS = """async () => (await (""" + SPECS_JS + """)()).map(spec => spec.layout)
  .reduce((n, l) => n + (l.updatemenus || []).reduce((m, u) => m + u.buttons.length, 0) + (l.sliders || []).filter(s => s.visible !== false).length, 0)"""
DRAWN_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(gd => !!gd.querySelector('svg.main-svg'))"
BOX_FOCUSED_JS = "() => document.activeElement.classList.contains('plotly-graph-div')"


@pytest.mark.parametrize("lesson", LESSONS)
def test_tab_from_the_top_reaches_every_control(page, lesson):
    """A keyboard reader who never scrolls: Tab from the top reaches every link, summary and figure control
    of the article, though a figure is drawn only when the focus reaches it (its box holds the focus until its
    controls are there); plotly's controls say what they are."""
    p = page.page
    p.goto(page.base + f"posts/{lesson}.html", wait_until="load")
    p.wait_for_timeout(1500)
    assert not any(p.evaluate(DRAWN_JS))  # pictures until the reader touches a figure
    reached, stops = set(), 0
    for _ in range(3000):
        p.keyboard.press("Tab")
        p.wait_for_timeout(40)        # a fast typist: 25 presses a second
        where = p.evaluate(FOCUS_JS)
        if where is None:
            if stops:
                break                 # back on the body: Tab has been round the page
            continue
        seen, control = where
        if control == "box":
            # a figure's box holds the focus until its controls are drawn, then hands it to the first
            p.wait_for_function(f"() => !({BOX_FOCUSED_JS})()", timeout=10_000)
            where = p.evaluate(FOCUS_JS)
            seen, control = where
        if seen:
            break                     # back at an element focused before
        stops += 1
        reached.add(control)
    p.evaluate("siteFigures.drawAll()")
    controls = p.evaluate(CONTROLS_JS)
    # every button and slider the figures declare is there
    assert sum(in_figure for in_figure, _ in controls) == p.evaluate(DECLARED_JS)
    missing = sorted(name for in_figure, name in controls if name != "seen" and not (in_figure and name in reached))
    assert missing == [], f"{len(missing)} of {len(controls)} controls never got focus"
    assert stops >= len(controls)
    roles = p.evaluate("() => [...document.querySelectorAll('.updatemenu-button, .slider-group')]"
                       ".map(el => [el.getAttribute('role'), el.getAttribute('aria-label')])")
    for role, label in roles:
        assert role in ("button", "slider") and label
    assert page.external_requests == [] and page.console_errors == []


def test_focus_ring_is_visible_on_plotly_controls(page):
    page.open("posts/attention-by-hand.html", figures=["bh-s02-predict"])
    button = page.page.locator("#bh-s02-predict .updatemenu-button").nth(1)
    before = button.locator("rect").first.evaluate("r => getComputedStyle(r).strokeWidth")
    button.focus()
    page.page.keyboard.press("Shift+Tab")
    page.page.keyboard.press("Tab")  # keyboard focus, so :focus-visible applies
    after = button.locator("rect").first.evaluate("r => getComputedStyle(r).strokeWidth")
    assert before != after and after == "3px"


STATE_JS = """
(div) => {
  const gd = document.getElementById(div);
  return JSON.stringify({
    data: gd.data.map(t => [t.x, t.y, t.z, t.text, t.marker && t.marker.color]),
    title: gd.layout.title && gd.layout.title.text,
    menus: (gd.layout.updatemenus || []).map(m => m.active),
    sliders: (gd.layout.sliders || []).map(s => [s.active, s.visible]),
  });
}
"""

# (lesson, figure, what): a button to press, or a slider to move one step.
SAMPLES = [
    ("trained-walkthrough", "fig-next-word", "slider"),
    ("attention-by-hand", "bh-s02-predict", "button"),
    ("attention-by-hand", "bh-s07-retrieve", "button"),
    ("attention-by-hand", "bh-s10-blend", "slider"),
    ("attention-by-hand", "bh-s12-divisor", "slider"),
    ("attention-by-hand", "bh-s14-predict", "button"),
]


def _settle(p):
    p.page.wait_for_timeout(150)


def _direction(p, div) -> int:
    """+1 (a step right), or -1 where the slider already stands on its last step."""
    return 1 if p.page.evaluate(
        f"(s => s.active + 1 < s.steps.length)(document.getElementById('{div}').layout.sliders[0])") else -1


def _by_mouse(p, div, what):
    if what == "button":
        p.page.locator(f"#{div} .updatemenu-button").nth(1).click()
    else:
        p.page.locator(f"#{div}").scroll_into_view_if_needed()
        k = p.page.evaluate(f"document.getElementById('{div}').layout.sliders[0].active") + _direction(p, div)
        tick = p.page.locator(f"#{div} .slider-tick-rect").nth(k).bounding_box()
        rail = p.page.locator(f"#{div} .slider-rail-rect").bounding_box()
        p.page.mouse.click(tick["x"] + tick["width"] / 2, rail["y"] + rail["height"] / 2)
    _settle(p)
    return p.page.evaluate(STATE_JS, div)


def _by_keyboard(p, div, what):
    target = (p.page.locator(f"#{div} .updatemenu-button").nth(1) if what == "button"
              else p.page.locator(f"#{div} .slider-group").first)
    target.focus()
    p.page.keyboard.press("Enter" if what == "button" else
                          {1: "ArrowRight", -1: "ArrowLeft"}[_direction(p, div)])
    _settle(p)
    return p.page.evaluate(STATE_JS, div)


@pytest.mark.parametrize("lesson, div, what", SAMPLES)
def test_keyboard_does_what_the_mouse_does(page, lesson, div, what):
    page.open(f"posts/{lesson}.html", figures=[div])
    before = page.page.evaluate(STATE_JS, div)
    mouse = _by_mouse(page, div, what)
    assert mouse != before, "the mouse changed nothing: bad sample"
    page.open(f"posts/{lesson}.html", figures=[div])
    keyboard = _by_keyboard(page, div, what)
    assert json.loads(keyboard) == json.loads(mouse)
    assert page.page.evaluate("document.activeElement.closest('.plotly-graph-div').id") == div
    if what == "slider":
        assert page.page.locator(f"#{div} .slider-group").first.get_attribute("aria-valuenow") == \
            str(json.loads(keyboard)["sliders"][0][0])
    assert page.console_errors == []


def test_space_presses_a_button_and_home_end_move_a_slider(page):
    page.open("posts/attention-by-hand.html", figures=["bh-s02-predict", "bh-s10-blend"])
    button = page.page.locator("#bh-s02-predict .updatemenu-button").nth(1)
    button.focus()
    page.page.keyboard.press(" ")
    _settle(page)
    assert page.page.evaluate("document.getElementById('bh-s02-predict').layout.updatemenus[0].active") == 1
    assert button.get_attribute("aria-pressed") == "true"
    slider = page.page.locator("#bh-s10-blend .slider-group").first
    slider.focus()
    n = page.page.evaluate("document.getElementById('bh-s10-blend').layout.sliders[0].steps.length")
    for key, want in (("End", n - 1), ("Home", 0)):
        page.page.keyboard.press(key)
        _settle(page)
        assert page.page.evaluate("document.getElementById('bh-s10-blend').layout.sliders[0].active") == want
        assert slider.get_attribute("aria-valuenow") == str(want)


# --- colour maps --------------------------------------------------------------

COLOURS_JS = """
() => {
  const out = [];
  const add = (where, c) => {
    if (c === undefined || c === null) return;
    if (Array.isArray(c)) c.forEach(x => add(where, x)); else out.push([where, c]);
  };
  const scan = (where, t) => {
    if (t.colorscale !== undefined) out.push([where + ' colorscale', t.colorscale]);
    if (t.marker) { add(where + ' marker', t.marker.color);
                    if (t.marker.colorscale) out.push([where + ' marker.colorscale', t.marker.colorscale]); }
    if (t.line) add(where + ' line', t.line.color);
  };
  for (const gd of document.querySelectorAll('.plotly-graph-div')) {
    gd.data.forEach((t, k) => scan(`#${gd.id} trace ${k}`, t));
    ((gd._transitionData || {})._frames || []).forEach(f => (f.data || []).forEach(t => scan(`#${gd.id} frame`, t)));
    const controls = [...(gd.layout.updatemenus || []).flatMap(m => m.buttons),
                      ...(gd.layout.sliders || []).flatMap(s => s.steps)];
    for (const c of controls) {
      const update = (c.args || [])[0];
      if (update && typeof update === 'object' && !Array.isArray(update)) {
        for (const [key, value] of Object.entries(update)) {
          if (/color/.test(key)) add(`#${gd.id} control ${key}`, value);
        }
      }
    }
  }
  return out;
}
"""


def _colour_ok(value) -> bool:
    if isinstance(value, str):
        return value in ALLOWED_SCALES or value.lower() in ALLOWED_COLOURS
    if isinstance(value, list):  # a custom colour scale: [[stop, colour], ...]
        return all(isinstance(s, list) and str(s[1]).lower() in ALLOWED_COLOURS for s in value)
    return False


def test_colour_check_rejects_red_green():
    assert not _colour_ok("RdYlGn") and not _colour_ok([[0, "#d7191c"], [1, "#1a9641"]])
    assert _colour_ok("Viridis") and _colour_ok([[0, "#e8e8e8"], [1, "#21918c"]])


def test_vendored_axe_is_the_version_its_readme_names():
    banner = AXE.read_text(encoding="utf-8")[:40]
    version = re.search(r"axe v(4\.\d+\.\d+)", banner).group(1)
    readme = (AXE.parent / "README.md").read_text()
    assert version in readme and "MPL-2.0" in readme and "tools/vendor_assets.sh" in readme
    script = (ROOT / "tools" / "vendor_assets.sh").read_text()
    assert f"AXE_VERSION={version}" in script
    assert (AXE.parent / "LICENSE").exists()


PRESSED_JS = """() => [...document.querySelectorAll('.plotly-graph-div')].flatMap(gd => {
  const buttons = [...gd.querySelectorAll('.updatemenu-button[aria-pressed]')];
  const on = buttons.filter(b => b.getAttribute('aria-pressed') === 'true');
  const off = buttons.filter(b => b.getAttribute('aria-pressed') === 'false');
  const fill = el => getComputedStyle(el).fill;
  return on.map(b => ({where: gd.id + ' ' + b.textContent.trim(), bg: fill(b.querySelector('rect')),
                       text: fill(b.querySelector('text')), other: off.length ? fill(off[0].querySelector('rect')) : null}));
})"""


# Rows of buttons that show their pressed one (plotly updatemenus of type "buttons" with showactive and an
# active button; plotly's defaults: "buttons", true, 0), as the figures' JSON declares them.
BUTTON_MENUS_JS = """async () => (await (""" + SPECS_JS + """)())
  .flatMap(spec => spec.layout.updatemenus || [])
  .filter(m => (m.type || 'buttons') === 'buttons' && m.showactive !== false && (m.active ?? 0) >= 0).length"""


def _rgb(css: str) -> tuple[float, float, float]:
    return tuple(int(v) / 255 for v in re.findall(r"\d+", css)[:3])


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two CSS rgb() colours."""
    def lum(css):
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(css)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_is_the_wcag_ratio():
    assert round(contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1) == 21.0
    assert contrast("rgb(119, 119, 119)", "rgb(255, 255, 255)") == pytest.approx(4.48, abs=0.01)

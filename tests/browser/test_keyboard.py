"""The keyboard: Tab from the top reaches every control of each lesson (a figure drawn as the focus reaches it),
the focus ring shows on plotly's controls, and a key does what the mouse does on a sample of buttons and sliders.
"""

from __future__ import annotations

import json

import pytest

from conftest import LESSONS
from helpers import SPECS_JS


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
        p.keyboard.press("Tab")       # as fast as keys can be sent: no typist is faster, so no pause between them
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

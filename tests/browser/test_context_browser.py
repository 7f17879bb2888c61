"""Part 2B in Chromium: the count figure's buttons and slider, the measured figure's buttons, the story timings,
and every control at 375 px by touch."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from compute.costs import MIXERS, costs
from compute.lessons.context import counts, measured
from compute.published.timings import timings
from compute.lessons.context.states.growth import LENGTHS, WIDTHS

PATH = "posts/context-cost.html"
DATA_JS = """(id) => JSON.parse(JSON.stringify(document.getElementById(id).data,
    (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v))"""
TITLE_JS = "(id) => document.getElementById(id).layout.title.text"
CONTROLS = ".updatemenu-button, .updatemenu-header, .updatemenu-dropdown-button, .slider-rail-touch-rect"
# Each control of every figure: its box, and whether the element under its centre belongs to it.
CONTROL_BOXES_JS = """(sel) => [...document.querySelectorAll('.plotly-graph-div')].flatMap(g =>
  [...g.querySelectorAll(sel)].map(c => {
    c.scrollIntoView({block: 'center'});
    const r = c.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const own = c.closest('.updatemenu-button, .updatemenu-header, .updatemenu-dropdown-button, .slider-container');
    return {figure: g.id, text: c.textContent, left: r.left, right: r.right, ours: !!hit && own.contains(hit)};
  }))"""


@pytest.fixture
def lesson(page):
    page.open(PATH)
    yield page
    assert page.external_requests == []
    assert page.console_errors == []


def data(p, div):
    return p.page.evaluate(DATA_JS, div)


def button(p, div, label):
    b = p.page.locator(f"#{div} .updatemenu-button").filter(has_text=re.compile(f"^{re.escape(label)}$"))
    assert b.count() == 1, (div, label)
    return b


def slider(p, div, label):
    """The figure's visible slider with this accessible name (its label, without the value)."""
    group = p.page.locator(f"#{div} .slider-group[aria-label='{label}']")
    assert group.count() == 1, (div, label)
    return group


def slide(p, div, label, k):
    """Click the k-th tick of the named slider, on its rail."""
    group = slider(p, div, label)
    group.scroll_into_view_if_needed()
    tick = group.locator(".slider-tick-rect").nth(k).bounding_box()
    rail = group.locator(".slider-rail-rect").bounding_box()
    p.page.mouse.click(tick["x"] + tick["width"] / 2, rail["y"] + rail["height"] / 2)
    p.page.wait_for_timeout(80)


def slider_texts(p, div) -> list[str]:
    """What the visible sliders say they stand on (their labels with a value; tick labels have none)."""
    return sorted(t for t in p.page.locator(f"#{div} .slider-group text").all_text_contents() if " = " in t)


def bars_at(T, d):
    return [[getattr(costs(m, T, d), field) for field, _ in counts.FIELDS] for m in MIXERS]


def test_the_t_and_d_sliders_compose_and_show_every_count(lesson):
    div = counts.COSTS.id
    T, d = counts.SHOWN_T, counts.SHOWN_D
    moves = [("d", 0), ("T", LENGTHS.index(1024)), ("d", len(WIDTHS) - 1), ("T", 0), ("d", 1)]
    for which, k in moves:
        if which == "T":
            T = LENGTHS[k]
            slide(lesson, div, "context length T", k)
        else:
            d = WIDTHS[k]
            slide(lesson, div, "token width d", k)
        assert [t["y"] for t in data(lesson, div)] == bars_at(T, d), (which, k)
        assert lesson.page.evaluate(TITLE_JS, div) == f"Counted cost at T = {T} tokens of width d = {d}"
        assert slider_texts(lesson, div) == [f"context length T = {T}", f"token width d = {d}"]


def test_the_sliders_by_keyboard_do_what_a_click_does(lesson):
    div = counts.COSTS.id
    slider(lesson, div, "token width d").focus()
    lesson.page.keyboard.press("Home")
    lesson.page.wait_for_timeout(80)
    assert [t["y"] for t in data(lesson, div)] == bars_at(counts.SHOWN_T, WIDTHS[0])
    assert lesson.page.evaluate("document.activeElement.closest('.plotly-graph-div').id") == div


def test_measure_buttons_show_the_stored_times(lesson):
    div = measured.MIXER_TIMES.id
    for (measure, label), short in zip(measured.MEASURES, measured.BUTTONS):
        button(lesson, div, short).click()
        lesson.page.wait_for_timeout(80)
        assert lesson.page.evaluate(TITLE_JS, div) == f"Measured: {label}"
        for m, trace in zip(MIXERS, data(lesson, div)):
            T, seconds = timings().series(m, measure)
            assert trace["x"] == T
            assert np.allclose(trace["y"], np.array(seconds) * 1000, rtol=1e-12)


def test_story_figure_draws_each_stored_series(lesson):
    traces = data(lesson, measured.STORY_TIMES.id)
    assert len(traces) == 5                       # the MLP has no cache to keep
    stored = {(r["model"], r["measure"], r["T"]): r["seconds"] for r in timings().rows}
    for trace in traces:
        model = next(n for n, label in measured.STORY_LABELS.items() if trace["name"].startswith(label))
        measure = "token cached" if trace["name"].endswith("cache kept") else "token uncached"
        assert np.allclose(trace["y"], [stored[(model, measure, t)] * 1000 for t in trace["x"]])


def test_at_375_px_every_control_is_inside_the_screen_and_takes_a_tap(visit):
    p = visit(PATH, width=375, height=800, touch=True).page
    assert p.evaluate("document.documentElement.scrollWidth") <= 375
    boxes = p.evaluate(CONTROL_BOXES_JS, CONTROLS)
    assert len(boxes) >= 3  # two sliders and the measure menu (a drop-down here: its row is too wide)
    outside = [b for b in boxes if b["left"] < 0 or b["right"] > 375 or not b["ours"]]
    assert outside == [], json.dumps(outside)
    div = measured.MIXER_TIMES.id
    header = p.locator(f"#{div} .updatemenu-header")
    header.scroll_into_view_if_needed()
    header.tap()
    p.wait_for_timeout(200)
    last = p.locator(f"#{div} .updatemenu-dropdown-button").filter(has_text=measured.BUTTONS[-1])
    last.tap()
    p.wait_for_timeout(100)
    assert p.evaluate(TITLE_JS, div) == f"Measured: {measured.MEASURES[-1][1]}"


@pytest.mark.parametrize("figure", [measured.MIXER_TIMES, measured.STORY_TIMES])
def test_at_375_px_the_timings_fit_the_screen_to_their_longest_T(visit, figure):
    """A phone sees every measured length, not only those up to T = 256: the figure fits the screen."""
    p = visit(PATH, width=375, height=800, touch=True).page
    div = p.locator(f"#{figure.id}")
    div.scroll_into_view_if_needed()
    p.wait_for_function(f"document.querySelector('#{figure.id} .xtick') !== null", timeout=30_000)
    assert div.evaluate("(d) => !d.parentElement.classList.contains('figure-scroll')")
    ticks = p.evaluate(f"[...document.querySelectorAll('#{figure.id} .xtick')].map((t) => t.getBoundingClientRect().right)")
    legend = p.evaluate(f"[...document.querySelectorAll('#{figure.id} .legend .traces')].map((t) => t.getBoundingClientRect().right)")
    assert ticks and max(ticks) <= 375 and legend and max(legend) <= 375

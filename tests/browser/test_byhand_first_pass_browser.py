"""Sections 1-10 of the attention-by-hand page in Chromium: every widget driven as a reader would,
and what it then shows checked against compute."""
from __future__ import annotations

import numpy as np
import pytest

from compute.lessons.byhand import bank, model as m, prediction, retrieval, values, windows
from compute.lessons.byhand.states import attention as attn, context, search
from compute.present.palette import MARK
from compute.present.tables import fmt
from compute.present.widgets import cell_text, widgets_in

PATH = "posts/attention-by-hand.html"
IDS = {name: w.id for name, w in widgets_in(prediction, windows, retrieval, bank).items()}  # sections 2-10 (+14)

DATA_JS = """id => {
  const gd = document.getElementById(id);
  const plain = (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
  return JSON.parse(JSON.stringify({data: gd.data, layout: {title: gd.layout.title,
    sliders: (gd.layout.sliders || []).map(s => ({active: s.active, visible: s.visible})),
    menus: (gd.layout.updatemenus || []).map(u => ({active: u.active}))}}, plain));
}"""


@pytest.fixture
def site(page):
    figures = page.open(PATH, figures=[])  # each helper below draws the widget it drives (fig)
    assert figures >= len(IDS)
    yield page
    assert page.external_requests == []
    assert page.console_errors == []


def fig(site, key) -> str:
    """The id of the widget `key`, drawn (as scrolling to it would)."""
    site.draw(IDS[key])
    return IDS[key]


def state(site, key):
    return site.page.evaluate(DATA_JS, fig(site, key))


def click_button(site, key, i):
    site.page.locator(f"#{fig(site, key)} .updatemenu-button").nth(i).click()
    site.page.wait_for_timeout(150)


def click_slider(site, key, i, n, slider=0):
    """Click the (visible) slider's rail right where step i of n sits (at its tick mark)."""
    rail = site.page.locator(f"#{fig(site, key)} .slider-rail-rect").nth(slider)
    rail.scroll_into_view_if_needed()
    ticks = site.page.locator(f"#{IDS[key]} .slider-container").nth(slider).locator(".slider-tick-rect")
    assert ticks.count() == n
    tick, box = ticks.nth(i).bounding_box(), rail.bounding_box()
    site.page.mouse.click(tick["x"] + tick["width"] / 2, box["y"] + box["height"] / 2)
    site.page.wait_for_timeout(250)


def title(s):
    t = s["layout"]["title"]
    return t["text"] if isinstance(t, dict) else t


def hover_cell(site, key, xaxis, yaxis, col, row):
    """Move the mouse onto a heatmap cell; the hover label's text."""
    site.page.locator(f"#{fig(site, key)}").scroll_into_view_if_needed()
    js = """([id, xa, ya, c, r]) => {
      const gd = document.getElementById(id), L = gd._fullLayout, X = L[xa], Y = L[ya];
      const box = gd.getBoundingClientRect();
      return [box.left + X._offset + X.l2p(c), box.top + Y._offset + Y.l2p(r)];
    }"""
    x, y = site.page.evaluate(js, [IDS[key], xaxis, yaxis, col, row])
    site.page.mouse.move(x, y)
    site.page.wait_for_timeout(200)
    return site.page.locator(f"#{IDS[key]} .hoverlayer .hovertext").first.text_content()


def test_prediction_switch_moves_the_bars(site):
    click_button(site, "predict", 1)
    s = state(site, "predict")
    assert np.allclose(s["data"][0]["y"], attn.full_prediction("B"), atol=1e-12)
    assert "sentence B" in title(s)
    click_button(site, "predict", 0)
    assert np.allclose(state(site, "predict")["data"][0]["y"], attn.full_prediction("A"), atol=1e-12)


def test_baseline_switch_leaves_the_bars(site):
    before = state(site, "baseline")["data"][0]["y"]
    click_button(site, "baseline", 1)
    s = state(site, "baseline")
    assert s["data"][0]["y"] == before
    assert np.allclose(s["data"][0]["y"], attn.baseline_prediction("B"), atol=1e-12)
    assert "sentence B" in title(s)


@pytest.mark.parametrize("w", [1, 3, 10])
def test_window_slider(site, w):
    click_slider(site, "window", w - 1, 10)
    s = state(site, "window")
    assert s["layout"]["sliders"][0]["active"] == w - 1
    assert s["data"][0]["z"] == [[1.0 if p > 10 - w else 0.0 for p in range(1, 11)]]
    ws = context.window_state(w)
    assert f"→ {ws['mlp']} parameters" in title(s) and f"→ {ws['linear']} parameters" in title(s)


@pytest.mark.parametrize("n,focus", list(enumerate(context.POOL_FOCUS)))
def test_pool_buttons_and_slider(site, n, focus):
    click_button(site, "pool", n)
    s = state(site, "pool")
    assert [sl["visible"] for sl in s["layout"]["sliders"]] == [k == n for k in range(len(context.POOL_FOCUS))]
    assert np.allclose(s["data"][0]["x"], context.pool_weights(focus, 0.0))
    k = len(context.POOL_SHARES)
    for step in (k - 1, k // 2, 0):
        click_slider(site, "pool", step, k)
        s = state(site, "pool")
        share = context.POOL_SHARES[step]
        p = context.pool(context.pool_weights(focus, share))
        assert np.allclose(s["data"][0]["x"], p["weights"])
        assert s["data"][1]["text"][-1] == [fmt(x) for x in p["summary"]]
        assert len(s["data"][1]["text"][-1]) == len(m.FEATURES)


def test_scores_hover_writes_out_the_dot_product(site):
    text = hover_cell(site, "scores", "xaxis", "yaxis", 2, 1)
    assert "birds along the river" in text and "Herons of the delta" in text
    assert "1·1 + 3·2 + 3·3 = 16" in text  # travel, rivers, birds


def test_retrieval_hard_soft_and_temperature(site):
    rd = retrieval.RETRIEVE_DECIMALS
    assert state(site, "retrieve")["data"][0]["text"] == cell_text(search.retrieval_grid("hard"), rd)
    click_button(site, "retrieve", 1)
    s = state(site, "retrieve")
    assert s["data"][0]["text"] == cell_text(search.retrieval_grid("soft", 1.0), rd)
    n = len(search.TEMPERATURES)
    for i in (0, n - 1, 4):
        click_slider(site, "retrieve", i, n)
        s = state(site, "retrieve")
        assert s["layout"]["sliders"][0]["active"] == i
        assert s["data"][0]["text"] == cell_text(search.retrieval_grid("soft", search.TEMPERATURES[i]), rd)
        assert s["layout"]["menus"][0]["active"] == 1
    click_button(site, "retrieve", 0)
    assert state(site, "retrieve")["data"][0]["text"] == cell_text(search.retrieval_grid("hard"), rd)


def test_dot_key_selection(site):
    for j in range(1, m.BANK + 1):
        click_button(site, "dot", j - 1)
        s = state(site, "dot")
        assert s["data"][0]["text"] == cell_text(bank.dot_grid("A", j))
        assert s["data"][0]["x"][1] == f"k_{j} ({m.sentence('A')[j - 1]})"
        colours = s["data"][1]["marker"]["color"]
        assert [c == MARK for c in colours] == [k == j - 1 for k in range(m.BANK)]


def test_mix_toggle(site):
    assert state(site, "mix")["data"][0]["text"] == cell_text(bank.mix_grid("A", True))
    click_button(site, "mix", 1)
    assert state(site, "mix")["data"][0]["text"] == cell_text(bank.mix_grid("A", False))
    click_button(site, "mix", 0)
    assert state(site, "mix")["data"][0]["text"] == cell_text(bank.mix_grid("A", True))


def test_residual_steps_play_and_hover(site):
    final = attn.bank("A")
    click_slider(site, "residual", 0, 4)
    s = state(site, "residual")
    assert title(s).startswith("Step 1 of 4")
    assert s["data"][0]["text"] == [[fmt(x) for x in final["m"]]]
    assert all(c == "" for row in s["data"][1]["text"] + s["data"][2]["text"] for c in row)
    click_slider(site, "residual", 2, 4)
    s = state(site, "residual")
    assert s["data"][2]["text"][0] == [fmt(x) for x in final["dE"]] and s["data"][2]["text"][2] == [""] * 4
    site.page.locator(f"#{IDS['residual']} .updatemenu-button").first.click()  # Play
    site.page.wait_for_timeout(4 * 1000 + 1200)
    s = state(site, "residual")
    assert title(s).startswith("Step 4 of 4")
    assert s["data"][2]["text"][2] == [fmt(x) for x in final["e_new"]]
    for c in range(len(m.FEATURES)):
        text = hover_cell(site, "residual", "xaxis3", "yaxis3", c, 2)
        assert text == f"e {fmt(final['e'][c])} + Δe {fmt(final['dE'][c])} = {fmt(final['e_new'][c])}"


def test_blend_slider(site):
    n = len(attn.BLEND_STEPS)
    for i in (n - 1, n // 2, 0):
        click_slider(site, "blend", i, n)
        s = state(site, "blend")
        for k, key in enumerate(attn.KEYS):
            assert np.allclose(s["data"][k]["y"], attn.blend(key, attn.BLEND_STEPS[i]))
    A1, B1 = attn.blend("A", 1.0), attn.blend("B", 1.0)
    assert A1[0] > A1[1] and B1[1] > B1[0]


def test_static_tables_and_prose_numbers(site):
    text = site.page.locator("article").inner_text()
    v = values.prose_values()
    assert "0.25 + 0.04 = 0.29" in text  # bank's water, word + position (sentence tables)
    for name, spec in [("s03_tied_p", ".3f"), ("s08_river_alpha", ".2f"), ("s10_new_water_A", ".2f"),
                       ("s07_soft1_top_weight", ".3f")]:
        assert format(v[name], spec) in text, name
    for name in ("s02_top_A", "s02_top_B", "s06_best_video", "s03_tied_words"):
        assert v[name] in text, name
    assert site.page.locator('a[href$="trained-walkthrough.html"]').count() >= 1

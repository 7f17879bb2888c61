"""Sections 11–20 of the attention-by-hand page in Chromium: every button, slider, reveal and play
button, and the numbers each state shows, against compute/byhand."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from compute.lessons.byhand import model as m, prediction, recap, stages
from compute.lessons.byhand.states import attention as attn, mixing, positions, scaling
from compute.present.tables import fmt, position_labels

PATH = "posts/attention-by-hand.html"

DATA_JS = """(id) => JSON.parse(JSON.stringify(document.getElementById(id).data,
    (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v))"""
TITLE_JS = "(id) => document.getElementById(id).layout.title.text"


@pytest.fixture
def lesson(page):
    page.open(PATH, figures=[])  # the helpers below draw the figure they read or drive
    yield page
    assert page.external_requests == []
    assert page.console_errors == []


def data(p, div):
    p.draw(div)
    return p.page.evaluate(DATA_JS, div)


def title(p, div):
    p.draw(div)
    return p.page.evaluate(TITLE_JS, div)


def click(p, div, label):
    """Click the Plotly button whose whole text is `label`, as a user would."""
    p.draw(div)
    button = p.page.locator(f"#{div} .updatemenu-button").filter(has_text=re.compile(f"^{re.escape(label)}$"))
    assert button.count() == 1, (div, label)
    button.click()
    p.page.wait_for_timeout(60)


def slide(p, div, k):
    """Click the slider rail at step k's tick."""
    p.draw(div)
    p.page.locator(f"#{div}").scroll_into_view_if_needed()
    tick = p.page.locator(f"#{div} .slider-tick-rect").nth(k).bounding_box()
    rail = p.page.locator(f"#{div} .slider-rail-rect").bounding_box()
    p.page.mouse.click(tick["x"] + tick["width"] / 2, rail["y"] + rail["height"] / 2)
    p.page.wait_for_timeout(80)


def same(a, b, tol=1e-9):
    a = np.array([np.nan if v is None else v for v in np.ravel(np.array(a, dtype=object))], dtype=float)
    b = np.ravel(np.asarray(b, dtype=float))
    b = np.where(np.isfinite(b), b, np.nan)
    return a.shape == b.shape and np.allclose(a, b, atol=tol, equal_nan=True)


def test_projection_buttons_show_each_tokens_rows(lesson):
    words = m.sentence("A")
    for pos in range(1, 11):
        click(lesson, "bh-s11-projections", position_labels(words, 1)[pos - 1])
        d = data(lesson, "bh-s11-projections")
        r = attn.projection_rows("A", pos)
        for trace, name in zip(d, ("e", "q", "k", "v", "e_new")):
            assert same(trace["z"], r[name]), (pos, name)
        assert title(lesson, "bh-s11-projections").startswith(f"{pos} {words[pos - 1]}:")
        assert f"positions {pos}–10" in title(lesson, "bh-s11-projections") or pos == 10


def test_lifetime_slider_steps_through_the_sentence(lesson):
    div, words = "bh-s11-lifetime", m.sentence("A")
    codes = attn.lifetime_codes(m.BANK)
    assert same(data(lesson, div)[0]["z"], codes)
    for t in (1, m.BANK, len(words)):
        slide(lesson, div, t - 1)
        assert title(lesson, div).startswith(f"step {t} ({words[t - 1]}): ")
        shape = lesson.page.evaluate(f"() => document.getElementById('{div}').layout.shapes[0]")
        assert (shape["x0"], shape["x1"]) == (t - 1.5, t - 0.5)
    # the last step: bank's key and value are read from the cache, its query is not used
    assert title(lesson, div).endswith(f"position {len(words)} reads k₇ and v₇ from the cache")


def test_spread_figure_plots_the_measured_variances(lesson):
    s = scaling.measured_spread()
    d = data(lesson, "bh-s12-spread")
    assert same(d[1]["y"], s["raw"]) and same(d[2]["y"], s["scaled"]) and same(d[1]["x"], s["d_k"])


def test_divisor_slider_ends_and_sqrt_dk(lesson):
    for c in (scaling.DIVISORS[0], scaling.DIVISORS[-1], math.sqrt(scaling.DIVISOR_DK)):
        slide(lesson, "bh-s12-divisor", scaling.DIVISORS.index(c))
        assert same(data(lesson, "bh-s12-divisor")[0]["y"], scaling.divisor_weights(c))
        assert title(lesson, "bh-s12-divisor").startswith(f"scores ÷ {c:.2f}")


def test_mask_toggle_moves_row_5(lesson):
    st = attn.mask_states()
    for name in ("mask off", "mask on", "mask off"):
        click(lesson, "bh-s13-mask", name)
        d = data(lesson, "bh-s13-mask")
        assert same(d[0]["y"], st[name]["alpha"]) and same(d[1]["y"], st[name]["message"])
        assert title(lesson, "bh-s13-mask").endswith(fmt(st[name]["alpha"][attn.MASK_ROW:].sum()))


def test_prediction_four_states(lesson):
    seen = {}
    for key, att in attn.PREDICT_STATES:
        click(lesson, "bh-s14-predict", prediction._state_label(key, att))
        d = data(lesson, "bh-s14-predict")
        s = attn.prediction_state(key, att)
        assert same(d[0]["y"], s["alpha"]) and same(d[1]["y"], s["x"]) and same(d[2]["y"], s["p"])
        shown = title(lesson, "bh-s14-predict")
        assert ", ".join(s["top"][:3]) in shown and f"({s['p_top']:.3f})" in shown
        assert len(s["top"]) <= 3 or f"and {len(s['top']) - 3} more tied" in shown  # a short title
        seen[(key, att)] = d[2]["y"]
    assert seen[("A", False)] == seen[("B", False)]
    assert seen[("A", True)] != seen[("B", True)]


def test_walkthrough_stages_and_hover_arithmetic(lesson):
    words, att = attn.sentence_att("A")
    sts = stages.stages(words, att)
    for st in sts:
        click(lesson, "bh-s15-stages", st["name"])
        d = data(lesson, "bh-s15-stages")[0]
        assert same(d["z"], st["M"]), st["name"]
        assert d["customdata"] == st["hover"] and d["x"] == list(st["cols"])
        assert title(lesson, "bh-s15-stages") == st["title"]
    # hover the score of bank reading river: the tooltip writes the dot product out
    click(lesson, "bh-s15-stages", "scores")
    box = lesson.page.evaluate("""() => {
        const gd = document.getElementById('bh-s15-stages'), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const r = gd.querySelector('.nsewdrag').getBoundingClientRect();
        return {x: r.left + xa.l2p(5), y: r.top + ya.l2p(6)}; }""")
    lesson.page.mouse.move(box["x"], box["y"])
    tip = lesson.page.locator("#bh-s15-stages .hovertext").first
    tip.wait_for(timeout=3000)
    want = stages.stage_hovers(words, att)["S"][6][5].replace("<br>", "")
    assert tip.text_content() == want


INSPECT_JS = "(id) => document.getElementById(id + '-inspect').innerText"
CELL_JS = """([id, row, col]) => {
    const gd = document.getElementById(id), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const r = gd.querySelector('.nsewdrag').getBoundingClientRect();
    return {x: r.left + xa.l2p(col), y: r.top + ya.l2p(row)}; }"""


def _lines(hover: str) -> str:
    return hover.replace("<br>", "\n")


def test_a_clicked_cell_writes_its_arithmetic_below_the_figure(lesson):
    """Hover alone fails on touch screens: a click writes the cell's sum under the figure, the
    "Show the arithmetic" button and the arrow keys do it by keyboard, and a switch of stage keeps the cell."""
    words, att = attn.sentence_att("A")
    hov = stages.stage_hovers(words, att)
    div, bank, river = "bh-s15-stages", m.BANK - 1, words.index("river")
    lesson.draw(div)
    button = lesson.page.locator(f'.cell-inspect[data-for="{div}"] button')
    assert button.text_content() == "Show the arithmetic"
    # keyboard: the button shows bank's row (river's column does not exist in e: its last column), arrows move
    button.focus()
    lesson.page.keyboard.press("Enter")
    assert lesson.page.evaluate(INSPECT_JS, div) == _lines(hov["e"][bank][3])
    lesson.page.keyboard.press("ArrowLeft")
    lesson.page.keyboard.press("ArrowUp")
    assert lesson.page.evaluate(INSPECT_JS, div) == _lines(hov["e"][bank - 1][2])
    # a click on a score cell: bank reading river
    click(lesson, div, "scores")
    where = lesson.page.evaluate(CELL_JS, [div, bank, river])
    lesson.page.mouse.click(where["x"], where["y"])
    lesson.page.wait_for_timeout(100)
    assert lesson.page.evaluate(INSPECT_JS, div) == _lines(hov["S"][bank][river])
    # another stage: the same row and column of its table
    click(lesson, div, "weights")
    assert lesson.page.evaluate(INSPECT_JS, div) == _lines(hov["A"][bank][river])
    # the cell is outlined where the text says
    shape = lesson.page.evaluate(f"() => document.getElementById('{div}').layout.shapes.slice(-1)[0]")
    assert (shape["x0"], shape["y0"]) == (river - 0.5, bank - 0.5)


def test_a_tapped_cell_writes_its_arithmetic_on_a_phone(visit):
    p = visit(PATH, width=375, height=800, touch=True).page
    div = "bh-s16-matrices"
    p.locator(f"#{div}").scroll_into_view_if_needed()
    p.wait_for_function(f"() => document.getElementById('{div}').data")
    words, att = attn.sentence_att("A", T=stages.PREFIX)
    where = p.evaluate(CELL_JS, [div, 2, 1])
    p.touchscreen.tap(where["x"], where["y"])
    p.wait_for_timeout(150)
    assert p.evaluate(INSPECT_JS, div) == _lines(stages.stage_hovers(words, att)["e"][2][1])


def test_query_buttons_change_the_row(lesson):
    words = m.sentence("A")
    for pos in range(1, 11):
        click(lesson, "bh-s15-query", position_labels(words, 1)[pos - 1])
        s = stages.query_row_state("A", pos)
        d = data(lesson, "bh-s15-query")[0]
        assert same(d["z"], s["M"]) and d["customdata"] == s["hover"]
        assert title(lesson, "bh-s15-query").startswith(f"query {pos} {words[pos - 1]}: message = "
                                                        f"({', '.join(fmt(x) for x in s['message'])})")


def test_matrix_slider_steps_through_every_product(lesson):
    words, att = attn.sentence_att("A", T=stages.PREFIX)
    sts = stages.stages(words, att)
    for k in list(range(len(sts))) + [0]:
        slide(lesson, "bh-s16-matrices", k)
        d = data(lesson, "bh-s16-matrices")[0]
        assert same(d["z"], sts[k]["M"]) and d["y"] == position_labels(words, 1), sts[k]["name"]
        assert title(lesson, "bh-s16-matrices") == sts[k]["title"]
    shape = lesson.page.evaluate("() => document.getElementById('bh-s16-matrices').layout.shapes[0]")
    assert (shape["y0"], shape["y1"]) == (m.BANK - 1.5, m.BANK - 0.5)


def test_mixing_switch_changes_only_attention(lesson):
    rows = {}
    for key in ("B", "A"):
        click(lesson, "bh-s17-mixing", f"{m.CONTEXT_NAMES[key]} sentence ({key})")
        d = data(lesson, "bh-s17-mixing")[0]
        w = mixing.scheme_weights(m.sentence(key))
        assert same(d["z"], [w[s] for s in mixing.SCHEMES]) and d["x"] == position_labels(m.sentence(key), 1)
        rows[key] = d["z"]
    assert rows["A"][:3] == rows["B"][:3] and rows["A"][3] != rows["B"][3]


def test_prefix_slider_ends(lesson):
    for k in (0, len(positions.PREFIX_LENGTHS) // 2, len(positions.PREFIX_LENGTHS) - 1):
        T = positions.PREFIX_LENGTHS[k]
        slide(lesson, "bh-s18-prefix", k)
        d = data(lesson, "bh-s18-prefix")
        f = positions.prefix_features(T)
        assert same(d[0]["y"][:T], f["index i"]) and same(d[1]["y"][:T], f["i / T"])
        assert all(v is None for v in d[1]["y"][T:])
        assert title(lesson, "bh-s18-prefix").startswith(f"prefix length T = {T}:")


def test_swap_buttons(lesson):
    outs = {}
    for pos in (True, False):
        for order in positions.SWAP_ORDERS:
            click(lesson, "bh-s18-swap", f"“{' '.join(order)}”, " + ("with positions" if pos else "no positions"))
            d = data(lesson, "bh-s18-swap")
            s = positions.swap_state(order, pos)
            assert same(d[0]["z"], s["x"]) and same(d[1]["z"], s["out"])
            # rows stay in word order; each says where its word stands in this order
            assert d[0]["y"] == d[1]["y"] == [f"{list(order).index(w) + 1} {w}" for w in ("dog", "bites")]
            outs[(order, pos)] = d[1]["z"]
    a, b = positions.SWAP_ORDERS
    assert outs[(a, False)] == outs[(b, False)] and outs[(a, True)] != outs[(b, True)]


def test_reveals_open_and_show_model_tables(lesson):
    details = lesson.page.locator("details")
    # the variance derivation, four self-check questions and four predict-first questions
    assert details.count() == 9
    first = 0
    for i in range(details.count()):
        det = details.nth(i)
        det.locator("summary").click()
        assert det.evaluate("d => d.open")
        if det.locator("summary").inner_text().startswith("Predict first"):
            first += 1                 # answered in words and computed numbers
            assert re.search(r"\d", det.locator("p").first.inner_text())
        else:
            assert det.locator("table.matrix, mjx-container").first.is_visible()
    assert first == 4
    words, att = attn.sentence_att("A")
    key_cells = lesson.page.locator("details table.matrix").first.locator("td").all_inner_texts()
    assert key_cells == [fmt(x) for x in att.K[words.index("river")]]
    assert lesson.page.locator("details mjx-container").count() >= 1


def test_chain_slider_and_play_buttons(lesson):
    div = "bh-s20-chain"
    n = len(recap.CHAIN)
    for key, offset in (("A", 0), ("B", n)):
        for k in (0, n - 1):
            slide(lesson, div, offset + k)
            st = recap.chain_stages(key)[k]
            d = data(lesson, div)
            assert same(d[1]["y"], st["y"]) and d[1]["x"] == list(st["x"])
            assert f"step {k + 1}/{n}: {st['title']}" in title(lesson, div)
    # press play for A, then for B at once: B's play waits for A's to finish (nothing is interrupted),
    # and ends on B's last step, whose top word is B's
    last = recap.chain_stages("B")[-1]
    click(lesson, div, "▶ play river sentence (A)")
    click(lesson, div, "▶ play cheque sentence (B)")
    lesson.page.wait_for_function(f"() => document.getElementById('{div}').layout.title.text.startsWith('sentence A')",
                                  timeout=5_000)
    lesson.page.wait_for_function(f"() => document.getElementById('{div}').layout.title.text"
                                  f".startsWith('sentence B ({m.CONTEXT_NAMES['B']}), step {n}/{n}')", timeout=30_000)
    assert same(data(lesson, div)[1]["y"], last["y"])

"""Sections 11–20 of the by-hand lesson: every value its widgets and tables show, recomputed by hand with numpy."""
from __future__ import annotations

import math
import re

import numpy as np
from tables import unlabelled
import pytest

from compute.lessons.byhand import (masking, mixing as mixing_page, model as m, position, prediction, projections,
                                    recap, scaling as scaling_page, stages, values)
from compute.lessons.byhand.states import attention as attn, positions, scaling
from compute.present.tables import fmt
from compute.present.widgets import button_rows, widgets_in

A = m.sentence("A")


def e_by_hand(words):
    return np.array([m.WORD_FEATURES[w] for w in words]) + m.POSITION_ROWS[: len(words)]


def softmax_by_hand(s):
    x = np.exp(np.asarray(s, float) - np.max(s))
    return x / x.sum()


def masked_weights_by_hand(words):
    e = e_by_hand(words)
    Q, K = e @ m.W_Q, e @ m.W_K
    T = len(words)
    A_ = np.zeros((T, T))
    for i in range(T):
        A_[i, : i + 1] = softmax_by_hand(Q[i] @ K[: i + 1].T / math.sqrt(3))
    return e, Q, K, e @ m.W_V, A_


@pytest.mark.parametrize("pos", range(1, 11))
def test_projection_rows(pos):
    e = e_by_hand(A)[pos - 1]
    r = attn.projection_rows("A", pos)
    assert np.allclose(r["e"], e) and np.allclose(r["q"], e @ m.W_Q)
    assert np.allclose(r["k"], e @ m.W_K) and np.allclose(r["v"], e @ m.W_V)
    _, _, _, V, A_ = masked_weights_by_hand(A)
    assert np.allclose(r["e_new"], e + (A_[pos - 1] @ V) @ m.W_O)


def test_reader_positions_and_lifetime():
    assert attn.reader_positions(7) == [7, 8, 9, 10] and attn.reader_positions(10) == [10]
    rows = projections.lifetime_rows(7)
    assert [r[0] for r in rows] == ["e₇", "q₇", "k₇", "v₇", "Δe₇", "e₇ + Δe₇"]
    assert "positions 7–10" in rows[2][3] and "position 7 only" in rows[1][3]


def test_random_entries_dot_product():
    r = scaling.random_entries(8)
    assert r["q"].shape == r["k"].shape == (8,)
    assert r["dot"] == pytest.approx(sum(a * b for a, b in zip(r["q"], r["k"])))


def test_saturation_rows_by_hand():
    for d, gap, raw, slope_raw, scaled, slope_scaled in scaling.saturation_rows():
        assert gap == pytest.approx(math.sqrt(d))
        assert raw == pytest.approx(1 / (1 + math.exp(-math.sqrt(d))))
        assert scaled == pytest.approx(1 / (1 + math.exp(-1)))
        assert slope_raw == pytest.approx(raw * (1 - raw)) and slope_scaled == pytest.approx(scaled * (1 - scaled))


def test_divisor_weights_by_hand():
    s = scaling.divisor_scores()
    assert s.shape == (5,)
    for c in (1.0, 4.0, 8.0):
        assert np.allclose(scaling.divisor_weights(c), np.exp(s / c) / np.exp(s / c).sum())
    assert 4.0 in scaling.DIVISORS and 20 <= len(scaling.DIVISORS) <= 50


def test_stable_rows():
    r = scaling.stable_rows()
    assert np.all(np.isnan(r["naive on shifted"]))
    assert np.allclose(r["stable on shifted"], r["naive exp(s)/Σ"])
    assert np.allclose(r["scaled: s ÷ 2"], np.exp([1.0, 0.5, 0.0]) / np.exp([1.0, 0.5, 0.0]).sum())


def test_bank_scaled_rows_by_hand():
    r = scaling.bank_scaled_rows("A")
    e = e_by_hand(A[:7])
    raw = (e[6] @ m.W_Q) @ (e @ m.W_K).T
    assert np.allclose(r["raw"], raw) and np.allclose(r["scaled"], raw / math.sqrt(3))
    assert np.allclose(r["alpha"], softmax_by_hand(raw / math.sqrt(3)))


def test_mask_states_by_hand():
    st = attn.mask_states()
    e = e_by_hand(A)
    Q, K, V = e @ m.W_Q, e @ m.W_K, e @ m.W_V
    full = softmax_by_hand(Q[4] @ K.T / math.sqrt(3))
    past = softmax_by_hand(Q[4] @ K[:5].T / math.sqrt(3))
    assert np.allclose(st["mask off"]["alpha"], full) and np.allclose(st["mask off"]["message"], full @ V)
    assert np.allclose(st["mask on"]["alpha"][:5], past) and np.all(st["mask on"]["alpha"][5:] == 0)


def test_rule_rows():
    rows = masking.rule_rows(4)
    assert [r[1:] for r in rows] == [["✓", "✗", "✗", "✗"], ["✓", "✓", "✗", "✗"],
                                     ["✓", "✓", "✓", "✗"], ["✓", "✓", "✓", "✓"]]
    assert rows[0][0] == "1 The"


def head_by_hand(x):
    h = np.maximum(0, x @ m.W1 + m.b1)
    return softmax_by_hand(h @ m.W2 + m.b2)


@pytest.mark.parametrize("key", ["A", "B"])
def test_prediction_state_by_hand(key):
    words = m.sentence(key)
    e, _, _, V, A_ = masked_weights_by_hand(words)
    on, off = attn.prediction_state(key, True), attn.prediction_state(key, False)
    assert np.allclose(on["alpha"], A_[-1])
    assert np.allclose(on["p"], head_by_hand(e[-1] + (A_[-1] @ V) @ m.W_O))
    assert np.allclose(off["p"], head_by_hand(e[-1])) and np.all(off["alpha"] == 0)
    assert on["top"] == [m.VOCAB[int(np.argmax(on["p"]))]]


def last_number(text):
    return re.findall(r"−?-?\d+\.\d+|−∞|\b0\b", text.replace("<br>", " "))[-1]


def test_stage_hovers_end_in_the_cell_value():
    words, att = attn.sentence_att("A")
    for st in stages.stages(words, att):
        M = st["M"]
        assert len(st["hover"]) == len(words) and len(st["hover"][0]) == len(st["cols"]) == M.shape[1]
        for i in range(M.shape[0]):
            for j in range(M.shape[1]):
                h = st["hover"][i][j]
                if np.isfinite(M[i, j]) and "−∞" not in h:
                    assert h.endswith(fmt(M[i, j])), (st["name"], i, j, h)
                else:
                    assert "−∞" in h


def test_stage_matrices_by_hand():
    e, Q, K, V, A_ = masked_weights_by_hand(A)
    words, att = attn.sentence_att("A")
    by = {st["name"]: st["M"] for st in stages.stages(words, att)}
    assert np.allclose(by["e"], e) and np.allclose(by["Q"], Q) and np.allclose(by["K"], K)
    assert np.allclose(by["weights"], A_) and np.allclose(by["messages"], A_ @ V)
    assert np.allclose(by["Δe"], A_ @ V @ m.W_O) and np.allclose(by["e′"], e + A_ @ V @ m.W_O)
    S = by["scores"]
    assert np.all(np.isneginf(S[np.triu_indices(10, 1)]))
    assert S[6, 5] == pytest.approx(Q[6] @ K[5] / math.sqrt(3))


def test_bank_score_hover_writes_the_dot_product():
    words, att = attn.sentence_att("A")
    h = stages.stage_hovers(words, att)["S"][6][5]
    terms = " + ".join(f"{fmt(a)}×{fmt(b)}" for a, b in zip(att.Q[6], att.K[5]))
    assert terms in h and "7 bank" in h and "6 river" in h


def test_query_row_state():
    _, _, _, V, A_ = masked_weights_by_hand(A)
    for pos in (1, 7, 10):
        s = stages.query_row_state("A", pos)
        assert np.allclose(s["M"][2], A_[pos - 1]) and np.allclose(s["message"], A_[pos - 1] @ V)
        assert np.all(np.isneginf(s["M"][1][pos:])) and np.all(s["M"][1][:pos] == 0)


def test_prefix_features():
    f = positions.prefix_features(5)
    assert f["index i"].tolist() == [1, 2, 3, 4, 5] and np.allclose(f["i / T"], [0.2, 0.4, 0.6, 0.8, 1.0])


def test_angle_addition_and_rope_tables():
    r = positions.angle_addition()
    i, d, w = positions.SINCOS_I, positions.SINCOS_DELTA, positions.OMEGA
    assert np.allclose(r["at i + δ"], [math.sin((i + d) * w), math.cos((i + d) * w)])
    assert np.allclose(r["at i · T_δ"], r["at i + δ"])
    rows = positions.rope_rows()
    for label, off, a, b in rows:
        assert a == pytest.approx(b)
    same_gap = [r[2] for r in rows if r[1] == 2]
    assert max(same_gap) - min(same_gap) < 1e-12 and rows[-1][1] == 3


def test_cross_terms_sum_to_the_total():
    for label, uv, upj, piv, pipj, total in positions.cross_term_rows():
        i, j = map(int, re.findall(r"\d+", label))
        pi, pj = np.array([math.sin(i * positions.OMEGA), math.cos(i * positions.OMEGA)]), np.array([math.sin(j * positions.OMEGA), math.cos(j * positions.OMEGA)])
        assert total == pytest.approx((positions.CROSS_U + pi) @ (positions.CROSS_V + pj))
        assert uv + upj + piv + pipj == pytest.approx(total)
        assert pipj == pytest.approx(math.cos((j - i) * positions.OMEGA))


def test_swap_state_by_hand():
    dog, bites = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    P = np.array([[0.5, 0.0], [0.0, -0.5]])
    x = np.array([bites, dog]) + P              # "bites dog" with positions
    out = np.array([softmax_by_hand(r @ x.T) @ x for r in x])
    s = positions.swap_state(("bites", "dog"), True)
    assert np.allclose(s["out"], out[[1, 0]]) and np.allclose(s["x"], x[[1, 0]])


def test_swap_regression_rows():
    r = positions.swap_regression_rows()
    keys = list(r)
    assert not np.allclose(r[keys[0]], r[keys[1]]) and np.array_equal(r[keys[2]], r[keys[3]])
    swapped = list(A)
    swapped[0], swapped[5] = "river", "The"
    p = attn.predict(swapped)["p"]
    assert np.allclose(r[keys[1]], [p[m.VOCAB.index(w)] for w in positions.SWAP_WORDS])


def test_chain_stages():
    for key in ("A", "B"):
        e, Q, K, V, A_ = masked_weights_by_hand(m.sentence(key))
        st = recap.chain_stages(key)
        assert len(st) == len(recap.CHAIN)
        assert np.allclose(st[0]["y"], e[-1]) and np.allclose(st[3]["y"], A_[-1])
        assert np.allclose(st[4]["y"], A_[-1] @ V)
        assert np.allclose(st[6]["y"], head_by_hand(e[-1] + A_[-1] @ V @ m.W_O))
    assert recap.chain_stages("A")[0]["y"].tolist() == recap.chain_stages("B")[0]["y"].tolist()


def test_prose_values_are_plain_python():
    v = values.second_pass_values()
    assert all(k.startswith(("s11_", "s12_", "s13_", "s14_", "s17_", "s18_", "s20_")) for k in v)
    assert all(type(x) in (int, float, str) for x in v.values()), {k: type(x) for k, x in v.items()}
    assert v["s14_top_A"] != v["s14_top_B"] and v["s14_bypass_gap"] == 0


def test_button_rows():
    menus = button_rows([{"label": str(i)} for i in range(10)], 4)
    assert [len(mn["buttons"]) for mn in menus] == [4, 4, 2]
    assert menus[0]["pad"]["b"] > menus[1]["pad"]["b"] > menus[2]["pad"]["b"]


WIDGETS = widgets_in(projections, scaling_page, masking, prediction, stages, mixing_page, position, recap)


def test_widgets_have_fixed_ids_printed_states_and_no_external_script():
    assert {w.id for w in WIDGETS.values()} >= {
        "bh-s11-projections", "bh-s12-spread", "bh-s12-divisor", "bh-s13-mask", "bh-s14-predict", "bh-s15-stages",
        "bh-s15-query", "bh-s16-matrices", "bh-s17-mixing", "bh-s18-prefix", "bh-s18-swap", "bh-s20-chain"}
    for w in WIDGETS.values():
        h = w.html()
        assert f'id="{w.id}"' in h and "cdn" not in h.lower() and "<script src" not in h
        assert ' data-print="' in h and "widget-note" not in h, w.id


def test_chain_figure_does_not_autoplay_or_interrupt():
    h = recap.CHAIN_WIDGET.html()
    assert '"mode": "immediate"' not in h and '"mode": "next"' not in h
    assert "Plotly.animate" not in h   # no auto_play call on load


def test_tables_label_rows_and_columns():
    for fn in (projections.weight_tables, projections.lifetime_table, scaling_page.random_entries_table,
               scaling_page.saturation_table, scaling_page.stable_table, scaling_page.bank_scaled_table,
               masking.mask_row_table, masking.rule_table, position.position_rows_table,
               position.angle_addition_table, position.rope_table, position.cross_term_table,
               position.swap_regression_table):
        assert unlabelled(fn().data) == [], fn.__name__
    assert "<details><summary>Derive the variance of q·k</summary>" in scaling_page.variance_reveal().data
    assert recap.self_check().data.count('<details class="answer">') == 4


@pytest.mark.parametrize("pos", [1, m.BANK, 10])
def test_lifetime_diagram_agrees_with_the_causal_mask(pos):
    """k and v of a position are read at every later step the mask lets read it; q, e, Δe only at its own step."""
    from compute.lessons.byhand.states.attention import LIFETIME_ROWS, LIFETIME_STATES, lifetime_codes
    T = 10
    codes = lifetime_codes(pos, T)
    mask = attn.causal_mask(T)  # 0 where row i may read column j, -inf where not
    readers = [i + 1 for i in range(T) if np.isfinite(mask[i, pos - 1])]
    for name, row in zip(LIFETIME_ROWS, codes):
        states = [LIFETIME_STATES[c] for c in row]
        assert states[:pos - 1] == ["not made yet"] * (pos - 1)
        assert states[pos - 1] == "made and used"
        later = [t for t in range(pos + 1, T + 1) if states[t - 1] == "read from the cache"]
        assert later == ([r for r in readers if r > pos] if name in ("k", "v") else [])


# --- honest rounding in the text the figures print ----------------------------------------------------------

def test_hover_and_summary_numbers_never_round_to_a_bound_they_are_not():
    """Probabilities, weights and variances near 0 or 1 print with the decimals they need (compute's fmt)."""
    spread = scaling_page.spread_figure()
    for trace, key in zip(spread.data[1:], ("raw", "scaled")):
        assert list(trace.customdata) == [fmt(x, 3) for x in scaling.measured_spread()[key]]
        assert "%{y:" not in trace.hovertemplate
    assert "&gt;0.999999" in scaling_page.saturation_table().data  # 0.99999989 at d_k = 256, not 1.0000 (HTML-escaped)
    fig = prediction.last_position_figure()
    for button, (key, att) in zip(fig.layout.updatemenus[0].buttons, attn.PREDICT_STATES):
        s = attn.prediction_state(key, att)
        assert button.args[0]["customdata"][2] == [fmt(v, 4) for v in s["p"]]
    for fig in (prediction.prediction_figure(), masking.mask_figure(), scaling_page.divisor_figure(),
                position.prefix_figure(), prediction.last_position_figure()):
        assert all("%{y:" not in (t.hovertemplate or "") and "%{x:" not in (t.hovertemplate or "") for t in fig.data)
    assert fmt(0.99997, 3) == "0.99997" and "1.000" not in fmt(0.99997, 3)


def test_scores_that_are_all_equal_break_the_shift_and_scaling_claim(monkeypatch):
    """A flat row of scores: dividing it changes no weight and shrinks no difference, and the claim says so."""
    from compute.lessons.byhand import claims as byhand_claims
    assert byhand_claims.shift_keeps_weights_scaling_changes_them().holds
    monkeypatch.setattr(scaling, "STABLE_SCORES", np.full_like(np.asarray(scaling.STABLE_SCORES, dtype=float), 2.0))
    outcome = byhand_claims.shift_keeps_weights_scaling_changes_them()
    assert not outcome.holds and "score spread 0.000 -> 0.000" in outcome.evidence

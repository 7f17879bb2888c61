"""The by-hand lesson's sentence claims (claims_prose, and the claims.py ones made as strong as their sentences):
each holds on the hand-set model and fails on a model or a computation that breaks its sentence."""
from __future__ import annotations

import numpy as np

from compute.lessons.byhand import claims, claims_prose, model as m
from compute.lessons.byhand.states import attention as attn, context, mixing, positions, scaling, search


def test_the_sentence_claims_are_part_of_the_lesson_and_hold():
    names = set(claims_prose.PROSE.claims)
    assert names <= set(claims.BYHAND.claims) and len(names) >= 10
    broken = [(c.name, o.evidence) for c, o in claims.check_all() if not o.holds]
    assert not broken


def test_last_rows_differ_when_b_ends_with_another_word(monkeypatch):
    monkeypatch.setitem(m.SENTENCES, "B", m.SENTENCES["B"][:-1] + ["a"])
    assert not claims_prose.last_token_rows_identical().holds


def test_window_reach_names_the_first_window_that_holds_river(monkeypatch):
    """The claim follows river wherever it stands; a window that keeps the first tokens breaks it."""
    a = list(m.SENTENCES["A"])
    a[5], a[7] = a[7], a[5]  # river at position 8
    monkeypatch.setitem(m.SENTENCES, "A", a)
    o = claims.window_reach()
    assert o.holds  # the claim follows the data: outside for w = 1, 2, reached from 3 ...
    assert "outside for w = [1, 2]" in o.evidence
    monkeypatch.setattr(context, "window_positions", lambda T, w: list(range(1, w + 1)))  # a window from the start
    assert not claims.window_reach().holds


def test_window_costs_must_grow_by_the_same_step(monkeypatch):
    monkeypatch.setattr(context, "mlp_parameters", lambda w, d=4, H=8, V=20: w * w * d * H + H + H * V + V)
    o = claims_prose.window_step_costs()
    assert not o.holds and "MLP [" in o.evidence


def test_plain_average_dilution_fails_if_another_word_carries_more_water(monkeypatch):
    monkeypatch.setitem(m.WORD_FEATURES, "heron", (2.0, 0.0, 1.0, 0.0))
    assert not claims_prose.plain_average_dilutes_river().holds


def test_best_match_must_be_single(monkeypatch):
    monkeypatch.setitem(search.VIDEOS, "Canal boat holiday", [0, 0, 1, 2, 3, 0, 0, 1])  # 16, as the herons
    o = claims_prose.search_best_match()
    assert not o.holds and "'Canal boat holiday': 16.0" in o.evidence


def test_a_cold_top_temperature_is_no_mixture(monkeypatch):
    monkeypatch.setattr(search, "TEMPERATURES", np.array([0.25, 0.5, 1.0]))
    assert not claims_prose.high_temperature_mixes().holds


def test_most_of_banks_weight_needs_more_than_half(monkeypatch):
    monkeypatch.setitem(m.WORD_FEATURES, "river", (0.75, 0.0, 1.0, 0.0))
    o = claims_prose.bank_gives_river_most_of_its_weight()
    assert not o.holds and claims.bank_reads_river_in_A().holds  # still the largest, no longer most


def test_a_forward_pass_that_writes_into_w_o_is_caught(monkeypatch):
    monkeypatch.setattr(m, "W_O", m.W_O.copy())

    def leaky(words, **kw):
        m.W_O[0, 0] += 1.0
        return attn.predict(words, **kw)

    monkeypatch.setattr(claims_prose, "predict", leaky)
    o = claims_prose.forward_pass_leaves_weights_unchanged()
    assert not o.holds and "W_O" in o.evidence


def test_matrix_form_differs_without_the_mask(monkeypatch):
    monkeypatch.setattr(claims_prose, "attend", lambda e: attn.attend(e, masked=False))
    assert not claims_prose.matrix_form_matches_walkthrough().holds


def test_a_jumping_distance_rule_is_not_smoother(monkeypatch):
    real = mixing.scheme_weights

    def jumpy(words):
        w = real(words)
        T = len(words)
        w["distance weights"] = np.r_[np.zeros(T - 2), [0.1, 0.9]]
        return w

    monkeypatch.setattr(mixing, "scheme_weights", jumpy)
    assert not claims_prose.distance_weights_smoother_than_window().holds


def test_an_absolute_position_score_breaks_equal_offsets(monkeypatch):
    monkeypatch.setattr(positions, "rope_score", lambda q, k, i, j, omega: float(q @ k) + 0.1 * i)
    assert not claims_prose.rope_equal_offsets_equal_scores().holds


# --- claims.py claims made as strong as their sentences ----------------------------------------------------

def test_baseline_other_words_must_tie(monkeypatch):
    b2 = m.b2.copy()
    b2[m.VOCAB.index("sky")] = -0.5  # one non-candidate word higher than the rest
    monkeypatch.setattr(m, "b2", b2)
    assert not claims.baseline_ignores_context().holds


def test_spread_claim_checks_every_step(monkeypatch):
    real = scaling.measured_spread()
    raw = real["raw"].copy()
    raw[4] = raw[3]  # a flat step: the raw variance does not rise from d_k = 8 to 16
    monkeypatch.setattr(scaling, "measured_spread", lambda: {**real, "raw": raw})
    o = claims.score_spread_grows_like_dk()
    assert not o.holds and "not rises at d_k=8 -> d_k=16" in o.evidence


def test_saturation_needs_a_near_zero_slope(monkeypatch):
    rows = scaling.saturation_rows((1, 4))  # stop at d_k = 4: top weight 0.88, slope 0.105
    monkeypatch.setattr(scaling, "saturation_rows", lambda: rows)
    assert not claims.raw_scores_saturate().holds


def test_flattening_needs_the_smallest_weight_to_rise(monkeypatch):
    def weights(c):
        w = np.array([1.0 / c, 0.5, 0.25, 0.1, 0.05 / c])  # largest falls, smallest falls too
        return w / w.sum()

    monkeypatch.setattr(scaling, "divisor_weights", weights)
    assert not claims.divisor_flattens_weights().holds


def test_bank_must_ask_for_both_topics_more_than_for_a_noun(monkeypatch):
    """Bank's query without its finance part: it still asks for water, but less for finance than for a noun."""
    W = m.W_Q.copy()
    W[:, 1] = [0.0, 0.0, 0.0, 0.5]
    monkeypatch.setattr(m, "W_Q", W)
    o = claims.queries_ask_different_questions()
    assert not o.holds, o.evidence

"""Every number (and computed word) the by-hand lesson's prose cites, as plain Python values for glue."""
from __future__ import annotations

import math

import numpy as np

from . import model as m
from .states import context, mixing, scaling, search
from .states.attention import (BLEND_STEPS, KEYS, MASK_ROW, bank, baseline_prediction, full_prediction, mask_states,
                               prediction_state, sentence_att, sentence_text, shared_tail, top_words)
from .states.context import pool, pool_weights
from .states.positions import OMEGA, swap_regression_rows
from .states.scaling import DIVISOR_DK, bank_scaled_rows, divisor_weights, saturation_rows
from .states.search import SEARCH_QUERY, TEMPERATURES, retrieval_grid


def first_pass_values() -> dict[str, object]:
    """Every number (and computed word) that the prose of sections 1-10 cites."""
    v: dict[str, object] = {}
    A, B = m.sentence("A"), m.sentence("B")
    v["s02_shared_tail"] = shared_tail()
    v["s02_vocab_size"] = len(m.VOCAB)
    v["s02_d_model"] = len(m.FEATURES)
    v["s02_bank_pos"] = m.BANK
    v["s02_T"] = len(A)
    for key in KEYS:
        v[f"s02_sentence_{key}"] = sentence_text(key)
    v["s02_tail"] = " ".join(A[len(A) - shared_tail():])
    for key in KEYS:
        p = full_prediction(key)
        top = top_words(p)[0]
        v[f"s02_top_{key}"] = top
        v[f"s02_top_p_{key}"] = float(p.max())
    r = m.rows(A)
    i = m.BANK - 1
    v["s02_bank_word_water"] = float(r.word_rows[i, 0])
    v["s02_bank_pos_water"] = float(r.position_rows[i, 0])
    v["s02_bank_e_water"] = float(r.e[i, 0])
    # 3. baseline
    pb = baseline_prediction("A")
    tied = top_words(pb)
    v["s03_n_tied"] = len(tied)
    v["s03_tied_words"] = ", ".join(tied)
    v["s03_tied_p"] = float(pb.max())
    v["s03_other_p"] = float(pb.min())
    v["s03_last_pos"] = len(A)
    v["s03_last_word"] = A[-1]
    # 4. window
    river = A.index("river") + 1
    v["s04_river_pos"] = river
    v["s04_small_w"], v["s04_reach_w"] = context.window_reach(A, "river")
    v["s04_d"] = context.D_MODEL
    v["s04_H"] = context.HIDDEN_UNITS
    v["s04_V"] = context.VOCAB_SIZE
    v["s04_step_weights"] = context.linear_parameters(2) - context.linear_parameters(1)
    v["s04_step_mlp"] = context.mlp_parameters(2) - context.mlp_parameters(1)
    v["s04_mlp_10"] = context.mlp_parameters(len(A))
    v["s04_linear_10"] = context.linear_parameters(len(A))
    # 5. pooling
    plain = pool(pool_weights(None, 0.0))
    v["s05_plain_weight"] = float(plain["weights"][0])
    v["s05_plain_water"] = float(plain["summary"][0])
    v["s05_river_water"] = float(m.rows(A).e[A.index("river"), 0])
    v["s05_n_rows"] = m.BANK
    v["s05_concat_width"] = m.BANK * len(m.FEATURES)
    # 6. search
    S = search.match_scores()
    names, videos = list(search.QUERIES), list(search.VIDEOS)
    v["s06_n_topics"] = len(search.TOPICS)
    v["s06_query"] = names[SEARCH_QUERY]
    best = int(np.argmax(S[SEARCH_QUERY]))
    v["s06_best_video"] = videos[best]
    v["s06_best_score"] = int(S[SEARCH_QUERY, best])
    # 7. retrieval
    hard = retrieval_grid("hard")
    v["s07_hard_minutes"] = float(hard[-1, 2])
    v["s07_T_low"] = float(TEMPERATURES[0])
    v["s07_T_high"] = float(TEMPERATURES[-1])
    v["s07_n_T"] = len(TEMPERATURES)
    v["s07_T_default"] = 1.0
    v["s07_soft1_top_weight"] = float(retrieval_grid("soft", 1.0)[best, 1])
    v["s07_soft_high_top_weight"] = float(retrieval_grid("soft", TEMPERATURES[-1])[best, 1])
    # 8. bank, phase A and B
    bA = bank("A")
    v["s08_d_k"] = len(m.QK_AXES)
    v["s08_d_v"] = len(m.V_AXES)
    v["s08_sqrt_dk"] = float(np.sqrt(len(m.QK_AXES)))
    j_river = A.index("river")
    v["s08_river_dot"] = float(bA["dots"][j_river])
    v["s08_river_score"] = float(bA["scores"][j_river])
    v["s08_river_alpha"] = float(bA["alpha"][j_river])
    v["s08_m_water"] = float(bA["m"][0])
    v["s08_m_finance"] = float(bA["m"][1])
    # 9. W_O and the residual
    v["s09_e_water"] = float(bA["e"][0])
    v["s09_dE_water"] = float(bA["dE"][0])
    v["s09_new_water"] = float(bA["e_new"][0])
    # 10. both contexts
    bB = bank("B")
    v["s10_alpha_river_A"] = float(bA["alpha"][j_river])
    v["s10_alpha_cheque_B"] = float(bB["alpha"][B.index("cheque")])
    v["s10_alpha_deposited_B"] = float(bB["alpha"][B.index("deposited")])
    v["s10_new_water_A"] = float(bA["e_new"][0])
    v["s10_new_finance_B"] = float(bB["e_new"][1])
    v["s10_start_water"] = float(bA["e"][0])
    v["s10_start_finance"] = float(bA["e"][1])
    v["s10_n_steps"] = len(BLEND_STEPS)
    return v


def second_pass_values() -> dict[str, object]:
    """Every number sections 11–20 cite."""
    v: dict[str, object] = {}
    v["s11_d_model"], v["s11_d_k"], v["s11_d_v"] = m.W_Q.shape[0], m.W_Q.shape[1], m.W_V.shape[1]
    att = sentence_att("A")[1]
    heron = m.sentence("A").index("heron")
    for name, i in (("bank", m.BANK - 1), ("the", len(m.sentence("A")) - 1), ("heron", heron)):
        v.update({f"s11_q_{name}_{k}": float(x) for k, x in enumerate(att.Q[i])})
    sp = scaling.measured_spread()
    v["s12_n_pairs"] = scaling.N_PAIRS
    v["s12_dk_max"] = int(sp["d_k"].max())
    v["s12_raw_var_max"] = float(sp["raw"][-1])
    v["s12_ratio_min"], v["s12_ratio_max"] = float((sp["raw"] / sp["d_k"]).min()), float((sp["raw"] / sp["d_k"]).max())
    sat = saturation_rows()
    v["s12_sat_dk"], v["s12_sat_raw"], v["s12_sat_scaled"] = sat[-1][0], sat[-1][2], sat[-1][4]
    v["s12_divisor_dk"], v["s12_divisor_sqrt"] = DIVISOR_DK, int(math.sqrt(DIVISOR_DK))
    v["s12_divisor_top_1"] = float(divisor_weights(1.0).max())
    v["s12_divisor_top_sqrt"] = float(divisor_weights(math.sqrt(DIVISOR_DK)).max())
    b = bank_scaled_rows("A")
    v["s12_sqrt_dk"] = math.sqrt(m.W_K.shape[1])
    v["s12_bank_top_word"] = b["words"][int(np.argmax(b["alpha"]))]
    v["s12_bank_top_weight"] = float(b["alpha"].max())
    st = mask_states()
    words = m.sentence("A")
    v["s13_row"] = MASK_ROW
    v["s13_river_off"] = float(st["mask off"]["alpha"][words.index("river")])
    v["s13_future_off"] = float(st["mask off"]["alpha"][MASK_ROW:].sum())
    v["s13_future_on"] = float(st["mask on"]["alpha"][MASK_ROW:].sum())
    for key in ("A", "B"):
        s = prediction_state(key, True)
        v[f"s14_top_{key}"], v[f"s14_p_{key}"] = ", ".join(s["top"]), s["p_top"]
    pa, pb = prediction_state("A", False)["p"], prediction_state("B", False)["p"]
    v["s14_bypass_gap"] = float(np.abs(pa - pb).max())
    wa, wb = mixing.scheme_weights(m.sentence("A")), mixing.scheme_weights(m.sentence("B"))
    v["s17_att_gap"] = float(np.abs(wa["attention"] - wb["attention"]).max())
    reg = swap_regression_rows()
    keys = list(reg)
    v["s18_swap_change"] = float(np.abs(reg[keys[0]] - reg[keys[1]]).max())
    v["s18_swap_change_zeroed"] = float(np.abs(reg[keys[2]] - reg[keys[3]]).max())
    v["s18_omega"] = OMEGA
    v["s20_top_A"], v["s20_top_B"] = v["s14_top_A"], v["s14_top_B"]
    return v


def prose_values() -> dict[str, object]:
    """Both passes' values in one dict (the keys are prefixed by section: s02_, s12_, ...)."""
    return {**first_pass_values(), **second_pass_values()}

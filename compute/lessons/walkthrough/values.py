"""Every number the walkthrough's prose cites, as plain Python values for glue."""
from __future__ import annotations

import math

import numpy as np

from ...data.walkthrough import VOCAB, data_facts, loss_floor, next_word_options
from . import claims
from .claims import CUE_FALL, CUE_RISE, FALL, FAST, RISE, ROW_FAST, ROW_SLOW, SLOW
from .history import NEAR, loss_spike
from .matrices import matrix
from .overflow import float_limits
from ...published.walkthrough import ALTERNATIVE, Walkthrough, load
from .seeds import pattern_counts, seed_record


def prose_values(wt: Walkthrough | None = None, record: dict | None = None) -> dict[str, object]:
    """Every number the lesson's sentences cite, as plain Python values (for glue).

    Matrix entries are named '<matrix>_<row>_<col>' so a test can recompute each
    one independently from the checkpoint."""
    wt = wt or load()
    record = record or seed_record()
    alt = load(ALTERNATIVE)
    v: dict[str, object] = {}

    def entry(name, i, j):
        v[f"{name}_{i}_{j}"] = float(matrix(wt, name)[i, j])

    r5, r13, c1, c9 = ROW_SLOW, ROW_FAST, CUE_RISE, CUE_FALL
    for i, j in [(r5, c1), (r13, c9), (r13, c1), (r5, 0), (r13, r13 - 1)]:
        entry("A", i, j)
    for i, j in [(r13, c9), (r13, c1), (r5, c1)]:
        entry("S", i, j)
    ck, cv = claims.cue_key_coordinate(wt), claims.cue_value_coordinate(wt)
    v.update(key_coord=ck, value_coord=cv)
    for i, word in [(r5, SLOW), (r13, FAST), (c9 - 1, FALL)]:
        v[f"probs_{i}_{VOCAB.index(word)}"] = wt.prob(i, word)
    for i in claims.coin_flip_positions(wt):
        for word in next_word_options(list(wt.tokens[: i + 1])):
            v[f"probs_{i}_{VOCAB.index(word)}"] = wt.prob(i, word)
    v[f"K_{c1}_kc"], v[f"K_{c9}_kc"] = float(wt["K"][c1, ck]), float(wt["K"][c9, ck])
    v[f"V_{c1}_vc"], v[f"V_{c9}_vc"] = float(wt["V"][c1, cv]), float(wt["V"][c9, cv])
    v[f"qk_{r13}_{c9}"] = float(wt["Q"][r13] @ wt["K"][c9])
    v[f"score_gap_{r13}"] = float(wt["S"][r13, c9] - wt["S"][r13, c1])
    peek = int(np.argmax(wt["S"][r5]))  # row 5's largest score of all, before the mask
    v[f"S_{r5}_peek_pos"], v[f"S_{r5}_peek_word"] = peek, wt.tokens[peek]
    v[f"S_{r5}_peek"] = float(wt["S"][r5, peek])
    # the last steps: which hidden units each answer row switches on, how y differs, the two logits
    on5, on13 = wt["ffn_hidden"][r5] > 0, wt["ffn_hidden"][r13] > 0
    v[f"n_units_on_{r5}"], v[f"n_units_on_{r13}"] = int(on5.sum()), int(on13.sum())
    v["n_units_on_both"] = int((on5 & on13).sum())
    gap = wt["y"][r13] - wt["y"][r5]
    v["y_gap_coord"] = int(np.argmax(np.abs(gap)))
    v["y_gap"] = float(gap[v["y_gap_coord"]])
    v[f"y_{r5}_gc"], v[f"y_{r13}_gc"] = float(wt["y"][r5, v["y_gap_coord"]]), float(wt["y"][r13, v["y_gap_coord"]])
    for i in (r5, r13):
        for word in (SLOW, FAST):
            v[f"logits_{i}_{VOCAB.index(word)}"] = float(wt["logits"][i, VOCAB.index(word)])
    v.update({k: x for k, x in float_limits(wt["S"][r13, : r13 + 1]).items() if not isinstance(x, bool)})  # a check, not prose
    v[f"row{r13}_max_score"] = float(wt["S"][r13].max())
    v[f"exp_row{r13}_max"] = float(np.log10(math.e) * wt["S"][r13].max())  # e^max as a power of ten
    v[f"z_v_gap_{r13}"] = float(np.abs(wt["Z"][r13] - wt["V"][c9]).max())
    v[f"cue_distance_{r13}"] = r13 - c9  # how far back row 13's cue sits
    v[f"x_gap_{r5}_{r13}"] = float(np.abs(wt["X"][r13] - wt["X"][r5]).max())
    v["d_model"] = int(wt["E"].shape[1])
    v["d_k"] = int(wt["W_Q"].shape[1])
    v["d_ff"] = int(wt["W1"].shape[1])
    v["sqrt_d_k"] = math.sqrt(v["d_k"])
    v["n_positions"] = int(wt["P"].shape[0])
    v["n_params"] = int(sum(np.asarray(w).size for w in wt.weights.values()))
    m = wt.manifest
    v.update(seed=int(m["seed"]), steps=int(m["steps"]), final_loss=float(m["final_loss"]),
             lr=float(m["recipe"]["lr"]), loss_first=float(m["loss_history"][0]))
    v["loss_fp64"] = claims.mean_loss(wt)
    spike = loss_spike(m["loss_history"], loss_floor(*[data_facts()[k] for k in ("n_coin_flips", "n_targets")]))
    v.update({f"loss_spike_{k}": val for k, val in spike.items()})
    v["loss_band"] = NEAR                                  # a setting: the band the loss is measured against
    v.update(data_facts())
    # the seed search
    entries = record["entries"]
    conv = [e for e in entries if e["converged"]]
    v["search_first"], v["search_last"] = record["seeds"]
    v["n_seeds"] = len(entries)
    v["n_converged"] = len(conv)
    v["share_converged"] = len(conv) / len(entries)
    both = [e for e in conv if e["rows"][str(r5)]["word"] == RISE and e["rows"][str(r13)]["word"] == FALL]
    v["n_cue_both"] = len(both)
    v["share_cue_both"] = len(both) / len(conv)
    v[f"n_cue_{r13}"] = sum(e["rows"][str(r13)]["word"] == FALL for e in conv)
    v["n_all_claims"] = sum(not e["failed_claims"] for e in entries)
    v["n_selection_claims"] = len(claims.WALKTHROUGH.claims)
    v["loss_ceiling"] = claims.LOSS_CEILING
    v.update(sure=claims.SURE, dominant=claims.DOMINANT)  # the thresholds "sure" and "dominant" mean
    v["n_patterns"] = len(pattern_counts(record))
    v["alt_seed"] = int(alt.manifest["seed"])
    top = int(np.argmax(alt["A"][r13]))
    v[f"alt_row{r13}_word"] = alt.tokens[top]
    v[f"alt_row{r13}_pos"] = top
    v[f"alt_A_{r13}_top"] = float(alt["A"][r13, top])
    v[f"alt_A_{r13}_{c9}"] = float(alt["A"][r13, c9])
    v[f"alt_p{r13}_{FAST}"] = alt.prob(r13, FAST)
    return v

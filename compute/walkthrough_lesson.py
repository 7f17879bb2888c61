"""What the trained-walkthrough lesson shows: labelled tables, worked steps, figures, prose values.

Lesson cells call these one-liners; every number they print comes from the
published checkpoint run in float64.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache

import numpy as np

from . import claims, figures
from .glue import glue_all  # noqa: F401  (lesson cells call L.glue_all)
from .checkpoint import checkpoint_dir
from .data import SENTENCES, VOCAB, next_word_options
from .tables import index_labels, matrix_table, position_labels, rows_table
from .walkthrough import ALTERNATIVE, NAME, Walkthrough, load

SEED_RECORD = "walkthrough-seeds.json"


def _specs(wt: Walkthrough) -> dict[str, tuple[list[str], list[str], str, str]]:
    """name -> (row labels, column labels, corner label, caption)."""
    pos = position_labels(wt.tokens)
    d = index_labels(wt["E"].shape[1])
    ff = index_labels(wt["W1"].shape[1])
    vocab = list(VOCAB)
    coords = ("position \\ coordinate")
    return {
        "E": (vocab, d, "word \\ coordinate", "E: one learned row per vocabulary word"),
        "P": (pos, d, coords, "P: one learned row per position (labelled with the goal sentence's word there)"),
        "X": (pos, d, coords, "X = E[token] + P"),
        "W_Q": (d, d, "x coord \\ q coord", "W_Q"),
        "Q": (pos, d, coords, "Q = X W_Q: one query per position"),
        "W_K": (d, d, "x coord \\ k coord", "W_K"),
        "K": (pos, d, coords, "K = X W_K: one key per position"),
        "S": (pos, pos, "query i \\ key j", "S = Q Kᵀ / √d_k, before the mask"),
        "M": (pos, pos, "query i \\ key j", "M: the causal mask"),
        "S_masked": (pos, pos, "query i \\ key j", "S + M: scores with the future masked"),
        "A": (pos, pos, "query i \\ key j", "A = softmax of each row of S + M"),
        "W_V": (d, d, "x coord \\ v coord", "W_V"),
        "V": (pos, d, coords, "V = X W_V: one value per position"),
        "Z": (pos, d, coords, "Z = A V"),
        "W_O": (d, d, "z coord \\ x coord", "W_O"),
        "hidden": (pos, d, coords, "hidden = X + Z W_O"),
        "W1": (d, ff, "hidden coord \\ unit", "W1"),
        "b1": (["b1"], ff, "\\ unit", "b1"),
        "W2": (ff, d, "unit \\ coordinate", "W2"),
        "b2": (["b2"], d, "\\ coordinate", "b2"),
        "y": (pos, d, coords, "y = hidden + ReLU(hidden W1 + b1) W2 + b2"),
        "W_U": (d, vocab, "y coord \\ word", "W_U: one column per vocabulary word"),
        "probs": (pos, vocab, "position \\ next word", "softmax(y W_U): the next-word distribution at each position"),
    }


def training_sentences():
    """The eight training sentences as a numbered table."""
    return rows_table(["#", "sentence", "words"], [(i + 1, s, len(s.split())) for i, s in enumerate(SENTENCES)],
                      caption="The training data")


def matrix(wt: Walkthrough, name: str) -> np.ndarray:
    if name == "S_masked":
        return wt["S"] + wt["M"]
    return wt[name]


def table(name: str, highlight=(), wt: Walkthrough | None = None):
    """The named matrix of the published walkthrough as a labelled two-decimal table."""
    wt = wt or load()
    rows, cols, corner, caption = _specs(wt)[name]
    return matrix_table(matrix(wt, name), rows, cols, caption=caption, corner=corner,
                        highlight=highlight, name=name)


def top_cells(name: str, rows: list[int], wt: Walkthrough | None = None) -> list[tuple[int, int]]:
    """(row, argmax column) for each listed row: the cells a lesson highlights."""
    M = matrix(wt or load(), name)
    return [(i, int(np.nanargmax(M[i]))) for i in rows]


def worked_score(i: int, j: int, wt: Walkthrough | None = None):
    """q_i · k_j coordinate by coordinate, then divided by √d_k."""
    wt = wt or load()
    q, k = wt["Q"][i], wt["K"][j]
    rows = [(c, float(q[c]), float(k[c]), float(q[c] * k[c])) for c in range(len(q))]
    rows.append(("sum", "", "", float(q @ k)))
    return rows_table(["coordinate", f"q_{i}", f"k_{j}", "product"], rows,
                      caption=f"q_{i} · k_{j}, one coordinate at a time (four decimals)")


def softmax_steps(i: int, wt: Walkthrough | None = None):
    """Row i of the masked scores through max-subtraction, exp and normalisation."""
    wt = wt or load()
    s = wt["S"][i, : i + 1]
    shifted = s - s.max()
    e = np.exp(shifted)
    rows = [(f"{j} {wt.tokens[j]}", float(s[j]), float(shifted[j]), float(e[j]), float(e[j] / e.sum()))
            for j in range(i + 1)]
    return rows_table(["key j", f"s_{i},j", "s − max", "exp(s − max)", f"a_{i},j"], rows,
                      caption=f"Softmax of row {i}, keys 0 to {i} (later keys are masked)")


def compare_rows(a: tuple[str, int], b: tuple[str, int], wt: Walkthrough | None = None):
    """Two rows side by side to four decimals, e.g. z_13 against v_9."""
    wt = wt or load()
    (na, ia), (nb, ib) = a, b
    rows = [(f"{na.lower()}_{ia}", *map(float, wt[na][ia])), (f"{nb.lower()}_{ib}", *map(float, wt[nb][ib]))]
    return rows_table(["row"] + index_labels(wt[na].shape[1]), rows,
                      caption=f"{na.lower()}_{ia} beside {nb.lower()}_{ib}")


@lru_cache(maxsize=1)
def seed_record() -> dict:
    return json.loads((checkpoint_dir() / SEED_RECORD).read_text())


def pattern_counts(record: dict) -> dict[str, int]:
    """Converged seeds grouped by the words rows 5 and 13 attend to most."""
    counts: dict[str, int] = {}
    for e in record["entries"]:
        if e["converged"]:
            key = f"5 → {e['rows']['5']['word']}, 13 → {e['rows']['13']['word']}"
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def data_facts() -> dict[str, float | int]:
    """Counts about the training data itself (targets, two-way choices, the loss floor)."""
    n_targets = sum(len(s.split()) - 1 for s in SENTENCES)
    n_coin = sum(len(next_word_options(s.split()[: i + 1])) == 2
                 for s in SENTENCES for i in range(len(s.split()) - 1))
    return {"n_sentences": len(SENTENCES), "n_targets": n_targets, "n_coin_flips": n_coin,
            "loss_floor": figures.loss_floor(n_coin, n_targets), "vocab_size": len(VOCAB)}


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

    for i, j in [(5, 1), (13, 9), (13, 1), (5, 0), (13, 12)]:
        entry("A", i, j)
    for i, j in [(13, 9), (13, 1), (5, 1)]:
        entry("S", i, j)
    ck, cv = claims.cue_key_coordinate(wt), claims.cue_value_coordinate(wt)
    v.update(key_coord=ck, value_coord=cv)
    for i, word in [(5, "slow"), (13, "fast"), (8, "fall")]:
        v[f"probs_{i}_{VOCAB.index(word)}"] = wt.prob(i, word)
    for i, word in [(0, "rise"), (0, "fall"), (1, "of"), (1, "was"), (9, "of"), (9, "was")]:
        v[f"probs_{i}_{VOCAB.index(word)}"] = wt.prob(i, word)
    v["K_1_kc"], v["K_9_kc"] = float(wt["K"][1, ck]), float(wt["K"][9, ck])
    v["V_1_vc"], v["V_9_vc"] = float(wt["V"][1, cv]), float(wt["V"][9, cv])
    v["qk_13_9"] = float(wt["Q"][13] @ wt["K"][9])
    v["score_gap_13"] = float(wt["S"][13, 9] - wt["S"][13, 1])
    v["row13_max_score"] = float(wt["S"][13, : 14].max())
    v["exp_row13_max"] = float(np.log10(math.e) * wt["S"][13].max())  # e^max as a power of ten
    v["z_v_gap_13"] = float(np.abs(wt["Z"][13] - wt["V"][9]).max())
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
    v.update(data_facts())
    # the seed search
    entries = record["entries"]
    conv = [e for e in entries if e["converged"]]
    v["search_first"], v["search_last"] = record["seeds"]
    v["n_seeds"] = len(entries)
    v["n_converged"] = len(conv)
    v["share_converged"] = len(conv) / len(entries)
    both = [e for e in conv if e["rows"]["5"]["word"] == "rise" and e["rows"]["13"]["word"] == "fall"]
    v["n_cue_both"] = len(both)
    v["share_cue_both"] = len(both) / len(conv)
    v["n_cue_13"] = sum(e["rows"]["13"]["word"] == "fall" for e in conv)
    v["n_all_claims"] = sum(not e["failed_claims"] for e in entries)
    v["n_patterns"] = len(pattern_counts(record))
    v["alt_seed"] = int(alt.manifest["seed"])
    top13 = int(np.argmax(alt["A"][13]))
    v["alt_row13_word"] = alt.tokens[top13]
    v["alt_row13_pos"] = top13
    v["alt_A_13_top"] = float(alt["A"][13, top13])
    v["alt_A_13_9"] = float(alt["A"][13, 9])
    v["alt_p13_fast"] = alt.prob(13, "fast")
    return v


def attention_summary(wt: Walkthrough) -> str:
    """Where each row of A puts most of its weight, in words."""
    A, tokens = wt["A"], wt.tokens
    tops = [f"{i} {tokens[i]} → {int(np.argmax(A[i]))} {tokens[int(np.argmax(A[i]))]} ({A[i].max():.2f})"
            for i in range(len(tokens))]
    return ("Each query row attends only to itself and earlier keys (later cells are blank). "
            "Largest weight in each row, query → key (weight): " + "; ".join(tops) + ".")


def attention_figure(wt: Walkthrough | None = None, div_id: str = "fig-attention", title: str = "",
                     caption: str = ""):
    wt = wt or load()
    caption = caption or ("Attention weights A of the published model: one row per query position, one column "
                          "per key position; hover a cell for its score and weight.")
    return figures.show(figures.attention_heatmap(wt["A"], wt["S"], wt.tokens,
                                                  title or "Attention weights A (hover a cell)"), div_id,
                        caption, attention_summary(wt))


def alternative_figure():
    alt = load(ALTERNATIVE)
    seed = alt.manifest["seed"]
    return attention_figure(alt, "fig-attention-alt", f"Attention weights of seed {seed}",
                            f"Attention weights A of seed {seed}, a converged solution whose row 13 looks elsewhere.")


def probability_figure(start: int = 13):
    wt = load()
    probs, tokens = wt["probs"], wt.tokens
    tops = [f"after {i} {tokens[i]}: {VOCAB[int(np.argmax(probs[i]))]} ({probs[i].max():.2f})"
            for i in range(len(tokens))]
    summary = (f"At position {start} ({tokens[start]}) the most likely next words are "
               f"{figures.ranked(list(VOCAB), probs[start])}. The most likely next word at each position: "
               + "; ".join(tops) + ".")
    return figures.show(figures.next_token_bars(probs, tokens, start), "fig-next-word",
                        "Next-word probabilities of the published model; the slider moves along the sentence.",
                        summary)


def loss_figure():
    wt, facts = load(), data_facts()
    history = wt.manifest["loss_history"]
    floor = figures.loss_floor(facts["n_coin_flips"], facts["n_targets"])
    summary = (f"The mean loss falls from {history[0]:.3f} to {history[-1]:.4f} nats per target over "
               f"{wt.manifest['steps']} Adam steps (log scale), down to the floor of {floor:.4f} that "
               f"{facts['n_coin_flips']} two-way choices among {facts['n_targets']} targets allow.")
    return figures.show(figures.loss_curve(history, facts["n_coin_flips"], facts["n_targets"]), "fig-loss",
                        "Training loss per Adam step against the floor that the data allows.", summary)


def pattern_figure():
    counts = pattern_counts(seed_record())
    summary = ("Converged seeds per pattern (the word rows 5 and 13 attend to most): "
               + "; ".join(f"{k}: {n}" for k, n in counts.items()) + ".")
    return figures.show(figures.pattern_bars(counts, "5 → rise, 13 → fall"), "fig-seed-patterns",
                        "How many converged seeds found each attention pattern of rows 5 and 13; "
                        "the lesson's pattern is highlighted.", summary)

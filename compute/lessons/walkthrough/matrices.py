"""The walkthrough's matrices as labelled tables, and the worked steps (one score, one softmax row)."""
from __future__ import annotations

import numpy as np

from ...data.walkthrough import SENTENCES, VOCAB
from ...present.tables import fmt, index_labels, matrix_table, position_labels, rows_table
from ...published.walkthrough import Walkthrough, load


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
        "A": (pos, pos, "query i \\ key j", "A = softmax of each row of S + M (· : masked, a weight of exactly 0) "
                                               "{claim}`masked_weights_are_exactly_zero`"),
        "W_V": (d, d, "x coord \\ v coord", "W_V"),
        "V": (pos, d, coords, "V = X W_V: one value per position"),
        "Z": (pos, d, coords, "Z = A V"),
        "W_O": (d, d, "z coord \\ x coord", "W_O"),
        "hidden": (pos, d, coords, "hidden = X + Z W_O"),
        "W1": (d, ff, "hidden coord \\ unit", "W1"),
        "b1": (["b1"], ff, "\\ unit", "b1"),
        "W2": (ff, d, "unit \\ coordinate", "W2"),
        "b2": (["b2"], d, "\\ coordinate", "b2"),
        "ffn_hidden": (pos, ff, "position \\ unit", "ReLU(hidden W1 + b1): the hidden units at each position "
                       "(0.00 is a unit the ReLU switched off)"),
        "y": (pos, d, coords, "y = hidden + ReLU(hidden W1 + b1) W2 + b2"),
        "W_U": (d, vocab, "y coord \\ word", "W_U: one column per vocabulary word"),
        "logits": (pos, vocab, "position \\ next word", "logits = y W_U: one score per word, before the softmax"),
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
    M = matrix(wt, name)
    future = np.triu(np.ones(M.shape, bool), 1) if name == "A" else None
    return matrix_table(M, rows, cols, caption=caption, corner=corner, highlight=highlight, name=name,
                        masked=future)


# Matrices whose columns are key positions: a row's highlight is among the keys it may read (j <= i).
_CAUSAL = ("S", "S_masked", "A")


def top_cells(name: str, rows: list[int], wt: Walkthrough | None = None) -> list[tuple[int, int]]:
    """(row, argmax column) for each listed row: the cells a lesson highlights.

    In a query-by-key matrix the argmax is over the allowed keys 0..i only: row 5 of S
    has larger scores on future positions, which the mask removes before any weight is made."""
    M = matrix(wt or load(), name)
    return [(i, allowed_argmax(M[i], i) if name in _CAUSAL else int(np.nanargmax(M[i]))) for i in rows]


def allowed_argmax(row: np.ndarray, i: int) -> int:
    """The key position j <= i with the largest entry of a query row."""
    return int(np.nanargmax(row[: i + 1]))


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
    rows = [(f"{j} {wt.tokens[j]}", float(s[j]), float(shifted[j]), float(e[j]), fmt(float(e[j] / e.sum()), 2))
            for j in range(i + 1)]               # the weights as the matrix A prints them: one value, one spelling
    return rows_table(["key j", f"s_{i},j", "s − max", "exp(s − max)", f"a_{i},j"], rows,
                      caption=f"Softmax of row {i}, keys 0 to {i} (later keys are masked); the weights to two "
                              "decimals, as A prints them")


def compare_rows(a: tuple[str, int], b: tuple[str, int], wt: Walkthrough | None = None):
    """Two rows side by side to four decimals, e.g. z_13 against v_9."""
    wt = wt or load()
    (na, ia), (nb, ib) = a, b
    rows = [(f"{na.lower()}_{ia}", *map(float, wt[na][ia])), (f"{nb.lower()}_{ib}", *map(float, wt[nb][ib]))]
    return rows_table(["row"] + index_labels(wt[na].shape[1]), rows,
                      caption=f"{na.lower()}_{ia} beside {nb.lower()}_{ib}")


def row_cells(name: str, rows, wt: Walkthrough | None = None) -> list[tuple[int, int]]:
    """Every cell of the listed rows: a whole row highlighted (e.g. the answer rows of Q)."""
    n_cols = matrix(wt or load(), name).shape[1]
    return [(i, c) for i in rows for c in range(n_cols)]

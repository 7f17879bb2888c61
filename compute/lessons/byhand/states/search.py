"""The video-search analogy: queries, video descriptions (keys), what each video returns (values)."""
from __future__ import annotations

import numpy as np

from .attention import softmax


TOPICS = ("cooking", "baking", "travel", "rivers", "birds", "money", "music", "history")

QUERIES = {  # what each searcher asks for, on the eight topic axes
    "bread for a picnic by the water": [2, 3, 1, 2, 0, 0, 0, 0],
    "birds along the river": [0, 0, 1, 3, 3, 0, 0, 0],
    "saving for a trip": [0, 0, 2, 0, 0, 3, 0, 0],
}
VIDEOS = {  # how each video describes itself on the same axes
    "Sourdough basics": [2, 3, 0, 0, 0, 0, 0, 0],
    "Canal boat holiday": [0, 0, 3, 2, 1, 0, 0, 1],
    "Herons of the delta": [0, 0, 1, 2, 3, 0, 0, 0],
    "Budget travel tips": [0, 0, 3, 0, 0, 2, 0, 0],
    "Folk songs of rivers": [0, 0, 0, 2, 0, 0, 3, 1],
}
VALUE_AXES = ("minutes", "rating", "views (k)")
VALUES = {  # what each video hands back when retrieved
    "Sourdough basics": [12, 4.6, 310],
    "Canal boat holiday": [25, 4.1, 95],
    "Herons of the delta": [18, 4.8, 140],
    "Budget travel tips": [9, 3.9, 520],
    "Folk songs of rivers": [31, 4.4, 60],
}


def matrices() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(queries Q, keys K, values V) as arrays in the dictionaries' order."""
    Q = np.array(list(QUERIES.values()), dtype=float)
    K = np.array(list(VIDEOS.values()), dtype=float)
    V = np.array(list(VALUES.values()), dtype=float)
    return Q, K, V


def match_scores() -> np.ndarray:
    """Q Kᵀ: one row per query, one column per video."""
    Q, K, _ = matrices()
    return Q @ K.T


def retrieve(query: int, mode: str = "soft", temperature: float = 1.0) -> dict[str, np.ndarray]:
    """Weights, weighted value rows and the returned row for one query.
    hard: all weight on the best match; soft: softmax(scores / temperature)."""
    _, _, V = matrices()
    s = match_scores()[query]
    if mode == "hard":
        w = np.zeros_like(s)
        w[np.argmax(s)] = 1.0
    elif mode == "soft":
        if temperature <= 0:
            raise ValueError(f"temperature must be positive, got {temperature}")
        w = softmax(s / temperature)
    else:
        raise ValueError(f"mode must be 'hard' or 'soft', got {mode!r}")
    return {"scores": s, "weights": w, "weighted": w[:, None] * V, "returned": w @ V}


TEMPERATURES = 2.0 ** np.linspace(-2, 5, 29)           # 1/4 .. 32, a quarter-octave apart; includes 1


SEARCH_QUERY = 1                                       # "birds along the river"


def retrieval_grid(mode: str, temperature: float = 1.0, query: int = SEARCH_QUERY) -> np.ndarray:
    """One row per video (score, weight, weight × each value), then the returned row (sums)."""
    r = retrieve(query, mode, temperature)
    body = np.column_stack([r["scores"], r["weights"], r["weighted"]])
    total = np.concatenate([[np.nan, r["weights"].sum()], r["returned"]])
    return np.vstack([body, total])

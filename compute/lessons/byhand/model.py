"""Hand-chosen teaching values, defined once: sentences, features, positions, projections, head.

Every row is a row vector and every projection is `x @ W`, as in the lesson.
Positions are numbered from 1, as the lesson numbers them; array index = position - 1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURES = ("water", "finance", "thing", "grammar")       # the four e coordinates
QK_AXES = ("wants water", "wants finance", "wants a noun")  # query coordinates: what a token asks for
K_AXES = ("has water", "has finance", "is a noun")          # key coordinates, paired with them: what it offers
V_AXES = ("water news", "finance news")                   # value coordinates

SENTENCES = {
    "A": "The heron stood near the river bank and watched the".split(),
    "B": "He deposited a cheque at the bank and watched the".split(),
}
CONTEXT_NAMES = {"A": "river", "B": "cheque"}
BANK = SENTENCES["A"].index("bank") + 1  # 7: the position of "bank", the same in both sentences
assert SENTENCES["B"].index("bank") + 1 == BANK

# word -> (water, finance, thing, grammar); the 20-word vocabulary in a fixed order.
WORD_FEATURES: dict[str, tuple[float, float, float, float]] = {
    "The":       (0.0, 0.0, 0.0, 1.0),
    "heron":     (0.6, 0.0, 1.0, 0.0),
    "stood":     (0.0, 0.0, 0.2, 0.4),
    "near":      (0.1, 0.0, 0.0, 0.8),
    "the":       (0.0, 0.0, 0.0, 1.0),
    "river":     (1.0, 0.0, 1.0, 0.0),
    "bank":      (0.25, 0.25, 1.0, 0.0),
    "and":       (0.0, 0.0, 0.0, 1.0),
    "watched":   (0.0, 0.0, 0.3, 0.4),
    "He":        (0.0, 0.0, 0.2, 0.8),
    "deposited": (0.0, 0.8, 0.3, 0.2),
    "a":         (0.0, 0.0, 0.0, 1.0),
    "cheque":    (0.0, 1.0, 1.0, 0.0),
    "at":        (0.0, 0.0, 0.0, 0.9),
    "water":     (1.0, 0.0, 1.0, 0.0),
    "ducks":     (0.8, 0.0, 1.0, 0.0),
    "teller":    (0.0, 0.8, 1.0, 0.0),
    "money":     (0.0, 1.0, 1.0, 0.0),
    "queue":     (0.0, 0.6, 1.0, 0.0),
    "sky":       (0.0, 0.0, 1.0, 0.0),
}
VOCAB: tuple[str, ...] = tuple(WORD_FEATURES)

# Small additive position rows in the same four coordinates (positions 1..10).
POSITION_ROWS = np.array([
    [0.00, 0.00, 0.00, 0.10],
    [0.01, 0.00, 0.02, 0.09],
    [0.02, 0.01, 0.03, 0.08],
    [0.02, 0.02, 0.04, 0.07],
    [0.03, 0.02, 0.05, 0.06],
    [0.03, 0.03, 0.06, 0.05],
    [0.04, 0.03, 0.07, 0.04],
    [0.04, 0.04, 0.08, 0.03],
    [0.05, 0.04, 0.09, 0.02],
    [0.05, 0.05, 0.10, 0.01],
])

# Projections: rows are the four features, columns the named query/key/value axes.
W_Q = np.array([        # what a token asks for depends on what it is:
    [1.0, 0.0, 0.0],    # a word with water in it asks for more water,
    [0.0, 1.0, 0.0],    # one with finance in it for more finance,
    [2.0, 2.0, 0.5],    # a noun for topic clues of either kind,
    [0.5, 0.5, 2.0],    # a function word mostly for nouns
])
W_K = np.array([        # a word advertises how much water, finance and thing it carries
    [2.0, 0.0, 0.0],
    [0.0, 2.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, 0.0],
])
W_V = np.array([        # a word sends its water and finance content
    [1.0, 0.0],
    [0.0, 1.0],
    [0.0, 0.0],
    [0.0, 0.0],
])
W_O = np.array([        # value coordinates back into representation coordinates
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
])

# Output head: 4 -> 8 hidden (ReLU) -> 20 vocabulary scores.


def _head() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    W1 = np.zeros((4, 8))
    W1[0, 0], W1[0, 1] = 3.0, 2.0          # water drives two hidden units
    W1[1, 2], W1[1, 3] = 3.0, 2.0          # finance drives two more
    W1[2, 4], W1[3, 5] = 1.0, 1.0          # thing, grammar pass through
    # A small threshold: position offsets alone (at most 0.05 water or finance)
    # do not switch the topic units on; a real clue does.
    b1 = np.array([-0.3, -0.3, -0.3, -0.3, 0.0, 0.0, 1.0, 1.0])
    W2 = np.zeros((8, len(VOCAB)))
    b2 = np.full(len(VOCAB), -1.0)         # words that are not candidates start lower
    water_words = {"river": 0.9, "heron": 0.8, "water": 1.0, "ducks": 0.85}
    money_words = {"cheque": 0.9, "teller": 0.8, "money": 1.0, "queue": 0.85}
    for w, s in water_words.items():
        W2[0, VOCAB.index(w)], W2[1, VOCAB.index(w)] = s, 0.5 * s
        b2[VOCAB.index(w)] = 0.0
    for w, s in money_words.items():
        W2[2, VOCAB.index(w)], W2[3, VOCAB.index(w)] = s, 0.5 * s
        b2[VOCAB.index(w)] = 0.0
    return W1, b1, W2, b2


W1, b1, W2, b2 = _head()
E = np.array([WORD_FEATURES[w] for w in VOCAB])  # (20, 4)


@dataclass(frozen=True)
class Rows:
    """One sentence's rows: the words and their four-coordinate sums."""
    words: tuple[str, ...]
    word_rows: np.ndarray       # (T, 4) E[token]
    position_rows: np.ndarray   # (T, 4) P[1..T]
    e: np.ndarray               # (T, 4) word + position


def rows(words: list[str] | tuple[str, ...], positions: bool = True) -> Rows:
    """e_i = E[word_i] + P_i for each word (P zeroed when positions=False)."""
    T = len(words)
    W = np.array([WORD_FEATURES[w] for w in words])
    P = POSITION_ROWS[:T] if positions else np.zeros((T, 4))
    return Rows(tuple(words), W, P, W + P)


def sentence(key: str) -> list[str]:
    return list(SENTENCES[key])

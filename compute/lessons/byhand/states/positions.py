"""Position as a design choice: indices, sine/cosine pairs, rotations (RoPE), additive cross terms,
and the word-order swap experiments."""
from __future__ import annotations

import numpy as np

from .. import model as m
from .attention import predict, softmax


def scalar_index_features(T: int, divide_by_length: bool) -> np.ndarray:
    """The position feature of positions 1..T: the index, or the index divided by T."""
    i = np.arange(1, T + 1, dtype=float)
    return i / T if divide_by_length else i


def sincos(i: float, omega: float) -> np.ndarray:
    """(sin iω, cos iω)."""
    return np.array([np.sin(i * omega), np.cos(i * omega)])


def shift_map(delta: float, omega: float) -> np.ndarray:
    """The 2x2 matrix T_δ with sincos(i + δ) = sincos(i) @ T_δ (angle addition), any i."""
    s, c = np.sin(delta * omega), np.cos(delta * omega)
    return np.array([[c, -s], [s, c]])


def rotation(i: float, omega: float) -> np.ndarray:
    """R_i: rotation by the angle iω (acts on column vectors)."""
    a = i * omega
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def rope_score(q: np.ndarray, k: np.ndarray, i: float, j: float, omega: float) -> float:
    """⟨R_i q, R_j k⟩."""
    return float((rotation(i, omega) @ q) @ (rotation(j, omega) @ k))


def relative_score(q: np.ndarray, k: np.ndarray, i: float, j: float, omega: float) -> float:
    """qᵀ R_{j-i} k: depends on the offset j - i only."""
    return float(q @ rotation(j - i, omega) @ k)


def additive_terms(u, v, p_i, p_j) -> dict[str, float]:
    """(u+p_i)·(v+p_j) split into content, two cross terms and position-position."""
    terms = {"u·v": float(u @ v), "u·p_j": float(u @ p_j), "p_i·v": float(p_i @ v), "p_i·p_j": float(p_i @ p_j)}
    terms["total"] = float((u + p_i) @ (v + p_j))
    return terms


# The two-coordinate order-swap experiment (identity projections, two tokens):
# the tokens and position rows; swap_state below runs it.
SWAP_TOKENS = {"dog": np.array([1.0, 0.0]), "bites": np.array([0.0, 1.0])}
SWAP_POSITIONS = np.array([[0.5, 0.0], [0.0, -0.5]])


PREFIX_LENGTHS = tuple(range(3, 21))


WATCH_POSITION = 3


def prefix_features(T: int) -> dict[str, np.ndarray]:
    return {"index i": scalar_index_features(T, False),
            "i / T": scalar_index_features(T, True)}


OMEGA = 0.5


SINCOS_I, SINCOS_DELTA = 3, 2


def angle_addition() -> dict[str, np.ndarray]:
    i, d = SINCOS_I, SINCOS_DELTA
    a = sincos(i, OMEGA)
    T = shift_map(d, OMEGA)
    return {"at i": a, "T_δ": T, "at i · T_δ": a @ T, "at i + δ": sincos(i + d, OMEGA)}


ROPE_Q, ROPE_K = np.array([1.0, 0.5]), np.array([0.3, 1.0])


ROPE_PAIRS = ((1, 3), (4, 6), (8, 10), (1, 4))


def rope_rows() -> list[tuple]:
    out = []
    for i, j in ROPE_PAIRS:
        out.append((f"i = {i}, j = {j}", j - i, rope_score(ROPE_Q, ROPE_K, i, j, OMEGA),
                    relative_score(ROPE_Q, ROPE_K, i, j, OMEGA)))
    return out


CROSS_U, CROSS_V = np.array([1.0, 0.0]), np.array([0.6, 0.8])


CROSS_PAIRS = ((1, 3), (4, 6), (7, 9))


def cross_term_rows() -> list[tuple]:
    """(u + p_i)·(v + p_j) split into its four terms, same gap at three absolute positions (sin/cos p)."""
    out = []
    for i, j in CROSS_PAIRS:
        t = additive_terms(CROSS_U, CROSS_V, sincos(i, OMEGA), sincos(j, OMEGA))
        out.append((f"i = {i}, j = {j}", t["u·v"], t["u·p_j"], t["p_i·v"], t["p_i·p_j"], t["total"]))
    return out


SWAP_ORDERS = (("dog", "bites"), ("bites", "dog"))


def swap_state(order, with_positions: bool) -> dict[str, np.ndarray]:
    """Identity projections, no mask: the inputs, weights and output row of each token (rows in word order)."""
    x = np.array([SWAP_TOKENS[w] for w in order])
    if with_positions:
        x = x + SWAP_POSITIONS
    A = softmax(x @ x.T)
    out = A @ x
    idx = [list(order).index(w) for w in ("dog", "bites")]
    return {"x": x[idx], "out": out[idx], "A": A}


SWAP_WORDS = ("water", "river", "ducks", "heron")


def swap_regression_rows() -> dict[str, np.ndarray]:
    words = m.sentence("A")
    out = {}
    for pos in (True, False):
        tag = "positions" if pos else "positions zeroed"
        for name, w in (("original", words), ("The ↔ river", swapped(words))):
            p = predict(w, positions=pos)["p"]
            out[f"{name}, {tag}"] = np.array([p[m.VOCAB.index(x)] for x in SWAP_WORDS])
    return out


def swapped(words: list[str], a: str = "The", b: str = "river") -> list[str]:
    out = list(words)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return out

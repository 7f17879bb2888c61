"""Position as a design choice: indices, sine/cosine pairs, rotations (RoPE), additive cross terms."""
from __future__ import annotations

import numpy as np


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
# the tokens and position rows; lesson_second_pass.swap_state runs it.
SWAP_TOKENS = {"dog": np.array([1.0, 0.0]), "bites": np.array([0.0, 1.0])}
SWAP_POSITIONS = np.array([[0.5, 0.0], [0.0, -0.5]])

"""Ways to give the output head context: a fixed window, pooling, and their parameter counts."""
from __future__ import annotations

import numpy as np

from .. import model as m


D_MODEL, HIDDEN_UNITS, VOCAB_SIZE = 4, 8, 20


def window_positions(T: int, w: int) -> list[int]:
    """Positions (1-based) of the last w tokens of a T-token prefix."""
    if not 1 <= w <= T:
        raise ValueError(f"window must be between 1 and {T}, got {w}")
    return list(range(T - w + 1, T + 1))


def window_reach(words: list[str], clue: str) -> tuple[int, int]:
    """The largest window that misses `clue` (1-based position in `words`) and the smallest that holds it."""
    T, at = len(words), words.index(clue) + 1
    return max(w for w in range(1, T + 1) if at not in window_positions(T, w)), T - at + 1


def mlp_shapes(w: int, d: int = D_MODEL, H: int = HIDDEN_UNITS, V: int = VOCAB_SIZE) -> dict[str, tuple[int, ...]]:
    """Parameter shapes of the two-layer head on a concatenated window (row vectors)."""
    return {"W1": (w * d, H), "b1": (H,), "W2": (H, V), "b2": (V,)}


def mlp_parameters(w: int, d: int = D_MODEL, H: int = HIDDEN_UNITS, V: int = VOCAB_SIZE) -> int:
    """w·d·H + H + H·V + V."""
    return w * d * H + H + H * V + V


def linear_parameters(w: int, d: int = D_MODEL, V: int = VOCAB_SIZE) -> int:
    """w·d·V + V for the direct linear head."""
    return w * d * V + V


def torch_parameter_counts(w: int, d: int = D_MODEL, H: int = HIDDEN_UNITS, V: int = VOCAB_SIZE) -> tuple[int, int]:
    """Parameters of real torch modules of those shapes: (MLP head, linear head)."""
    from torch import nn
    mlp = nn.Sequential(nn.Linear(w * d, H), nn.ReLU(), nn.Linear(H, V))
    linear = nn.Linear(w * d, V)
    return sum(p.numel() for p in mlp.parameters()), sum(p.numel() for p in linear.parameters())


def pooled(e: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """c = Σ_j w_j e_j with the weights normalised to sum to 1: always four numbers wide."""
    w = np.asarray(weights, dtype=float)
    return (w / w.sum()) @ e


POOL_FOCUS = ("river", "heron", "The", "bank")         # tokens the pooling slider can favour


POOL_SHARES = np.linspace(0.0, 1.0, 21)                # extra weight moved onto the chosen token


def window_state(w: int, key: str = "A") -> dict[str, object]:
    """Which tokens a window of the last w rows takes in, and the head's shapes and counts."""
    words = m.sentence(key)
    pos = window_positions(len(words), w)
    return {"w": w, "positions": pos, "words": [words[p - 1] for p in pos],
            "inputs": w * D_MODEL, "shapes": mlp_shapes(w),
            "mlp": mlp_parameters(w), "linear": linear_parameters(w),
            "linear_shape": (w * D_MODEL, VOCAB_SIZE)}


def pool_weights(focus: str | None, share: float, key: str = "A") -> np.ndarray:
    """Weights over positions 1..7: a plain average, with `share` of the total moved onto `focus`."""
    words = m.sentence(key)[: m.BANK]
    w = np.full(m.BANK, (1.0 - share) / m.BANK)
    if focus is not None:
        w[words.index(focus)] += share
    return w


def pool(weights: np.ndarray, key: str = "A") -> dict[str, np.ndarray]:
    """Each row 1..7 scaled by its weight, and their sum: the four-number summary c_7."""
    e = m.rows(m.sentence(key)).e[: m.BANK]
    w = np.asarray(weights, dtype=float)
    parts = w[:, None] * e
    return {"weights": w, "parts": parts, "summary": parts.sum(axis=0)}

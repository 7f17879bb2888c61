"""Why scores are divided by √d_k: measured spread of q·k, saturation, a divisor, stable softmax."""
from __future__ import annotations

import numpy as np

from .attention import softmax

D_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
N_PAIRS = 20000
SEED = 7


def random_pairs(d_k: int, n: int = N_PAIRS, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """n query/key pairs with independent N(0, 1) entries (seeded)."""
    rng = np.random.default_rng([seed, d_k])
    return rng.standard_normal((n, d_k)), rng.standard_normal((n, d_k))


def measured_spread(d_ks=D_KS, n: int = N_PAIRS, seed: int = SEED) -> dict[str, np.ndarray]:
    """Variance of q·k and of q·k/√d_k over n random pairs, for each d_k."""
    raw, scaled = [], []
    for d in d_ks:
        q, k = random_pairs(d, n, seed)
        dots = np.einsum("nd,nd->n", q, k)
        raw.append(dots.var())
        scaled.append((dots / np.sqrt(d)).var())
    return {"d_k": np.array(d_ks), "raw": np.array(raw), "scaled": np.array(scaled)}


def two_key_weights(gap: float, divisor: float = 1.0) -> np.ndarray:
    """Softmax weights of two keys whose scores differ by `gap`, after dividing by `divisor`."""
    return softmax(np.array([gap, 0.0]) / divisor)


def naive_softmax(s: np.ndarray) -> np.ndarray:
    """exp(s) / Σ exp(s) without the max-subtraction (overflows for large s)."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        return e / e.sum(axis=-1, keepdims=True)

"""Why scores are divided by √d_k: measured spread of q·k, saturation, a divisor, stable softmax."""
from __future__ import annotations

import math

import numpy as np

from .. import model as m
from .attention import sentence_att, softmax


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


RANDOM_DK = 8


DIVISOR_DK = 16


DIVISORS = tuple(float(x) for x in np.arange(1.0, 8.01, 0.25))   # 29 steps, √16 = 4 among them


def random_entries(d_k: int = RANDOM_DK) -> dict[str, np.ndarray | float]:
    """One seeded query/key pair with N(0, 1) entries, their products and dot product."""
    q, k = random_pairs(d_k, n=1)
    q, k = q[0], k[0]
    return {"q": q, "k": k, "qk": q * k, "dot": float(q @ k)}


SATURATION_DKS = (1, 4, 16, 64, 256)


def saturation_rows(d_ks=SATURATION_DKS) -> list[tuple]:
    """Two keys whose scores differ by one typical spread √d_k: top weight and slope a(1 − a), raw and scaled."""
    out = []
    for d in d_ks:
        gap = math.sqrt(d)
        raw, scaled = two_key_weights(gap)[0], two_key_weights(gap, math.sqrt(d))[0]
        out.append((d, float(gap), float(raw), float(raw * (1 - raw)), float(scaled), float(scaled * (1 - scaled))))
    return out


def divisor_scores() -> np.ndarray:
    """Five fixed scores q·k_j from one seeded random query and five keys, d_k = 16."""
    rng = np.random.default_rng([SEED, 99])
    q, K = rng.standard_normal(DIVISOR_DK), rng.standard_normal((5, DIVISOR_DK))
    return K @ q


def divisor_weights(divisor: float) -> np.ndarray:
    return softmax(divisor_scores() / divisor)


STABLE_SCORES = np.array([2.0, 1.0, 0.0])


SHIFT = 798.0


def stable_rows() -> dict[str, np.ndarray]:
    """Stable softmax versus scaling, on one small score row and the same row shifted into overflow."""
    s, big = STABLE_SCORES, STABLE_SCORES + SHIFT
    return {"scores s": s, "naive exp(s)/Σ": naive_softmax(s), "stable: max subtracted": softmax(s),
            "scaled: s ÷ 2": softmax(s / 2), f"shifted s + {SHIFT:g}": big,
            "naive on shifted": naive_softmax(big), "stable on shifted": softmax(big)}


def bank_scaled_rows(key: str = "A") -> dict[str, np.ndarray]:
    words, att = sentence_att(key, T=m.BANK)
    raw = att.Q[-1] @ att.K.T
    return {"words": words, "raw": raw, "scaled": raw / math.sqrt(att.K.shape[1]), "alpha": att.A[-1]}

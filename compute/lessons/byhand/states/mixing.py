"""Four ways to mix the sources for the blank after the last 'the', side by side."""
from __future__ import annotations

import numpy as np

from .. import model as m
from .attention import attend


SCHEMES = ("fixed window (w = 3)", "plain mean", "distance weights", "attention")


def scheme_weights(words) -> dict[str, np.ndarray]:
    """Weights over positions 1..T used to build the last position's context."""
    T = len(words)
    window = np.zeros(T)
    window[-3:] = 1 / 3
    mean = np.full(T, 1 / T)
    closeness = 1.0 / (1.0 + np.arange(T)[::-1])   # 1 for the last token, 1/2, 1/3, ...
    attention = attend(m.rows(words).e).A[-1]
    return dict(zip(SCHEMES, (window, mean, closeness / closeness.sum(), attention)))

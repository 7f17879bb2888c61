"""Attention in the hand-set model: scores, weights, messages, updates and the prediction."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import model as m


def softmax(s: np.ndarray) -> np.ndarray:
    """Softmax along the last axis, with the maximum subtracted first (-inf gives weight 0)."""
    z = s - np.max(s, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def causal_mask(T: int) -> np.ndarray:
    """0 where source j <= receiver i, -inf where j > i."""
    return np.where(np.triu(np.ones((T, T), dtype=bool), 1), -np.inf, 0.0)


@dataclass(frozen=True)
class Attention:
    """Every matrix of one attention pass over a sentence (rows = receiving positions)."""
    e: np.ndarray        # (T, 4)
    Q: np.ndarray        # (T, 3)
    K: np.ndarray        # (T, 3)
    V: np.ndarray        # (T, 2)
    S: np.ndarray        # (T, T) scaled scores, unmasked
    A: np.ndarray        # (T, T) weights
    M: np.ndarray        # (T, 2) messages A V
    dE: np.ndarray       # (T, 4) updates M W_O
    e_new: np.ndarray    # (T, 4) e + dE


def attend(e: np.ndarray, masked: bool = True) -> Attention:
    """Q, K, V from e; scaled scores; (masked) softmax; messages; residual update."""
    Q, K, V = e @ m.W_Q, e @ m.W_K, e @ m.W_V
    S = Q @ K.T / np.sqrt(K.shape[1])
    A = softmax(S + causal_mask(len(e))) if masked else softmax(S)
    M = A @ V
    dE = M @ m.W_O
    return Attention(e, Q, K, V, S, A, M, dE, e + dE)


def head(x: np.ndarray) -> dict[str, np.ndarray]:
    """The output head on one row: hidden units, vocabulary scores, probabilities."""
    h = np.maximum(0.0, x @ m.W1 + m.b1)
    logits = h @ m.W2 + m.b2
    return {"h": h, "logits": logits, "p": softmax(logits)}


def predict(words, attention: bool = True, positions: bool = True) -> dict[str, np.ndarray]:
    """Next-word probabilities from the last position (attention bypassed on request)."""
    r = m.rows(words, positions)
    att = attend(r.e)
    x = att.e_new[-1] if attention else r.e[-1]
    return {**head(x), "x": x, "alpha": att.A[-1]}


def top_words(p: np.ndarray, tol: float = 1e-12) -> list[str]:
    """Every word whose probability ties the largest."""
    return [w for w, q in zip(m.VOCAB, p) if q >= p.max() - tol]

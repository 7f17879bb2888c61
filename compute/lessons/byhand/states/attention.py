"""Attention in the hand-set model: scores, weights, messages, updates, and the next-word prediction.

Positions are numbered 1..T as in the lesson (array index = position - 1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import model as m

KEYS = ("A", "B")  # the two sentences: river (A) and cheque (B)
BLEND_STEPS = np.linspace(0.0, 1.0, 21)  # λ in e_7 + λ Δe_7, the blend slider's states


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


def sentence_text(key: str) -> str:
    return " ".join(m.sentence(key))


def shared_tail() -> int:
    """How many final words the two sentences share."""
    a, b = m.sentence("A"), m.sentence("B")
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def full_prediction(key: str) -> np.ndarray:
    """Next-word probabilities of the full model (attention, then head) after sentence `key`."""
    return predict(m.sentence(key))["p"]


def baseline_prediction(key: str) -> np.ndarray:
    """Next-word probabilities when only the last row e_10 reaches the head."""
    return head(m.rows(m.sentence(key)).e[-1])["p"]


def bank(key: str) -> dict[str, np.ndarray]:
    """Phase A and B for bank (position 7) over keys 1..7: q, K, q·k, scores, weights, V, α·v, m_7."""
    att = attend(m.rows(m.sentence(key)).e)
    i = m.BANK - 1
    q, K, V = att.Q[i], att.K[: m.BANK], att.V[: m.BANK]
    dots = K @ q
    return {"e": att.e[i], "q": q, "K": K, "dots": dots, "scores": att.S[i, : m.BANK],
            "alpha": att.A[i, : m.BANK], "V": V, "weighted": att.A[i, : m.BANK, None] * V,
            "m": att.M[i], "dE": att.dE[i], "e_new": att.e_new[i]}


def dot_terms(key: str, j: int) -> np.ndarray:
    """q_7 and k_j on each QK axis and their products: a (3, 3) array [q_c, k_c, q_c k_c]."""
    b = bank(key)
    q, k = b["q"], b["K"][j - 1]
    return np.column_stack([q, k, q * k])


def blend(key: str, lam: float) -> np.ndarray:
    """e_7 + λ Δe_7: bank's row with a fraction λ of its update added."""
    b = bank(key)
    return b["e"] + lam * b["dE"]


def sentence_att(key: str = "A", T: int | None = None, masked: bool = True):
    words = m.sentence(key)[:T]
    return words, attend(m.rows(words).e, masked=masked)


def projection_rows(key: str = "A", pos: int = m.BANK) -> dict[str, np.ndarray]:
    """The e row of one position and the q, k, v rows the shared matrices make from it; and e + Δe."""
    _, att = sentence_att(key)
    i = pos - 1
    return {"e": att.e[i], "q": att.Q[i], "k": att.K[i], "v": att.V[i], "dE": att.dE[i], "e_new": att.e_new[i]}


def reader_positions(pos: int, T: int = 10) -> list[int]:
    """The receiving positions that read position `pos`'s key and value under the causal mask."""
    return list(range(pos, T + 1))


LIFETIME_STATES = ("not made yet", "made and used", "read from the cache", "no longer needed")
LIFETIME_ROWS = ("e", "q", "k", "v", "Δe", "e + Δe")


def lifetime_codes(pos: int, T: int = 10) -> np.ndarray:
    """(rows, T): what happens to each working row of position `pos` while token t = 1 … T is processed,
    as an index into LIFETIME_STATES. Rows in the order of LIFETIME_ROWS."""
    codes = np.zeros((len(LIFETIME_ROWS), T), dtype=int)
    t = np.arange(1, T + 1)
    for r, name in enumerate(LIFETIME_ROWS):
        codes[r] = np.where(t < pos, 0, np.where(t == pos, 1, 3))
        if name in ("k", "v"):  # kept: every later receiver reads them
            codes[r, [p - 1 for p in reader_positions(pos, T) if p > pos]] = 2
    return codes


MASK_ROW = m.sentence("A").index("river")  # 5: the "the" just before "river", which it could read without the mask


def mask_states(key: str = "A", row: int = MASK_ROW) -> dict[str, dict[str, np.ndarray]]:
    """Row `row`'s weights and message with the mask on and off."""
    out = {}
    for name, masked in (("mask on", True), ("mask off", False)):
        _, att = sentence_att(key, masked=masked)
        out[name] = {"alpha": att.A[row - 1], "message": att.M[row - 1]}
    return out


PREDICT_STATES = (("A", True), ("B", True), ("A", False), ("B", False))


def prediction_state(key: str, attention: bool) -> dict:
    words = m.sentence(key)
    out = predict(words, attention=attention)
    p = out["p"]
    top = top_words(p)
    return {"words": words, "alpha": out["alpha"] if attention else np.zeros(len(words)), "x": out["x"],
            "p": p, "top": top, "p_top": float(p.max())}

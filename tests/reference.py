"""An independent forward pass in plain numpy float64, to check the torch model against."""
from __future__ import annotations

import numpy as np


def forward(w: dict[str, np.ndarray], tokens: list[int]) -> dict[str, np.ndarray]:
    """Every intermediate of the decoder for one sentence, computed position by position."""
    T = len(tokens)
    X = np.stack([w["E"][t] + w["P"][i] for i, t in enumerate(tokens)])
    Q, K, V = X @ w["W_Q"], X @ w["W_K"], X @ w["W_V"]
    d_k = Q.shape[1]
    S = np.array([[Q[i] @ K[j] / np.sqrt(d_k) for j in range(T)] for i in range(T)])
    A = np.zeros((T, T))
    for i in range(T):
        visible = S[i, : i + 1]                  # keys 0..i only
        e = np.exp(visible - visible.max())
        A[i, : i + 1] = e / e.sum()
    Z = A @ V
    hidden = X + Z @ w["W_O"]
    ffn_hidden = np.maximum(0.0, hidden @ w["W1"] + w["b1"])
    y = hidden + ffn_hidden @ w["W2"] + w["b2"]
    logits = y @ w["W_U"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return dict(X=X, Q=Q, K=K, V=V, S=S, A=A, Z=Z, hidden=hidden,
                ffn_hidden=ffn_hidden, y=y, logits=logits, probs=probs)


def layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """(x - mean) / sqrt(var + eps) * gain + bias, row by row (biased variance, as torch)."""
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gain + bias


def rotate_pairs(x: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """RoPE written out: pair (x[i, 2k], x[i, 2k+1]) turned by the angle i * base^(-2k/d)."""
    T, d = x.shape
    out = np.empty_like(x)
    for i in range(T):
        for k in range(d // 2):
            a = i * base ** (-2 * k / d)
            c, s = np.cos(a), np.sin(a)
            out[i, 2 * k] = x[i, 2 * k] * c - x[i, 2 * k + 1] * s
            out[i, 2 * k + 1] = x[i, 2 * k] * s + x[i, 2 * k + 1] * c
    return out


def block_forward(w: dict[str, np.ndarray], X: np.ndarray, n_head: int, rope: bool, ln: bool,
                  head_mask=None) -> np.ndarray:
    """One transformer block on one sequence X (T, d), head by head and position by position."""
    T, d = X.shape
    norm1 = layer_norm(X, w["ln1.weight"], w["ln1.bias"]) if ln else X
    dk = w["W_Q"].shape[1] // n_head
    dv = w["W_V"].shape[1] // n_head
    Z = np.zeros((T, n_head * dv))
    for h in range(n_head):
        q = norm1 @ w["W_Q"][:, h * dk:(h + 1) * dk]
        k = norm1 @ w["W_K"][:, h * dk:(h + 1) * dk]
        v = norm1 @ w["W_V"][:, h * dv:(h + 1) * dv]
        if rope:
            q, k = rotate_pairs(q), rotate_pairs(k)
        for i in range(T):
            s = np.array([q[i] @ k[j] / np.sqrt(dk) for j in range(i + 1)])
            a = np.exp(s - s.max())
            a /= a.sum()
            keep = 1.0 if head_mask is None else head_mask[h]
            Z[i, h * dv:(h + 1) * dv] = keep * (a @ v[: i + 1])
    hidden = X + Z @ w["W_O"]
    norm2 = layer_norm(hidden, w["ln2.weight"], w["ln2.bias"]) if ln else hidden
    ffn = np.maximum(0.0, norm2 @ w["W1"] + w["b1"]) @ w["W2"] + w["b2"]
    return hidden + ffn

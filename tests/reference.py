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

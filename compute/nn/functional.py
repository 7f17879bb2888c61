"""The formulas of the lessons as plain functions: mask, scaled scores, stable softmax, ReLU, sliding windows."""
from __future__ import annotations

import math

import torch
from torch.nn import functional as F


def causal_mask(T: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """M: 0 on and below the diagonal, -inf above it, so position i never sees j > i."""
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    return torch.zeros(T, T, dtype=dtype).masked_fill(future, float("-inf"))  # (T, T)


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """S = Q K^T / sqrt(d_k): how well each query matches each key."""
    d_k = Q.shape[-1]
    return Q @ K.transpose(-2, -1) / math.sqrt(d_k)  # (..., T, T)


def softmax_rows(S: torch.Tensor) -> torch.Tensor:
    """Row-wise softmax with the row maximum subtracted first, so exp never overflows."""
    shifted = S - S.amax(dim=-1, keepdim=True)
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)


def relu(h: torch.Tensor) -> torch.Tensor:
    """max(0, h), entry by entry."""
    return torch.clamp(h, min=0.0)


def windows(x: torch.Tensor, w: int, fill: float = 0) -> torch.Tensor:
    """At each position the last w entries, oldest first, filled before the start: (B, T, ...) -> (B, T, w, ...).

    Token ids (B, T) give (B, T, w); rows (B, T, d) give (B, T, w, d)."""
    padded = F.pad(x, [0, 0] * (x.dim() - 2) + [w - 1, 0], value=fill)  # (B, T + w - 1, ...)
    return padded.unfold(1, w, 1).movedim(-1, 2)                        # (B, T, w, ...)

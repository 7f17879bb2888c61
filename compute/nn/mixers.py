"""Three ways to give every position a context of T tokens of width d: concatenate, average, attend.

Each mixer maps X (B, T, d) to one context row per position, causally, and can
write the context of one new token, with a cache of what it already read or
without one (reading everything again). compute/costs.py counts their work;
compute/measure/context.py times it.
"""
from __future__ import annotations

import torch
from torch import nn

from .attention import CausalSelfAttention, KVCache
from .functional import relu, windows


class ConcatMixer(nn.Module):
    """[x_{t-T+1}; ...; x_t] W1 -> ReLU -> W2: the last T rows side by side (zeros before the start)."""

    def __init__(self, d: int, T: int):
        super().__init__()
        self.T = T
        self.W1 = nn.Parameter(torch.randn(T * d, d) / (T * d) ** 0.5)
        self.b1 = nn.Parameter(torch.zeros(d))
        self.W2 = nn.Parameter(torch.randn(d, d) / d ** 0.5)
        self.b2 = nn.Parameter(torch.zeros(d))

    def windows(self, X: torch.Tensor) -> torch.Tensor:
        """(B, n, d) -> (B, n, T * d): at each position the last T rows side by side, oldest first."""
        B, n, d = X.shape
        return windows(X, self.T).reshape(B, n, self.T * d)

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return relu(self.windows(X) @ self.W1 + self.b1) @ self.W2 + self.b2

    def next_context(self, X: torch.Tensor, cache=None):
        """The newest position's context from the last T rows of X (nothing is worth caching)."""
        window = self.windows(X[:, -self.T:])[:, -1:]                  # (B, 1, T * d)
        return relu(window @ self.W1 + self.b1) @ self.W2 + self.b2, None


class AverageMixer(nn.Module):
    """The mean of every row so far, then one d x d projection: c_t = mean(x_1..x_t) W."""

    def __init__(self, d: int):
        super().__init__()
        self.W = nn.Parameter(torch.randn(d, d) / d ** 0.5)

    @staticmethod
    def matrix(T: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """The lower-triangular T x T averaging matrix: row t holds 1/t over positions 1..t.

        Built as written, it allocates three T x T arrays: the ones, their lower triangle, and that divided."""
        return torch.tril(torch.ones(T, T, dtype=dtype)) / torch.arange(1, T + 1, dtype=dtype)[:, None]

    def forward(self, X: torch.Tensor, means: torch.Tensor | None = None) -> torch.Tensor:
        """As a matrix product: the averaging matrix (built on every call unless `means` gives it) times X, then W."""
        if means is None:
            means = self.matrix(X.shape[1], X.dtype)
        return (means @ X) @ self.W

    def running_mean(self, X: torch.Tensor) -> torch.Tensor:
        """The same means as forward with no T x T matrix: a running sum of the rows, divided by the count."""
        T = X.shape[1]
        return (X.cumsum(1) / torch.arange(1, T + 1, dtype=X.dtype)[:, None]) @ self.W

    def next_context(self, X: torch.Tensor, cache=None):
        """With a cache (the running sum and count), one addition of d numbers; without, the mean of all rows."""
        if cache is None:
            T = X.shape[1]
            weights = torch.full((1, T), 1 / T, dtype=X.dtype)                # the mean as a row of 1/T
            return (weights @ X) @ self.W, None
        total, count = cache
        total, count = total + X[:, -1:], count + 1
        return (total / count) @ self.W, (total, count)


class AttentionMixer(nn.Module):
    """One causal attention head of width d (compute/nn/attention.py)."""

    def __init__(self, d: int, context: int):
        super().__init__()
        self.attn = CausalSelfAttention(d, 1, d, d)
        self.context = context
        with torch.no_grad():
            for p in self.attn.parameters():
                p.normal_(0, d ** -0.5)

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return self.attn(X)

    def next_context(self, X: torch.Tensor, cache: KVCache | None = None):
        """With a KV cache: the new token's q, k, v and one row of scores; without: the whole sequence again."""
        if cache is None:
            return self.attn(X)[:, -1:], None
        return self.attn.step(X[:, -1:], cache), cache

    def recomputed_context(self, X: torch.Tensor) -> torch.Tensor:
        """Without a cache, the least a new token needs: every key and value again, only its own query."""
        return self.attn.last(X)

    def new_cache(self, batch: int, dtype=torch.float32) -> KVCache:
        return self.attn.new_cache(batch, self.context, dtype)

"""Causal self-attention with n_head heads: Q = X W_Q, K = X W_K, V = X W_V, heads concatenated, then W_O."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .functional import causal_mask, scaled_scores, softmax_rows
from .rope import apply_rope, rope_angles


@dataclass
class AttentionTrace:
    """Every intermediate of one attention layer; shapes for a batch of B sequences of T tokens."""
    Q: torch.Tensor    # (B, n_head, T, d_k)  queries, after RoPE when it is on
    K: torch.Tensor    # (B, n_head, T, d_k)  keys, after RoPE when it is on
    V: torch.Tensor    # (B, n_head, T, d_v)
    S: torch.Tensor    # (B, n_head, T, T)  scaled scores before the mask
    M: torch.Tensor    # (T, T)  causal mask
    A: torch.Tensor    # (B, n_head, T, T)  attention weights
    Z: torch.Tensor    # (B, T, n_head * d_v)  every head's A V, side by side
    out: torch.Tensor  # (B, T, d_model)  Z W_O


@dataclass
class KVCache:
    """Keys and values of every position seen so far, for generation one token at a time.

    The buffers are allocated once for `capacity` positions and filled in place, so a new token
    costs one row of writes, not a copy of everything before it."""
    K: torch.Tensor  # (B, n_head, capacity, d_k); the first `length` positions hold keys
    V: torch.Tensor  # (B, n_head, capacity, d_v)
    length: int = 0

    def append(self, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Store the new positions' keys and values; return every key and value so far."""
        end = self.length + K.shape[2]
        if end > self.K.shape[2]:
            raise ValueError(f"the cache holds {self.K.shape[2]} positions, {end} were asked for")
        self.K[:, :, self.length:end] = K
        self.V[:, :, self.length:end] = V
        self.length = end
        return self.K[:, :, :end], self.V[:, :, :end]


class CausalSelfAttention(nn.Module):
    """Each head owns d_k columns of W_Q and W_K and d_v columns of W_V; W_O mixes the heads back."""

    def __init__(self, d_model: int, n_head: int, d_k: int, d_v: int, rope: bool = False,
                 rope_base: float = 10000.0):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.rope, self.rope_base = rope, rope_base
        self.W_Q = nn.Parameter(torch.zeros(d_model, n_head * d_k))  # head h: columns h*d_k .. (h+1)*d_k
        self.W_K = nn.Parameter(torch.zeros(d_model, n_head * d_k))
        self.W_V = nn.Parameter(torch.zeros(d_model, n_head * d_v))
        self.W_O = nn.Parameter(torch.zeros(n_head * d_v, d_model))

    def split_heads(self, X: torch.Tensor, d: int) -> torch.Tensor:
        """(B, T, n_head * d) -> (B, n_head, T, d)."""
        B, T, _ = X.shape
        return X.view(B, T, self.n_head, d).transpose(1, 2)

    def merge_heads(self, Z: torch.Tensor) -> torch.Tensor:
        """(B, n_head, T, d_v) -> (B, T, n_head * d_v): the heads' outputs concatenated."""
        B, _, T, _ = Z.shape
        return Z.transpose(1, 2).reshape(B, T, self.n_head * self.d_v)

    def project(self, X: torch.Tensor, start: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Per-head Q, K, V of X (B, T, d_model), positions numbered from `start` for RoPE."""
        Q = self.split_heads(X @ self.W_Q, self.d_k)   # (B, n_head, T, d_k)
        K = self.split_heads(X @ self.W_K, self.d_k)   # (B, n_head, T, d_k)
        V = self.split_heads(X @ self.W_V, self.d_v)   # (B, n_head, T, d_v)
        if self.rope:
            T = X.shape[1]
            cos, sin = rope_angles(torch.arange(start, start + T), self.d_k, self.rope_base)
            Q, K = apply_rope(Q, cos, sin), apply_rope(K, cos, sin)
        return Q, K, V

    def output(self, Z: torch.Tensor, head_mask: torch.Tensor | None) -> torch.Tensor:
        """Z (B, n_head, T, d_v) -> merged heads @ W_O; head_mask (n_head,) of 1/0 keeps or knocks out a head."""
        if head_mask is not None:
            Z = Z * head_mask.to(Z.dtype)[None, :, None, None]
        return self.merge_heads(Z) @ self.W_O

    def trace(self, X: torch.Tensor, head_mask: torch.Tensor | None = None) -> AttentionTrace:
        """The slow, explicit path: every intermediate kept, as the lessons print them."""
        Q, K, V = self.project(X)
        S = scaled_scores(Q, K)                        # (B, n_head, T, T)
        M = causal_mask(X.shape[1], dtype=S.dtype)     # (T, T)
        A = softmax_rows(S + M)                        # (B, n_head, T, T)
        Z = A @ V                                      # (B, n_head, T, d_v)
        out = self.output(Z, head_mask)                # (B, T, d_model)
        return AttentionTrace(Q, K, V, S, M, A, self.merge_heads(Z), out)

    def forward(self, X: torch.Tensor, head_mask: torch.Tensor | None = None) -> torch.Tensor:
        """The fast path (fused attention), equal to trace(X).out up to rounding: (B, T, d_model)."""
        Q, K, V = self.project(X)
        Z = F.scaled_dot_product_attention(Q, K, V, is_causal=True, scale=1 / math.sqrt(self.d_k))
        return self.output(Z, head_mask)

    def last(self, X: torch.Tensor) -> torch.Tensor:
        """The last position's output with nothing kept, doing only what it needs: every key and value of X
        (B, T, d_model) again, but only the last token's query and one row of scores: (B, 1, d_model)."""
        T = X.shape[1]
        Q = self.split_heads(X[:, -1:] @ self.W_Q, self.d_k)   # (B, n_head, 1, d_k)
        K = self.split_heads(X @ self.W_K, self.d_k)           # (B, n_head, T, d_k)
        V = self.split_heads(X @ self.W_V, self.d_v)           # (B, n_head, T, d_v)
        if self.rope:
            cos, sin = rope_angles(torch.arange(T), self.d_k, self.rope_base)
            Q, K = apply_rope(Q, cos[-1:], sin[-1:]), apply_rope(K, cos, sin)
        Z = F.scaled_dot_product_attention(Q, K, V, scale=1 / math.sqrt(self.d_k))  # the last row sees every key
        return self.output(Z, None)

    def new_cache(self, batch: int, capacity: int, dtype: torch.dtype = torch.float32) -> KVCache:
        return KVCache(torch.zeros(batch, self.n_head, capacity, self.d_k, dtype=dtype),
                       torch.zeros(batch, self.n_head, capacity, self.d_v, dtype=dtype))

    def step(self, X: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Attend from new tokens X (B, T_new, d_model) over the cached keys and values plus their own.

        Generation calls this once per token: only the new token's query, key and value are computed;
        earlier keys and values come from the cache, which this call extends."""
        Q, K, V = self.project(X, cache.length)          # (B, n_head, T_new, d), RoPE from the right position
        K, V = cache.append(K, V)                        # (B, n_head, length, d)
        T_new, T_all = Q.shape[2], K.shape[2]
        future = torch.ones(T_new, T_all, dtype=torch.bool).triu(diagonal=T_all - T_new + 1)
        Z = F.scaled_dot_product_attention(Q, K, V, attn_mask=~future, scale=1 / math.sqrt(self.d_k))
        return self.output(Z, None)

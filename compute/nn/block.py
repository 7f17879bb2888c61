"""One transformer block: x + attention(LN(x)), then + FFN(LN(.)); LayerNorm and RoPE optional."""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from .attention import AttentionTrace, CausalSelfAttention, KVCache
from .feedforward import FeedForward


@dataclass(frozen=True)
class BlockConfig:
    d_model: int             # width of every token vector
    n_head: int = 1          # attention heads
    d_k: int | None = None   # query/key width per head (default d_model / n_head)
    d_v: int | None = None   # value width per head (default d_model / n_head)
    d_ff: int = 0            # hidden units of the FFN (default 4 d_model)
    layer_norm: bool = False # pre-LayerNorm before attention and before the FFN
    rope: bool = False       # rotary position embedding on queries and keys

    def head_widths(self) -> tuple[int, int]:
        per_head = self.d_model // self.n_head
        return self.d_k or per_head, self.d_v or per_head


@dataclass
class BlockTrace:
    attention: AttentionTrace
    hidden: torch.Tensor      # (B, T, d_model)  x + attention
    ffn_hidden: torch.Tensor  # (B, T, d_ff)  ReLU units
    y: torch.Tensor           # (B, T, d_model)  hidden + FFN


class Block(nn.Module):
    def __init__(self, cfg: BlockConfig):
        super().__init__()
        d_k, d_v = cfg.head_widths()
        self.ln1 = nn.LayerNorm(cfg.d_model) if cfg.layer_norm else nn.Identity()
        self.attn = CausalSelfAttention(cfg.d_model, cfg.n_head, d_k, d_v, rope=cfg.rope)
        self.ln2 = nn.LayerNorm(cfg.d_model) if cfg.layer_norm else nn.Identity()
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff or 4 * cfg.d_model)

    def feed_forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x + FFN(LN(x)) (B, T, d_model), and the FFN's hidden units (B, T, d_ff): the one place it is written."""
        h = self.ffn.hidden(self.ln2(x))
        return self.ffn(x, h), h

    def trace(self, x: torch.Tensor, head_mask: torch.Tensor | None = None) -> BlockTrace:
        att = self.attn.trace(self.ln1(x), head_mask)
        hidden = x + att.out                          # (B, T, d_model)
        y, ffn_hidden = self.feed_forward(hidden)     # (B, T, d_model), (B, T, d_ff)
        return BlockTrace(att, hidden, ffn_hidden, y)

    def forward(self, x: torch.Tensor, head_mask: torch.Tensor | None = None) -> torch.Tensor:
        return self.feed_forward(x + self.attn(self.ln1(x), head_mask))[0]

    def step(self, x: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """forward() for new tokens only, reading earlier positions from the cache (and extending it)."""
        return self.feed_forward(x + self.attn.step(self.ln1(x), cache))[0]

"""The one transformer of every lesson: E[token] (+ P) -> n_layer blocks -> (LayerNorm) -> W_U.

The walkthrough (one one-head block of width 6, learned positions, no LayerNorm) and Part III's
one- and four-head story models (pre-LayerNorm, rotary positions) are presets of this class:
`compute.models.walkthrough.CONFIG` and `compute.models.story.preset`.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from ..nn.attention import AttentionTrace, KVCache
from ..nn.block import Block, BlockConfig, BlockTrace


@dataclass(frozen=True)
class DecoderConfig:
    vocab_size: int            # rows of E, columns of W_U
    context: int               # longest input (rows of P when positions are learned)
    d_model: int               # width of every token vector
    n_layer: int = 1           # transformer blocks
    n_head: int = 1            # heads per block
    d_k: int | None = None     # query/key width per head (default d_model / n_head)
    d_v: int | None = None     # value width per head (default d_model / n_head)
    d_ff: int = 0              # FFN hidden units (default 4 d_model)
    layer_norm: bool = False   # pre-LayerNorm in each block, and before W_U
    rope: bool = False         # rotary positions; otherwise learned position rows P

    def block(self) -> BlockConfig:
        return BlockConfig(self.d_model, n_head=self.n_head, d_k=self.d_k, d_v=self.d_v, d_ff=self.d_ff,
                           layer_norm=self.layer_norm, rope=self.rope)


@dataclass
class DecoderTrace:
    """Every intermediate of one pass, for the lessons' matrices and heatmaps."""
    X: torch.Tensor            # (B, T, d_model)  E[token] (+ P)
    blocks: list[BlockTrace]   # one per layer
    logits: torch.Tensor       # (B, T, vocab)

    @property
    def attention(self) -> list[AttentionTrace]:
        return [b.attention for b in self.blocks]


class Decoder(nn.Module):
    def __init__(self, cfg: DecoderConfig):
        super().__init__()
        self.cfg = cfg
        self.E = nn.Parameter(torch.zeros(cfg.vocab_size, cfg.d_model))
        self.P = None if cfg.rope else nn.Parameter(torch.zeros(cfg.context, cfg.d_model))
        self.blocks = nn.ModuleList(Block(cfg.block()) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.d_model) if cfg.layer_norm else nn.Identity()
        self.W_U = nn.Parameter(torch.zeros(cfg.d_model, cfg.vocab_size))

    def embed(self, tokens: torch.Tensor, start: int = 0) -> torch.Tensor:
        """E[token] (+ P[position]) for tokens at positions start, start + 1, ...: (B, T, d_model)."""
        X = self.E[tokens]
        if self.P is not None:
            X = X + self.P[start:start + tokens.shape[1]]
        return X

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_model) -> next-token logits (B, T, vocab)."""
        return self.ln_f(x) @ self.W_U

    def forward(self, tokens: torch.Tensor, head_mask: torch.Tensor | None = None) -> torch.Tensor:
        """The fast path (fused attention): logits (B, T, vocab); head_mask (n_layer, n_head) of 1/0 knocks heads out."""
        x = self.embed(tokens)
        for layer, block in enumerate(self.blocks):
            x = block(x, None if head_mask is None else head_mask[layer])
        return self.unembed(x)

    def trace(self, tokens: torch.Tensor) -> DecoderTrace:
        """The slow, explicit path, keeping every intermediate (the formulas as the lessons print them)."""
        X = x = self.embed(tokens)
        blocks = []
        for block in self.blocks:
            blocks.append(block.trace(x))
            x = blocks[-1].y
        return DecoderTrace(X, blocks, self.unembed(x))

    def next_logits(self, tokens: torch.Tensor) -> torch.Tensor:
        """The next token's logits after each row of tokens (B, T) -> (B, vocab), with no cache: every position again."""
        return self(tokens)[:, -1]

    def new_caches(self, batch: int) -> list[KVCache]:
        """Empty key/value caches for every layer, room for the whole context."""
        return [block.attn.new_cache(batch, self.cfg.context, self.E.dtype) for block in self.blocks]

    def step(self, tokens: torch.Tensor, caches: list[KVCache]) -> torch.Tensor:
        """Logits for new tokens (B, T_new), reading and extending every layer's cache of the tokens before."""
        x = self.embed(tokens, caches[0].length)
        for block, cache in zip(self.blocks, caches):
            x = block.step(x, cache)
        return self.unembed(x)

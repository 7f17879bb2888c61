"""The walkthrough model: embeddings + positions, one one-head block without LayerNorm, then W_U.

Every weight is stored in the row-vector convention of the lesson: a token
vector x is a row and a projection is x @ W. The checkpoint names each tensor
by the lesson's symbol (E, P, W_Q, ..., W_U).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields

import torch
from torch import nn

from ..nn.block import Block, BlockConfig
from ..nn.functional import softmax_rows


@dataclass(frozen=True)
class DecoderConfig:
    vocab_size: int = 9    # words in the vocabulary (rows of E, columns of W_U)
    n_positions: int = 14  # longest input: a 15-word sentence minus its last word
    d_model: int = 6       # width of every token vector x_i
    d_k: int = 6           # width of queries and keys
    d_v: int = 6           # width of values, and of z_i
    d_ff: int = 12         # hidden units of the feed-forward network

    def block(self) -> BlockConfig:
        return BlockConfig(self.d_model, n_head=1, d_k=self.d_k, d_v=self.d_v, d_ff=self.d_ff)


def parameter_shapes(cfg: DecoderConfig) -> dict[str, tuple[int, ...]]:
    """Name -> shape of every trained tensor, in the order the lesson meets them."""
    return {
        "E": (cfg.vocab_size, cfg.d_model),
        "P": (cfg.n_positions, cfg.d_model),
        "W_Q": (cfg.d_model, cfg.d_k),
        "W_K": (cfg.d_model, cfg.d_k),
        "W_V": (cfg.d_model, cfg.d_v),
        "W_O": (cfg.d_v, cfg.d_model),
        "W1": (cfg.d_model, cfg.d_ff),
        "b1": (cfg.d_ff,),
        "W2": (cfg.d_ff, cfg.d_model),
        "b2": (cfg.d_model,),
        "W_U": (cfg.d_model, cfg.vocab_size),
    }


@dataclass
class Trace:
    """Every intermediate of one forward pass; shapes for B sentences of T inputs."""
    X: torch.Tensor       # (B, T, d_model)  E[token] + P
    Q: torch.Tensor       # (B, T, d_k)
    K: torch.Tensor       # (B, T, d_k)
    V: torch.Tensor       # (B, T, d_v)
    S: torch.Tensor       # (B, T, T)  scaled scores before the mask
    M: torch.Tensor       # (T, T)  causal mask
    A: torch.Tensor       # (B, T, T)  attention weights
    Z: torch.Tensor       # (B, T, d_v)  A @ V
    hidden: torch.Tensor  # (B, T, d_model)  X + Z @ W_O
    ffn_hidden: torch.Tensor  # (B, T, d_ff)  ReLU(hidden @ W1 + b1)
    y: torch.Tensor       # (B, T, d_model)  hidden + FFN(hidden)
    logits: torch.Tensor  # (B, T, vocab)  y @ W_U
    probs: torch.Tensor   # (B, T, vocab)

    def as_dict(self) -> dict[str, torch.Tensor]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class Decoder(nn.Module):
    """Embed (+ position) -> project -> score (+ scale) -> mask -> normalize -> mix -> output."""

    def __init__(self, cfg: DecoderConfig = DecoderConfig()):
        super().__init__()
        self.cfg = cfg
        self.E = nn.Parameter(torch.zeros(cfg.vocab_size, cfg.d_model))
        self.P = nn.Parameter(torch.zeros(cfg.n_positions, cfg.d_model))
        self.block = Block(cfg.block())
        self.W_U = nn.Parameter(torch.zeros(cfg.d_model, cfg.vocab_size))

    def named_tensors(self) -> dict[str, nn.Parameter]:
        """The parameters by the lesson's symbol (block.attn.W_Q -> W_Q): the checkpoint's names."""
        return {name.rsplit(".", 1)[-1]: p for name, p in self.named_parameters()}

    @torch.no_grad()
    def init_weights(self, generator: torch.Generator, scale: float = 0.5) -> None:
        """Embeddings ~ N(0, scale^2); matrices ~ N(0, scale^2 / fan_in); biases zero."""
        for name, p in self.named_tensors().items():
            if name in ("E", "P"):
                p.normal_(0.0, scale, generator=generator)
            elif p.dim() == 2:
                p.normal_(0.0, scale / math.sqrt(p.shape[0]), generator=generator)
            else:
                p.zero_()

    def trace(self, tokens: torch.Tensor) -> Trace:
        """Run the model on token ids (B, T), keeping every intermediate (the one head squeezed out)."""
        T = tokens.shape[-1]
        X = self.E[tokens] + self.P[:T]              # (B, T, d_model)
        b = self.block.trace(X)
        a = b.attention
        logits = b.y @ self.W_U                      # (B, T, vocab)
        probs = softmax_rows(logits)                 # (B, T, vocab)
        head = (a.Q[:, 0], a.K[:, 0], a.V[:, 0], a.S[:, 0], a.M, a.A[:, 0])
        return Trace(X, *head, a.Z, b.hidden, b.ffn_hidden, b.y, logits, probs)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Next-token logits for every position: (B, T) -> (B, T, vocab)."""
        return self.trace(tokens).logits

    def weights(self) -> dict[str, torch.Tensor]:
        """The trained tensors by name, detached (the checkpoint's contents)."""
        return {name: p.detach().clone() for name, p in self.named_tensors().items()}

    @classmethod
    def from_weights(cls, weights: dict[str, torch.Tensor], cfg: DecoderConfig = DecoderConfig(),
                     dtype: torch.dtype = torch.float64) -> "Decoder":
        """A model holding these tensors (cast to dtype; float64 for printed values)."""
        model = cls(cfg).to(dtype)
        with torch.no_grad():
            for name, p in model.named_tensors().items():
                p.copy_(weights[name].to(dtype))
        return model

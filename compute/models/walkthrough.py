"""The walkthrough model: the decoder with embeddings + positions, one one-head block without LayerNorm, then W_U.

Every weight is stored in the row-vector convention of the lesson: a token
vector x is a row and a projection is x @ W. The checkpoint names each tensor
by the lesson's symbol (E, P, W_Q, ..., W_U).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields

import torch
from torch import nn

from ..nn.functional import softmax_rows
from .decoder import Decoder, DecoderConfig


# The walkthrough's preset of the one decoder: 9 words, 14 positions, width 6, one one-head block, no LayerNorm.
CONFIG = DecoderConfig(vocab_size=9, context=14, d_model=6, d_k=6, d_v=6, d_ff=12)


def parameter_shapes(cfg: DecoderConfig = CONFIG) -> dict[str, tuple[int, ...]]:
    """Name -> shape of every trained tensor, in the order the lesson meets them."""
    return {
        "E": (cfg.vocab_size, cfg.d_model),
        "P": (cfg.context, cfg.d_model),
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


def build(cfg: DecoderConfig = CONFIG) -> Decoder:
    return Decoder(cfg)


def named_tensors(model: Decoder) -> dict[str, nn.Parameter]:
    """The parameters by the lesson's symbol (blocks.0.attn.W_Q -> W_Q): the checkpoint's names."""
    return {name.rsplit(".", 1)[-1]: p for name, p in model.named_parameters()}


@torch.no_grad()
def init_weights(model: Decoder, generator: torch.Generator, scale: float = 0.5) -> None:
    """Embeddings ~ N(0, scale^2); matrices ~ N(0, scale^2 / fan_in); biases zero."""
    for name, p in named_tensors(model).items():
        if name in ("E", "P"):
            p.normal_(0.0, scale, generator=generator)
        elif p.dim() == 2:
            p.normal_(0.0, scale / math.sqrt(p.shape[0]), generator=generator)
        else:
            p.zero_()


def trace(model: Decoder, tokens: torch.Tensor) -> Trace:
    """Run the model on token ids (B, T), keeping every intermediate (its one block, its one head squeezed out)."""
    tr = model.trace(tokens)
    (b,) = tr.blocks
    a = b.attention
    head = (a.Q[:, 0], a.K[:, 0], a.V[:, 0], a.S[:, 0], a.M, a.A[:, 0])
    return Trace(tr.X, *head, a.Z, b.hidden, b.ffn_hidden, b.y, tr.logits, softmax_rows(tr.logits))


def logits(model: Decoder, tokens: torch.Tensor) -> torch.Tensor:
    """Next-token logits for every position by the explicit path the lesson prints (training uses it): (B, T, vocab)."""
    return model.trace(tokens).logits


def weights(model: Decoder) -> dict[str, torch.Tensor]:
    """The trained tensors by name, detached (the checkpoint's contents)."""
    return {name: p.detach().clone() for name, p in named_tensors(model).items()}


def from_weights(weights: dict[str, torch.Tensor], cfg: DecoderConfig = CONFIG,
                 dtype: torch.dtype = torch.float64) -> Decoder:
    """A model holding these tensors (cast to dtype; float64 for printed values)."""
    model = Decoder(cfg).to(dtype)
    with torch.no_grad():
        for name, p in named_tensors(model).items():
            p.copy_(weights[name].to(dtype))
    return model

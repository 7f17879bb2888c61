"""The three story models of Part III: an MLP over a window of 8 tokens, a one-head and a four-head transformer.

All three read token ids (B, T) and return next-token logits (B, T, vocab) for
every position, so training, evaluation and generation treat them alike. The two
transformers are presets of the one decoder (compute/models/decoder.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from ..nn.functional import relu, windows
from .decoder import Decoder, DecoderConfig

KINDS = ("mlp", "one-head", "four-head")


@dataclass(frozen=True)
class StoryModelConfig:
    kind: str                  # one of KINDS
    vocab_size: int            # rows of E, columns of W_U
    d_model: int = 64          # width of every token vector
    context: int = 256         # longest input the model reads (the MLP reads only its window)
    n_layer: int = 1           # transformer blocks
    n_head: int = 1            # heads per block
    d_ff: int = 256            # FFN hidden units (transformers) or MLP hidden units
    window: int = 8            # MLP: how many previous tokens it concatenates
    layer_norm: bool = False   # pre-LayerNorm in each block, and before W_U
    rope: bool = False         # rotary positions; otherwise learned position rows P

    def __post_init__(self):
        """ValueError with one sentence for a config no model can have (n_head = 0, a width heads cannot split)."""
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        for name in ("vocab_size", "d_model", "context", "n_layer", "n_head", "d_ff", "window"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {v!r}")
        for name in ("layer_norm", "rope"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.d_model % self.n_head:
            raise ValueError(f"d_model {self.d_model} does not split into {self.n_head} heads")
        if self.rope and (self.d_model // self.n_head) % 2:
            raise ValueError(f"rotary positions need an even head width, not {self.d_model // self.n_head}")

    def decoder(self) -> DecoderConfig:
        """A transformer kind's decoder (the MLP has none)."""
        return DecoderConfig(self.vocab_size, self.context, self.d_model, n_layer=self.n_layer, n_head=self.n_head,
                             d_ff=self.d_ff, layer_norm=self.layer_norm, rope=self.rope)


def preset(kind: str, vocab_size: int) -> StoryModelConfig:
    """The lesson's three models, sized as in the comparison (about 300k, 130k and 320k parameters)."""
    presets = {
        "mlp": dict(d_model=64, d_ff=256, window=8),
        "one-head": dict(d_model=64, n_layer=1, n_head=1, d_ff=256, layer_norm=True, rope=True),
        "four-head": dict(d_model=96, n_layer=2, n_head=4, d_ff=384, layer_norm=True, rope=True),
    }
    if kind not in presets:
        raise ValueError(f"model must be one of {', '.join(KINDS)}, got {kind!r}")
    return StoryModelConfig(kind=kind, vocab_size=vocab_size, **presets[kind])


class WindowMLP(nn.Module):
    """Concatenate the embeddings of the last `window` tokens, one hidden ReLU layer, then vocabulary scores."""

    def __init__(self, cfg: StoryModelConfig):
        super().__init__()
        self.cfg = cfg
        self.E = nn.Parameter(torch.zeros(cfg.vocab_size, cfg.d_model))
        self.W1 = nn.Parameter(torch.zeros(cfg.window * cfg.d_model, cfg.d_ff))
        self.b1 = nn.Parameter(torch.zeros(cfg.d_ff))
        self.W2 = nn.Parameter(torch.zeros(cfg.d_ff, cfg.vocab_size))
        self.b2 = nn.Parameter(torch.zeros(cfg.vocab_size))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        B, T = tokens.shape
        x = self.E[windows(tokens, self.cfg.window)].reshape(B, T, -1)  # (B, T, window * d_model), <eos> before the start
        return relu(x @ self.W1 + self.b1) @ self.W2 + self.b2           # (B, T, vocab)

    def next_logits(self, tokens: torch.Tensor) -> torch.Tensor:
        """The next token's logits after each row of tokens (B, T) -> (B, vocab): only the last window is read."""
        return self(tokens[:, -self.cfg.window:])[:, -1]


def build(cfg: StoryModelConfig) -> WindowMLP | Decoder:
    return WindowMLP(cfg) if cfg.kind == "mlp" else Decoder(cfg.decoder())


@torch.no_grad()
def init_weights(model: nn.Module, generator: torch.Generator) -> None:
    """Embedding rows ~ N(0, 1/d_model); matrices ~ N(0, 1/fan_in); biases 0; LayerNorm gains 1, biases 0."""
    for name, p in model.named_parameters():
        last = name.rsplit(".", 1)[-1]
        if name.startswith("ln") or ".ln" in name:
            p.fill_(1.0 if last == "weight" else 0.0)
        elif last in ("E", "P"):
            p.normal_(0.0, 1 / math.sqrt(p.shape[1]), generator=generator)
        elif p.dim() == 2:
            p.normal_(0.0, 1 / math.sqrt(p.shape[0]), generator=generator)
        else:
            p.zero_()


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())

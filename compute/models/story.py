"""The three story models of Part III: an MLP over a window of 8 tokens, a one-head and a four-head transformer.

All three read token ids (B, T) and return next-token logits (B, T, vocab) for
every position, so training, evaluation and generation treat them alike.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
from torch import nn

from ..nn.attention import AttentionTrace, KVCache
from ..nn.block import Block, BlockConfig
from ..nn.functional import relu

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

    def block(self) -> BlockConfig:
        return BlockConfig(self.d_model, n_head=self.n_head, d_ff=self.d_ff, layer_norm=self.layer_norm,
                           rope=self.rope)


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

    def windows(self, tokens: torch.Tensor) -> torch.Tensor:
        """(B, T) -> (B, T, window): at each position the last `window` tokens, padded with id 0 (<eos>)."""
        w = self.cfg.window
        padded = nn.functional.pad(tokens, (w - 1, 0), value=0)  # (B, T + w - 1)
        return padded.unfold(1, w, 1)                            # (B, T, w), oldest first

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        B, T = tokens.shape
        x = self.E[self.windows(tokens)].reshape(B, T, -1)       # (B, T, window * d_model)
        return relu(x @ self.W1 + self.b1) @ self.W2 + self.b2   # (B, T, vocab)


@dataclass
class StoryTrace:
    attention: list[AttentionTrace] = field(default_factory=list)  # one per layer
    logits: torch.Tensor | None = None                              # (B, T, vocab)


class StoryTransformer(nn.Module):
    """E (+ P) -> n_layer blocks -> (LayerNorm) -> W_U."""

    def __init__(self, cfg: StoryModelConfig):
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

    def forward(self, tokens: torch.Tensor, head_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Next-token logits (B, T, vocab); head_mask (n_layer, n_head) of 1/0 knocks heads out."""
        x = self.embed(tokens)
        for layer, block in enumerate(self.blocks):
            x = block(x, None if head_mask is None else head_mask[layer])
        return self.ln_f(x) @ self.W_U

    def trace(self, tokens: torch.Tensor) -> StoryTrace:
        """The slow path, keeping every layer's attention (for the lesson's heatmaps and head roles)."""
        out = StoryTrace()
        x = self.embed(tokens)
        for block in self.blocks:
            bt = block.trace(x)
            out.attention.append(bt.attention)
            x = bt.y
        out.logits = self.ln_f(x) @ self.W_U
        return out

    def new_caches(self, batch: int) -> list[KVCache]:
        """Empty key/value caches for every layer, room for the whole context."""
        return [block.attn.new_cache(batch, self.cfg.context, self.E.dtype) for block in self.blocks]

    def step(self, tokens: torch.Tensor, caches: list[KVCache]) -> torch.Tensor:
        """Logits for new tokens (B, T_new), reading and extending every layer's cache of the tokens before."""
        x = self.embed(tokens, caches[0].length)
        for block, cache in zip(self.blocks, caches):
            x = block.step(x, cache)
        return self.ln_f(x) @ self.W_U


def build(cfg: StoryModelConfig) -> nn.Module:
    return WindowMLP(cfg) if cfg.kind == "mlp" else StoryTransformer(cfg)


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

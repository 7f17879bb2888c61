"""One prediction read apart, the instruments of the live box (Python is the reference _static/generate/ is checked
against): what each head, each MLP and the embedding writes into the residual stream; the next-word logits as read
after each layer (the final LayerNorm and W_U applied to the stream there); the direct logit attribution of a word
to every part; and a head's output patched in from another prompt.

For a pre-LayerNorm decoder the stream at position t after the last block is a sum of parts,

    x_t = E[token_t] + sum over layers l of ( sum over heads h of z_{l,h} W_O^{(h)} + MLP_l ),

and the final LayerNorm is (x - mean(x)) / s * g + b with s = sqrt(var(x) + eps). With s frozen at the position
(as is usual), each part c pushes word j's logit by ((c - mean(c)) / s * g) @ W_U[:, j], and the LayerNorm's bias
adds b @ W_U[:, j]: together exactly the logit.

    r = read(model, ids, silenced={(0, 1)}, patch=Patch((0, 1), other_ids))
    attribution(model, r, position=-1, word=7)   # {"embedding": ..., "L1 H1": ..., ..., "final LayerNorm bias": ...}
    layer_logits(model, r, position=-1)          # (n_layer + 1, vocab)
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from .decoder import Decoder

BIAS = "final LayerNorm bias"


@dataclass(frozen=True)
class Patch:
    """Head `head` (layer, head), at the last position, writes what it wrote at the last position of `source`."""
    head: tuple[int, int]
    source: tuple[int, ...]     # token ids of the other prompt


@dataclass
class Reading:
    names: list[str]            # "embedding", "L1 H1" ... "L1 MLP", ..., in the order they are added
    parts: torch.Tensor         # (n_parts, T, d_model): what each writes into the residual stream
    streams: torch.Tensor       # (n_layer + 1, T, d_model): the stream after the embedding and after each block
    logits: torch.Tensor        # (T, vocab): the model's own


def part_names(model: Decoder) -> list[str]:
    cfg = model.cfg
    heads = lambda l: [f"L{l + 1} H{h + 1}" for h in range(cfg.n_head)]  # noqa: E731
    return ["embedding"] + [name for l in range(cfg.n_layer) for name in heads(l) + [f"L{l + 1} MLP"]]


def _check(model: Decoder) -> None:
    if not (model.cfg.layer_norm and model.cfg.rope):
        raise ValueError("the readout takes pre-LayerNorm models with rotary positions (Part III's story models)")


@torch.no_grad()
def head_output(model: Decoder, ids: list[int] | tuple[int, ...], head: tuple[int, int]) -> torch.Tensor:
    """z = A V of head (layer, head) at the last position of ids: (d_v,), what a Patch carries. ids longer than the
    context are read as a prompt is, their last context - 1 (the page's run.js, inContext)."""
    return _run(model, in_context(ids, model.cfg.context), frozenset(), None, keep=head)


def in_context(ids: list[int] | tuple[int, ...], context: int) -> list[int]:
    """ids (<eos> first) as a prompt is read: longer than the context, their last context - 1 (run.js, inContext)."""
    ids = list(ids)
    return ids[len(ids) - context + 1:] if len(ids) > context else ids


@torch.no_grad()
def read(model: Decoder, ids: list[int], silenced: set[tuple[int, int]] | frozenset = frozenset(),
         patch: Patch | None = None) -> Reading:
    """Every part of every position's residual stream for ids, with heads silenced (their output zeroed, as
    head_mask does) and one head's output at the last position patched in from another prompt."""
    z = None if patch is None else head_output(model, patch.source, patch.head)
    return _run(model, ids, frozenset(silenced), None if patch is None else (patch.head, z))


def _run(model, ids, silenced, patch, keep=None):
    _check(model)
    cfg = model.cfg
    x = model.embed(torch.tensor([ids]))[0]                      # (T, d_model)
    parts, streams = [x], [x]
    for l, block in enumerate(model.blocks):
        att = block.attn.trace(block.ln1(x)[None])
        d_v = block.attn.d_v
        Z = att.Z[0].clone()                                     # (T, n_head * d_v): every head's A V
        if keep is not None and keep[0] == l:
            return Z[-1, keep[1] * d_v:(keep[1] + 1) * d_v]
        for h in range(cfg.n_head):
            cols = slice(h * d_v, (h + 1) * d_v)
            if (l, h) in silenced:
                Z[:, cols] = 0.0
            if patch is not None and patch[0] == (l, h):
                Z[-1, cols] = patch[1]
            parts.append(Z[:, cols] @ block.attn.W_O[cols])     # (T, d_model): this head's write
        x = x + sum(parts[-cfg.n_head:])
        y, _ = block.feed_forward(x)
        parts.append(y - x)                                      # (T, d_model): the MLP's write
        x = y
        streams.append(x)
    return Reading(part_names(model), torch.stack(parts), torch.stack(streams), model.unembed(x))


@torch.no_grad()
def attribution(model: Decoder, r: Reading, position: int, word: int) -> dict[str, float]:
    """How much each part pushes `word`'s logit at `position` (direct, the final LayerNorm's scale frozen there),
    and the LayerNorm's bias: the values add up to r.logits[position, word]."""
    ln = model.ln_f
    x = r.streams[-1, position]                                  # (d_model,)
    s = torch.sqrt(x.var(unbiased=False) + ln.eps)
    column = model.W_U[:, word]                                  # (d_model,)
    c = r.parts[:, position]                                     # (n_parts, d_model)
    pushes = ((c - c.mean(-1, keepdim=True)) / s * ln.weight) @ column
    out = {name: float(v) for name, v in zip(r.names, pushes)}
    out[BIAS] = float(ln.bias @ column)
    return out


@torch.no_grad()
def layer_logits(model: Decoder, r: Reading, position: int) -> torch.Tensor:
    """The next-word logits read from the stream after the embedding and after each block: (n_layer + 1, vocab)."""
    return model.unembed(r.streams[:, position])

"""The circuit across layers: how much a first-layer head feeds a second-layer head, and through which input.

A first-layer head h writes z_h W_O^h into the residual stream; a second-layer head g reads the stream through the
block's LayerNorm and its own W_Q^g, W_K^g and W_V^g. With row vectors, what h writes for an input row x is
x W_OV^h, W_OV^h = W_V^h W_O^h (d_model x d_model), and g reads a row r of the stream as LN(r) W_Q^g. The
LayerNorm subtracts the row's mean and multiplies by its gain gamma (its scale 1/s is one number per row, and its
bias does not depend on r), so the matrix through which g reads what h wrote is

    R_Q^g = C diag(gamma) W_Q^g,     C = I - 1 1^T / d_model   (the mean taken out),

and likewise R_K^g and R_V^g. The composition scores of the circuits literature (Elhage et al., 2021) compare the
product of the two with the product of their sizes:

    Q-composition(h, g) = ||W_OV^h R_Q^g||_F / (||W_OV^h||_F ||R_Q^g||_F)

(K and V the same with R_K^g, R_V^g): 0 when what h writes lies where g does not read, 1 at most.

Measured on a story instead of the weights: h's write at each position, read through g's LayerNorm as that
position's stream sets it (its scale frozen), is the part of g's query (key, value) that h put there; its size
as a share of the sizes of every part's (the embedding's, each first-layer head's, the first MLP's) is h's share.

Path patching: h's write at every position taken from a second story (where the two differ, a renamed friend)
into g's queries, keys or values only: g's other inputs, the other heads of its layer and the first MLP read the
story as it is. What the chosen word's probability and g's attention do then is what g needs from h by that input.

    composition(model)                                   # {"Q": (n_head, n_head), "K": ..., "V": ...}
    composition_on(model, ids)                           # the same, measured on the story's activations
    path_patch(model, ids, source, sender=1, receiver=2, via="K")   # PathPatch(probs, attention)
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from . import paths
from .decoder import Decoder
from .readout import in_context

INPUTS = ("Q", "K", "V")


def _check(model: Decoder) -> None:
    if model.cfg.n_layer < 2 or not model.cfg.layer_norm:
        raise ValueError("the circuit across layers takes a pre-LayerNorm model of two layers or more")


def _columns(n: int, width: int, h: int) -> slice:
    return slice(h * width, (h + 1) * width)


def writes_matrices(model: Decoder) -> torch.Tensor:
    """W_OV^h = W_V^h W_O^h of every first-layer head: (n_head, d_model, d_model)."""
    attn = model.blocks[0].attn
    return torch.stack([attn.W_V[:, _columns(attn.n_head, attn.d_v, h)] @ attn.W_O[_columns(attn.n_head, attn.d_v, h)]
                        for h in range(attn.n_head)])


def reading_matrices(model: Decoder, via: str) -> torch.Tensor:
    """R^g = C diag(gamma) W^g for every second-layer head g, W the input `via` reads (Q, K or V):
    (n_head, d_model, d_k or d_v)."""
    block = model.blocks[1]
    attn, d = block.attn, model.cfg.d_model
    W = {"Q": attn.W_Q, "K": attn.W_K, "V": attn.W_V}[via]
    width = attn.d_v if via == "V" else attn.d_k
    C = torch.eye(d, dtype=W.dtype) - 1.0 / d                          # (d_model, d_model): the mean taken out
    R = C @ torch.diag(block.ln1.weight) @ W                            # (d_model, n_head * width)
    return torch.stack([R[:, _columns(attn.n_head, width, g)] for g in range(attn.n_head)])


@torch.no_grad()
def composition(model: Decoder) -> dict[str, torch.Tensor]:
    """The Q-, K- and V-composition scores of every first-layer head (rows) with every second-layer head
    (columns): {"Q": (n_head, n_head), ...}."""
    _check(model)
    OV = writes_matrices(model).double()                                # (H, d, d)
    out = {}
    for via in INPUTS:
        R = reading_matrices(model, via).double()                       # (G, d, w)
        both = torch.einsum("hij,gjk->hgik", OV, R)                     # (H, G, d, w)
        out[via] = (torch.linalg.matrix_norm(both)
                    / (torch.linalg.matrix_norm(OV)[:, None] * torch.linalg.matrix_norm(R)[None, :])).float()
    return out


@dataclass
class FirstLayer:
    """The stream as the second layer reads it, and what each part of the first layer put there."""
    X: torch.Tensor            # (T, d_model) the embedding
    writes: torch.Tensor       # (n_head, T, d_model) each first-layer head's write
    mlp: torch.Tensor          # (T, d_model) the first MLP's write
    stream: torch.Tensor       # (T, d_model) the stream after the first block


def first_layer(model: Decoder, ids: list[int]) -> FirstLayer:
    block = model.blocks[0]
    attn = block.attn
    X = model.embed(torch.tensor([ids]))[0]                             # (T, d_model)
    Z = attn.trace(block.ln1(X)[None]).Z[0]                             # (T, n_head * d_v)
    writes = torch.stack([Z[:, _columns(attn.n_head, attn.d_v, h)] @ attn.W_O[_columns(attn.n_head, attn.d_v, h)]
                          for h in range(attn.n_head)])                 # (n_head, T, d_model)
    mid = X + writes.sum(0)
    after, _ = block.feed_forward(mid)
    return FirstLayer(X, writes, after - mid, after)


@torch.no_grad()
def composition_on(model: Decoder, ids: list[int]) -> dict[str, torch.Tensor]:
    """Each first-layer head's share of what every second-layer head reads on this story: the size of its
    write, read through g's LayerNorm (the scale frozen at each position) and g's W_Q (W_K, W_V), against the
    sum of every part's; queries at the last position, keys and values averaged over the positions.
    {"Q": (n_head, n_head), ...}, rows the first layer's heads."""
    _check(model)
    f = first_layer(model, in_context(ids, model.cfg.context))          # cut as a prompt is (run.js, inContext)
    parts = torch.cat([f.X[None], f.writes, f.mlp[None]])               # (n_parts, T, d_model)
    s = torch.sqrt(f.stream.var(-1, unbiased=False) + model.blocks[1].ln1.eps)   # (T,) the LayerNorm's scale
    out = {}
    for via in INPUTS:
        R = reading_matrices(model, via)                                # (G, d, w): mean out, gain in
        read = torch.einsum("ptd,gdw->pgtw", parts, R) / s[None, None, :, None]   # (n_parts, G, T, w)
        size = read.norm(dim=-1)                                        # (n_parts, G, T)
        share = size / size.sum(0, keepdim=True)                        # (n_parts, G, T)
        share = share[..., -1] if via == "Q" else share.mean(-1)        # (n_parts, G)
        out[via] = share[1:1 + model.cfg.n_head]                        # the first layer's heads
    return out


@dataclass
class PathPatch:
    probs: torch.Tensor        # (vocab,) the next word's probabilities after the story's last token
    attention: torch.Tensor    # (T,) the receiver's attention from the last position


def path_patch(model: Decoder, ids: list[int], source: list[int] | None = None, sender: int | None = None,
               receiver: int = 0, via: str = "K") -> PathPatch:
    """The story `ids` with first-layer head `sender`'s write, at every position the two stories share (from the
    first), taken from the story `source` into second-layer head `receiver`'s input `via` alone (Q, K or V); no
    source: the story as it is. Heads numbered from 0 (compute.models.paths names them "L1 H1")."""
    _check(model)
    if via not in INPUTS:
        raise ValueError(f"a head reads its queries, keys or values (Q, K, V), not {via!r}")
    into = {}
    if source is not None and sender is not None:
        into[f"L2 H{receiver + 1} {via}"] = paths.change(model, ids, source, f"L1 H{sender + 1}")
    r = paths.run(model, ids, into)
    return PathPatch(torch.softmax(r.logits[-1], -1), r.attention[1, receiver, -1])

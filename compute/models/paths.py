"""One part's write read by one later part alone: path patching, and the edges of a prediction's graph.

Every part of a pre-LayerNorm decoder (the embedding, each head, each MLP) adds its write to the residual stream,
and every later part reads the sum. Each part reads it through an input of its own:

    "L2 H1 Q", "L2 H1 K", "L2 H1 V"   a head's queries, keys and values (each LN1(x) W, with its own copy of x)
    "L1 MLP"                          an MLP (LN2(x) W1 ...)
    "logits"                          the final LayerNorm and W_U

To ask what a receiver gets from a sender, change the sender's write in the receiver's input alone and run the rest
as it is: `into = {receiver: delta}` adds delta (T, d_model) to that input only. Path patching takes delta from a
second story (the sender's write there, less its write here, at every position); a path cut takes delta = minus the
sender's write (the receiver reads the stream as if the sender wrote nothing). Every other part, the sender's other
readers included, reads the stream as it is, and what the receiver writes then flows on as usual.

    r = run(model, ids, {"L1 MLP": delta})             # Run: logits (T, vocab), attention, every part's write
    run(model, ids, patched={(0, 1): rows})            # L1 H2 writes `rows` (n, d_model) at the first n positions
    path_patch(model, ids, source, "L1 H3", ["L1 MLP", "L2 MLP"])    # the same, delta from the source story
    receivers_of(model, "L1 H3")                       # every input that reads what L1 H3 writes
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import torch

from ..nn.functional import causal_mask, scaled_scores, softmax_rows
from .decoder import Decoder
from .readout import in_context

INPUTS = ("Q", "K", "V")
LOGITS = "logits"


@dataclass
class Run:
    logits: torch.Tensor        # (T, vocab)
    attention: torch.Tensor     # (n_layer, n_head, T, T): every head's weights
    writes: dict[str, torch.Tensor]     # {"embedding": (T, d_model), "L1 H1": ..., "L1 MLP": ..., ...}: what each wrote


def layer_of(name: str) -> int:
    """The layer (from 0) of a part or an input named "L2 H1", "L2 H1 Q", "L2 MLP"; the embedding's is -1 and the
    logits' the number of layers."""
    if name == "embedding":
        return -1
    if name == LOGITS:
        return 10 ** 6
    return int(name.split()[0][1:]) - 1


def receivers_of(model: Decoder, sender: str) -> list[str]:
    """Every input that reads what `sender` (a part's name) writes: its own layer's MLP (when the sender is a head),
    every head's Q, K and V and every MLP of the layers after it, and the logits."""
    cfg, after = model.cfg, layer_of(sender)
    own = [f"L{after + 1} MLP"] if " H" in sender else []
    later = [name for l in range(after + 1, cfg.n_layer)
             for name in [f"L{l + 1} H{g + 1} {via}" for g in range(cfg.n_head) for via in INPUTS] + [f"L{l + 1} MLP"]]
    return own + later + [LOGITS]


def _check(model: Decoder, into: Mapping[str, torch.Tensor]) -> None:
    if not (model.cfg.layer_norm and model.cfg.rope):
        raise ValueError("paths are read in pre-LayerNorm models with rotary positions (Part III's story models)")
    known = {LOGITS} | {f"L{l + 1} MLP" for l in range(model.cfg.n_layer)} | {
        f"L{l + 1} H{g + 1} {via}" for l in range(model.cfg.n_layer) for g in range(model.cfg.n_head) for via in INPUTS}
    unknown = sorted(set(into) - known)
    if unknown:
        raise ValueError(f"no input of this model is called {unknown[0]!r} (inputs: a head's Q, K or V as "
                         f"'L1 H1 Q', an MLP as 'L1 MLP', or 'logits')")


def _attend(block, x: torch.Tensor, into: Mapping[str, torch.Tensor], layer: int, silenced: frozenset,
            patched: Mapping[tuple[int, int], torch.Tensor]) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Every head of `block` on the stream x (T, d_model), each input reading x plus what `into` adds to it: each
    head's write (T, d_model), a silenced head's zero, a patched head's its rows where it has them; and their weights
    (n_head, T, T)."""
    attn, T, d_v = block.attn, x.shape[0], block.attn.d_v
    plain = attn.project(block.ln1(x)[None])                          # Q, K, V (1, n_head, T, d) of x as it is
    Q, K, V = (t.clone() for t in plain)
    for g in range(attn.n_head):
        for i, via in enumerate(INPUTS):
            delta = into.get(f"L{layer + 1} H{g + 1} {via}")
            if delta is not None:
                (Q, K, V)[i][:, g] = attn.project(block.ln1(x + delta)[None])[i][:, g]
    A = softmax_rows(scaled_scores(Q, K) + causal_mask(T, dtype=Q.dtype))      # (1, n_head, T, T)
    Z, heads = (A @ V)[0], []                                         # (n_head, T, d_v)
    for g in range(attn.n_head):
        write = Z[g] @ attn.W_O[g * d_v:(g + 1) * d_v]                # (T, d_model)
        if (layer, g) in silenced:
            write = torch.zeros_like(write)
        rows = patched.get((layer, g))
        if rows is not None:
            write[:len(rows)] = rows[:T]
        heads.append(write)
    return heads, A[0]


@torch.no_grad()
def run(model: Decoder, ids: list[int], into: Mapping[str, torch.Tensor] | None = None,
        silenced: frozenset[tuple[int, int]] = frozenset(),
        patched: Mapping[tuple[int, int], torch.Tensor] | None = None) -> Run:
    """The model on ids with `into[input]` (T, d_model) added to that input alone (see the module's docstring), the
    `silenced` heads (layer, head) writing nothing, and each `patched` head writing its given rows (n, d_model) at
    the first n positions (its own write after them), whatever it reads."""
    into, patched, silenced = dict(into or {}), dict(patched or {}), frozenset(silenced)
    _check(model, into)
    x = model.embed(torch.tensor([ids]))[0]                            # (T, d_model)
    attention, written = [], {"embedding": x}
    for l, block in enumerate(model.blocks):
        heads, A = _attend(block, x, into, l, silenced, patched)
        attention.append(A)
        written.update({f"L{l + 1} H{g + 1}": w for g, w in enumerate(heads)})
        x = x + sum(heads)                                             # (T, d_model)
        delta = into.get(f"L{l + 1} MLP")
        read_by_mlp = x if delta is None else x + delta
        written[f"L{l + 1} MLP"] = block.feed_forward(read_by_mlp)[0] - read_by_mlp   # the MLP's write, from what it read
        x = x + written[f"L{l + 1} MLP"]
    delta = into.get(LOGITS)
    return Run(model.unembed((x if delta is None else x + delta)[None])[0], torch.stack(attention), written)


def writes(model: Decoder, ids: list[int], silenced: frozenset[tuple[int, int]] = frozenset()) -> dict[str, torch.Tensor]:
    """What each part writes at every position, by name: {"embedding": (T, d_model), "L1 H1": ..., ...}, with the
    `silenced` heads writing nothing (run's writes; readout.read gives the same parts)."""
    return run(model, ids, silenced=silenced).writes


def borrowed(model: Decoder, source: list[int], heads: Iterable[tuple[int, int]]) -> dict[tuple[int, int], torch.Tensor]:
    """Each head's write on `source` (len(source), d_model), by (layer, head): run(patched=...) gives them to a story
    at the positions the two share."""
    on_source = writes(model, source)
    return {(l, h): on_source[f"L{l + 1} H{h + 1}"] for l, h in heads}


def change(model: Decoder, ids: list[int], source: list[int] | None, sender: str) -> torch.Tensor:
    """delta (T, d_model): the sender's write on `source` less its write on `ids`, at the positions the two share (the
    rest unchanged); no source: minus its write (the path cut)."""
    here = writes(model, ids)
    if sender not in here:
        raise ValueError(f"no part of this model is called {sender!r} (parts: {', '.join(here)})")
    if source is None:
        return -here[sender]
    n = min(len(ids), len(source))
    delta = torch.zeros_like(here[sender])
    delta[:n] = writes(model, list(source[:n]))[sender] - here[sender][:n]
    return delta


def path_patch(model: Decoder, ids: list[int], source: list[int] | None, sender: str,
               receivers: Iterable[str]) -> Run:
    """ids read with the sender's write taken from `source` (none: cut) in the receivers' inputs alone; both stories
    (<eos> first) cut to the context as a prompt is (readout.in_context)."""
    ids = in_context(ids, model.cfg.context)
    delta = change(model, ids, None if source is None else in_context(source, model.cfg.context), sender)
    return run(model, ids, {name: delta for name in receivers})

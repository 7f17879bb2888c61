"""Text from a story model: seeded temperature / top-k sampling or greedy choice, with a KV cache."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from .models.decoder import Decoder


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.8   # logits are divided by it: below 1 sharpens, above 1 flattens
    top_k: int | None = None   # keep only the k highest-scoring words (None: all)
    greedy: bool = False       # always take the highest-scoring word
    max_tokens: int = 200      # new tokens at most (a story ends earlier at <eos>)


def choose(logits: torch.Tensor, sampling: Sampling, generator: torch.Generator) -> torch.Tensor:
    """The next id for each row of logits (B, vocab) -> (B,)."""
    if sampling.greedy:
        return logits.argmax(dim=-1)
    scaled = logits / sampling.temperature
    if sampling.top_k is not None and sampling.top_k < scaled.shape[-1]:
        kth = scaled.topk(sampling.top_k, dim=-1).values[:, -1:]      # (B, 1)
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    probs = torch.softmax(scaled.double(), dim=-1)                    # float64: the same draw from the same seed
    return torch.multinomial(probs, 1, generator=generator)[:, 0]


@torch.no_grad()
def generate(model: torch.nn.Module, prompts: torch.Tensor, sampling: Sampling, seed: int,
             eos: int = 0) -> list[list[int]]:
    """Continue each prompt (B, T0) until <eos> or max_tokens; returns the new ids of each row (no <eos>).

    A transformer keeps every layer's keys and values (the KV cache), so each new token costs one
    position's work; the MLP only ever reads its last `window` tokens. The model's context bounds the
    total length."""
    model.eval()
    generator = torch.Generator().manual_seed(seed)
    B = prompts.shape[0]
    limit = min(sampling.max_tokens, model.cfg.context - prompts.shape[1])
    seqs, done = prompts.clone(), torch.zeros(B, dtype=torch.bool)
    new: list[list[int]] = [[] for _ in range(B)]
    caches = model.new_caches(B) if isinstance(model, Decoder) else None
    for step in range(limit):
        if caches is not None:
            logits = model.step(seqs if step == 0 else seqs[:, -1:], caches)[:, -1]  # (B, vocab)
        else:
            logits = model.next_logits(seqs)                                      # (B, vocab), its window
        nxt = choose(logits, sampling, generator)                                 # (B,)
        for b in range(B):
            if not done[b]:
                if int(nxt[b]) == eos:
                    done[b] = True
                else:
                    new[b].append(int(nxt[b]))
        if bool(done.all()):
            break
        seqs = torch.cat([seqs, nxt[:, None]], dim=1)
    return new

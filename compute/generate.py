"""Text from a story model: seeded temperature / top-k sampling or greedy choice, with a KV cache.

The sampler is the page's (_static/generate/sample.js), step for step: the same 32-bit generator (mulberry32),
the same float64 arithmetic and the same order of the words, so a seed gives the same words in Python and in
the reader's browser.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from .models.decoder import Decoder


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.8   # logits are divided by it: below 1 sharpens, above 1 flattens
    top_k: int | None = None   # keep only the k highest-scoring words (None: all)
    top_p: float = 1.0         # then only the fewest best words whose probability reaches top_p (1: all)
    greedy: bool = False       # always take the highest-scoring word
    max_tokens: int = 200      # new tokens at most (a story ends earlier at <eos>)

    def __post_init__(self):
        if not self.temperature > 0:
            raise ValueError(f"the temperature must be above 0, not {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top-p must be above 0 and at most 1, not {self.top_p}")
        if self.top_k is not None and self.top_k < 0:
            raise ValueError(f"top-k must be 0 or more, not {self.top_k}")


_WORD = 0xFFFFFFFF  # arithmetic modulo 2^32, as JavaScript's Math.imul and >>> 0


class Mulberry32:
    """A small, well-known 32-bit generator: uniform draws in [0, 1), the same for a seed as sample.js's seeded()."""

    def __init__(self, seed: int):
        self.state = seed & _WORD

    def __call__(self) -> float:
        self.state = (self.state + 0x6D2B79F5) & _WORD
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & _WORD
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & _WORD)) & _WORD
        return ((t ^ (t >> 14)) & _WORD) / 4294967296


def choose_one(logits: list[float], sampling: Sampling, random: Mulberry32) -> int:
    """The next id from one row of logits: the largest when greedy (the first of equals); otherwise one draw from
    softmax(logits / temperature) over the top_k largest (ties by id) and, when top_p < 1, over the fewest of those,
    best first, whose weights reach top_p of their total; summed and drawn in that order."""
    if sampling.greedy:
        return max(range(len(logits)), key=lambda i: (logits[i], -i))
    best = lambda i: (-logits[i], i)  # noqa: E731
    keep = list(range(len(logits)))
    if sampling.top_k and sampling.top_k < len(logits):
        keep = sorted(keep, key=best)[: sampling.top_k]
    top = max(logits[i] / sampling.temperature for i in keep)
    weights = [math.exp(logits[i] / sampling.temperature - top) for i in keep]
    total = _left_to_right(weights)
    if sampling.top_p < 1:
        weight = dict(zip(keep, weights))
        keep, reach, reached = sorted(keep, key=best), sampling.top_p * total, 0.0
        n = 0
        while n < len(keep) and reached < reach:
            reached += weight[keep[n]]
            n += 1
        keep = keep[:n]
        weights = [weight[i] for i in keep]
        total = _left_to_right(weights)
    u = random() * total
    for i, w in zip(keep, weights):
        u -= w
        if u < 0:
            return i
    return keep[-1]


def _left_to_right(values: list[float]) -> float:
    """Their sum, added left to right as the page's reduce (Python 3.12's sum() compensates)."""
    total = 0.0
    for v in values:
        total += v
    return total


def choose(logits: torch.Tensor, sampling: Sampling, randoms: list[Mulberry32], rows: list[int]) -> dict[int, int]:
    """The next id of each of `rows` of logits (B, vocab): {row: id}, row b drawing from randoms[b]; a row left
    out draws nothing."""
    values = logits.double().numpy()
    return {b: choose_row(values[b], sampling, randoms[b]) for b in rows}


def choose_row(row: np.ndarray, sampling: Sampling, random: Mulberry32) -> int:
    """choose_one for one row of float64 logits (vocab,), the same id for the same draw: the comparisons and the
    sort are numpy's, every exponential, sum and difference the same float64 operations in the same order
    (np.cumsum and np.subtract.accumulate run left to right, one element after another, as the page's loops do;
    a story sample draws 200 tokens from each of a few hundred words)."""
    if sampling.greedy:
        return int(np.argmax(row))                                   # the first of equals
    if sampling.top_p < 1 or (sampling.top_k and sampling.top_k < len(row)):
        return choose_one(row.tolist(), sampling, random)
    scaled = row / sampling.temperature                              # (vocab,), as logits[i] / temperature
    weights = np.fromiter(map(math.exp, (scaled - scaled.max()).tolist()), dtype=np.float64, count=len(row))
    u = random() * float(np.cumsum(weights)[-1])                     # the total, added left to right
    left = np.subtract.accumulate(np.concatenate(([u], weights)))[1:]   # (vocab,) u less each weight in turn
    below = np.flatnonzero(left < 0)
    return int(below[0]) if len(below) else len(weights) - 1


@torch.no_grad()
def generate(model: torch.nn.Module, prompts: torch.Tensor, sampling: Sampling, seed: int,
             eos: int = 0) -> list[list[int]]:
    """Continue each prompt (B, T0) until <eos> or max_tokens; returns the new ids of each row (no <eos>).
    Row b draws from its own generator, seeded seed + b (row 0: what the page draws for `seed`).

    A transformer keeps every layer's keys and values (the KV cache), so each new token costs one
    position's work; the MLP only ever reads its last `window` tokens. The model's context bounds the
    total length."""
    model.eval()
    B = prompts.shape[0]
    randoms = [Mulberry32(seed + b) for b in range(B)]
    limit = min(sampling.max_tokens, model.cfg.context - prompts.shape[1])
    seqs, done = prompts.clone(), torch.zeros(B, dtype=torch.bool)
    new: list[list[int]] = [[] for _ in range(B)]
    caches = model.new_caches(B) if isinstance(model, Decoder) else None
    for step in range(limit):
        if caches is not None:
            logits = model.step(seqs if step == 0 else seqs[:, -1:], caches)[:, -1]  # (B, vocab)
        else:
            logits = model.next_logits(seqs)                                      # (B, vocab), its window
        drawn = choose(logits, sampling, randoms, [b for b in range(B) if not done[b]])  # a finished row draws no more
        for b, i in drawn.items():
            if i == eos:
                done[b] = True
            else:
                new[b].append(i)
        if bool(done.all()):
            break
        nxt = torch.tensor([drawn.get(b, eos) for b in range(B)])                 # (B,) a finished row reads <eos>
        seqs = torch.cat([seqs, nxt[:, None]], dim=1)
    return new

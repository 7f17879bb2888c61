"""What a run that learned nothing but how often each word occurs would score: the yardstick that tells a run
too short to learn anything from one that learned."""
from __future__ import annotations

import math

import torch

from ..data.story import Story
from ..data.tokenizer import EOS, Vocabulary


def frequency_loss(stream: torch.Tensor, stories: list[Story], vocab: Vocabulary, context: int) -> float:
    """Mean cross-entropy (nats) on the stories' targets (each story's words then <eos>, cut at `context`, as the
    validation loss counts them) of one fixed guess: every word at its share of the training stream, add-one
    smoothed so that no word has probability 0."""
    counts = torch.bincount(stream, minlength=len(vocab)).double() + 1.0        # (vocab,)
    log_p = (counts / counts.sum()).log()
    eos = vocab.index(EOS)
    targets = [i for s in stories for i in (vocab.encode(s.tokens) + [eos])[:context]]
    return -float(log_p[torch.tensor(targets, dtype=torch.long)].mean()) if targets else math.nan


def learned(val_loss: float, baseline: float, margin: float = 0.05) -> bool:
    """True when the validation loss beats word frequencies alone by more than `margin` nats."""
    return val_loss < baseline - margin

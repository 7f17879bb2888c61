"""The lab's runs as the page shows them (TRAIN = False), built from compute's own models: what `compute check lab`
and the claims' tests judge."""
from __future__ import annotations

from functools import lru_cache

import torch

from ..tensors import compute_model
from .follow import Case, follow
from .run import LabRun, Settings, train_or_load

PUBLISHED = Settings(train=False, tokens=4_000_000, seed=0)


def compute_fn(kind: str):
    """The logits function of compute's own model of this kind, over a dict of its tensors."""
    return lambda params, tokens: compute_model(kind, params)(tokens)


def attention(params: dict, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The one-head model's logits and its head's attention matrix (compute's trace)."""
    trace = compute_model("one-head", params).trace(tokens)
    return trace.logits, trace.attention[0].A


@lru_cache(maxsize=1)
def published_runs() -> tuple[LabRun, LabRun, Case]:
    """Both models loaded from Part III's checkpoints and scored, and the followed case."""
    mlp = train_or_load("mlp", compute_fn("mlp"), {}, PUBLISHED)
    head = train_or_load("one-head", compute_fn("one-head"), {}, PUBLISHED)
    return mlp, head, follow(mlp, head, attention)

"""Models as plain functions of a dict of tensors, wrapped so that the story training loop can train them."""
from __future__ import annotations

from typing import Callable

import torch
from torch import nn

from ...claims import ClaimError
from ...published.story import published_corpus

Params = dict[str, torch.Tensor]
LogitsFn = Callable[[Params, torch.Tensor], torch.Tensor]
MATCH = 1e-4          # largest logit difference allowed between the lab's function and compute's model


class TensorModel(nn.Module):
    """fn(params, tokens) -> logits as a module: the tensors become parameters under their own names
    (a dot, which a module's parameter name cannot hold, is stored as "__")."""

    def __init__(self, fn: LogitsFn, params: Params):
        super().__init__()
        self.fn = fn
        self.store = nn.ParameterDict({k.replace(".", "__"): nn.Parameter(v.detach().clone())
                                       for k, v in params.items()})

    @property
    def params(self) -> Params:
        return {k.replace("__", "."): v for k, v in self.store.items()}

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.fn(self.params, tokens)


def compute_model(kind: str, params: Params) -> nn.Module:
    """compute's own model of this kind (compute.models.story) holding the same tensors."""
    from ...models.story import build, preset
    model = build(preset(kind, len(published_corpus().vocab)))
    model.load_state_dict({k: v.detach() for k, v in params.items()})
    return model.eval()


def sample_batch(n: int = 4) -> torch.Tensor:
    """The first n validation stories as one batch of ids (B, T), cut to the shortest."""
    data = published_corpus()
    rows = [data.vocab.encode(s.tokens) for s in data.val[:n]]
    T = min(len(r) for r in rows)
    return torch.tensor([r[:T] for r in rows])


@torch.no_grad()
def largest_difference(fn: LogitsFn, params: Params, kind: str) -> float:
    tokens = sample_batch()
    return float((fn(params, tokens) - compute_model(kind, params)(tokens)).abs().max())


def check_against_compute(fn: LogitsFn, params: Params, kind: str) -> None:
    """Print the largest logit difference to compute's model; ClaimError past MATCH."""
    diff = largest_difference(fn, params, kind)
    tokens = sample_batch()
    print(f"Your {kind} function and compute's model, on {tokens.shape[0]} validation stories of "
          f"{tokens.shape[1]} tokens: largest difference between their logits {diff:.2e}.")
    if not diff <= MATCH:
        raise ClaimError(f"the lab's {kind} function does not match compute's model: largest logit "
                         f"difference {diff:.3g} (allowed {MATCH:g})")


"""The position-wise feed-forward network: ReLU(x W1 + b1) W2 + b2, applied to every row alone."""
from __future__ import annotations

import torch
from torch import nn

from .functional import relu


class FeedForward(nn.Module):
    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.W1 = nn.Parameter(torch.zeros(d_model, d_ff))
        self.b1 = nn.Parameter(torch.zeros(d_ff))
        self.W2 = nn.Parameter(torch.zeros(d_ff, d_model))
        self.b2 = nn.Parameter(torch.zeros(d_model))

    def hidden(self, x: torch.Tensor) -> torch.Tensor:
        """ReLU(x W1 + b1): (..., d_model) -> (..., d_ff)."""
        return relu(x @ self.W1 + self.b1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(..., d_model) -> (..., d_model)."""
        return self.hidden(x) @ self.W2 + self.b2

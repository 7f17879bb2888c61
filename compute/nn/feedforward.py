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

    def forward(self, stream: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        """stream + h W2 + b2: the hidden units' output added to the residual stream (..., d_model).

        Summed left to right, (stream + h W2) + b2: the order the published walkthrough was trained in
        (another order moves its retrained weights by up to 0.11)."""
        return stream + h @ self.W2 + self.b2

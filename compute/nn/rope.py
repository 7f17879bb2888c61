"""Rotary position embedding: rotate each (even, odd) coordinate pair of a query or key by i·ω_k."""
from __future__ import annotations

import torch


def rope_frequencies(d: int, base: float = 10000.0) -> torch.Tensor:
    """ω_k = base^(-2k/d) for the d/2 coordinate pairs, fastest first."""
    if d % 2:
        raise ValueError(f"rotary embedding needs an even width, got {d}")
    return base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # (d/2,)


def rope_angles(positions: torch.Tensor, d: int, base: float = 10000.0) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of i·ω_k for each position i and pair k."""
    angles = positions.to(torch.float64)[:, None] * rope_frequencies(d, base)[None, :]  # (T, d/2)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(X: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate each pair (x_2k, x_2k+1) of every row of X (..., T, d) by its position's angle."""
    cos, sin = cos.to(X.dtype), sin.to(X.dtype)        # (T, d/2)
    even, odd = X[..., 0::2], X[..., 1::2]             # (..., T, d/2)
    rotated = torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1)
    return rotated.flatten(-2)                         # (..., T, d), pairs back in place

"""Softmax in float16: where exp overflows, and what the literal and the max-subtracted softmax give."""
from __future__ import annotations

import math

import numpy as np

FLOAT16_EXP_LIMIT = math.log(float(np.finfo(np.float16).max))  # e^s overflows float16 above this (≈ 11.09)
FLOAT32_EXP_LIMIT = math.log(float(np.finfo(np.float32).max))


def float_limits(row: np.ndarray) -> dict[str, object]:
    """Where exp overflows in float16 and float32, and a softmax in float16 of the row's scores doubled:
    without the max-subtraction (how many weights come out not-a-number) and with it (their sum, and
    whether every weight is a finite number)."""
    doubled = (2 * row).astype(np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(doubled)
        naive = e / e.sum()
    shifted = np.exp(doubled - doubled.max())
    stable = shifted / shifted.sum()
    return {"f16_max": float(np.finfo(np.float16).max), "f16_exp_limit": FLOAT16_EXP_LIMIT,
            "f32_exp_limit": FLOAT32_EXP_LIMIT,
            "row_exp_f16": float(np.exp(np.float16(row.max()))), "doubled_max": float(doubled.max()),
            "doubled_naive_nan": int(np.isnan(naive).sum()),
            "doubled_stable_sum": float(stable.astype(np.float64).sum()),
            "doubled_stable_finite": bool(np.isfinite(stable).all()), "doubled_n": int(row.size)}

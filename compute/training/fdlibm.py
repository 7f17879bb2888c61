"""exp(x) as fdlibm's e_exp.c computes it, elementwise over a float64 array.

numpy's and torch's exp come from the platform's maths library or vector kernels, whose last bit differs from
machine to machine; a browser's Math.exp is not pinned down either. The walkthrough's exact run and the page's
trainer both use these steps instead (`_static/train/exp.js` is the same function, one number at a time), so
they agree bit for bit on every IEEE-754 machine. The steps: x = k ln2 + r with |r| <= ln2 / 2 (ln2 split into
a high part whose products with k are exact and a low part); exp(r) from a degree-5 rational approximation;
then the result times 2^k.
"""
from __future__ import annotations

import numpy as np

LN2_HI, LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
INV_LN2 = 1.44269504088896338700e+00
P1, P2, P3 = 1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05
P4, P5 = -1.65339022054652515390e-06, 4.13813679705723846039e-08
O_THRESHOLD, U_THRESHOLD = 7.09782712893383973096e+02, -7.45133219101941108420e+02


def from_high(high: int) -> float:
    """The double whose high 32 bits are `high` and low 32 bits zero (fdlibm's thresholds are such words)."""
    return float(np.array([high << 32], dtype=np.uint64).view(np.float64)[0])


ABOVE_HALF_LN2 = from_high(0x3FD62E43)      # |x| >= this: the high word of |x| is above 0x3fd62e42
BELOW_3_HALF_LN2 = from_high(0x3FF0A2B2)    # |x| < this: below 0x3ff0a2b2
TINY = from_high(0x3E300000)                # 2^-28
TWO_M1000 = 2.0 ** -1000


def pow2(n: np.ndarray) -> np.ndarray:
    """2^n, exactly, for integer n from -1022 to 1023."""
    return np.ldexp(1.0, n.astype(np.int64))


def exp(x: np.ndarray) -> np.ndarray:
    """fdlibm's exp of every element of a float64 array (a new array of the same shape)."""
    x = np.asarray(x, dtype=np.float64)
    ax, neg = np.abs(x), np.signbit(x) & (x != 0)
    sign = np.where(neg, -1.0, 1.0)
    with np.errstate(all="ignore"):
        reduce = ax >= ABOVE_HALF_LN2
        near = reduce & (ax < BELOW_3_HALF_LN2)
        k_far = np.trunc(INV_LN2 * x + np.where(neg, -0.5, 0.5))       # C's (int): towards zero
        k = np.where(near, sign, np.where(reduce, k_far, 0.0))
        hi = np.where(near, x - sign * LN2_HI, x - k * LN2_HI)            # sign * LN2_HI is exact
        lo = np.where(near, sign * LN2_LO, k * LN2_LO)
        r = np.where(reduce, hi - lo, x)
        t = r * r
        c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
        small = 1 - ((r * c) / (c - 2.0) - r)
        y = 1 - ((lo - (r * c) / (2.0 - c)) - hi)
        k_int = np.clip(k, -1100, 1100).astype(np.int64)
        top = (y * 2) * pow2(np.full_like(k_int, 1023))                   # k = 1024: 2^1024 is beyond doubles
        normal = y * pow2(np.clip(k_int, -1021, 1023))
        deep = (y * pow2(np.clip(k_int + 1000, -1022, 1023))) * TWO_M1000
        scaled = np.where(k_int == 1024, top, np.where(k_int >= -1021, normal, deep))
        out = np.where(reduce, scaled, np.where(ax < TINY, 1 + x, small))
        out = np.where(x > O_THRESHOLD, np.inf, np.where(x < U_THRESHOLD, 0.0, out))
    return np.where(np.isnan(x), x, out)

"""How counts and times grow with T: log-log slopes fitted over a range, and where overheads stop mattering."""
from __future__ import annotations

import numpy as np

from ....costs import costs
from ....published.timings import VARIANTS, timings

KEPT, RUNNING = VARIANTS     # averaging's forward pass with its matrix built once and kept; as a running sum

LENGTHS = (16, 32, 64, 128, 256, 512, 1024, 2048)   # T for the counted figures (and the slider)
WIDTHS = (16, 32, 64, 128, 256)                     # d for the slider
SHOWN_T, SHOWN_D = 256, 64                           # the table's T and d, and the sliders' first position
D = 64                                               # the width the claims count and time at
LARGE_T = 512                                       # "large T": fits of measured times start here
SMALL_T = 64                                        # "small T": up to here


def slope(T, y) -> float:
    """The slope of log y against log T (least squares): y grows like T^slope. Exactly 0 for a y that does not
    change (a fit of equal logs leaves a rounding error of either sign, -1e-17, which prints as below zero)."""
    if len(set(y)) == 1:
        return 0.0
    return float(np.polyfit(np.log(np.asarray(T, float)), np.log(np.asarray(y, float)), 1)[0])


def counted(mixer: str, field: str, d: int, lengths=LENGTHS) -> list[int]:
    return [getattr(costs(mixer, T, d), field) for T in lengths]


def counted_slope(mixer: str, field: str, d: int, lengths=LENGTHS) -> float:
    """The counted growth over the given lengths (the last three: where the largest term rules)."""
    return slope(lengths[-3:], counted(mixer, field, d, lengths)[-3:])


def measured(model: str, measure: str) -> tuple[list[int], list[float]]:
    return timings().series(model, measure)


def measured_slope(model: str, measure: str, from_T: int = LARGE_T) -> float:
    T, s = measured(model, measure)
    keep = [i for i, t in enumerate(T) if t >= from_T]
    return slope([T[i] for i in keep], [s[i] for i in keep])


def ratio(model: str, measure: str, t_big: int, t_small: int) -> float:
    T, s = measured(model, measure)
    return s[T.index(t_big)] / s[T.index(t_small)]


def cache_speedup(model: str, T: int) -> float:
    """Time per token without the cache over time with it, at context T."""
    Tu, su = measured(model, "token uncached")
    Tc, sc = measured(model, "token cached")
    return su[Tu.index(T)] / sc[Tc.index(T)]


def longest(model: str, measure: str) -> int:
    return max(measured(model, measure)[0])


def record(model: str, measure: str, T: int, field: str) -> float:
    """Another field of a stored record: faults (page faults per timed call), largest_bytes or allocated_bytes
    (what one call allocates)."""
    return timings().at(model, measure, T, field)


def at(model: str, measure: str, T: int) -> float:
    """Measured seconds of (model, measure) at context T."""
    return timings().at(model, measure, T)


def steps(lengths, values) -> list[tuple[int, int, float]]:
    """(T, next T, growth factor) for each step between neighbouring lengths."""
    return [(a, b, y / x) for a, b, x, y in zip(lengths, lengths[1:], values, values[1:])]


def measured_steps(model: str, measure: str, from_T: int = LARGE_T) -> list[tuple[int, int, float]]:
    """The measured growth factor of each step from from_T to the longest length."""
    T, s = measured(model, measure)
    keep = [i for i, t in enumerate(T) if t >= from_T]
    return steps([T[i] for i in keep], [s[i] for i in keep])


def counted_steps(mixer: str, field: str, d: int, lengths) -> list[tuple[int, int, float]]:
    return steps(list(lengths), counted(mixer, field, d, lengths))


def macs_per_second(mixer: str, T: int, d: int = 64) -> float:
    """Counted forward multiply-adds over measured forward seconds, at context T."""
    Ts, s = measured(mixer, "forward")
    return costs(mixer, T, d).forward / s[Ts.index(T)]


def rate(model: str, T: int, d: int = 64) -> float:
    """Counted forward multiply-adds over measured forward seconds at context T, for a mixer or for averaging's
    product with its matrix kept (the same products as averaging, so the same count)."""
    return costs("average" if model == KEPT else model, T, d).forward / at(model, "forward", T)


def build_seconds(T: int) -> float:
    """Averaging's forward pass as written, less the product with its matrix kept: building the matrix."""
    return at("average", "forward", T) - at(KEPT, "forward", T)


def build_per_byte_ratio(T: int, before: int) -> float:
    """Seconds per allocated byte of building averaging's matrices at T, over the same at `before`."""
    def per_byte(t):
        return build_seconds(t) / record("average", "forward", t, "allocated_bytes")
    return per_byte(T) / per_byte(before)

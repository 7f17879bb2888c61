"""A new attention token three ways (Part 2B, section 3), timed side by side in a file of their own.

`python -m compute bench recompute` times reading everything again, recomputing only what the new token
needs (every key and value, its own query and one row of scores), and the KV cache kept between tokens.
"""
from __future__ import annotations

from ....costs import costs
from ....published.timings import LENGTHS, NEW_TOKEN, recompute_timings

UNCACHED, RECOMPUTED, CACHED = NEW_TOKEN
WAYS = {UNCACHED: "reading everything again", RECOMPUTED: "recomputing only what it needs",
        CACHED: "from the KV cache"}
D = 64                                               # the timed width (the file's d, checked by the claims)
SHORT, LONG = LENGTHS[0], LENGTHS[-1]


def seconds(measure: str, T: int) -> float:
    return recompute_timings().at("attend", measure, T)


def speedup(over: str, T: int) -> float:
    """How many times faster the cached token is than `over` at context T."""
    return seconds(over, T) / seconds(CACHED, T)


def counted_speedup(over: str, T: int, d: int = D) -> float:
    """The same ratio by count of multiply-adds."""
    c = costs("attend", T, d)
    return getattr(c, over.replace(" ", "_")) / c.token_cached


def cached_growth() -> tuple[float, float]:
    """From the shortest to the longest T: how many times the cached token's time grows, and its count."""
    c = costs("attend", LONG, D).token_cached / costs("attend", SHORT, D).token_cached
    return seconds(CACHED, LONG) / seconds(CACHED, SHORT), c

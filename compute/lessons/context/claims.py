"""Part 2B's claims: each sentence about counts and stored timings, checked with a tolerance."""
from __future__ import annotations

from ...claims import Outcome, Registry
from ...costs import GPT3, costs, kv_cache_bytes
from ..story.published import load
from .states.growth import (LARGE_T, SMALL_T, cache_speedup, counted_slope, longest, macs_per_second, measured,
                            measured_slope)

CONTEXT = Registry()
claim = CONTEXT.claim

D = 64
SLOPE_RANGE = (1.2, 2.2)     # attention's measured forward slope at large T
FASTER = 0.8                 # "grows faster": slopes apart by at least this
OVERHEAD = 0.5               # at small T, measured growth at most this share of counted growth
SPEEDUP = 10.0               # the cache's speed-up at the longest measured context, at least
FLAT = 0.2                   # "the same time at every T": |slope| below this


@claim("The KV cache the four-head story model allocates holds exactly 2 × n_layer × T × d_model numbers.")
def kv_cache_bytes_equal_the_formula():
    model = load("story-four-head").model
    cfg = model.cfg
    held = sum(c.K.nbytes + c.V.nbytes for c in model.new_caches(1))
    want = kv_cache_bytes(cfg.n_layer, cfg.d_model, cfg.context, bytes_per_number=4)
    return Outcome(held == want, f"allocated {held:,} bytes, formula {want:,}")


@claim(f"By the count, attention's forward pass grows nearly like T² (slope at least 1.8) and a cached token "
       f"like T (slope at most 1.1), at d = {D}.")
def counted_growth():
    f, c = counted_slope("attend", "forward", D), counted_slope("attend", "token_cached", D)
    return Outcome(f >= 1.8 and c <= 1.1, f"forward slope {f:.3f}, cached token slope {c:.3f}")


@claim(f"Measured from T = {LARGE_T}, attention's forward time grows with a log-log slope between "
       f"{SLOPE_RANGE[0]} and {SLOPE_RANGE[1]}.")
def attention_forward_slope_in_range():
    s = measured_slope("attend", "forward")
    return Outcome(SLOPE_RANGE[0] <= s <= SLOPE_RANGE[1], f"slope {s:.3f}")


@claim(f"Measured, a new token without the cache grows faster with T than with it (slopes at least {FASTER} apart).")
def uncached_grows_faster_than_cached():
    u, c = measured_slope("attend", "token uncached"), measured_slope("attend", "token cached")
    return Outcome(u - c >= FASTER, f"without the cache {u:.3f}, with it {c:.3f}")


@claim(f"At the longest context measured, the cache makes a new attention token at least {SPEEDUP:g} times faster.")
def the_cache_pays_at_length():
    T = longest("attend", "token cached")
    s = cache_speedup("attend", T)
    return Outcome(s >= SPEEDUP, f"{s:.1f} times at T = {T}")


@claim(f"Up to T = {SMALL_T}, measured forward time grows by less than {OVERHEAD:g} of what the count predicts: "
       "fixed overheads dominate.")
def small_contexts_are_overhead():
    T, s = measured("attend", "forward")
    m = s[T.index(SMALL_T)] / s[0]
    c = costs("attend", SMALL_T, D).forward / costs("attend", T[0], D).forward
    return Outcome(m < OVERHEAD * c, f"measured × {m:.2f}, counted × {c:.2f} from T = {T[0]} to {SMALL_T}")


@claim("Measured from T = 512, averaging grows faster than its multiply-add count says.")
def averaging_outgrows_its_count():
    m, c = measured_slope("average", "forward"), counted_slope("average", "forward", D)
    return Outcome(m > c, f"measured slope {m:.3f}, counted {c:.3f}")


@claim(f"Attention's forward pass does more multiply-adds per second at the longest context than at T = {SMALL_T}.")
def large_products_run_faster_per_mac():
    T = longest("attend", "forward")
    small, large = macs_per_second("attend", SMALL_T), macs_per_second("attend", T)
    return Outcome(large > small, f"{small / 1e9:.2f} GMAC/s at T = {SMALL_T}, {large / 1e9:.2f} at T = {T}")


@claim(f"Averaging's cached token, a running sum, takes about the same time at every T (|slope| below {FLAT}).")
def running_sum_is_flat():
    s = measured_slope("average", "token cached", from_T=0)
    return Outcome(abs(s) < FLAT, f"slope {s:.3f} over every measured T")


@claim(f"The story MLP's time per new token does not grow with T (|slope| below {FLAT}): it reads only its window.")
def mlp_time_is_flat():
    s = measured_slope("story-mlp", "token uncached", from_T=0)
    return Outcome(abs(s) < FLAT, f"slope {s:.3f} over every measured T")


@claim("At its full context, GPT-3 175B's KV cache for one sequence takes more than a gigabyte in 16-bit numbers.")
def gpt3_cache_in_gigabytes():
    b = kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context)
    return Outcome(b > 1e9, f"{b:,} bytes")


def check_all():
    return CONTEXT.check_all()


def require_all(source: str = "the counts and timings of Part 2B") -> None:
    CONTEXT.require_all(source=source)

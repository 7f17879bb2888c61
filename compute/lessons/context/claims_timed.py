"""Part 2B's claims on the stored timings (sections 3 and 4): what the measured times say, each checked with a
tolerance against the counts; registered with the counts' and the scale's claims in claims.CONTEXT."""
from __future__ import annotations

from ...claims import Outcome, Registry, at_least, at_most, both, room
from ...says import Says
from ...strength import FLAT as FLATNESS
from ...costs import costs
from ...published.story import FOUR_HEAD, MLP
from ...published.timings import timings
from .states.growth import (D, KEPT, LARGE_T, LENGTHS, RUNNING, SMALL_T, at, build_per_byte_ratio, build_seconds,
                            cache_speedup, counted_slope, counted_steps, longest, macs_per_second, measured,
                            measured_slope, measured_steps, rate, record)
from .states import recompute as rc

TIMED = Registry()
claim = TIMED.claim

SLOPE_RANGE = (1.2, 2.2)     # attention's measured forward slope at large T
FASTER = 0.8                 # "grows faster": slopes apart by at least this
OVERHEAD = 0.5               # at small T, measured growth at most this share of counted growth
FIXED_SHARE = 0.5            # "mostly fixed cost": the fixed share of the first pass, at least
SPEEDUP = 10.0               # the cache's speed-up at the longest measured context, at least
STORY_SPEEDUP = 2.0          # the four-head model's cache speed-up at its context, at least
FLAT = FLATNESS.limit        # "the same time at every T", "flat": |slope| below this (compute.strength) ...
FLAT_SPREAD = 2.5            # ... and the slowest time at most this many times the fastest
RUNNING_SHARE = 0.1          # the running sum at the longest T: at most this share of attention's time
BEATS_RECOMPUTING = 2.0      # the cache against recomputing what a token needs, at the longest T: at least
COUNT_GAP = 5.0              # "far less than counting says": the counted ratio over the measured one, at least
PER_BYTE = 1.2               # "costs more per megabyte" once the matrices fill the cache: at least this ratio


def _t_max(model: str = "attend") -> int:
    return longest(model, "forward")


def _square_bytes(T: int) -> int:
    """A T x T matrix of 32-bit numbers, in bytes."""
    return 4 * T * T


def _steps(parts) -> str:
    return ", ".join(f"{a}->{b} x{f:.2f}" for a, b, f in parts)


# --- the stored timings (sections 3 and 4) ---

@claim((Says("at most", "ratio of how many times its measured forward time grows to how many times its count grows",
             ("attention",), by=f"{OVERHEAD:g}", over=f"from T = {LENGTHS[0]} to {SMALL_T}"),
        Says("at least", "share of its first pass that is fixed cost, if time were a fixed cost plus work at one rate,",
             ("attention",), by=f"{FIXED_SHARE:g}", over=f"at T = {LENGTHS[0]}")))
def small_contexts_are_overhead():
    T, s = measured("attend", "forward")
    m = s[T.index(SMALL_T)] / s[0]
    c = costs("attend", SMALL_T, D).forward / costs("attend", T[0], D).forward
    fixed = (c - m) / (c - 1)          # t = a + b·work through both points: a / t at the first
    return Outcome(m <= OVERHEAD * c and fixed >= FIXED_SHARE,
                   f"measured × {m:.2f}, counted × {c:.2f} from T = {T[0]} to {SMALL_T}; fixed share {fixed:.2f}",
                   margin=min(room(m / c, OVERHEAD, above=False), room(fixed, FIXED_SHARE, above=True)))


@claim((Says("at least", "measured log-log slope of forward time", ("attention",), by=SLOPE_RANGE[0],
             over=f"from T = {LARGE_T} to the longest T"),
        Says("at most", "measured log-log slope of forward time", ("attention",), by=SLOPE_RANGE[1],
             over=f"from T = {LARGE_T} to the longest T")))
def attention_forward_slope_in_range():
    s = measured_slope("attend", "forward")
    return both(at_least(s, SLOPE_RANGE[0], f"slope {s:.3f}, at least {SLOPE_RANGE[0]}"),
                at_most(s, SLOPE_RANGE[1], f"at most {SLOPE_RANGE[1]}"))


@claim((Says("less", "growth ratio on every step of T (how many times it grows)",
             ("attention's measured forward time", "its count"), over=f"from T = {LARGE_T} to the longest T"),
        Says("less", "fitted log-log slope", ("attention's measured forward time", "its count"),
             over=f"from T = {LARGE_T} to the longest T")))
def attention_time_grows_slower_than_its_count():
    m = measured_steps("attend", "forward")
    c = counted_steps("attend", "forward", D, [a for a, _, _ in m] + [m[-1][1]])
    slower = all(x < y for (_, _, x), (_, _, y) in zip(m, c))
    ms, cs = measured_slope("attend", "forward"), counted_slope("attend", "forward", D)
    return Outcome(slower and ms < cs, f"measured {_steps(m)}; counted {_steps(c)}; slopes {ms:.3f} against {cs:.3f}",
                   margin=min(room(ms, cs, above=False),
                              *(room(x, y, above=False) for (_, _, x), (_, _, y) in zip(m, c))))


@claim(Says("rises", "forward pass in counted multiply-adds per second", ("attention",),
            over=f"from T = {SMALL_T} to the longest T measured (its time grows more slowly than its count)"))
def large_products_run_faster_per_mac():
    T = longest("attend", "forward")
    small, large = macs_per_second("attend", SMALL_T), macs_per_second("attend", T)
    return Outcome(large > small, f"{small / 1e9:.2f} GMAC/s at T = {SMALL_T}, {large / 1e9:.2f} at T = {T}",
                   margin=room(large, small, above=True))


@claim(Says("rises", "the rate in multiply-adds per second of a plain dense product (averaging's, with its matrix "
            "kept)", over=f"from T = {SMALL_T} to the longest T measured"))
def big_products_run_faster_per_mac():
    T = _t_max(KEPT)
    small, large = rate(KEPT, SMALL_T), rate(KEPT, T)
    return Outcome(large > small, f"{small / 1e9:.2f} GMAC/s at T = {SMALL_T}, {large / 1e9:.2f} at T = {T}",
                   margin=room(large, small, above=True))


@claim(Says("greater", "forward pass in counted multiply-adds per second", ("attention",
                                                                            "the plain product of averaging"),
            over="at the longest T measured (it does less work than its count)"))
def attention_skips_work_the_count_includes():
    T = _t_max()
    att, kept = rate("attend", T), rate(KEPT, T)
    return Outcome(att > kept, f"at T = {T}: attention {att / 1e9:.2f} GMAC/s counted, plain product {kept / 1e9:.2f}",
                   margin=room(att, kept, above=True))


@claim(Says("greater", "forward time as written", ("averaging", "attention"), over="at the longest T measured",
            lower_is_better=True))
def averaging_is_timed_slower_at_length():
    T = _t_max()
    avg, att = at("average", "forward", T), at("attend", "forward", T)
    return Outcome(avg > att, f"at T = {T}: average {avg * 1e3:.2f} ms, attend {att * 1e3:.2f} ms",
                   margin=room(avg, att, above=True))


@claim((Says("equal", "the bytes of the largest block one call of averaging's forward pass allocates and of a whole "
             "T × T matrix of 32-bit numbers", by=0, over="at the longest T measured"),
        Says("at least", "allocation in all, per call of its forward pass,", ("averaging",),
             by="three T × T matrices of 32-bit numbers", over="at the longest T measured")))
def averaging_allocates_its_matrix_every_call():
    T = _t_max("average")
    big, total = (record("average", "forward", T, f) for f in ("largest_bytes", "allocated_bytes"))
    return Outcome(big == _square_bytes(T) and total >= 3 * _square_bytes(T),
                   f"at T = {T}: largest block {big:,} bytes, {total:,} in all; a T × T matrix is "
                   f"{_square_bytes(T):,}", margin=room(total, 3 * _square_bytes(T), above=True))


@claim(Says("less", "size in bytes", ("the largest block attention's timed forward pass allocates",
                                       "a T × T matrix of 32-bit numbers"),
            over=f"at every T measured from {LARGE_T} up: the scores are never stored whole"))
def attention_stores_no_score_matrix():
    T, big = measured("attend", "forward")
    T, big = zip(*[(t, record("attend", "forward", t, "largest_bytes")) for t in T if t >= LARGE_T])
    ok = all(b < _square_bytes(t) for t, b in zip(T, big))
    return Outcome(ok, "; ".join(f"T = {t}: largest {b:,} bytes, T × T {_square_bytes(t):,}" for t, b in zip(T, big)),
                   margin=min(room(b, _square_bytes(t), above=False) for t, b in zip(T, big)))


@claim(Says("less", "forward time", ("the product alone", "attention", "averaging as written"),
            over="at the longest T measured (the product alone: averaging with its matrix built once and kept)",
            lower_is_better=True))
def averaging_product_alone_beats_attention():
    T = _t_max()
    kept, att, avg = at(KEPT, "forward", T), at("attend", "forward", T), at("average", "forward", T)
    return Outcome(kept < att and kept < avg,
                   f"at T = {T}: matrix kept {kept * 1e3:.2f} ms, attend {att * 1e3:.2f} ms, "
                   f"average as written {avg * 1e3:.2f} ms",
                   margin=min(room(kept, att, above=False), room(kept, avg, above=False)))


LAST_STEP = f"from T = {LENGTHS[-2]} to {LENGTHS[-1]}"


@claim((Says("greater", "growth ratio (how many times it grows)", ("averaging's forward time", "its count"),
             over=LAST_STEP),
        Says("greater", "growth ratio (how many times its time grows)",
             ("building averaging's matrix (as written, less the product with its matrix kept)", "its product alone"),
             over=LAST_STEP)))
def building_the_matrix_outgrows_the_count():
    T, before = LENGTHS[-1], LENGTHS[-2]
    avg = at("average", "forward", T) / at("average", "forward", before)
    count = costs("average", T, D).forward / costs("average", before, D).forward
    build, kept = build_seconds(T) / build_seconds(before), at(KEPT, "forward", T) / at(KEPT, "forward", before)
    return Outcome(avg > count and build > kept,
                   f"T = {before} -> {T}: measured x{avg:.2f}, counted x{count:.2f}; building x{build:.2f}, "
                   f"product alone x{kept:.2f}",
                   margin=min(room(avg, count, above=True), room(build, kept, above=True)))


@claim((Says("at most", "peak memory held at once by its forward pass", ("averaging",),
             by="half the processor's last-level cache", over=f"at T = {LENGTHS[-2]}"),
        Says("at least", "peak memory held at once by its forward pass", ("averaging",),
             by="the whole last-level cache", over=f"at T = {LENGTHS[-1]}"),
        Says("at least", f"time per allocated byte spent building its matrices at T = {LENGTHS[-1]}", ("averaging",),
             by=f"{PER_BYTE:g} times that at T = {LENGTHS[-2]}")))
def matrices_fill_the_cache():
    T, before = LENGTHS[-1], LENGTHS[-2]
    cache = timings().measured_on.get("last_level_cache_bytes")
    if not cache:
        return Outcome(False, "the timings file does not record the last-level cache (measure again)")
    small, large = (record("average", "forward", t, "peak_bytes") for t in (before, T))
    ratio = build_per_byte_ratio(T, before)
    return both(at_most(small, cache / 2, f"held at once {small:,} bytes at T = {before}"),
                at_least(large, cache, f"{large:,} at T = {T}; cache {cache:,}"),
                at_least(ratio, PER_BYTE, f"time per byte built x{ratio:.2f}"))


@claim((Says("at most", "forward time as a share of attention's", ("the running sum",), by=RUNNING_SHARE,
             over="at the longest T measured"),
        Says("less", "forward time", ("the running sum", "the product alone"),
             over="at the longest T measured (the product alone: averaging with its matrix kept)",
             lower_is_better=True)))
def running_sum_is_far_faster():
    T = _t_max()
    run, att, kept = at(RUNNING, "forward", T), at("attend", "forward", T), at(KEPT, "forward", T)
    return both(at_most(run / att, RUNNING_SHARE, f"at T = {T}: running sum {run * 1e3:.3f} ms, attend "
                                                  f"{att * 1e3:.2f} ms"),
                Outcome(run < kept, f"matrix kept {kept * 1e3:.2f} ms", margin=room(run, kept, above=False)))


UNCACHED = ("attention's new token without the cache", "its new token with the cache")


@claim((Says("greater", "growth ratio on every step of T (how many times its time grows)", UNCACHED,
             over=f"from T = {LARGE_T} up, as measured"),
        Says("greater", "fitted log-log slope in time", UNCACHED, by=FASTER,
             over=f"from T = {LARGE_T} up, as measured")))
def uncached_grows_faster_than_cached():
    u, c = measured_slope("attend", "token uncached"), measured_slope("attend", "token cached")
    su, sc = measured_steps("attend", "token uncached"), measured_steps("attend", "token cached")
    every = all(x > y for (_, _, x), (_, _, y) in zip(su, sc))
    return Outcome(u - c >= FASTER and every,
                   f"slopes without the cache {u:.3f}, with it {c:.3f}; steps without {_steps(su)}; with {_steps(sc)}",
                   margin=min(room(u - c, FASTER, above=True),
                              *(room(x, y, above=True) for (_, _, x), (_, _, y) in zip(su, sc))))


@claim(Says("at least", "speed-up from the KV cache for a new token", ("attention",), by=f"{SPEEDUP:g} times",
            over="at the longest context measured"))
def the_cache_pays_at_length():
    T = longest("attend", "token cached")
    s = cache_speedup("attend", T)
    return at_least(s, SPEEDUP, f"{s:.1f} times at T = {T}")


RECOMPUTE_T = f"at T = {rc.LONG} in the recompute timings"


@claim((Says("equal", f"the width d of the stored recompute timings and the width the counts use ({rc.D})", by=0),
        Says("at least", "speed-up for a new token over recomputing only what it needs", ("the cache",),
             by=f"{BEATS_RECOMPUTING:g} times", over=RECOMPUTE_T),
        Says("greater", "time per new token", ("reading everything again", "recomputing only what it needs"),
             over=RECOMPUTE_T, lower_is_better=True),
        Says("at least", "speed-up for a new token over reading everything again", ("the cache",),
             by=f"{SPEEDUP:g} times", over=RECOMPUTE_T)))
def the_cache_beats_both_ways_at_length():
    t, T = rc.recompute_timings(), rc.LONG
    u, r, c = (rc.seconds(m, T) for m in (rc.UNCACHED, rc.RECOMPUTED, rc.CACHED))
    return Outcome(t.d == rc.D and r >= BEATS_RECOMPUTING * c and u > r and u >= SPEEDUP * c,
                   f"at T = {T}: reading again {u * 1e3:.3f} ms, recomputing {r * 1e3:.3f} ms, "
                   f"cache {c * 1e3:.3f} ms (d = {t.d})",
                   margin=min(room(r / c, BEATS_RECOMPUTING, above=True), room(u, r, above=True),
                              room(u / c, SPEEDUP, above=True)))


@claim(Says("at most", "measured speed-up over recomputing", ("the cache",),
            by=f"1/{COUNT_GAP:g} of the speed-up the counts give", over="at the longest T"))
def the_cache_gains_less_than_its_count():
    T = rc.LONG
    m, c = rc.speedup(rc.RECOMPUTED, T), rc.counted_speedup(rc.RECOMPUTED, T)
    return at_least(c / m, COUNT_GAP, f"at T = {T}: measured {m:.2f} times, counted {c:.1f} times")


@claim(Says("at most", "time per new token", ("recomputing",), by="the cache's",
            over=f"at T = {rc.SHORT} (the cache saves nothing at all)", lower_is_better=True))
def short_contexts_gain_nothing_from_the_cache():
    r, c = rc.seconds(rc.RECOMPUTED, rc.SHORT), rc.seconds(rc.CACHED, rc.SHORT)
    return at_most(r, c, f"at T = {rc.SHORT}: recomputing {r * 1e3:.4f} ms, cache {c * 1e3:.4f} ms")


@claim(Says("at most", "how many times the cached token's time grows, as a share of how many times its count grows,",
            by="1/4", over=f"from T = {rc.SHORT} to {rc.LONG}"))
def the_cached_token_is_mostly_overhead():
    timed, counted_ = rc.cached_growth()
    return Outcome(4 * timed <= counted_, f"time x{timed:.2f}, count x{counted_:.1f}",
                   margin=room(counted_ / timed, 4, above=True))


def _flat(model: str, measure: str) -> Outcome:
    T, s = measured(model, measure)
    slope, spread = measured_slope(model, measure, from_T=0), max(s) / min(s)
    return Outcome(abs(slope) < FLAT and spread <= FLAT_SPREAD,
                   f"slope {slope:.3f} over T = {T[0]}..{T[-1]}; slowest / fastest {spread:.2f}",
                   margin=min(room(abs(slope), FLAT, above=False), room(spread, FLAT_SPREAD, above=False)))


@claim((Says("flat", "time per new token", ("the running sum",), by=FLAT,
             over="at every T measured", strength=FLATNESS),
        Says("at most", "slowest time per new token", ("the running sum",), by=f"{FLAT_SPREAD:g} times its fastest",
             over="over the T measured")))
def running_sum_is_flat():
    return _flat("average", "token cached")


@claim((Says("flat", "time per new token", ("the story MLP",), by=FLAT, over="as T grows", strength=FLATNESS),
        Says("at most", "slowest time per new token", ("the story MLP",), by=f"{FLAT_SPREAD:g} times its fastest",
             over="over the T measured")))
def mlp_time_is_flat():
    return _flat(MLP, "token uncached")


@claim(Says("at least", "speed-up from its KV cache for a new token (against reading everything again)",
            ("the four-head story model",), by=f"{STORY_SPEEDUP:g} times", over="at its full context"))
def four_head_cache_pays():
    T = longest(FOUR_HEAD, "token cached")
    s = cache_speedup(FOUR_HEAD, T)
    return at_least(s, STORY_SPEEDUP, f"{s:.1f} times at T = {T}")

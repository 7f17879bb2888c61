"""Part 2B's claims: each sentence about counts and stored timings, checked with a tolerance."""
from __future__ import annotations

import math

from ...claims import Outcome, Registry, at_least, at_most, room, trend
from ...says import Says
from ...strength import FLAT as FLATNESS
from ...costs import GPT2_SMALL, GPT3, MIXERS, costs, kv_cache_bytes
from ...published.story import FOUR_HEAD, MLP, load_published
from ...published.timings import timings
from .states.growth import (KEPT, LARGE_T, LENGTHS, RUNNING, SHOWN_D, SHOWN_T, SMALL_T, at, build_per_byte_ratio,
                            build_seconds, cache_speedup, counted, counted_slope, counted_steps, longest,
                            macs_per_second, measured, measured_slope, measured_steps, rate, record)
from .states import recompute as rc
from .states.scale import scale_rows

CONTEXT = Registry()
claim = CONTEXT.claim

D = 64
SLOPE_RANGE = (1.2, 2.2)     # attention's measured forward slope at large T
QUADRATIC = 1.8              # the count's forward slope from LARGE_T, at least ("nearly like T²")
LINEAR = 0.8                 # a cached token's counted slope from LARGE_T, at least ("like T")
CACHE_CUT = 10               # a cached token's count at SHOWN_T: at most this fraction of reading everything again
FASTER = 0.8                 # "grows faster": slopes apart by at least this
OVERHEAD = 0.5               # at small T, measured growth at most this share of counted growth
FIXED_SHARE = 0.5            # "mostly fixed cost": the fixed share of the first pass, at least
SPEEDUP = 10.0               # the cache's speed-up at the longest measured context, at least
STORY_SPEEDUP = 2.0          # the four-head model's cache speed-up at its context, at least
FLAT = FLATNESS.limit        # "the same time at every T", "flat": |slope| below this (compute.strength) ...
FLAT_SPREAD = 2.5            # ... and the slowest time at most this many times the fastest
RUNNING_SHARE = 0.1          # the running sum at the longest T: at most this share of attention's time
SMALL_SHARE = 0.05           # "only": GPT-3's share of a new token's arithmetic spent reading its context
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


# --- the counts (sections 1 and 2) ---

@claim(f"Concatenation's parameter count rises at every step of T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D}).")
def concat_weights_grow_with_the_window():
    return trend(counted("concatenate", "parameters", D), [f"T = {t}" for t in LENGTHS], "rises", decimals=0)


@claim(f"At every T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D}) a training pass counts exactly 3 times the forward "
       "multiply-adds for concatenation and attention; for averaging between 2 and 3 times, falling at every step.")
def training_costs_three_forward_passes():
    exact = all(costs(m, T, D).training == 3 * costs(m, T, D).forward for m in ("concatenate", "attend")
                for T in LENGTHS)
    ratios = [costs("average", T, D).training / costs("average", T, D).forward for T in LENGTHS]
    falling = trend(ratios, [f"T = {t}" for t in LENGTHS], "falls")
    between = all(2 < r < 3 for r in ratios)
    return Outcome(exact and between and falling.holds,
                   f"concatenation and attention exactly 3: {exact}; "
                   f"averaging's training / forward: {falling.evidence}")


@claim("Attention's KV cache, as a story model allocates it, holds a key and a value of every earlier token: "
       "exactly 2 × n_layer × T × d_model numbers.")
def kv_cache_bytes_equal_the_formula():
    model = load_published(FOUR_HEAD).model
    cfg = model.cfg
    held = sum(c.K.nbytes + c.V.nbytes for c in model.new_caches(1))
    want = kv_cache_bytes(cfg.n_layer, cfg.d_model, cfg.context, bytes_per_number=4)
    return Outcome(held == want, f"allocated {held:,} bytes, formula {want:,}")


@claim(Says("greater", "parameter count", ("concatenation", "attention"), over=f"at every T from {LENGTHS[0]} to "
            f"{LENGTHS[-1]} (d = {D})", lower_is_better=True))
def concatenation_pays_in_parameters():
    c, a = counted("concatenate", "parameters", D), counted("attend", "parameters", D)
    shown = LENGTHS.index(SHOWN_T)
    return Outcome(all(x > y for x, y in zip(c, a)),
                   f"at T = {LENGTHS[0]}: {c[0]:,} against {a[0]:,}; at T = {SHOWN_T}: "
                   f"{c[shown]:,} against {a[shown]:,}")


@claim(f"Attention's parameter count is the same at every T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D}).")
def attention_parameters_do_not_depend_on_T():
    p = counted("attend", "parameters", D)
    return Outcome(len(set(p)) == 1, f"parameters at each T: {', '.join(f'{x:,}' for x in p)}")


@claim(f"At T = {SHOWN_T}, d = {SHOWN_D}, a new attention token with the KV cache counts at most 1/{CACHE_CUT} of the "
       "multiply-adds of reading everything again, which costs as much as a whole forward pass; recomputing only "
       "what the new token needs (every key and value, its own query) costs less than reading everything again "
       "and more than the cache.")
def the_cache_cuts_a_new_tokens_count():
    c = costs("attend", SHOWN_T, SHOWN_D)
    return Outcome(c.token_uncached == c.forward and CACHE_CUT * c.token_cached <= c.token_uncached
                   and c.token_cached < c.token_recomputed < c.token_uncached,
                   f"forward {c.forward:,}, uncached {c.token_uncached:,}, recomputed {c.token_recomputed:,}, "
                   f"cached {c.token_cached:,}")


@claim(f"Attention's two forward terms 4Td² and 2T²d are equal at T = 2d and the T² term is the larger at every "
       f"length past it; the count's log-log slope rises at every step from {LENGTHS[0]} to {LENGTHS[-1]}, stays "
       f"below 2, and fitted from T = {LARGE_T} to {LENGTHS[-1]} is at least {QUADRATIC} (d = {D}).")
def attention_count_turns_quadratic():
    equal = 4 * (2 * D) * D * D == 2 * (2 * D) ** 2 * D
    past = all(2 * T * T * D > 4 * T * D * D for T in LENGTHS if T > 2 * D)
    local = [math.log2(f) for _, _, f in counted_steps("attend", "forward", D, LENGTHS)]
    rising = trend(local, [f"{a}->{b}" for a, b, _ in counted_steps("attend", "forward", D, LENGTHS)], "rises")
    fitted = counted_slope("attend", "forward", D)
    return Outcome(equal and past and rising.holds and max(local) < 2 and fitted >= QUADRATIC,
                   f"equal at 2d: {equal}; T² term larger past it: {past}; step slopes {rising.evidence}; "
                   f"fitted from {LARGE_T}: {fitted:.3f}")


@claim(f"With the KV cache, a new token's counted log-log slope rises at every step from {LENGTHS[0]} to "
       f"{LENGTHS[-1]} and stays below 1; fitted from T = {LARGE_T} to {LENGTHS[-1]} it is at least {LINEAR} "
       f"(d = {D}).")
def cached_token_count_grows_like_T():
    parts = counted_steps("attend", "token_cached", D, LENGTHS)
    local = [math.log2(f) for _, _, f in parts]
    rising = trend(local, [f"{a}->{b}" for a, b, _ in parts], "rises")
    fitted = counted_slope("attend", "token_cached", D)
    return Outcome(rising.holds and max(local) < 1 and fitted >= LINEAR,
                   f"step slopes {rising.evidence}; fitted from {LARGE_T}: {fitted:.3f}")


@claim(f"By count, averaging's forward pass is the cheapest of the three, below attention's and concatenation's, at "
       f"every T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D}).")
def averaging_is_cheapest_by_count():
    f = {m: counted(m, "forward", D) for m in MIXERS}
    ok = all(f["average"][i] < min(f["attend"][i], f["concatenate"][i]) for i in range(len(LENGTHS)))
    return Outcome(ok, f"at T = {LENGTHS[-1]}: average {f['average'][-1]:,}, attend {f['attend'][-1]:,}, "
                       f"concatenate {f['concatenate'][-1]:,}")


# --- the stored timings (sections 3 and 4) ---

@claim(f"From T = {LENGTHS[0]} to {SMALL_T}, measured forward time of attention grows by less than {OVERHEAD:g} of "
       f"what the count predicts, and if time were a fixed cost plus work at one rate, the fixed cost would be more "
       f"than {FIXED_SHARE:g} of the first pass.")
def small_contexts_are_overhead():
    T, s = measured("attend", "forward")
    m = s[T.index(SMALL_T)] / s[0]
    c = costs("attend", SMALL_T, D).forward / costs("attend", T[0], D).forward
    fixed = (c - m) / (c - 1)          # t = a + b·work through both points: a / t at the first
    return Outcome(m < OVERHEAD * c and fixed > FIXED_SHARE,
                   f"measured × {m:.2f}, counted × {c:.2f} from T = {T[0]} to {SMALL_T}; fixed share {fixed:.2f}")


@claim(f"Measured from T = {LARGE_T} to the longest T, attention's forward time grows with a log-log slope between "
       f"{SLOPE_RANGE[0]} and {SLOPE_RANGE[1]}.")
def attention_forward_slope_in_range():
    s = measured_slope("attend", "forward")
    return Outcome(SLOPE_RANGE[0] <= s <= SLOPE_RANGE[1], f"slope {s:.3f}",
                   margin=min(room(s, SLOPE_RANGE[0], above=True), room(s, SLOPE_RANGE[1], above=False)))


@claim(f"From T = {LARGE_T} to the longest T, attention's measured forward time grows less than its count on every "
       "step, and its fitted slope is below the count's.")
def attention_time_grows_slower_than_its_count():
    m = measured_steps("attend", "forward")
    c = counted_steps("attend", "forward", D, [a for a, _, _ in m] + [m[-1][1]])
    slower = all(x < y for (_, _, x), (_, _, y) in zip(m, c))
    ms, cs = measured_slope("attend", "forward"), counted_slope("attend", "forward", D)
    return Outcome(slower and ms < cs, f"measured {_steps(m)}; counted {_steps(c)}; slopes {ms:.3f} against {cs:.3f}")


@claim(f"Attention's forward pass does more counted multiply-adds per second at the longest context than at "
       f"T = {SMALL_T}: its time grows more slowly than its count.")
def large_products_run_faster_per_mac():
    T = longest("attend", "forward")
    small, large = macs_per_second("attend", SMALL_T), macs_per_second("attend", T)
    return Outcome(large > small, f"{small / 1e9:.2f} GMAC/s at T = {SMALL_T}, {large / 1e9:.2f} at T = {T}",
                   margin=room(large, small, above=True))


@claim(f"A plain dense product (averaging's, with its matrix kept) does more multiply-adds per second at the longest "
       f"T than at T = {SMALL_T}.")
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


@claim("At the longest T measured, one call of averaging's forward pass allocates a whole T × T matrix of 32-bit "
       "numbers (its largest block) and at least three of them in all.")
def averaging_allocates_its_matrix_every_call():
    T = _t_max("average")
    big, total = (record("average", "forward", T, f) for f in ("largest_bytes", "allocated_bytes"))
    return Outcome(big == _square_bytes(T) and total >= 3 * _square_bytes(T),
                   f"at T = {T}: largest block {big:,} bytes, {total:,} in all; a T × T matrix is "
                   f"{_square_bytes(T):,}")


@claim(f"At every T measured from {LARGE_T} up, the largest block that attention's timed forward pass allocates is "
       "smaller than a T × T matrix of 32-bit numbers: the scores are never stored whole.")
def attention_stores_no_score_matrix():
    T, big = measured("attend", "forward")
    T, big = zip(*[(t, record("attend", "forward", t, "largest_bytes")) for t in T if t >= LARGE_T])
    ok = all(b < _square_bytes(t) for t, b in zip(T, big))
    return Outcome(ok, "; ".join(f"T = {t}: largest {b:,} bytes, T × T {_square_bytes(t):,}" for t, b in zip(T, big)))


@claim("At the longest T measured, averaging with its matrix built once and kept (the product alone) takes less "
       "time than attention, and less than averaging as written.")
def averaging_product_alone_beats_attention():
    T = _t_max()
    kept, att, avg = at(KEPT, "forward", T), at("attend", "forward", T), at("average", "forward", T)
    return Outcome(kept < att and kept < avg,
                   f"at T = {T}: matrix kept {kept * 1e3:.2f} ms, attend {att * 1e3:.2f} ms, "
                   f"average as written {avg * 1e3:.2f} ms")


@claim("On the last step of T, averaging's forward time grows more than its count, and the part spent building "
       "its matrix (as written, less the product with the matrix kept) grows more than the product alone.")
def building_the_matrix_outgrows_the_count():
    T, before = LENGTHS[-1], LENGTHS[-2]
    avg = at("average", "forward", T) / at("average", "forward", before)
    count = costs("average", T, D).forward / costs("average", before, D).forward
    build, kept = build_seconds(T) / build_seconds(before), at(KEPT, "forward", T) / at(KEPT, "forward", before)
    return Outcome(avg > count and build > kept,
                   f"T = {before} -> {T}: measured x{avg:.2f}, counted x{count:.2f}; building x{build:.2f}, "
                   f"product alone x{kept:.2f}")


@claim(f"At the second-longest T, the most averaging's forward pass holds at once is at most half the processor's "
       f"last-level cache; at the longest T it is at least the whole cache, and building its matrices costs at least "
       f"{PER_BYTE} times as much time per allocated byte.")
def matrices_fill_the_cache():
    T, before = LENGTHS[-1], LENGTHS[-2]
    cache = timings().measured_on.get("last_level_cache_bytes")
    if not cache:
        return Outcome(False, "the timings file does not record the last-level cache (measure again)")
    small, large = (record("average", "forward", t, "peak_bytes") for t in (before, T))
    ratio = build_per_byte_ratio(T, before)
    return Outcome(small <= cache / 2 and large >= cache and ratio >= PER_BYTE,
                   f"held at once {small:,} bytes at T = {before}, {large:,} at T = {T}; cache {cache:,}; "
                   f"time per byte built x{ratio:.2f}")


@claim(f"At the longest T measured, averaging as a running sum takes at most {RUNNING_SHARE:g} of attention's time "
       "and less than the product with the matrix kept.")
def running_sum_is_far_faster():
    T = _t_max()
    run, att, kept = at(RUNNING, "forward", T), at("attend", "forward", T), at(KEPT, "forward", T)
    return Outcome(run <= RUNNING_SHARE * att and run < kept,
                   f"at T = {T}: running sum {run * 1e3:.3f} ms, attend {att * 1e3:.2f} ms, matrix kept "
                   f"{kept * 1e3:.2f} ms")


@claim(f"Measured from T = {LARGE_T}, a new token without the cache grows faster with T than with it: on every step, "
       f"and in fitted slope by at least {FASTER}.")
def uncached_grows_faster_than_cached():
    u, c = measured_slope("attend", "token uncached"), measured_slope("attend", "token cached")
    su, sc = measured_steps("attend", "token uncached"), measured_steps("attend", "token cached")
    every = all(x > y for (_, _, x), (_, _, y) in zip(su, sc))
    return Outcome(u - c >= FASTER and every,
                   f"slopes without the cache {u:.3f}, with it {c:.3f}; steps without {_steps(su)}; with {_steps(sc)}")


@claim(f"At the longest context measured, the cache makes a new attention token at least {SPEEDUP:g} times faster.")
def the_cache_pays_at_length():
    T = longest("attend", "token cached")
    s = cache_speedup("attend", T)
    return at_least(s, SPEEDUP, f"{s:.1f} times at T = {T}")


@claim(f"In the recompute timings (d = {rc.D}), at the longest T a new token from the cache is at least "
       f"{BEATS_RECOMPUTING:g} times faster than recomputing only what it needs, which is faster than reading "
       f"everything again; the cache beats reading everything again by at least {SPEEDUP:g} times.")
def the_cache_beats_both_ways_at_length():
    t, T = rc.recompute_timings(), rc.LONG
    u, r, c = (rc.seconds(m, T) for m in (rc.UNCACHED, rc.RECOMPUTED, rc.CACHED))
    return Outcome(t.d == rc.D and r >= BEATS_RECOMPUTING * c and u > r and u >= SPEEDUP * c,
                   f"at T = {T}: reading again {u * 1e3:.3f} ms, recomputing {r * 1e3:.3f} ms, "
                   f"cache {c * 1e3:.3f} ms (d = {t.d})")


@claim(f"At the longest T the cache's measured speed-up over recomputing is at most 1/{COUNT_GAP:g} of the "
       "speed-up the counts give.")
def the_cache_gains_less_than_its_count():
    T = rc.LONG
    m, c = rc.speedup(rc.RECOMPUTED, T), rc.counted_speedup(rc.RECOMPUTED, T)
    return at_least(c / m, COUNT_GAP, f"at T = {T}: measured {m:.2f} times, counted {c:.1f} times")


@claim(f"At T = {rc.SHORT} the cache saves nothing at all: recomputing what a new token needs is no slower than "
       "the cache.")
def short_contexts_gain_nothing_from_the_cache():
    r, c = rc.seconds(rc.RECOMPUTED, rc.SHORT), rc.seconds(rc.CACHED, rc.SHORT)
    return at_most(r, c, f"at T = {rc.SHORT}: recomputing {r * 1e3:.4f} ms, cache {c * 1e3:.4f} ms")


@claim(f"From T = {rc.SHORT} to {rc.LONG} the cached token's time grows less than a quarter as many times as "
       "its count.")
def the_cached_token_is_mostly_overhead():
    timed, counted_ = rc.cached_growth()
    return Outcome(4 * timed < counted_, f"time x{timed:.2f}, count x{counted_:.1f}",
                   margin=room(counted_ / timed, 4, above=True))


def _flat(model: str, measure: str) -> Outcome:
    T, s = measured(model, measure)
    slope, spread = measured_slope(model, measure, from_T=0), max(s) / min(s)
    return Outcome(abs(slope) < FLAT and spread <= FLAT_SPREAD,
                   f"slope {slope:.3f} over T = {T[0]}..{T[-1]}; slowest / fastest {spread:.2f}",
                   margin=min(room(abs(slope), FLAT, above=False), room(spread, FLAT_SPREAD, above=False)))


@claim(f"Averaging's cached token, a running sum, takes about the same time at every T: |slope| below {FLAT}, the "
       f"slowest at most {FLAT_SPREAD:g} times the fastest.", strength=FLATNESS)
def running_sum_is_flat():
    return _flat("average", "token cached")


@claim(f"The story MLP's time per new token stays flat as T grows: |slope| below {FLAT}, the slowest at most "
       f"{FLAT_SPREAD:g} times the fastest.", strength=FLATNESS)
def mlp_time_is_flat():
    return _flat(MLP, "token uncached")


@claim(f"At its full context, the four-head story model writes a new token at least {STORY_SPEEDUP:g} times faster "
       "with its KV cache than reading everything again.")
def four_head_cache_pays():
    T = longest(FOUR_HEAD, "token cached")
    s = cache_speedup(FOUR_HEAD, T)
    return at_least(s, STORY_SPEEDUP, f"{s:.1f} times at T = {T}")


# --- at scale (section 5) ---

@claim("At its full context, GPT-3 175B's KV cache for one sequence takes more than a gigabyte in 16-bit numbers.")
def gpt3_cache_in_gigabytes():
    b = kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context)
    return Outcome(b > 1e9, f"{b:,} bytes")


@claim(f"From the story model to GPT-2 small to GPT-3, at full context, the KV cache grows at every step while the "
       f"share of a new token's multiply-adds spent reading the context falls at every step, to below "
       f"{SMALL_SHARE:.0%} for GPT-3.")
def at_scale_memory_before_arithmetic():
    rows = scale_rows()
    names = [r["name"] for r in rows]
    cache = trend([r["kv_bytes"] for r in rows], names, "rises", decimals=0)
    share = trend([r["attention_share"] for r in rows], names, "falls")
    last = rows[-1]
    return Outcome(cache.holds and share.holds and last["name"] == GPT3.name and last["attention_share"] < SMALL_SHARE,
                   f"cache bytes {cache.evidence}; share {share.evidence}")


@claim("Counting the output projection onto the vocabulary too, the share of a new token's multiply-adds spent "
       "reading the context is lower still, for GPT-2 small and for GPT-3.")
def the_output_projection_lowers_the_share():
    rows = {r["name"]: r for r in scale_rows()}
    lower = {n: (rows[n]["attention_share_with_output"], rows[n]["attention_share"])
             for n in (GPT2_SMALL.name, GPT3.name)}
    return Outcome(len(lower) >= 2 and all(w < wo for w, wo in lower.values()),
                   "; ".join(f"{n}: {w:.4f} with the output, {wo:.4f} without" for n, (w, wo) in lower.items()))


def check_all():
    return CONTEXT.check_all()


def require_all(source: str = "the counts and timings of Part 2B") -> None:
    CONTEXT.require_all(source=source)

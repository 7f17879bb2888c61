"""Part 2B's claims: each sentence about counts and stored timings, checked with a tolerance."""
from __future__ import annotations

import math

from ...claims import Outcome, Registry, at_least, room, trend
from ...says import Says
from ...costs import GPT2_SMALL, GPT3, MIXERS, costs, kv_cache_bytes
from ...published.story import FOUR_HEAD, load_published
from .states.growth import (D, KEPT, LARGE_T, LENGTHS, RUNNING, SHOWN_D, SHOWN_T, counted, counted_slope,  # noqa: F401
                            counted_steps)                # KEPT, RUNNING: the mixers' names, as tests read them here
from .states.scale import scale_rows
from . import claims_timed

CONTEXT = Registry()
claim = CONTEXT.claim

QUADRATIC = 1.8              # the count's forward slope from LARGE_T, at least ("nearly like T²")
LINEAR = 0.8                 # a cached token's counted slope from LARGE_T, at least ("like T")
CACHE_CUT = 10               # a cached token's count at SHOWN_T: at most this fraction of reading everything again
SMALL_SHARE = 0.05           # "only": GPT-3's share of a new token's arithmetic spent reading its context


# --- the counts (sections 1 and 2) ---

@claim(Says("rises", "parameter count", ("concatenation",), over=f"at every step of T from {LENGTHS[0]} to "
            f"{LENGTHS[-1]} (d = {D})", lower_is_better=True))
def concat_weights_grow_with_the_window():
    return trend(counted("concatenate", "parameters", D), [f"T = {t}" for t in LENGTHS], "rises", decimals=0)


EVERY_T = f"at every T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D})"
TRAINING = "ratio of a training pass's multiply-adds to the forward pass's"


@claim((Says("equal", "concatenation's and attention's multiply-adds of a training pass and 3 times those of their "
             "forward pass", by=0, over=EVERY_T),
        Says("falls", TRAINING, ("averaging",), over=f"at every step of T from {LENGTHS[0]} to {LENGTHS[-1]} "
             f"(d = {D})"),
        Says("at least", TRAINING, ("averaging",), by=2, over=EVERY_T),
        Says("at most", TRAINING, ("averaging",), by=3, over=EVERY_T)))
def training_costs_three_forward_passes():
    exact = all(costs(m, T, D).training == 3 * costs(m, T, D).forward for m in ("concatenate", "attend")
                for T in LENGTHS)
    ratios = [costs("average", T, D).training / costs("average", T, D).forward for T in LENGTHS]
    falling = trend(ratios, [f"T = {t}" for t in LENGTHS], "falls")
    between = all(2 <= r <= 3 for r in ratios)
    return Outcome(exact and between and falling.holds,
                   f"concatenation and attention exactly 3: {exact}; "
                   f"averaging's training / forward: {falling.evidence}",
                   margin=min(falling.margin, room(min(ratios), 2, above=True), room(max(ratios), 3, above=False)))


@claim(Says("equal", "the bytes a story model allocates for attention's KV cache and the bytes of "
            "2 × n_layer × T × d_model 32-bit numbers (a key and a value of every earlier token)", by=0,
            over="at its full context"))
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
                   f"{c[shown]:,} against {a[shown]:,}",
                   margin=min(room(x, y, above=True) for x, y in zip(c, a)))


@claim(Says("equal", "attention's parameter counts", by=0, over=EVERY_T))
def attention_parameters_do_not_depend_on_T():
    p = counted("attend", "parameters", D)
    return Outcome(len(set(p)) == 1, f"parameters at each T: {', '.join(f'{x:,}' for x in p)}")


SHOWN = f"at T = {SHOWN_T}, d = {SHOWN_D}"
NEW_TOKEN = "cost in multiply-adds, for a new attention token,"


@claim((Says("equal", "the multiply-adds of a new attention token that reads everything again and of a whole "
             "forward pass", by=0, over=SHOWN),
        Says("at most", "cost in multiply-adds for a new attention token, as a share of reading everything again,",
             ("the KV cache",), by=f"1/{CACHE_CUT}", over=SHOWN),
        Says("less", NEW_TOKEN, ("recomputing only what it needs (every key and value, its own query)",
                                 "reading everything again"), over=SHOWN, lower_is_better=True),
        Says("greater", NEW_TOKEN, ("recomputing only what it needs", "the KV cache"), over=SHOWN,
             lower_is_better=True)))
def the_cache_cuts_a_new_tokens_count():
    c = costs("attend", SHOWN_T, SHOWN_D)
    return Outcome(c.token_uncached == c.forward and CACHE_CUT * c.token_cached <= c.token_uncached
                   and c.token_cached < c.token_recomputed < c.token_uncached,
                   f"forward {c.forward:,}, uncached {c.token_uncached:,}, recomputed {c.token_recomputed:,}, "
                   f"cached {c.token_cached:,}",
                   margin=min(room(c.token_uncached / c.token_cached, CACHE_CUT, above=True),
                              room(c.token_recomputed, c.token_cached, above=True),
                              room(c.token_recomputed, c.token_uncached, above=False)))


STEP_SLOPE = "step-by-step log-log slope of"
EVERY_STEP = f"at every step from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D})"
FITTED = f"from T = {LARGE_T} to {LENGTHS[-1]} (d = {D})"


@claim((Says("equal", "attention's two forward terms 4Td² and 2T²d", by=0, over="at T = 2d"),
        Says("greater", "part of attention's forward count", ("the T² term", "the Td² term"),
             over=f"at every length counted past T = 2d (d = {D})"),
        Says("rises", f"{STEP_SLOPE} its forward count", ("attention",), over=EVERY_STEP),
        Says("at most", f"{STEP_SLOPE} its forward count", ("attention",), by=2, over=EVERY_STEP),
        Says("at least", "fitted log-log slope of its forward count", ("attention",), by=QUADRATIC, over=FITTED)))
def attention_count_turns_quadratic():
    equal = 4 * (2 * D) * D * D == 2 * (2 * D) ** 2 * D
    past = all(2 * T * T * D > 4 * T * D * D for T in LENGTHS if T > 2 * D)
    local = [math.log2(f) for _, _, f in counted_steps("attend", "forward", D, LENGTHS)]
    rising = trend(local, [f"{a}->{b}" for a, b, _ in counted_steps("attend", "forward", D, LENGTHS)], "rises")
    fitted = counted_slope("attend", "forward", D)
    return Outcome(equal and past and rising.holds and max(local) <= 2 and fitted >= QUADRATIC,
                   f"equal at 2d: {equal}; T² term larger past it: {past}; step slopes {rising.evidence}; "
                   f"fitted from {LARGE_T}: {fitted:.3f}",
                   margin=min(rising.margin, room(max(local), 2, above=False), room(fitted, QUADRATIC, above=True)))


@claim((Says("rises", f"{STEP_SLOPE} a new token's count with the KV cache", ("attention",), over=EVERY_STEP),
        Says("at most", f"{STEP_SLOPE} a new token's count with the KV cache", ("attention",), by=1, over=EVERY_STEP),
        Says("at least", "fitted log-log slope of a new token's count with the KV cache", ("attention",), by=LINEAR,
             over=FITTED)))
def cached_token_count_grows_like_T():
    parts = counted_steps("attend", "token_cached", D, LENGTHS)
    local = [math.log2(f) for _, _, f in parts]
    rising = trend(local, [f"{a}->{b}" for a, b, _ in parts], "rises")
    fitted = counted_slope("attend", "token_cached", D)
    return Outcome(rising.holds and max(local) <= 1 and fitted >= LINEAR,
                   f"step slopes {rising.evidence}; fitted from {LARGE_T}: {fitted:.3f}",
                   margin=min(rising.margin, room(max(local), 1, above=False), room(fitted, LINEAR, above=True)))


@claim(Says("less", "count of forward multiply-adds", ("averaging", "attention", "concatenation"),
            over=f"at every T from {LENGTHS[0]} to {LENGTHS[-1]} (d = {D}): the cheapest of the three",
            lower_is_better=True))
def averaging_is_cheapest_by_count():
    f = {m: counted(m, "forward", D) for m in MIXERS}
    least = [min(f["attend"][i], f["concatenate"][i]) for i in range(len(LENGTHS))]
    ok = all(f["average"][i] < least[i] for i in range(len(LENGTHS)))
    return Outcome(ok, f"at T = {LENGTHS[-1]}: average {f['average'][-1]:,}, attend {f['attend'][-1]:,}, "
                       f"concatenate {f['concatenate'][-1]:,}",
                   margin=min(room(a, b, above=False) for a, b in zip(f["average"], least)))


# --- the stored timings (sections 3 and 4): claims_timed.py ---

CONTEXT.claims.update(claims_timed.TIMED.claims)
SLOPE_RANGE = claims_timed.SLOPE_RANGE       # the page prints the range the measured slope is checked against


# --- at scale (section 5) ---

SCALE = ("the story model", GPT2_SMALL.name, GPT3.name)     # the rows of the scale table, in order


@claim(Says("at least", "KV cache for one sequence in 16-bit numbers", (GPT3.name,), by="a gigabyte",
            over="at its full context"))
def gpt3_cache_in_gigabytes():
    b = kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context)
    return at_least(b, 1e9, f"{b:,} bytes")


@claim((Says("rises", "KV cache", SCALE, over="at full context", along=True),
        Says("falls", "share of a new token's multiply-adds spent reading the context", SCALE, over="at full context",
             along=True),
        Says("at most", "share spent reading the context", (GPT3.name,), by=f"{SMALL_SHARE:.0%}",
             over="at full context")))
def at_scale_memory_before_arithmetic():
    rows = scale_rows()
    names = [r["name"] for r in rows]
    cache = trend([r["kv_bytes"] for r in rows], names, "rises", decimals=0)
    share = trend([r["attention_share"] for r in rows], names, "falls")
    last = rows[-1]
    return Outcome(cache.holds and share.holds and last["name"] == GPT3.name and last["attention_share"] <= SMALL_SHARE,
                   f"cache bytes {cache.evidence}; share {share.evidence}",
                   margin=min(cache.margin, share.margin, room(last["attention_share"], SMALL_SHARE, above=False)))


@claim(Says("falls", "the share of a new token's multiply-adds spent reading the context", (GPT2_SMALL.name, GPT3.name),
            over="when the output projection onto the vocabulary is counted too"))
def the_output_projection_lowers_the_share():
    rows = {r["name"]: r for r in scale_rows()}
    lower = {n: (rows[n]["attention_share_with_output"], rows[n]["attention_share"])
             for n in (GPT2_SMALL.name, GPT3.name)}
    return Outcome(len(lower) >= 2 and all(w < wo for w, wo in lower.values()),
                   "; ".join(f"{n}: {w:.4f} with the output, {wo:.4f} without" for n, (w, wo) in lower.items()),
                   margin=min(room(w, wo, above=False) for w, wo in lower.values()))


def check_all():
    return CONTEXT.check_all()


def require_all(source: str = "the counts and timings of Part 2B") -> None:
    CONTEXT.require_all(source=source)

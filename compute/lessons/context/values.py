"""Every number Part 2B's prose cites, as plain Python values for glue."""
from __future__ import annotations

from ...costs import GPT2_SMALL, GPT3, costs, kv_cache_bytes
from ...published.story import FOUR_HEAD
from ...published.timings import timings
from . import claims
from .measured import MB, where_measured
from .states import recompute as rc
from .scale import human_bytes
from .states.growth import (KEPT, LARGE_T, LENGTHS, RUNNING, SHOWN_D, SHOWN_T, SMALL_T, at, build_per_byte_ratio,
                            build_seconds, cache_speedup, counted_slope, longest, macs_per_second, measured,
                            measured_slope, rate, record)
from .states.scale import scale_rows


def prose_values() -> dict[str, object]:
    T_max, T_before = LENGTHS[-1], LENGTHS[-2]
    v: dict[str, object] = {"T": SHOWN_T, "d": SHOWN_D, "large_T": LARGE_T, "small_T": SMALL_T,
                            "T_min": LENGTHS[0], "T_max": T_max, "T_before": T_before, "c_from": LENGTHS[-3],
                            "where": where_measured()}
    a = costs("attend", SHOWN_T, SHOWN_D)
    v.update(att_recomputed=a.token_recomputed, att_recompute_cut=a.token_recomputed / a.token_cached)
    v.update(att_forward=a.forward, att_cached=a.token_cached, att_uncached=a.token_uncached,
             att_kept=a.kept, crossover=2 * SHOWN_D)
    v["att_forward_slope"] = counted_slope("attend", "forward", SHOWN_D)
    v["att_cached_slope"] = counted_slope("attend", "token_cached", SHOWN_D)
    v["concat_params"] = costs("concatenate", SHOWN_T, SHOWN_D).parameters
    for key, t in (("avg_train_first", LENGTHS[0]), ("avg_train_last", LENGTHS[-1])):
        c = costs("average", t, SHOWN_D)
        v[key] = c.training / c.forward
    v["att_params"] = costs("attend", SHOWN_T, SHOWN_D).parameters
    v["m_att_forward"] = measured_slope("attend", "forward")
    v["m_att_uncached"] = measured_slope("attend", "token uncached")
    v["m_att_cached"] = measured_slope("attend", "token cached")
    v["m_avg_cached"] = measured_slope("average", "token cached", from_T=0)
    cached = measured("average", "token cached")[1]
    v["avg_cached_min_ms"], v["avg_cached_max_ms"] = min(cached) * 1000, max(cached) * 1000
    v["rate_small"] = macs_per_second("attend", SMALL_T) / 1e9
    v["rate_large"] = macs_per_second("attend", longest("attend", "forward")) / 1e9
    v["rate_kept_small"] = rate(KEPT, SMALL_T) / 1e9
    v["rate_kept_large"] = rate(KEPT, T_max) / 1e9
    v["longest"] = longest("attend", "token cached")
    v["speedup"] = cache_speedup("attend", v["longest"])
    T, s = measured("attend", "forward")
    v["small_measured"] = s[T.index(SMALL_T)] / s[0]
    v["small_counted"] = costs("attend", SMALL_T, SHOWN_D).forward / costs("attend", T[0], SHOWN_D).forward
    v["first_ms"] = s[0] * 1000
    # Why averaging is timed slower than attention (section 3): the kernels, their memory, the split of its time.
    v["avg_count_max"] = costs("average", T_max, SHOWN_D).forward
    v["att_count_max"] = costs("attend", T_max, SHOWN_D).forward
    v["avg_ms"] = at("average", "forward", T_max) * 1000
    v["att_ms"] = at("attend", "forward", T_max) * 1000
    v["kept_ms"] = at(KEPT, "forward", T_max) * 1000
    v["run_ms"] = at(RUNNING, "forward", T_max) * 1000
    v["build_ms"] = build_seconds(T_max) * 1000
    v["avg_alloc_mb"] = record("average", "forward", T_max, "allocated_bytes") / MB
    v["matrix_mb"] = 4 * T_max ** 2 / MB                      # a T x T matrix of 32-bit numbers
    v["x_mb"] = T_max * SHOWN_D * 4 / MB                      # X itself
    v["att_largest_mb"] = record("attend", "forward", T_max, "largest_bytes") / MB
    v["avg_step"] = at("average", "forward", T_max) / at("average", "forward", T_before)
    v["count_step"] = costs("average", T_max, SHOWN_D).forward / costs("average", T_before, SHOWN_D).forward
    v["kept_step"] = at(KEPT, "forward", T_max) / at(KEPT, "forward", T_before)
    v["build_step"] = build_seconds(T_max) / build_seconds(T_before)
    v["peak_before_mb"] = record("average", "forward", T_before, "peak_bytes") / MB
    v["peak_max_mb"] = record("average", "forward", T_max, "peak_bytes") / MB
    v["cache_mb"] = (timings().measured_on.get("last_level_cache_bytes") or 0) / MB
    v["per_byte_ratio"] = build_per_byte_ratio(T_max, T_before)
    four_T = longest(FOUR_HEAD, "token cached")
    v["four_T"] = four_T
    v["four_speedup"] = cache_speedup(FOUR_HEAD, four_T)
    rows = {r["name"]: r for r in scale_rows()}
    v["gpt2_cache"] = human_bytes(kv_cache_bytes(GPT2_SMALL.n_layer, GPT2_SMALL.d_model, GPT2_SMALL.context))
    v["gpt3_cache"] = human_bytes(kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context))
    v["gpt3_context"] = GPT3.context
    v["gpt2_context"] = GPT2_SMALL.context
    v["gpt3_attention_share"] = rows[GPT3.name]["attention_share"]
    v["gpt2_attention_share"] = rows[GPT2_SMALL.name]["attention_share"]
    v["gpt3_share_with_output"] = rows[GPT3.name]["attention_share_with_output"]
    v["gpt2_share_with_output"] = rows[GPT2_SMALL.name]["attention_share_with_output"]
    v["gpt_vocab"] = GPT2_SMALL.vocab
    v["slope_low"], v["slope_high"] = claims.SLOPE_RANGE
    # A new token three ways, timed side by side (section 3).
    v["rc_T"], v["rc_short"] = rc.LONG, rc.SHORT
    v["rc_over_uncached"] = rc.speedup(rc.UNCACHED, rc.LONG)
    v["rc_over_recomputed"] = rc.speedup(rc.RECOMPUTED, rc.LONG)
    v["rc_counted"] = rc.counted_speedup(rc.RECOMPUTED, rc.LONG)
    v["rc_recomputed_short_ms"] = rc.seconds(rc.RECOMPUTED, rc.SHORT) * 1000
    v["rc_cached_short_ms"] = rc.seconds(rc.CACHED, rc.SHORT) * 1000
    v["rc_cached_long_ms"] = rc.seconds(rc.CACHED, rc.LONG) * 1000
    v["rc_time_growth"], v["rc_count_growth"] = rc.cached_growth()
    return v

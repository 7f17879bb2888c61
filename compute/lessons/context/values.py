"""Every number Part 2B's prose cites, as plain Python values for glue."""
from __future__ import annotations

from ...costs import GPT2_SMALL, GPT3, costs, kv_cache_bytes
from . import claims
from .counts import SHOWN_D, SHOWN_T
from .measured import where_measured
from .scale import human_bytes, scale_rows
from .states.growth import (LARGE_T, LENGTHS, SMALL_T, cache_speedup, counted_slope, longest, macs_per_second,
                            measured, measured_slope)


def prose_values() -> dict[str, object]:
    v: dict[str, object] = {"T": SHOWN_T, "d": SHOWN_D, "large_T": LARGE_T, "small_T": SMALL_T,
                            "T_min": LENGTHS[0], "T_max": LENGTHS[-1], "where": where_measured()}
    a = costs("attend", SHOWN_T, SHOWN_D)
    v.update(att_forward=a.forward, att_cached=a.token_cached, att_uncached=a.token_uncached,
             att_kept=a.kept, crossover=2 * SHOWN_D)
    v["att_forward_slope"] = counted_slope("attend", "forward", SHOWN_D)
    v["att_cached_slope"] = counted_slope("attend", "token_cached", SHOWN_D)
    v["concat_params"] = costs("concatenate", SHOWN_T, SHOWN_D).parameters
    v["att_params"] = costs("attend", SHOWN_T, SHOWN_D).parameters
    v["m_att_forward"] = measured_slope("attend", "forward")
    v["m_att_uncached"] = measured_slope("attend", "token uncached")
    v["m_att_cached"] = measured_slope("attend", "token cached")
    v["m_avg_forward"] = measured_slope("average", "forward")
    v["c_avg_forward"] = counted_slope("average", "forward", SHOWN_D)
    v["m_avg_cached"] = measured_slope("average", "token cached", from_T=0)
    v["avg_matrix_mb"] = LENGTHS[-1] ** 2 * 4 / 1e6           # the T x T averaging matrix in 32-bit numbers
    v["x_mb"] = LENGTHS[-1] * SHOWN_D * 4 / 1e6               # X itself
    v["rate_small"] = macs_per_second("attend", SMALL_T) / 1e9
    v["rate_large"] = macs_per_second("attend", longest("attend", "forward")) / 1e9
    v["longest"] = longest("attend", "token cached")
    v["speedup"] = cache_speedup("attend", v["longest"])
    T, s = measured("attend", "forward")
    v["small_measured"] = s[T.index(SMALL_T)] / s[0]
    v["small_counted"] = costs("attend", SMALL_T, SHOWN_D).forward / costs("attend", T[0], SHOWN_D).forward
    v["first_ms"] = s[0] * 1000
    four_T = longest("story-four-head", "token cached")
    v["four_T"] = four_T
    v["four_speedup"] = cache_speedup("story-four-head", four_T)
    rows = {r["name"]: r for r in scale_rows()}
    v["gpt2_cache"] = human_bytes(kv_cache_bytes(GPT2_SMALL.n_layer, GPT2_SMALL.d_model, GPT2_SMALL.context))
    v["gpt3_cache"] = human_bytes(kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context))
    v["gpt3_context"] = GPT3.context
    v["gpt2_context"] = GPT2_SMALL.context
    v["gpt3_attention_share"] = rows[GPT3.name]["attention_share"]
    v["gpt2_attention_share"] = rows[GPT2_SMALL.name]["attention_share"]
    v["slope_low"], v["slope_high"] = claims.SLOPE_RANGE
    return v

"""Part 2B's check-yourself questions: each answer computed from the formulas and the stored timings (opened on
the web page, printed at the end of the handout)."""
from __future__ import annotations

from IPython.display import HTML

from ...costs import ModelSize, costs, kv_cache_bytes, token_macs
from ...present.numbers import shown
from ...present.widgets import answer_html
from .scale import human_bytes, human_count
from .states.growth import D, LENGTHS, SHOWN_D, SHOWN_T, cache_speedup, counted, longest, measured

# Another published size to try the formulas on (not used elsewhere on the page).
GPT2_MEDIUM = ModelSize("GPT-2 medium", 24, 1024, 16, 1024,
                        "Radford et al. (2019), Language Models are Unsupervised Multitask Learners, Table 2 and "
                        "section 2.3", vocab=50257)


def kv_cache_question(size: ModelSize = GPT2_MEDIUM) -> str:
    L, d, T = size.n_layer, size.d_model, size.context
    cache, macs = kv_cache_bytes(L, d, T), sum(token_macs(size, T).values())
    answer = (f"Keys and values of {L} layers for {T:,} tokens: 2 × {L} × {T:,} × {d:,} = {cache // 2:,} numbers, "
              f"{cache:,} bytes in 16-bit numbers ({human_bytes(cache)}). One new token at T = {T:,}: "
              f"{L} × (12 × {d:,}² + 2 × {T:,} × {d:,}) = {macs:,} multiply-adds in its layers "
              f"({human_count(macs)}).")
    return answer_html(f"{size.name} has L = {L} layers of width d = {d:,} and reads up to T = {T:,} tokens "
                       f"({size.source}). How large is its KV cache for one sequence in 16-bit numbers, and how "
                       "many multiply-adds does one new token at full context cost in its layers {about}`method`?", answer)


def crossing_question() -> str:
    T_avg, s_avg = measured("average", "forward")
    T_att, s_att = measured("attend", "forward")
    att = dict(zip(T_att, s_att))
    both = [(T, s, att[T]) for T, s in zip(T_avg, s_avg) if T in att]
    slower = [T for T, a, b in both if a > b]
    first = next(T for T, _, _ in both if all(t in slower for t, _, _ in both if t >= T))
    at = {T: (a, b) for T, a, b in both}
    before = max((T for T, _, _ in both if T < first), default=None)
    said = f"from T = {first:,} on: there averaging takes {shown(at[first][0] * 1e3, '.3f')} ms against attention's " \
           f"{shown(at[first][1] * 1e3, '.3f')} ms"
    if before is not None:
        said += f", while at T = {before:,} it took {shown(at[before][0] * 1e3, '.3f')} ms against {shown(at[before][1] * 1e3, '.3f')} ms"
    return answer_html("By count, averaging reads a whole sequence more cheaply than attention at every length "
                       "{claim}`averaging_is_cheapest_by_count`. In the stored timings of this page, from which "
                       "length on is averaging the slower of the two, and why do the lines cross "
                       "{claim}`averaging_is_timed_slower_at_length`?",
                       f"Measured {said}. Averaging builds its T × T matrix of weights in memory at every call, "
                       "and attention's kernel never stores its scores (the section on the kernels measures both) "
                       "{claim}`averaging_allocates_its_matrix_every_call attention_stores_no_score_matrix`.")


def predict_parameters() -> HTML:
    """Before the counts' table: what reading a longer window costs each reader in weights."""
    first, last = LENGTHS[0], LENGTHS[-1]
    concat, attend = counted("concatenate", "parameters", D, (first, last)), counted("attend", "parameters", D, (first, last))
    return HTML(answer_html(
        f"Predict first: with rows of d = {D} numbers, how many weights do the concatenating reader and attention "
        f"each need to read T = {first} tokens, and T = {last:,} {{about}}`method`?",
        f"Concatenation: {concat[0]:,} at T = {first} and {concat[1]:,} at T = {last:,}: its first matrix has a "
        f"row for every number of the window {{claim}}`concat_weights_grow_with_the_window`. Attention holds "
        f"{attend[0]:,} at both lengths {{claim}}`attention_parameters_do_not_depend_on_T`: its four matrices "
        "act on one row at a time, whatever the length {about}`design`."))


def predict_doubling() -> HTML:
    """Before the growth figure: what one more doubling of T does to two counts."""
    before, after = LENGTHS[-2], LENGTHS[-1]
    forward, cached = counted("attend", "forward", D, (before, after)), counted("attend", "token_cached", D, (before, after))
    return HTML(answer_html(
        f"Predict first: at the last doubling counted, to T = {after:,} (d = {D}), how many times larger does "
        "attention's forward count get, and its count for a new token with the KV cache "
        "{claim}`attention_count_turns_quadratic cached_token_count_grows_like_T`?",
        f"Attention's forward count grows {shown(forward[1] / forward[0], '.2f')} times, short of 4, as its T² term "
        "takes over {claim}`attention_count_turns_quadratic`; attention's count for a cached token grows "
        f"{shown(cached[1] / cached[0], '.2f')} times, short of 2 {{claim}}`cached_token_count_grows_like_T`."))


def predict_cache_count() -> HTML:
    """At the shown T and d: a new attention token with the cache, against reading everything again."""
    c = costs("attend", SHOWN_T, SHOWN_D)
    return HTML(answer_html(
        f"Predict first: at T = {SHOWN_T} and d = {SHOWN_D}, how many times the multiply-adds of a new attention "
        "token with the KV cache does the same token cost when everything is read again {about}`method`?",
        f"For attention, {shown(c.token_uncached / c.token_cached, '.0f')} times: {c.token_uncached:,} against "
        f"{c.token_cached:,} {{claim}}`the_cache_cuts_a_new_tokens_count`. Without a cache an attention token "
        "reads the whole sequence again, a whole forward pass {claim}`the_cache_cuts_a_new_tokens_count`."))


def predict_cache_time() -> HTML:
    """At the longest T timed: how much faster the cache makes a new attention token, against its count."""
    T = longest("attend", "token cached")
    c = costs("attend", T, SHOWN_D)
    return HTML(answer_html(
        f"Predict first: by count, a new attention token at T = {T} takes {c.token_uncached:,} multiply-adds "
        f"without the cache and {c.token_cached:,} with it. Timed on this machine, how many times faster will "
        "the cache make it {about}`method`?",
        f"With the cache, the new attention token is {shown(cache_speedup('attend', T), '.0f')} times faster {{claim}}`the_cache_pays_at_length`: a large gain, "
        "but the timed token also pays a fixed cost per call that no count includes "
        "{claim}`the_cached_token_is_mostly_overhead`."))


def check_yourself() -> HTML:
    return HTML(kv_cache_question() + crossing_question())

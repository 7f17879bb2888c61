"""Part 2B's check-yourself questions: each answer computed from the formulas and the stored timings (opened on
the web page, printed at the end of the handout)."""
from __future__ import annotations

from IPython.display import HTML

from ...costs import ModelSize, kv_cache_bytes, token_macs
from ...present.widgets import answer_html
from .scale import human_bytes, human_count
from .states.growth import measured

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
    said = f"from T = {first:,} on: there averaging takes {at[first][0] * 1e3:.3f} ms against attention's " \
           f"{at[first][1] * 1e3:.3f} ms"
    if before is not None:
        said += f", while at T = {before:,} it took {at[before][0] * 1e3:.3f} ms against {at[before][1] * 1e3:.3f} ms"
    return answer_html("By count, averaging reads a whole sequence more cheaply than attention at every length "
                       "{claim}`averaging_is_cheapest_by_count`. In the stored timings of this page, from which "
                       "length on is averaging the slower of the two, and why do the lines cross "
                       "{claim}`averaging_is_timed_slower_at_length`?",
                       f"Measured {said}. Averaging builds its T × T matrix of weights in memory at every call, "
                       "and attention's kernel never stores its scores (the section on the kernels measures both) "
                       "{claim}`averaging_allocates_its_matrix_every_call attention_stores_no_score_matrix`.")


def check_yourself() -> HTML:
    return HTML(kv_cache_question() + crossing_question())

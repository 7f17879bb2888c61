"""More of the by-hand lesson's claims: the smaller comparisons its sentences make, merged into claims.BYHAND.

Each is a statement a sentence of posts/attention-by-hand.md rests on ({claim}`name` in the page); the
weights are hand-set, but what the model computes from them (rows, weights, scores, counts) is checked here.
"""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, at_least, at_most, both, room, trend
from ...says import Says
from . import model as m
from .states import context, mixing, positions, search
from .states.attention import attend, bank, predict

PROSE = Registry()
claim = PROSE.claim

MIX_FLOOR = 0.5      # "a real mixture": every video keeps more than MIX_FLOOR / (number of videos) of the weight
SAME_SCORE = 1e-12   # equal offsets give equal RoPE scores to this precision
OTHER_SCORE = 1e-3   # a different offset moves the score by more than this
_STEPS = "at every step of w from 1 to 10"


@claim((Says("equal", "the last word and its position in sentence A and in sentence B", by=0),
        Says("equal", "the last row e_10 in sentence A and in sentence B", by=0)))
def last_token_rows_identical():
    a, b = m.sentence("A"), m.sentence("B")
    ea, eb = m.rows(a).e[-1], m.rows(b).e[-1]
    return Outcome(a[-1] == b[-1] and len(a) == len(b) and np.array_equal(ea, eb),
                   f"A ends with {a[-1]!r} at {len(a)}, B with {b[-1]!r} at {len(b)}; e_10 in A = {ea.tolist()}, "
                   f"in B = {eb.tolist()}")


@claim((Says("equal", "the inputs each extra token adds to the window and d", by=0, over=_STEPS),
        Says("equal", "the weights each extra token adds to the direct linear head and d·V", by=0, over=_STEPS),
        Says("equal", "the weights each extra token adds to the MLP head and d·H", by=0, over=_STEPS),
        Says("rises", "the direct linear head's parameter count", over=_STEPS),
        Says("equal", "the shapes of W2 and b2", by=0, over="for every w from 1 to 10")))
def window_step_costs():
    ws = range(1, 11)
    d, H, V = context.D_MODEL, context.HIDDEN_UNITS, context.VOCAB_SIZE
    mlp, lin = [context.mlp_parameters(w) for w in ws], [context.linear_parameters(w) for w in ws]
    inputs = [context.window_state(w)["inputs"] for w in ws]
    steps = {np.diff(mlp).tolist().count(d * H), np.diff(lin).tolist().count(d * V), np.diff(inputs).tolist().count(d)}
    out_shapes = {(context.mlp_shapes(w)["W2"], context.mlp_shapes(w)["b2"]) for w in ws}
    rises = trend(lin, [f"w={w}" for w in ws], "rises", decimals=0)
    return Outcome(steps == {len(ws) - 1} and len(out_shapes) == 1 and rises.holds,
                   f"steps: MLP {sorted(set(np.diff(mlp).tolist()))}, linear {sorted(set(np.diff(lin).tolist()))}, "
                   f"inputs {sorted(set(np.diff(inputs).tolist()))}; W2, b2 shapes {sorted(out_shapes)}; "
                   f"linear {rises.evidence}")


@claim((Says("less", "water feature (rows 1-7 of sentence A)", ("the plain average", "river alone")),
        Says("less", "water feature", ("each other row", "river"))))
def plain_average_dilutes_river():
    words = m.sentence("A")[: m.BANK]
    e = m.rows(words).e[: m.BANK]
    j = words.index("river")
    plain = context.pool(context.pool_weights(None, 0.0))["summary"][0]
    others = np.delete(e[:, 0], j)
    return both(Outcome(plain < e[j, 0], f"plain average water {plain:.4f}; river {e[j, 0]:.4f}",
                        margin=room(plain, e[j, 0], above=False)),
                Outcome(others.max() < e[j, 0], f"the other rows at most {others.max():.4f}",
                        margin=room(others.max(), e[j, 0], above=False)))


@claim((Says("largest", "match score for 'birds along the river'", ("Herons of the delta",),
             over=f"of the {len(search.VIDEOS)} videos'"),
        Says("equal", "hard retrieval's returned row and the value row of Herons of the delta", by=0)))
def search_best_match():
    s = search.match_scores()[search.SEARCH_QUERY]
    videos = list(search.VIDEOS)
    best = int(np.argmax(s))
    hard = search.retrieve(search.SEARCH_QUERY, "hard")["returned"]
    unique = np.sum(s == s.max()) == 1
    herons = videos.index("Herons of the delta")
    return Outcome(bool(unique) and videos[best] == "Herons of the delta"
                   and np.array_equal(hard, search.VALUES[videos[best]]),
                   f"scores {dict(zip(videos, s.tolist()))}; hard returns {hard.tolist()}",
                   margin=room(s[herons], np.delete(s, herons).max(), above=True))


@claim((Says("at most", "the top weight of soft retrieval", by="one half", over="at the highest temperature"),
        Says("at least", "the weight of every video in soft retrieval", by="half of an even share",
             over="at the highest temperature")))
def high_temperature_mixes():
    w = search.retrieve(search.SEARCH_QUERY, "soft", float(search.TEMPERATURES[-1]))["weights"]
    floor = MIX_FLOOR / len(w)
    return both(at_most(w.max(), 0.5, f"T = {search.TEMPERATURES[-1]:g}: weights from {w.min():.4f} to {w.max():.4f}"),
                at_least(w.min(), floor, f"floor {floor:.2f}"))


@claim(Says("at least", "attention weight on river in sentence A", ("bank",), by="one half"))
def bank_gives_river_most_of_its_weight():
    a = bank("A")["alpha"][m.sentence("A").index("river")]
    return at_least(a, 0.5, f"α_7,river = {a:.4f}")


@claim(Says("equal", "W_Q, W_K, W_V, W_O, the head (W1, b1, W2, b2), the word table and the position rows before and "
            "after both sentences' forward passes", by=0))
def forward_pass_leaves_weights_unchanged():
    names = ("W_Q", "W_K", "W_V", "W_O", "W1", "b1", "W2", "b2", "E", "POSITION_ROWS")
    before = {n: getattr(m, n).copy() for n in names}
    words = dict(m.WORD_FEATURES)
    for key in ("A", "B"):
        predict(m.sentence(key))
    changed = [n for n in names if not np.array_equal(before[n], getattr(m, n))]
    changed += ["WORD_FEATURES"] if words != m.WORD_FEATURES else []
    return Outcome(not changed, f"changed: {', '.join(changed) or 'nothing'} after both sentences' forward passes")


@claim(Says("equal", "row 7 of the matrix form, on the seven-token prefix and on the whole sentence, and bank's "
            "walkthrough", by=1e-12, over="at every stage (q, k, v, scores, weights, message, update, new row)"))
def matrix_form_matches_walkthrough():
    words = m.sentence("A")
    prefix, full = attend(m.rows(words[: m.BANK]).e), attend(m.rows(words).e)
    b, i = bank("A"), m.BANK - 1
    stages = {
        "q": (prefix.Q[i], full.Q[i], b["q"]), "k": (prefix.K[i], full.K[i], b["K"][i]),
        "v": (prefix.V[i], full.V[i], b["V"][i]), "scores": (prefix.S[i], full.S[i, : m.BANK], b["scores"]),
        "weights": (prefix.A[i], full.A[i, : m.BANK], b["alpha"]), "message": (prefix.M[i], full.M[i], b["m"]),
        "update": (prefix.dE[i], full.dE[i], b["dE"]), "new row": (prefix.e_new[i], full.e_new[i], b["e_new"]),
    }
    gaps = {name: max(np.abs(x - y).max(), np.abs(x - z).max()) for name, (x, y, z) in stages.items()}
    worst = max(gaps, key=gaps.get)
    return Outcome(gaps[worst] < 1e-12, f"largest difference {gaps[worst]:.2g} (at {worst}) over {len(gaps)} stages")


@claim((Says("rises", "the distance weight", over="at every step towards the last token"),
        Says("less", "largest jump between neighbouring weights", ("the distance weights", "the fixed window"))))
def distance_weights_smoother_than_window():
    w = mixing.scheme_weights(m.sentence("A"))
    dist, window = w["distance weights"], w["fixed window (w = 3)"]
    rises = trend(dist, [str(j) for j in range(1, len(dist) + 1)], "rises")
    jd, jw = np.abs(np.diff(dist)).max(), np.abs(np.diff(window)).max()
    return both(Outcome(jd < jw, f"largest jump: distance {jd:.4f}, window {jw:.4f}", margin=room(jd, jw, above=False)),
                Outcome(rises.holds, f"distance {rises.evidence}", margin=rises.margin))


@claim((Says("equal", "the rotated scores of the RoPE table's pairs with the same offset", by=SAME_SCORE),
        Says("at least", "the smallest gap between the mean scores of different offsets", by=OTHER_SCORE),
        Says("equal", "each rotated score in the table and qᵀ R_(j−i) k", by=SAME_SCORE)))
def rope_equal_offsets_equal_scores():
    rows = positions.rope_rows()
    by_offset: dict[int, list[float]] = {}
    for _, offset, rotated, relative in rows:
        by_offset.setdefault(offset, []).append(rotated)
    spread = max(np.ptp(v) for v in by_offset.values())
    means = sorted(float(np.mean(v)) for v in by_offset.values())
    apart = min(np.diff(means)) if len(means) > 1 else 0.0
    identity = max(abs(r[2] - r[3]) for r in rows)
    return Outcome(spread < SAME_SCORE and apart > OTHER_SCORE and identity < SAME_SCORE,
                   f"offsets {sorted(by_offset)}: spread within an offset {spread:.2g}, between offsets at least "
                   f"{apart:.4f}; rotated vs relative {identity:.2g}", margin=room(apart, OTHER_SCORE, above=True))

"""The attention-by-hand lesson's claims: each a statement the prose makes, checked at build."""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, at_most, both, room, trend
from ...says import Says
from . import claims_positions, claims_prose
from . import model as m
from .states import context, mixing, scaling, search
from .states.attention import MASK_ROW, attend, baseline_prediction, predict, softmax, top_words

BYHAND = Registry()
claim = BYHAND.claim


@claim((Says("equal", "next-word distributions under the last-token baseline", ("sentence A", "sentence B"), by=0),
        Says("equal", "the count of words tied (within 1e-12) at the baseline's top probability and the number 8",
             by=0),
        Says("equal", "the baseline probabilities of the other words", by=1e-15),
        Says("less", "baseline probability", ("every other word", "the tied top words"))))
def baseline_ignores_context():
    pa, pb = baseline_prediction("A"), baseline_prediction("B")
    tied = top_words(pa)
    rest = np.array([p for w, p in zip(m.VOCAB, pa) if w not in tied])
    return Outcome(np.array_equal(pa, pb) and len(tied) == 8 and np.ptp(rest) < 1e-15 and rest.max() < pa.max(),
                   f"max |pA - pB| = {np.abs(pa - pb).max():.3g}; tied: {', '.join(tied)} ({len(tied)}) at "
                   f"{pa.max():.4f}; the other {len(rest)} from {rest.min():.4f} to {rest.max():.4f}")


@claim((Says("none", "the windows too short to reach back to 'river' (fewer tokens than from it to the sentence's end)",
             over="takes it in"),
        Says("none", "the longer windows, up to the sentence's length,", over="leaves it out"),
        Says("none", "the sentence's tokens", over="is left out of the window as long as the sentence"),
        Says("none", "the positions of the shortest window that held 'river'",
             over="holds it once one more token ends the sentence")))
def window_reach():
    words = m.sentence("A")
    T, river = len(words), words.index("river") + 1
    reach = T - river + 1
    out = [w for w in range(1, T + 1) if river not in context.window_positions(T, w)]
    longer = context.window_positions(T + 1, reach)
    ok = out == list(range(1, reach)) and context.window_positions(T, T) == list(range(1, T + 1)) and river not in longer
    return Outcome(ok, f"river (position {river}) outside for w = {out}; w = {reach} keeps {context.window_positions(T, reach)}; "
                       f"with one more token it keeps {longer}")


@claim((Says("equal", "the formulas w·d·H + H + H·V + V and w·d·V + V and the parameter counts of torch modules of "
             "those shapes", by=0, over="for w = 1..10"),
        Says("equal", "the weights one more token adds to the direct linear head and the number 80", by=0)))
def parameter_counts_match_torch():
    bad = []
    for w in range(1, 11):
        got = context.torch_parameter_counts(w)
        want = (context.mlp_parameters(w), context.linear_parameters(w))
        if got != want:
            bad.append(f"w={w}: torch {got}, formulas {want}")
    step = context.linear_parameters(2) - context.linear_parameters(1)
    return Outcome(not bad and step == 80, "; ".join(bad) or f"all ten windows agree; one more token adds {step} weights")


def _bank_row(key: str) -> tuple[np.ndarray, list[str]]:
    words = m.sentence(key)
    return attend(m.rows(words).e).A[m.BANK - 1, : m.BANK], words


def _ahead(values, chosen) -> float:
    """How far the smallest of the `chosen` values (indices) is above the largest of the rest: the room of a
    claim that these are the largest."""
    chosen = list(chosen)
    return room(float(np.min(values[chosen])), float(np.delete(values, chosen).max()), above=True)


@claim(Says("largest", "bank's attention weight on river in sentence A", over=f"of the {m.BANK} in its row"))
def bank_reads_river_in_A():
    a, words = _bank_row("A")
    top = words[int(np.argmax(a))]
    return Outcome(top == "river", f"largest weight {a.max():.4f} on {top!r}, next {np.sort(a)[-2]:.4f}",
                   margin=_ahead(a, [words.index("river")]))


@claim((Says("greater", "attention weight from bank in sentence B", ("cheque", f"the {m.BANK - 2} others"),
             over="(all but cheque and deposited)"),
        Says("greater", "attention weight from bank in sentence B", ("deposited", f"the {m.BANK - 2} others"),
             over=f"too: the two are the largest of the row's {m.BANK}")))
def bank_reads_cheque_and_deposited_in_B():
    a, words = _bank_row("B")
    two = {w: float(a[words.index(w)]) for w in ("cheque", "deposited")}
    rest = float(np.delete(a, [words.index(w) for w in two]).max())
    return Outcome(all(v > rest for v in two.values()),
                   "; ".join(f"{w} {v:.4f}" for w, v in two.items()) + f"; the {len(a) - 2} others at most {rest:.4f}",
                   margin=min(room(v, rest, above=True) for v in two.values()))


@claim((Says("greater", "entry in bank's update Δe_7 in sentence A", ("the water feature", "the finance feature")),
        Says("rises", "bank's water feature", over="with its update in sentence A"),
        Says("greater", "entry in bank's update Δe_7 in sentence B", ("the finance feature", "the water feature")),
        Says("rises", "bank's finance feature", over="with its update in sentence B")))
def update_follows_context():
    dA = attend(m.rows(m.sentence("A")).e).dE[m.BANK - 1]
    dB = attend(m.rows(m.sentence("B")).e).dE[m.BANK - 1]
    ok = dA[0] > dA[1] and dA[0] > 0 and dB[1] > dB[0] and dB[1] > 0
    margin = min(room(dA[0], dA[1], above=True), room(dA[0], 0, above=True),
                 room(dB[1], dB[0], above=True), room(dB[1], 0, above=True))
    return Outcome(ok, f"Δe_7 in A = {dA.round(4).tolist()}, in B = {dB.round(4).tolist()} (water, finance, thing, grammar)",
                   margin=margin)


@claim((Says("none", f"the future positions in row {MASK_ROW} ('the') of sentence A", over="gets any weight with the mask on"),
        Says("rises", f"row {MASK_ROW}'s share of weight on those future positions", over="when the mask is taken off"),
        Says("largest", f"row {MASK_ROW}'s weight on 'river'", over="of all its weights with the mask off"),
        Says("at least", f"the largest change in row {MASK_ROW}'s message when the mask is taken off", by=1e-3)))
def unmasked_row_5_reads_river():
    words = m.sentence("A")
    off, on = attend(m.rows(words).e, masked=False), attend(m.rows(words).e)
    a, masked = off.A[MASK_ROW - 1], on.A[MASK_ROW - 1]
    top = words[int(np.argmax(a))]
    moved = np.abs(off.M[MASK_ROW - 1] - on.M[MASK_ROW - 1]).max()
    margin = min(_ahead(a, [words.index("river")]), room(a[MASK_ROW:].sum(), 0, above=True), room(moved, 1e-3, above=True))
    return Outcome(top == "river" and masked[MASK_ROW:].sum() == 0 and a[MASK_ROW:].sum() > 0 and moved > 1e-3,
                   f"unmasked: largest {a.max():.4f} on {top!r} (next {np.sort(a)[-2]:.4f}), future share "
                   f"{a[MASK_ROW:].sum():.4f}; masked weight on positions {MASK_ROW + 1}-{len(words)} = "
                   f"{masked[MASK_ROW:].sum()}; message moves by up to {moved:.4f}", margin=margin)


@claim((Says("none", "the vocabulary's words",
             over="is the top next word with attention after both sentence A and sentence B"),
        Says("at most", "the count of words tied (within 1e-12) for the top next-word probability with attention",
             by=1, over="after either sentence"),
        Says("equal", "next-word distributions with attention bypassed", ("sentence A", "sentence B"), by=0)))
def context_reaches_the_prediction():
    pa, pb = predict(m.sentence("A"))["p"], predict(m.sentence("B"))["p"]
    qa, qb = predict(m.sentence("A"), attention=False)["p"], predict(m.sentence("B"), attention=False)["p"]
    ta, tb = top_words(pa), top_words(pb)
    return Outcome(ta != tb and len(ta) == len(tb) == 1 and np.array_equal(qa, qb),
                   f"top A {ta}, top B {tb}; bypassed max |pA - pB| = {np.abs(qa - qb).max():.3g}")


SPREAD_TOLERANCE = 0.1  # "d_k times a factor close to 1": every measured factor within 10 % of 1


@claim((Says("rises", "the measured variance of unscaled q·k", over="at every step of d_k"),
        Says("at most", "the distance from 1 of the unscaled variance ÷ d_k", by=SPREAD_TOLERANCE, over="at every d_k"),
        Says("at most", "the distance from 1 of the variance of q·k ÷ √d_k", by=SPREAD_TOLERANCE, over="at every d_k")))
def score_spread_grows_like_dk():
    s = scaling.measured_spread()
    ratio = s["raw"] / s["d_k"]
    rises = trend(s["raw"], [f"d_k={d}" for d in s["d_k"]], "rises")
    return both(Outcome(rises.holds, f"raw var {rises.evidence}", margin=rises.margin),
                at_most(np.abs(ratio - 1).max(), SPREAD_TOLERANCE, f"var/d_k from {ratio.min():.3f} to {ratio.max():.3f}"),
                at_most(np.abs(s["scaled"] - 1).max(), SPREAD_TOLERANCE,
                        f"scaled var from {s['scaled'].min():.3f} to {s['scaled'].max():.3f}"))


SOFTMAX_ROWS = ((1.0, 2.0, 3.0), (10.0, -5.0, 0.0), (300.0, 299.0, 0.0), (800.0, 1.0, 0.0))  # the last: naive overflows


@claim((Says("equal", "the stable (max subtracted) and the naive softmax", by=1e-12,
             over=f"wherever the naive one is finite, on the {len(SOFTMAX_ROWS)} test rows"),
        Says("at least", "the count of those rows where the naive softmax is not finite", by=1),
        Says("none", "the stable softmax's weights on those rows", over="is infinite or undefined")))
def stable_softmax_agrees():
    rows = np.array(SOFTMAX_ROWS)
    naive, stable = scaling.naive_softmax(rows), softmax(rows)
    finite = np.all(np.isfinite(naive), axis=1)
    gap = np.abs(naive[finite] - stable[finite]).max()
    return Outcome(gap < 1e-12 and not finite.all() and np.all(np.isfinite(stable)),
                   f"largest gap where finite {gap:.2g}; naive finite in {finite.sum()} of {len(rows)} rows")


@claim((Says("equal", "weights", ("sentence A", "sentence B"), by=0,
             over="in the comparison table's fixed window, plain mean and distance rows"),
        Says("at least", "the largest difference between attention's weights in sentence A and in sentence B",
             by=1e-3)))
def only_attention_reads_content():
    wa, wb = mixing.scheme_weights(m.sentence("A")), mixing.scheme_weights(m.sentence("B"))
    same = [s for s in mixing.SCHEMES[:3] if np.array_equal(wa[s], wb[s])]
    att_gap = np.abs(wa["attention"] - wb["attention"]).max()
    return Outcome(len(same) == 3 and att_gap > 1e-3, f"identical rows: {len(same)} of 3; attention differs by up to {att_gap:.4f}",
                   margin=room(att_gap, 1e-3, above=True))


WATER_WORDS, MONEY_WORDS = ("river", "heron", "water", "ducks"), ("cheque", "teller", "money", "queue")


def _listed(words) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]


@claim((Says("greater", "next-word probability with attention after sentence A",
             ("each water word", "every other word"),
             over=f"(the water words, {_listed(WATER_WORDS)}, are the four most probable)"),
        Says("greater", "next-word probability with attention after sentence B",
             ("each money word", "every other word"),
             over=f"(the money words, {_listed(MONEY_WORDS)}, are the four most probable)")))
def full_model_prefers_topic_words():
    p = {k: predict(m.sentence(k))["p"] for k in "AB"}
    top = {k: {m.VOCAB[j] for j in np.argsort(p[k])[-4:]} for k in "AB"}
    margin = min(_ahead(p[k], [m.VOCAB.index(w) for w in words]) for k, words in (("A", WATER_WORDS), ("B", MONEY_WORDS)))
    return Outcome(top["A"] == set(WATER_WORDS) and top["B"] == set(MONEY_WORDS),
                   f"top four in A {sorted(top['A'])}, in B {sorted(top['B'])}; fifth in A {np.sort(p['A'])[-5]:.4f}, "
                   f"in B {np.sort(p['B'])[-5]:.4f}", margin=margin)


@claim((Says("rises", "the summary's water feature", over="at every slider step as pooling weight moves onto 'river'"),
        Says("at most", "the summary's water feature with the weight moved onto 'The' or 'bank'",
             by="its value at the slider's start (the plain average)", over="at every slider step"),
        Says("equal", "the summary's width at every slider step, for each favoured word, and the 4 features of a row",
             by=0)))
def pooling_toward_river_raises_water():
    water = {f: np.array([context.pool(context.pool_weights(f, s))["summary"][0] for s in context.POOL_SHARES]) for f in ("river", "The", "bank")}
    widths = {context.pool(context.pool_weights(f, s))["summary"].shape for f in water for s in context.POOL_SHARES}
    others = max(water["The"].max(), water["bank"].max()) <= water["river"][0]
    rises = trend(water["river"], [f"{s:g}" for s in context.POOL_SHARES], "rises", decimals=4)
    # the summary is linear in the share: favouring a word moves it most at the slider's end, which sets the room
    margin = min(rises.margin, *(room(water[f][-1], water["river"][0], above=False) for f in ("The", "bank")))
    return Outcome(rises.holds and others and widths == {(4,)},
                   f"river: water from {water['river'][0]:.4f} to {water['river'][-1]:.4f}; The ends at "
                   f"{water['The'][-1]:.4f}, bank at {water['bank'][-1]:.4f}; summary shapes {widths}", margin=margin)


COLD_GAP = 1e-3  # "approaches hard retrieval": at the lowest temperature every entry of the row within 0.1 % of hard's


@claim((Says("falls", "the top weight of soft retrieval", over="at every step as the temperature rises"),
        Says("at most", "the largest relative gap between soft retrieval's returned row and hard retrieval's",
             by=f"{COLD_GAP:.1%}", over="at the lowest temperature")))
def low_temperature_approaches_hard():
    top = np.array([search.retrieval_grid("soft", T)[:-1, 1].max() for T in search.TEMPERATURES])
    hard, cold = search.retrieval_grid("hard")[-1, 2:], search.retrieval_grid("soft", search.TEMPERATURES[0])[-1, 2:]
    gap = np.max(np.abs(cold - hard) / np.abs(hard))
    falls = trend(top, [f"T={T:.3g}" for T in search.TEMPERATURES], "falls", decimals=6)
    return both(Outcome(falls.holds, f"top weight {falls.evidence}", margin=falls.margin),
                at_most(gap, COLD_GAP, f"coldest vs hard relative gap {gap:.2g}"))


@claim((Says("largest", "the 'wants a noun' entry of q_10, the query of the last 'the',", over="of its 3 entries"),
        Says("smallest", "the 'wants a noun' entry of bank's query q_7", over="of its 3 entries"),
        Says("greater", "entry in heron's query", ("water", "finance")),
        Says("at most", "the cosine between q_10 and q_7", by=0.9),
        Says("at least", "the largest difference between the weights the last 'the' gives tokens 1-7 (rescaled to sum "
             "to one) and bank's", by=0.05)))
def queries_ask_different_questions():
    att = attend(m.rows(m.sentence("A")).e)
    q_the, q_bank, q_heron = att.Q[-1], att.Q[m.BANK - 1], att.Q[m.sentence("A").index("heron")]
    noun = m.QK_AXES.index("wants a noun")
    cosine = float(q_the @ q_bank / np.linalg.norm(q_the) / np.linalg.norm(q_bank))
    gap = float(np.abs(att.A[-1, :m.BANK] / att.A[-1, :m.BANK].sum() - att.A[m.BANK - 1, :m.BANK]).max())
    holds = (q_the.argmax() == noun and min(q_bank[0], q_bank[1]) > q_bank[noun] and q_heron[0] > q_heron[1]
             and cosine < 0.9 and gap > 0.05)
    margin = min(_ahead(q_the, [noun]), room(min(q_bank[0], q_bank[1]), q_bank[noun], above=True),
                 room(q_heron[0], q_heron[1], above=True), room(cosine, 0.9, above=False), room(gap, 0.05, above=True))
    return Outcome(holds, f"q_10 = {q_the.round(2).tolist()}, q_7 = {q_bank.round(2).tolist()}, "
                          f"q_heron = {q_heron.round(2).tolist()}, cosine(q_10, q_7) = {cosine:.2f}, "
                          f"largest weight difference over keys 1-7 = {gap:.2f}", margin=margin)


@claim((Says("greater", "value in bank's message m_7 in sentence A", ("water news", "finance news")),
        Says("greater", "value in bank's message m_7 in sentence B", ("finance news", "water news"))))
def bank_message_follows_context():
    mA = attend(m.rows(m.sentence("A")).e).M[m.BANK - 1]
    mB = attend(m.rows(m.sentence("B")).e).M[m.BANK - 1]
    return both(Outcome(mA[0] > mA[1], f"m_7 in A = {mA.round(4).tolist()}", margin=room(mA[0], mA[1], above=True)),
                Outcome(mB[1] > mB[0], f"in B = {mB.round(4).tolist()}", margin=room(mB[1], mB[0], above=True)))


@claim((Says("equal", "the thing and grammar entries of bank's update Δe_7 and zero", by=0, over="in both sentences"),
        Says("equal", "the water and finance entries of Δe_7 and bank's message m_7 (water news, finance news)",
             by="numpy's allclose tolerance (1e-8 + 1e-5 × |m_7|)", over="in both sentences")))
def w_o_writes_only_topic_features():
    bad = []
    for k in "AB":
        att = attend(m.rows(m.sentence(k)).e)
        d, msg = att.dE[m.BANK - 1], att.M[m.BANK - 1]
        if not (np.array_equal(d[2:], [0.0, 0.0]) and np.allclose(d[:2], msg)):
            bad.append(f"{k}: Δe_7 = {d.round(4).tolist()}, m_7 = {msg.round(4).tolist()}")
    return Outcome(not bad, "; ".join(bad) or "Δe_7 = (m_7, 0, 0) in both sentences")


@claim(Says("equal", "bank's starting row e_7 in sentence A and in sentence B", by=0))
def bank_starts_identical():
    eA, eB = m.rows(m.sentence("A")).e[m.BANK - 1], m.rows(m.sentence("B")).e[m.BANK - 1]
    return Outcome(np.array_equal(eA, eB), f"e_7 in A = {eA.tolist()}, in B = {eB.tolist()}")


SATURATED_TOP = 0.999   # "almost everything": the raw top weight at the largest d_k is at least this
SATURATED_SLOPE = 1e-3  # "nearly zero": the raw slope a(1 − a) at the largest d_k is at most this


@claim((Says("rises", "the top weight of raw scores one spread apart", over="at every step of d_k"),
        Says("at least", "the top weight of raw scores one spread apart", by=SATURATED_TOP, over="at the largest d_k"),
        Says("at most", "the slope a(1 − a) of that top weight", by=SATURATED_SLOPE, over="at the largest d_k"),
        Says("equal", "top weights of the scores divided by √d_k", ("the smallest d_k", "each larger d_k"), by="1e-12")))
def raw_scores_saturate():
    rows = scaling.saturation_rows()
    raw, scaled = [r[2] for r in rows], [r[4] for r in rows]
    rises = trend(raw, [f"d_k={r[0]}" for r in rows], "rises", decimals=7)
    return both(Outcome(rises.holds, f"raw top weight {rises.evidence}", margin=rises.margin),
                # at least SATURATED_TOP is at most 1 − SATURATED_TOP left over: its room, as a share of what is left
                at_most(1 - raw[-1], 1 - SATURATED_TOP, f"at d_k={rows[-1][0]} 1 − top = {1 - raw[-1]:.2g}"),
                at_most(rows[-1][3], SATURATED_SLOPE, f"raw slope there {rows[-1][3]:.2g}"),
                Outcome(max(scaled) - min(scaled) < 1e-12, f"scaled {min(scaled):.4f} … {max(scaled):.4f}, "
                                                            f"slope {rows[-1][5]:.4f}"))


@claim((Says("falls", "the largest softmax weight of the fixed scores",
             over="at every step of a larger divisor"),
        Says("rises", "the smallest softmax weight of the fixed scores", over="at every step of a larger divisor")))
def divisor_flattens_weights():
    tops = [scaling.divisor_weights(c).max() for c in scaling.DIVISORS]
    lows = [scaling.divisor_weights(c).min() for c in scaling.DIVISORS]
    labels = [f"÷{c:g}" for c in scaling.DIVISORS]
    return both(trend(tops, labels, "falls", decimals=4), trend(lows, labels, "rises", decimals=4))


@claim((Says("equal", "the softmax weights of the scores and of the scores plus a constant", by=1e-12),
        Says("falls", "the spread of the scores", over="when they are divided by 2"),
        Says("at least", "the largest change in the softmax weights when the scores are divided by 2", by=1e-2)))
def shift_keeps_weights_scaling_changes_them():
    r = scaling.stable_rows()
    s = scaling.STABLE_SCORES
    shift_gap = np.abs(r["stable on shifted"] - r["stable: max subtracted"]).max()
    scale_gap = np.abs(r["scaled: s ÷ 2"] - softmax(s)).max()
    spread, halved = np.ptp(s), np.ptp(np.asarray(s) / 2)
    return Outcome(shift_gap < 1e-12 and scale_gap > 1e-2 and halved < spread,
                   f"shift changes weights by {shift_gap:.2g}; ÷2 by {scale_gap:.4f}; score spread {spread:.3f} -> "
                   f"{halved:.3f}", margin=room(scale_gap, 1e-2, above=True))


BYHAND.claims.update(claims_prose.PROSE.claims)  # the smaller comparisons the sentences make, checked alike
BYHAND.claims.update(claims_positions.POSITIONS.claims)  # what positions add (sections 16 to 18)


def check_all():
    return BYHAND.check_all()


def require_all(source: str = "the hand-set model in compute/lessons/byhand") -> None:
    BYHAND.require_all(source=source)

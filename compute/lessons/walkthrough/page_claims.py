"""The walkthrough page's further claims: its sentences about the published run, the data and the seed search.

Each is a function of the published Walkthrough (compute.published.walkthrough);
the claims about the seed search also read the seed-search record and the
alternative checkpoint, which a test may pass in instead. They describe the
published run, so the seed search does not apply them to other seeds (it applies
the selection claims, selection.py).
"""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, room
from ...data.walkthrough import SENTENCES, VOCAB, answer_rows, cue_positions, data_facts, loss_floor, next_word_options
from .history import NEAR, loss_spike
from .overflow import FLOAT16_EXP_LIMIT, float_limits
from ...published.walkthrough import ALTERNATIVE, Walkthrough, load
from ...says import Says
from .record_check import disagreements, entry_of, lesson_pattern
from .page_words import (ALMOST_EVEN, CLOSE, DECISIVE, FAR_APART, HARDLY, JUST, JUST_ABOVE, MODEST, MOST, ONLY,
                         QUERY_GAP, SEVERAL, STABLE_SUM)
from .seeds import pattern_counts, seed_record
from .selection import (CUE_FALL, CUE_RISE, DOMINANT, FALL, FAST, RISE, ROW_FAST, ROW_SLOW, SLOW, SURE, WALKTHROUGH,
                        _predicts, coin_flip_positions)

PAGE = Registry()
page_claim = PAGE.claim
ANSWER_CLAIMS = ("position_5_predicts_slow", "position_13_predicts_fast")
CONVERGENCE_CLAIMS = ("determined_words_are_certain", "loss_near_floor")  # a seed "converged": both hold


def _allowed(wt: Walkthrough, row: int) -> np.ndarray:
    """The scores a query row may read: keys 0..row."""
    return wt["S"][row, : row + 1]


@page_claim((Says("none", "the eight sentences' next-word targets",
                  over="has more than one possible word, except after "
                       f"the opening 'the' ('{RISE}' or '{FALL}') and after '{RISE}' or '{FALL}' ('was' or 'of')"),
             Says("equal", "the probabilities of the two words of each two-way target", by=0, over="(one half each)"),
             Says("equal", "the counts of two-way and of all targets made here and those the page quotes", by=0),
             Says("equal", "the loss floor the page quotes (the best mean loss possible) and n ln 2 / N (n two-way "
                  "targets of N)", by=1e-15)))
def targets_are_fixed_or_even_coin_flips(wt):
    two_way, bad, n = {}, [], 0
    for sentence in SENTENCES:
        words = sentence.split()
        for i in range(len(words) - 1):
            n += 1
            options = next_word_options(words[: i + 1])
            if len(options) == 1:
                continue
            context = "opening 'the'" if i == 0 else f"noun {words[i]!r}"
            expected = {RISE, FALL} if i == 0 else ({"was", "of"} if words[i] in (RISE, FALL) else None)
            if set(options) != expected or any(p != 0.5 for p in options.values()):
                bad.append(f"after {' '.join(words[: i + 1])!r}: {options}")
            two_way[context] = two_way.get(context, 0) + 1
    facts = data_facts()
    n_two = sum(two_way.values())
    ok = (not bad and n_two == facts["n_coin_flips"] and n == facts["n_targets"]
          and abs(facts["loss_floor"] - loss_floor(n_two, n)) < 1e-15)
    return Outcome(ok, f"{n_two} of {n} targets are two-way ({', '.join(f'{k}: {v}' for k, v in two_way.items())})"
                       + (f"; not an even two-way choice: {'; '.join(bad)}" if bad else ""))


@page_claim(Says("none", "the eight sentences", over=f"is other than a '{RISE}' clause ending '{SLOW}' and a '{FALL}' "
                 f"clause ending '{FAST}', joined by 'but' (so the first clause's noun decides the second's)"))
def clauses_pair_rise_with_fall(wt):
    bad = []
    for sentence in SENTENCES:
        clauses = [c.split() for c in sentence.split(" but ")]
        pairs = {(c[1], c[-1]) for c in clauses}
        if len(clauses) != 2 or pairs != {(RISE, SLOW), (FALL, FAST)}:
            bad.append(sentence)
    return Outcome(not bad, f"{len(SENTENCES) - len(bad)} of {len(SENTENCES)} sentences pair {RISE}-{SLOW} "
                            f"with {FALL}-{FAST}" + (f"; not: {'; '.join(bad)}" if bad else ""))


@page_claim((Says("at least", "the distance in words from each 'was' of the goal sentence back to its cue noun",
                  by=SEVERAL),
             Says("equal", "the two distances", by=0)))
def cues_sit_several_words_back(wt):
    gaps = [row - cue for row, cue in zip(answer_rows(), cue_positions())]
    return Outcome(min(gaps) >= SEVERAL and len(set(gaps)) == 1,
                   ", ".join(f"'was' at {row}, {wt.tokens[cue]!r} at {cue}: {row - cue} back"
                             for row, cue in zip(answer_rows(), cue_positions())),
                   margin=room(min(gaps), SEVERAL, above=True))


@page_claim(Says("equal", "the number of rows of P and the number of input positions of the longest training sentence "
                 "(its length in words less one)", by=0))
def positions_fit_the_longest_sentence(wt):
    longest, rows = max(len(s.split()) for s in SENTENCES), wt["P"].shape[0]
    return Outcome(rows == longest - 1, f"P has {rows} rows, the longest sentence {longest} words")


@page_claim((Says("at least", "the published run's final loss", by="the loss floor", lower_is_better=True),
             Says("at most", "the excess of the published run's final loss over the floor",
                  by=f"{JUST_ABOVE:.1%} of the floor", lower_is_better=True)))
def final_loss_just_above_floor(wt):
    facts = data_facts()
    floor, final = facts["loss_floor"], float(wt.manifest.get("final_loss", np.nan))
    # its margin is the excess's: no loss is below the floor (but by rounding), so that bound has no room to state
    return Outcome(floor < final < floor * (1 + JUST_ABOVE),
                   f"final loss {final:.6f}, floor {floor:.6f} ({final / floor - 1:+.4%})",
                   margin=room(final / floor - 1, JUST_ABOVE, above=False))


@page_claim((Says("at most", "the loss at the step the page names as the first inside the band",
                  by=f"{NEAR:.0%} above the floor (the band's edge)", over="and every loss before it is above that"),
             Says("at least", "the number of times the loss leaves the band after that step", by=2),
             Says("largest", "the loss at the step the page names as the largest bump",
                  over="of the losses from then on, and it is outside the band"),
             Says("at most", "the loss the number of steps the page names after that bump", by="the band's edge",
                  over="and every loss between the two is above it")))
def loss_bumps_after_settling(wt):
    history = wt.manifest.get("loss_history")
    if not history:
        return Outcome(False, "no loss history in the manifest")
    h, facts = np.asarray(history), data_facts()
    band = facts["loss_floor"] * (1 + NEAR)
    s = loss_spike(history, facts["loss_floor"])
    settled, step, back = s["settled"], s["step"], s["back"]
    ok = (bool((h[:settled] > band).all()) and h[settled] <= band and s["exits"] >= 2
          and step > settled and h[step] > band and back > 0
          and bool((h[step: step + back] > band).all()) and h[step + back] <= band)
    # its margin is the count's ("more than once"): the steps follow from the band by definition (loss_spike)
    return Outcome(ok, f"band {band:.6f}: first inside at step {settled} ({h[settled]:.6f}); leaves it "
                       f"{s['exits']} times; largest bump step {step} ({h[step]:.6f}, {s['above']:+.2%}); "
                       f"back inside at step {step + back} ({h[step + back]:.6f})",
                   margin=room(s["exits"], 2, above=True))


@page_claim(Says("at least", f"the largest coordinate gap between q_{ROW_SLOW} and q_{ROW_FAST} (both made by 'was')",
                 by=f"{QUERY_GAP} of the largest query entry"))
def was_queries_differ(wt):
    Q = wt["Q"]
    gap, scale = float(np.abs(Q[ROW_FAST] - Q[ROW_SLOW]).max()), float(np.abs(Q).max())
    same = wt.tokens[ROW_SLOW] == wt.tokens[ROW_FAST]
    return Outcome(same and gap > QUERY_GAP * scale,
                   f"largest |q_{ROW_FAST} - q_{ROW_SLOW}| = {gap:.4f}, largest |Q| = {scale:.4f}",
                   margin=room(gap, QUERY_GAP * scale, above=True))


@page_claim((Says("largest", f"row {ROW_FAST}'s score on '{FALL}'",
                  over="of the scores it may read (keys up to its own)"),
             Says("largest", f"its score on '{RISE}'", over="of the rest of them"),
             Says("largest", f"row {ROW_SLOW}'s score on '{RISE}'", over="of the scores it may read")))
def score_rows_peak_on_cues(wt):
    r13, r5 = _allowed(wt, ROW_FAST), _allowed(wt, ROW_SLOW)
    order13 = np.argsort(-r13, kind="stable")[:2].tolist()
    top5 = int(np.argmax(r5))
    return Outcome(order13 == [CUE_FALL, CUE_RISE] and top5 == CUE_RISE,
                   f"row {ROW_FAST}: {', '.join(f'{wt.tokens[j]} {r13[j]:.4f}' for j in order13)}; "
                   f"row {ROW_SLOW}: {wt.tokens[top5]} {r5[top5]:.4f}")


@page_claim(Says("largest", f"row {ROW_SLOW}'s score on some later position (one it must not read)",
                 over="of all its scores, before the mask"))
def row_5_peeks_at_the_future(wt):
    row = wt["S"][ROW_SLOW]
    top = int(np.argmax(row))
    return Outcome(top > ROW_SLOW, f"largest score {row[top]:.4f} at position {top} ({wt.tokens[top]!r})")


@page_claim((Says("equal", "each masked weight of A (key after query) and 0", by=0),
             Says("equal", "the sum of each row of A and 1", by=1e-12)))
def masked_weights_are_exactly_zero(wt):
    A = wt["A"]
    future = np.triu(np.ones(A.shape, bool), 1)
    worst = float(np.abs(A[future]).max())
    sums = np.abs(A.sum(axis=1) - 1).max()
    return Outcome(worst == 0.0 and sums < 1e-12, f"largest masked weight {worst}, largest |row sum - 1| = {sums:.1e}",
                   margin=room(sums, 1e-12, above=False) if worst == 0.0 else room(worst, 0.0, above=False))


@page_claim(Says("at most", "the largest score a row may read",
                 by=f"the float16 exp limit, ln 65504 ≈ {FLOAT16_EXP_LIMIT:.2f} (above it exp overflows in float16)"))
def scores_fit_float16(wt):
    allowed = np.where(np.triu(np.ones(wt["S"].shape, bool), 1), -np.inf, wt["S"])
    top = float(allowed.max())
    i, j = np.unravel_index(int(np.argmax(allowed)), allowed.shape)
    return Outcome(top < FLOAT16_EXP_LIMIT, f"largest readable score {top:.4f} (row {i}, key {j})",
                   margin=room(top, FLOAT16_EXP_LIMIT, above=False))


@page_claim((Says("at least", f"the largest of the scores row {ROW_FAST} may read, doubled in float16,",
                  by=f"the float16 exp limit, ln 65504 ≈ {FLOAT16_EXP_LIMIT:.2f}"),
             Says("at least", "the number of not-a-number weights the literal float16 softmax gives on those doubled "
                  "scores", by=1),
             Says("none", "the weights the max-subtracted float16 softmax gives on them", over="is infinite or "
                  "not-a-number"),
             Says("equal", "their sum and 1", by=STABLE_SUM)))
def stable_softmax_survives_doubling(wt):
    f = float_limits(_allowed(wt, ROW_FAST))
    ok = (f["doubled_max"] > FLOAT16_EXP_LIMIT and f["doubled_naive_nan"] >= 1 and f["doubled_stable_finite"]
          and abs(f["doubled_stable_sum"] - 1) < STABLE_SUM)
    return Outcome(ok, f"doubled largest score {f['doubled_max']:.2f}; literal softmax: {f['doubled_naive_nan']} of "
                       f"{f['doubled_n']} weights NaN; max-subtracted: sum {f['doubled_stable_sum']:.6f}, "
                       f"{'all' if f['doubled_stable_finite'] else 'not all'} finite",
                   margin=min(room(f["doubled_max"], FLOAT16_EXP_LIMIT, above=True),
                              room(abs(f["doubled_stable_sum"] - 1), STABLE_SUM, above=False)))


@page_claim((Says("at most", f"the score of '{FALL}' over the score of '{RISE}' (a positive one) in row {ROW_FAST}",
                  by=f"{MODEST:g}"),
             Says("at least", f"the weight of '{FALL}' over the weight of '{RISE}' in row {ROW_FAST}",
                  by=f"{DECISIVE:g}"),
             Says("at most", f"the weight of '{RISE}' in row {ROW_FAST}", by=JUST)))
def softmax_sharpens_row_13(wt):
    s_f, s_r = wt["S"][ROW_FAST, CUE_FALL], wt["S"][ROW_FAST, CUE_RISE]
    a_f, a_r = wt["A"][ROW_FAST, CUE_FALL], wt["A"][ROW_FAST, CUE_RISE]
    ok = s_r > 0 and s_f / s_r < MODEST and a_f / a_r > DECISIVE and a_r < JUST
    return Outcome(bool(ok), f"scores {FALL} {s_f:.4f} / {RISE} {s_r:.4f} = {s_f / s_r:.3f}; "
                             f"weights {FALL} {a_f:.6f} / {RISE} {a_r:.6f} = {a_f / a_r:.2f}",
                   margin=min(room(s_f / s_r, MODEST, above=False), room(a_f / a_r, DECISIVE, above=True),
                              room(a_r, JUST, above=False)))


@page_claim((Says("at least", f"the weight of row {ROW_FAST} on '{FALL}'", by=MOST),
             Says("at most", f"the largest coordinate gap between z_{ROW_FAST} and v_{FALL}",
                  by=f"{CLOSE:.0%} of v_{FALL}'s largest entry")))
def z_13_close_to_fall_value(wt):
    a = wt["A"][ROW_FAST, CUE_FALL]
    v = wt["V"][CUE_FALL]
    gap, scale = float(np.abs(wt["Z"][ROW_FAST] - v).max()), float(np.abs(v).max())
    return Outcome(bool(a > MOST and gap < CLOSE * scale),
                   f"A[{ROW_FAST},{CUE_FALL}] = {a:.6f}; largest |z - v| = {gap:.4f}, largest |v| = {scale:.4f} "
                   f"({gap / scale:.1%})",
                   margin=min(room(a, MOST, above=True), room(gap, CLOSE * scale, above=False)))


@page_claim(Says("at least", f"the largest coordinate gap between y_{ROW_SLOW} and y_{ROW_FAST} (both 'was')",
                 by=f"{FAR_APART:g} times the largest coordinate gap of their inputs x_{ROW_SLOW} and x_{ROW_FAST}"))
def was_rows_end_far_apart(wt):
    y_gap = float(np.abs(wt["y"][ROW_FAST] - wt["y"][ROW_SLOW]).max())
    x_gap = float(np.abs(wt["X"][ROW_FAST] - wt["X"][ROW_SLOW]).max())
    return Outcome(y_gap > FAR_APART * x_gap, f"largest |y gap| = {y_gap:.4f}, largest |x gap| = {x_gap:.4f} "
                                              f"({y_gap / x_gap:.2f} times)",
                   margin=room(y_gap, FAR_APART * x_gap, above=True))


@page_claim((Says("largest", f"row {ROW_SLOW}'s logit for '{SLOW}'",
                  over=f"of its logits, above its logit for '{FAST}'"),
             Says("largest", f"row {ROW_FAST}'s logit for '{FAST}'",
                  over=f"of its logits, above its logit for '{SLOW}'")))
def logits_part_the_was_rows(wt):
    L, s, f = wt["logits"], VOCAB.index(SLOW), VOCAB.index(FAST)
    top5, top13 = VOCAB[int(np.argmax(L[ROW_SLOW]))], VOCAB[int(np.argmax(L[ROW_FAST]))]
    parted = L[ROW_SLOW, s] > L[ROW_SLOW, f] and L[ROW_FAST, f] > L[ROW_FAST, s]
    return Outcome(top5 == SLOW and top13 == FAST and bool(parted),
                   f"row {ROW_SLOW}: top {top5!r}, {SLOW} {L[ROW_SLOW, s]:.4f}, {FAST} {L[ROW_SLOW, f]:.4f}; "
                   f"row {ROW_FAST}: top {top13!r}, {SLOW} {L[ROW_FAST, s]:.4f}, {FAST} {L[ROW_FAST, f]:.4f}")


@page_claim(Says("at most", "the distance from one half of the model's probability for each of the two words",
                 by=ALMOST_EVEN, over="where the data allows two next words equally"))
def coin_flips_split_almost_evenly(wt):
    parts, worst = [], 0.0
    for i in coin_flip_positions(wt):
        for word in next_word_options(list(wt.tokens[: i + 1])):
            p = wt.prob(i, word)
            worst = max(worst, abs(p - 0.5))
            parts.append(f"p({word}|{i}) = {p:.4f}")
    return Outcome(bool(parts) and worst < ALMOST_EVEN, f"largest |p - 0.5| = {worst:.4f}: " + ", ".join(parts),
                   margin=room(worst, ALMOST_EVEN, above=False))


# The seed-search record (compute/checkpoints/walkthrough-seeds.json): what every seed of the search learned.

def _failing_model_claims(model: Walkthrough) -> set[str]:
    """The page's claims about one model alone that fail on this one (record_check.disagreements)."""
    return {c.name for c, o in PAGE.check_all(model, names=list(model_claims())) if not o.holds}


@page_claim((Says("equal", "the seeds the search trained and the seeds of its range", by=0,
                  over="(in order, each once)"),
             Says("equal", "training recipe", ("the seed search", "the published run"), by=0)))
def seed_search_covers_every_seed(wt, record=None):
    record = record or seed_record()
    seeds = [e["seed"] for e in record["entries"]]
    first, last = record["seeds"]
    same = record["recipe"] == wt.manifest.get("recipe")
    return Outcome(seeds == list(range(first, last + 1)) and same,
                   f"{len(seeds)} entries for seeds {first} to {last}, "
                   f"{'in order, each once' if seeds == list(range(first, last + 1)) else 'not each seed once'}; "
                   f"recipe {'the same as' if same else 'not the same as'} the published run's")


@page_claim((Says("equal", "the published and alternative seeds the seed-search record names and those of the stored "
                  "checkpoints", by=0),
             Says("equal", "what the record holds for those two seeds (the selection claims and, where it records "
                  "them, the page's claims each fails, and each answer row's "
                  "largest attention weight, its position and its word) and the same recomputed now from their "
                  "checkpoints", by=1e-6, over="(the claims, positions and words exactly)"),
             Says("none", "the claims the record names as failed", over="is one the selection no longer checks"),
             Says("equal", "the seeds the record counts as converged (and their count) and the seeds that pass both "
                  + " and ".join(CONVERGENCE_CLAIMS), by=0,
                  over="(mean loss below the ceiling, every determined word above the sure level)")))
def seed_record_agrees_with_checkpoints(wt, record=None, alt=None):
    record, alt = record or seed_record(), alt or load(ALTERNATIVE)
    seeds = (wt.manifest.get("seed"), alt.manifest.get("seed"))
    problems = [] if (record["published_seed"], record["alternative_seed"]) == seeds else \
        [f"record names seeds {(record['published_seed'], record['alternative_seed'])}, checkpoints hold {seeds}"]
    problems += (disagreements(entry_of(record, seeds[0]), wt, _failing_model_claims)
                 + disagreements(entry_of(record, seeds[1]), alt, _failing_model_claims))
    unknown = sorted({n for e in record["entries"] for n in e["failed_claims"]} - set(WALKTHROUGH.claims))
    if unknown:
        problems.append(f"claims no longer checked: {', '.join(unknown)}")
    wrong = [e["seed"] for e in record["entries"]
             if e["converged"] != (not set(CONVERGENCE_CLAIMS) & set(e["failed_claims"]))]
    if wrong:
        problems.append(f"converged flag disagrees with the claims for seeds {wrong}")
    n_conv = sum(e["converged"] for e in record["entries"])
    if record.get("n_converged", n_conv) != n_conv:
        problems.append(f"record says {record['n_converged']} converged, its entries {n_conv}")
    return Outcome(not problems, "; ".join(problems) or
                   f"seeds {seeds[0]} and {seeds[1]} recomputed as recorded; "
                   f"{n_conv} of {len(record['entries'])} converged")


@page_claim(Says("equal", "the published seed, the seed the record names as published and the first seed of the "
                 "search to pass every selection claim and every claim the page makes of its model", by=0))
def published_seed_is_first_to_pass(wt, record=None):
    record = record or seed_record()
    passing = [e["seed"] for e in record["entries"] if not e["failed_claims"] and not e.get("failed_page_claims")]
    seed = wt.manifest.get("seed")
    return Outcome(bool(passing) and passing[0] == seed == record["published_seed"],
                   f"seeds passing every selection claim: {passing}; published seed {seed}")


@page_claim((Says("at least", "the number of converged seeds", by=1),
             Says("equal", f"the words every converged seed predicts at positions {ROW_SLOW} and {ROW_FAST}", by=0,
                  over=f"('{SLOW}' and '{FAST}', each its top word with probability above {SURE})"),
             Says("at least", f"the number of different attention patterns among them (the words rows {ROW_SLOW} and "
                  f"{ROW_FAST} weight most)", by=SEVERAL)))
def converged_seeds_answer_in_several_ways(wt, record=None):
    record = record or seed_record()
    conv = [e for e in record["entries"] if e["converged"]]
    wrong = [e["seed"] for e in conv if set(ANSWER_CLAIMS) & set(e["failed_claims"])]
    n_patterns = len(pattern_counts(record))
    return Outcome(bool(conv) and not wrong and n_patterns >= SEVERAL,
                   f"{len(conv)} converged, {len(wrong)} of them answer wrongly{f' (seeds {wrong})' if wrong else ''}; "
                   f"{n_patterns} patterns", margin=room(n_patterns, SEVERAL, above=True))


@page_claim((Says("at least", "the number of converged seeds", by=1),
             Says("at most", f"the share of them that find the lesson's pattern ({lesson_pattern()})",
                  by=f"{ONLY:.0%}"),
             Says("greater", "count of converged seeds", ("the most common pattern", "the lesson's pattern"))))
def lesson_pattern_is_a_minority(wt, record=None):
    record = record or seed_record()
    counts = pattern_counts(record)
    n, total = counts.get(lesson_pattern(), 0), sum(counts.values())
    top = next(iter(counts))
    return Outcome(total > 0 and n / total < ONLY and counts[top] > n,
                   f"lesson's pattern {n} of {total} ({n / max(total, 1):.1%}); most common: {top} ({counts[top]})",
                   margin=min(room(n / max(total, 1), ONLY, above=False), room(counts[top], n, above=True)))


_ALT = ("the alternative seed",)


@page_claim((Says("at least", f"largest weight in row {ROW_FAST}, on a word other than '{FALL}',", _ALT, by=DOMINANT),
             Says("at most", f"weight in row {ROW_FAST} on '{FALL}'", _ALT, by=HARDLY),
             Says("at least", f"probability of '{FAST}' at position {ROW_FAST}", _ALT, by=SURE)))
def alternative_answers_from_another_word(wt, alt=None):
    alt = alt or load(ALTERNATIVE)
    a = alt["A"][ROW_FAST]
    top = int(np.argmax(a))
    answer = _predicts(alt, ROW_FAST, FAST)
    return Outcome(top != CUE_FALL and a[top] > DOMINANT and a[CUE_FALL] < HARDLY and answer.holds,
                   f"seed {alt.manifest.get('seed')}: largest weight {a[top]:.6f} on {alt.tokens[top]!r} "
                   f"(position {top}), {a[CUE_FALL]:.6f} on {FALL!r}; {answer.evidence}",
                   margin=min(room(a[top], DOMINANT, above=True), room(a[CUE_FALL], HARDLY, above=False),
                              answer.margin))


# The page's claims that read the seed-search record or the alternative checkpoint: they describe a search and what
# it published. Every other page claim reads the published model alone, so the seed search checks it on every seed.
SEARCH_CLAIMS = ("seed_search_covers_every_seed", "seed_record_agrees_with_checkpoints",
                 "published_seed_is_first_to_pass",
                 "converged_seeds_answer_in_several_ways", "lesson_pattern_is_a_minority",
                 "alternative_answers_from_another_word")


def model_claims() -> tuple[str, ...]:
    """The page's claims about one trained model alone, in the page's order."""
    return tuple(n for n in PAGE.claims if n not in SEARCH_CLAIMS)

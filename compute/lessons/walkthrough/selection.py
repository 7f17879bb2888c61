"""The walkthrough's selection claims: what a model must show for the lesson to be told about it.

The seed search (compute.training.seedsearch) checks these on every seed it
trains and publishes the first seed that passes them all; `compute train`
checks them on a single run. Each claim is a function of a Walkthrough
(compute.published.walkthrough) that returns whether it holds and the
numbers that decide it. The page's further claims are in page_claims.py; the
lesson imports both from claims.py.
"""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, room
from ...says import Says
from ...data.walkthrough import CUE_ANSWERS, answer_rows, cue_positions, next_word_options
from .overflow import FLOAT16_EXP_LIMIT
from ...published.walkthrough import Walkthrough, target_probabilities

LOSS_CEILING = 0.19   # just above the floor of 24 ln2 / 88 ≈ 0.189 nats per target
SURE = 0.99           # probability that counts as a confident, correct prediction
DOMINANT = 0.9        # attention weight that counts as "copies that row's value"
COIN_FLIP = (0.4, 0.6)  # band for a genuine 50/50 choice

WALKTHROUGH = Registry()
claim = WALKTHROUGH.claim
(ROW_SLOW, ROW_FAST), (CUE_RISE, CUE_FALL) = answer_rows(), cue_positions()  # (5, 13), (1, 9)
(RISE, SLOW), (FALL, FAST) = CUE_ANSWERS


def _sure_room(p: float) -> float:
    """The margin of a probability checked above SURE, taken on what it leaves to the other words (1 - p against
    1 - SURE): p itself cannot rise more than 1 % above 0.99, so its own room would call every such claim fragile."""
    return room(1 - p, 1 - SURE, above=False)


def _predicts(wt: Walkthrough, position: int, word: str) -> Outcome:
    top, p = wt.top_word(position), wt.prob(position, word)
    return Outcome(top == word and p > SURE, f"top word {top!r}, p({word}) = {p:.6f}", margin=_sure_room(p))


def _attends(wt: Walkthrough, row: int, target: int) -> Outcome:
    a = wt["A"][row]
    top = int(np.argmax(a))
    return Outcome(top == target, f"largest weight {a[top]:.6f} at position {top} ({wt.tokens[top]!r}); "
                                  f"weight on position {target} ({wt.tokens[target]!r}) = {a[target]:.6f}")


@claim(Says("at least", f"the probability of '{SLOW}' at position {ROW_SLOW} (the first 'was')", by=SURE))
def position_5_predicts_slow(wt):
    return _predicts(wt, ROW_SLOW, SLOW)


@claim(Says("at least", f"the probability of '{FAST}' at position {ROW_FAST} (the second 'was')", by=SURE))
def position_13_predicts_fast(wt):
    return _predicts(wt, ROW_FAST, FAST)


@claim(Says("largest", f"the weight in row {ROW_SLOW} of A on '{RISE}' (position {CUE_RISE})",
            over="of the row's weights"))
def row_5_attends_rise(wt):
    return _attends(wt, ROW_SLOW, CUE_RISE)


@claim(Says("largest", f"the weight in row {ROW_FAST} of A on '{FALL}' (position {CUE_FALL})",
            over="of the row's weights"))
def row_13_attends_fall(wt):
    return _attends(wt, ROW_FAST, CUE_FALL)


@claim(Says("at least", f"weight on its own cue ('{RISE}' for row {ROW_SLOW}, '{FALL}' for row {ROW_FAST})",
            (f"row {ROW_SLOW} of A", f"row {ROW_FAST} of A"), by=DOMINANT))
def cue_rows_copy_their_value(wt):
    a5, a13 = wt["A"][ROW_SLOW, CUE_RISE], wt["A"][ROW_FAST, CUE_FALL]
    gap = max(np.abs(wt["Z"][ROW_SLOW] - wt["V"][CUE_RISE]).max(), np.abs(wt["Z"][ROW_FAST] - wt["V"][CUE_FALL]).max())
    return Outcome(a5 > DOMINANT and a13 > DOMINANT,
                   f"A[{ROW_SLOW},{CUE_RISE}] = {a5:.6f}, A[{ROW_FAST},{CUE_FALL}] = {a13:.6f}, "
                   f"largest |z - v| = {gap:.4f}", margin=room(min(a5, a13), DOMINANT, above=True))


def cue_key_coordinate(wt: Walkthrough) -> int | None:
    """The key coordinate on which the two cues hold the two largest keys, if any."""
    K = wt["K"]
    for c in range(K.shape[1]):
        top_two = set(np.argsort(K[:, c])[-2:].tolist())
        if top_two == {CUE_RISE, CUE_FALL}:
            return c
    return None


def cue_value_coordinate(wt: Walkthrough) -> int:
    """The value coordinate where the two cues' values differ most."""
    return int(np.argmax(np.abs(wt["V"][CUE_RISE] - wt["V"][CUE_FALL])))


@claim((Says("largest", f"the larger of the keys of '{RISE}' and '{FALL}' on one key coordinate",
             over="of the sentence's keys on it"),
        Says("largest", "the smaller of the two", over="of the rest of the sentence's keys on it")))
def key_coordinate_marks_cues(wt):
    c = cue_key_coordinate(wt)
    if c is None:
        return Outcome(False, f"no key coordinate has {RISE} and {FALL} as its two largest entries")
    return Outcome(True, f"coordinate {c}: k_{RISE} = {wt['K'][CUE_RISE, c]:.4f}, k_{FALL} = {wt['K'][CUE_FALL, c]:.4f}")


@claim(Says("at most", f"the product of the values of '{RISE}' and '{FALL}' on the value coordinate where they differ "
            "most", by=0, over="(they have opposite signs, or one of them is 0)"))
def value_coordinate_separates_cues(wt):
    c = cue_value_coordinate(wt)
    r, f = wt["V"][CUE_RISE, c], wt["V"][CUE_FALL, c]
    return Outcome(bool(np.sign(r) != np.sign(f)), f"coordinate {c}: v_{RISE} = {r:.4f}, v_{FALL} = {f:.4f}",
                   margin=room(float(r * f), 0, above=False))


def coin_flip_positions(wt: Walkthrough) -> list[int]:
    """Goal-sentence positions where the training data allows two next words equally."""
    return [i for i in range(len(wt.tokens)) if len(next_word_options(list(wt.tokens[: i + 1]))) == 2]


_TWO_WAY = "where the data allows two next words equally (positions 0, 1 and 9)"


@claim((Says("at least", "the model's probability for each of the two words", by=COIN_FLIP[0], over=_TWO_WAY),
        Says("at most", "the model's probability for each of the two words", by=COIN_FLIP[1], over=_TWO_WAY)))
def coin_flips_split_evenly(wt):
    parts, ok, rooms = [], True, []
    for i in coin_flip_positions(wt):
        for word in next_word_options(list(wt.tokens[: i + 1])):
            p = wt.prob(i, word)
            ok &= COIN_FLIP[0] <= p <= COIN_FLIP[1]
            rooms += [room(p, COIN_FLIP[0], above=True), room(p, COIN_FLIP[1], above=False)]
            parts.append(f"p({word}|{i}) = {p:.4f}")
    return Outcome(ok and bool(parts), ", ".join(parts) or "no two-way positions found",
                   margin=min(rooms) if rooms else None)


# "none ... or less", not "every ... at least": the audit reads "at least" as a superlative ("least"), which would
# let a sentence bound to this claim say "the highest certainty"
@claim(Says("none", "the next words that the data determines, in all eight sentences,",
            over=f"gets probability {SURE} or less"))
def determined_words_are_certain(wt):
    worst = (1.0, "")
    for sentence, i, word, p in target_probabilities(wt.weights):
        if len(next_word_options(sentence.split()[: i + 1])) == 1 and p < worst[0]:
            worst = (p, f"{word!r} after {' '.join(sentence.split()[: i + 1])!r}")
    return Outcome(worst[0] > SURE, f"lowest such probability {worst[0]:.6f} {worst[1]}".strip(),
                   margin=_sure_room(worst[0]))


def mean_loss(wt: Walkthrough) -> float:
    """Mean cross-entropy (nats) over all training targets, in float64."""
    ps = [p for *_, p in target_probabilities(wt.weights)]
    return float(-np.mean(np.log(ps)))


@claim(Says("at most", "the mean training loss", by=f"{LOSS_CEILING} nats per target",
            over="(the floor is 24 ln2 / 88)", lower_is_better=True))
def loss_near_floor(wt):
    loss = mean_loss(wt)
    return Outcome(loss < LOSS_CEILING, f"loss {loss:.6f}", margin=room(loss, LOSS_CEILING, above=False))


@claim((Says("at most", "largest score", (f"row {ROW_FAST}",),
             by=f"the float16 exp limit, ln 65504 ≈ {FLOAT16_EXP_LIMIT:.2f}"),
        Says("at least", "largest score, doubled,", (f"row {ROW_FAST}",), by="that limit")))
def row_13_fits_float16_until_doubled(wt):
    top = float(wt["S"][ROW_FAST, : ROW_FAST + 1].max())
    return Outcome(top < FLOAT16_EXP_LIMIT < 2 * top,
                   f"largest score of row {ROW_FAST} = {top:.2f}, float16 exp limit = {FLOAT16_EXP_LIMIT:.2f}",
                   margin=min(room(top, FLOAT16_EXP_LIMIT, above=False), room(2 * top, FLOAT16_EXP_LIMIT, above=True)))

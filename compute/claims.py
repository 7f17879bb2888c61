"""Named, checked statements that the lessons' prose relies on.

A Registry holds one lesson's claims. Each walkthrough claim is a function of a Walkthrough that returns whether it holds and the
numbers that decide it. The build checks every claim against the published
checkpoint and stops, naming the claim and its numbers, when one fails.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .data import SENTENCES, VOCAB, next_word_options
from .walkthrough import Walkthrough, target_probabilities

LOSS_CEILING = 0.19   # just above the floor of 24 ln2 / 88 ≈ 0.189 nats per target
SURE = 0.99           # probability that counts as a confident, correct prediction
DOMINANT = 0.9        # attention weight that counts as "copies that row's value"
COIN_FLIP = (0.4, 0.6)  # band for a genuine 50/50 choice


class ClaimError(Exception):
    """A claim a lesson relies on does not hold."""


@dataclass(frozen=True)
class Outcome:
    holds: bool
    evidence: str  # the numbers that decided it


@dataclass(frozen=True)
class Claim:
    name: str
    statement: str
    check: Callable[..., Outcome]


class Registry:
    """The named claims of one lesson; each check takes the same arguments."""

    def __init__(self):
        self.claims: dict[str, Claim] = {}

    def claim(self, statement: str):
        """Register a check function under its own name."""
        def register(fn: Callable[..., Outcome]):
            self.claims[fn.__name__] = Claim(fn.__name__, statement, fn)
            return fn
        return register

    def check_all(self, *args, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
        """Every claim (or the named ones) with its outcome."""
        chosen = [self.claims[n] for n in names] if names else list(self.claims.values())
        return [(c, c.check(*args)) for c in chosen]

    def require_all(self, *args, source: str = "") -> None:
        """Raise ClaimError naming each broken claim and its numbers."""
        broken = [f"claim {c.name} fails: {c.statement} [{o.evidence}]"
                  for c, o in self.check_all(*args) if not o.holds]
        if broken:
            where = f" ({source})" if source else ""
            raise ClaimError("; ".join(broken) + where)


WALKTHROUGH = Registry()
CLAIMS = WALKTHROUGH.claims
claim = WALKTHROUGH.claim


def _predicts(wt: Walkthrough, position: int, word: str) -> Outcome:
    top, p = wt.top_word(position), wt.prob(position, word)
    return Outcome(top == word and p > SURE, f"top word {top!r}, p({word}) = {p:.6f}")


def _attends(wt: Walkthrough, row: int, word: str, occurrence: int) -> Outcome:
    target = wt.position_of(word, occurrence)
    a = wt["A"][row]
    top = int(np.argmax(a))
    return Outcome(top == target, f"largest weight {a[top]:.6f} at position {top} ({wt.tokens[top]!r}); "
                                  f"weight on position {target} ({word!r}) = {a[target]:.6f}")


@claim("Position 5 (the first 'was') predicts 'slow' with probability above 0.99.")
def position_5_predicts_slow(wt):
    return _predicts(wt, 5, "slow")


@claim("Position 13 (the second 'was') predicts 'fast' with probability above 0.99.")
def position_13_predicts_fast(wt):
    return _predicts(wt, 13, "fast")


@claim("Row 5 of A puts its largest weight on 'rise' (position 1).")
def row_5_attends_rise(wt):
    return _attends(wt, 5, "rise", 1)


@claim("Row 13 of A puts its largest weight on 'fall' (position 9).")
def row_13_attends_fall(wt):
    return _attends(wt, 13, "fall", 1)


@claim("Rows 5 and 13 each put more than 0.9 on their cue, so z_5 ≈ v_rise and z_13 ≈ v_fall.")
def cue_rows_copy_their_value(wt):
    a5, a13 = wt["A"][5, 1], wt["A"][13, 9]
    gap = max(np.abs(wt["Z"][5] - wt["V"][1]).max(), np.abs(wt["Z"][13] - wt["V"][9]).max())
    return Outcome(a5 > DOMINANT and a13 > DOMINANT,
                   f"A[5,1] = {a5:.6f}, A[13,9] = {a13:.6f}, largest |z - v| = {gap:.4f}")


def cue_key_coordinate(wt: Walkthrough) -> int | None:
    """The key coordinate on which 'rise' and 'fall' hold the two largest keys, if any."""
    K = wt["K"]
    for c in range(K.shape[1]):
        top_two = set(np.argsort(K[:, c])[-2:].tolist())
        if top_two == {1, 9}:
            return c
    return None


def cue_value_coordinate(wt: Walkthrough) -> int:
    """The value coordinate where v_rise and v_fall differ most."""
    return int(np.argmax(np.abs(wt["V"][1] - wt["V"][9])))


@claim("One key coordinate holds the two largest keys of the sentence, and they belong to 'rise' and 'fall'.")
def key_coordinate_marks_cues(wt):
    c = cue_key_coordinate(wt)
    if c is None:
        return Outcome(False, "no key coordinate has rise and fall as its two largest entries")
    return Outcome(True, f"coordinate {c}: k_rise = {wt['K'][1, c]:.4f}, k_fall = {wt['K'][9, c]:.4f}")


@claim("The value coordinate that differs most between 'rise' and 'fall' gives them opposite signs.")
def value_coordinate_separates_cues(wt):
    c = cue_value_coordinate(wt)
    r, f = wt["V"][1, c], wt["V"][9, c]
    return Outcome(bool(np.sign(r) != np.sign(f)), f"coordinate {c}: v_rise = {r:.4f}, v_fall = {f:.4f}")


def coin_flip_positions(wt: Walkthrough) -> list[int]:
    """Goal-sentence positions where the training data allows two next words equally."""
    return [i for i in range(len(wt.tokens)) if len(next_word_options(list(wt.tokens[: i + 1]))) == 2]


@claim("Where the data allows two next words equally (positions 0, 1 and 9), the model gives each 0.4 to 0.6.")
def coin_flips_split_evenly(wt):
    parts, ok = [], True
    for i in coin_flip_positions(wt):
        for word in next_word_options(list(wt.tokens[: i + 1])):
            p = wt.prob(i, word)
            ok &= COIN_FLIP[0] <= p <= COIN_FLIP[1]
            parts.append(f"p({word}|{i}) = {p:.4f}")
    return Outcome(ok and bool(parts), ", ".join(parts) or "no two-way positions found")


@claim("Every next word that the data determines gets probability above 0.99, in all eight sentences.")
def determined_words_are_certain(wt):
    worst = (1.0, "")
    for sentence, i, word, p in target_probabilities(wt.weights):
        if len(next_word_options(sentence.split()[: i + 1])) == 1 and p < worst[0]:
            worst = (p, f"{word!r} after {' '.join(sentence.split()[: i + 1])!r}")
    return Outcome(worst[0] > SURE, f"lowest such probability {worst[0]:.6f} {worst[1]}".strip())


def mean_loss(wt: Walkthrough) -> float:
    """Mean cross-entropy (nats) over all 88 training targets, in float64."""
    ps = [p for *_, p in target_probabilities(wt.weights)]
    return float(-np.mean(np.log(ps)))


@claim("The mean training loss is below 0.19 nats per target (the floor is 24 ln2 / 88).")
def loss_near_floor(wt):
    loss = mean_loss(wt)
    return Outcome(loss < LOSS_CEILING, f"loss {loss:.6f}")


def check_all(wt: Walkthrough, names: list[str] | None = None) -> list[tuple[Claim, Outcome]]:
    """Every walkthrough claim (or the named ones) with its outcome."""
    return WALKTHROUGH.check_all(wt, names=names)


def require_all(wt: Walkthrough, source: str = "") -> None:
    """Raise ClaimError naming each broken walkthrough claim and its numbers."""
    WALKTHROUGH.require_all(wt, source=source)


def claims_table(results: list[tuple[Claim, Outcome]]) -> str:
    """A plain-text table for the terminal."""
    width = max(len(c.name) for c, _ in results)
    lines = [f"{'claim':<{width}}  holds  evidence"]
    for c, o in results:
        lines.append(f"{c.name:<{width}}  {'yes' if o.holds else 'NO ':<5}  {o.evidence}")
    return "\n".join(lines)

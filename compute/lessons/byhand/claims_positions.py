"""Attention by hand's claims on positions (sections 16 to 18): rotations, swapped words, additive and relative
positions; registered with the lesson's other claims in claims.BYHAND."""
from __future__ import annotations

import numpy as np

from ...claims import Outcome, Registry, room
from ...says import Says
from . import model as m
from .states import positions
from .states.attention import predict

POSITIONS = Registry()
claim = POSITIONS.claim

ROTATION_CASES = 200




@claim((Says("equal", "sincos(i) mapped by the angle-addition matrix for δ, and sincos(i + δ)", by=1e-12,
             over=f"in {ROTATION_CASES} random cases"),
        Says("equal", "⟨R_i q, R_j k⟩ and qᵀ R_{j−i} k", by=1e-12, over="in the same cases")))
def rotation_identities():
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(ROTATION_CASES):
        i, j, d = rng.uniform(-50, 50, 3)
        omega = rng.uniform(0.01, 2)
        q, k = rng.standard_normal(2), rng.standard_normal(2)
        worst = max(worst, np.abs(positions.sincos(i, omega) @ positions.shift_map(d, omega)
                                  - positions.sincos(i + d, omega)).max())
        worst = max(worst, abs(positions.rope_score(q, k, i, j, omega) - positions.relative_score(q, k, i, j, omega)))
    return Outcome(worst < 1e-12, f"largest error {worst:.2g} over {ROTATION_CASES} random cases")


@claim((Says("at least", "the largest change in next-word probabilities when 'The' and 'river' swap in sentence A, "
             "with position rows", by=1e-3),
        Says("equal", "the next-word probabilities before and after that swap with the position rows zeroed",
             by=1e-15)))
def swap_regression():
    words = m.sentence("A")
    with_pos = np.abs(predict(words)["p"] - predict(positions.swapped(words))["p"]).max()
    without = np.abs(predict(words, positions=False)["p"] - predict(positions.swapped(words), positions=False)["p"]).max()
    return Outcome(with_pos > 1e-3 and without < 1e-15,
                   f"max |Δp| with positions {with_pos:.4g}, without {without:.2g}", margin=room(with_pos, 1e-3, above=True))


@claim((Says("equal", "the raw index of each earlier position before and after the prefix grows", by=0,
             over="at every step of prefix length"),
        Says("falls", "index ÷ length at each earlier position", over="at every step as the prefix grows")))
def length_scaling_changes_earlier_features():
    bad_index, unchanged_div = [], []
    for T, T2 in zip(positions.PREFIX_LENGTHS, positions.PREFIX_LENGTHS[1:]):
        a, b = positions.prefix_features(T), positions.prefix_features(T2)
        if not np.array_equal(a["index i"], b["index i"][:T]):
            bad_index.append(T)
        if np.any(np.isclose(a["i / T"], b["i / T"][:T])) or np.any(b["i / T"][:T] > a["i / T"]):
            unchanged_div.append(T)
    return Outcome(not bad_index and not unchanged_div,
                   f"index changed at T={bad_index or 'none'}; i/T kept or raised a value at T={unchanged_div or 'none'}")


@claim((Says("equal", "the values of u·v in the table's rows (sine/cosine positions, the same gap in every row)",
             by=1e-12),
        Says("equal", "the values of p_i·p_j in those rows", by=1e-12),
        Says("at least", "the range over those rows of each cross term (u·p_j, p_i·v) and of the total score",
             by=0.1)))
def additive_cross_terms_depend_on_absolute_position():
    rows = np.array([r[1:] for r in positions.cross_term_rows()])
    ranges = np.ptp(rows, axis=0)   # u·v, u·p_j, p_i·v, p_i·p_j, total
    fixed = ranges[0] < 1e-12 and ranges[3] < 1e-12
    moving = ranges[[1, 2, 4]].min()
    return Outcome(bool(fixed and moving > 0.1), f"ranges over the rows: u·v {ranges[0]:.2g}, u·p_j {ranges[1]:.3f}, "
                                                 f"p_i·v {ranges[2]:.3f}, p_i·p_j {ranges[3]:.2g}, total {ranges[4]:.3f}",
                   margin=room(moving, 0.1, above=True))


@claim((Says("equal", "each word's output rows in the two orders of the two-token swap without positions", by=1e-15),
        Says("at least", "the largest change in an output row between the two orders with positions", by=0.1)))
def order_swap_needs_positions():
    a, b = positions.SWAP_ORDERS
    off = np.abs(positions.swap_state(a, False)["out"] - positions.swap_state(b, False)["out"]).max()
    on = np.abs(positions.swap_state(a, True)["out"] - positions.swap_state(b, True)["out"]).max()
    return Outcome(off < 1e-15 and on > 0.1, f"max output change without positions {off:.2g}, with positions {on:.3f}",
                   margin=room(on, 0.1, above=True))

"""Predict-first questions: each asked before the section that answers it, its answer computed from the model
(and printed, in the student edition, only in the key; in the handout, at its end)."""
from __future__ import annotations

import numpy as np
from IPython.display import HTML

from ...present.tables import fmt
from ...present.widgets import answer_html
from . import model as m
from .states.attention import MASK_ROW, attend, sentence_att
from .states.scaling import measured_spread


def bank_weight() -> HTML:
    """Before bank's weights are computed: where its query puts them in sentence A."""
    words, att = sentence_att("A")
    a = att.A[m.BANK - 1]
    river = words.index("river")
    return HTML(answer_html(
        f"Predict first: in sentence A, bank's query (position {m.BANK}) is scored against the keys of positions 1 "
        f"to {m.BANK}. Will one word take at least half of its weight, and which {{about}}`method`?",
        f"Yes: <em>river</em>, with {fmt(a[river], 2)} of the weight {{claim}}`bank_gives_river_most_of_its_weight`. "
        "Its key has the water that bank's query asks for {about}`design`."))


def bank_update() -> HTML:
    """Before the two contexts side by side: which feature of bank grows in each sentence."""
    _, a = sentence_att("A")
    _, b = sentence_att("B")
    i, water, finance = m.BANK - 1, m.FEATURES.index("water"), m.FEATURES.index("finance")
    return HTML(answer_html(
        "Predict first: bank starts from the same row in both sentences {claim}`bank_starts_identical`. Once "
        "attention has added its update, "
        "which of bank's features will have grown in sentence A, and which in sentence B {about}`method`?",
        f"In A its water feature rises, from {fmt(a.e[i, water], 2)} to {fmt(a.e_new[i, water], 2)}; in B its "
        f"finance feature rises, from {fmt(b.e[i, finance], 2)} to {fmt(b.e_new[i, finance], 2)} "
        "{claim}`update_follows_context`."))


def unmasked_row() -> HTML:
    """Before the mask: where row MASK_ROW would look if it could see the future."""
    words = m.sentence("A")
    off = attend(m.rows(words).e, masked=False)
    a = off.A[MASK_ROW - 1]
    top = int(np.argmax(a))
    return HTML(answer_html(
        f"Predict first: row {MASK_ROW} of sentence A (<em>{words[MASK_ROW - 1]}</em>) predicts the word after it. If "
        "nothing stopped it from reading every position, later ones included, which word would it weight most "
        "{about}`method`?",
        f"<em>{words[top]}</em>, at position {top + 1}, with {fmt(a[top], 2)} {{claim}}`unmasked_row_5_reads_river`: the "
        "very word it is meant to predict. The mask is what stops this."))


def score_spread() -> HTML:
    """Before the spread figure: how the variance of q·k grows with d_k."""
    s = measured_spread()
    first, last = 0, len(s["d_k"]) - 1
    return HTML(answer_html(
        "Predict first: the entries of a query and a key are drawn from a standard normal distribution. As their "
        "width d_k grows, what happens to the variance of their dot product {about}`method`?",
        f"It grows with d_k: {fmt(s['raw'][first], 2)} at d_k = {s['d_k'][first]} and {fmt(s['raw'][last], 1)} at "
        f"d_k = {s['d_k'][last]}, close to d_k itself each time {{claim}}`score_spread_grows_like_dk`. Dividing "
        "the scores by √d_k undoes it {about}`design`."))

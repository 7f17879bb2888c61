"""The trained walkthrough's predict-then-check questions: each asked before the section that shows the answer,
its answer computed from the published checkpoint and the seed-search record (opened on the web page, printed at
the end of the handout, alone in the answer key)."""
from __future__ import annotations

import numpy as np
from IPython.display import HTML

from ...data.walkthrough import VOCAB
from ...present.tables import fmt
from ...present.widgets import answer_html
from ...published.walkthrough import load
from .claims import CUE_FALL, CUE_RISE, FALL, FAST, RISE, ROW_FAST, ROW_SLOW, SLOW
from .seeds import pattern_counts, seed_record


def predict_slow() -> HTML:
    """Which word position 5 predicts, and how sure the model is."""
    wt = load()
    p = wt["probs"][ROW_SLOW]
    return HTML(answer_html(
        f"Predict first: after position {ROW_SLOW} (the first “was”), which word should the trained model put "
        "first, and how sure can it be, given that the eight sentences decide it {about}`method`?",
        f"“{SLOW}”, with probability {fmt(p[VOCAB.index(SLOW)], 4)}; “{FAST}” gets {fmt(p[VOCAB.index(FAST)], 4)} "
        "{claim}`position_5_predicts_slow determined_words_are_certain`."))


def predict_sharpening() -> HTML:
    """How much more weight softmax gives 'fall' than 'rise' in row 13, against their scores."""
    wt = load()
    s, a = wt["S"][ROW_FAST], wt["A"][ROW_FAST]
    return HTML(answer_html(
        f"Predict first: row {ROW_FAST} scores “{FALL}” {fmt(s[CUE_FALL], 2)} and “{RISE}” "
        f"{fmt(s[CUE_RISE], 2)}. After softmax, how many times the weight of “{RISE}” will “{FALL}” get "
        "{about}`method`?",
        f"{fmt(a[CUE_FALL] / a[CUE_RISE], 1)} times: “{FALL}” gets {fmt(a[CUE_FALL], 2)} and “{RISE}” "
        f"{fmt(a[CUE_RISE], 2)} (as the table of A prints them), from scores whose ratio is {fmt(s[CUE_FALL] / s[CUE_RISE], 2)} "
        "{claim}`softmax_sharpens_row_13`."))


def predict_unmasked() -> HTML:
    """Where row 5's largest score falls before the mask."""
    wt = load()
    row = wt["S"][ROW_SLOW]
    top = int(np.argmax(row))
    return HTML(answer_html(
        f"Predict first: before the mask, which position does row {ROW_SLOW} score highest of all, and why "
        "must the model not read it {about}`method`?",
        f"Position {top} (“{wt.tokens[top]}”), score {fmt(row[top], 2)}: a later position than {ROW_SLOW}, a "
        "word the model would not have yet when it predicts {claim}`row_5_peeks_at_the_future`."))


def predict_seeds() -> HTML:
    """How many converged seeds found the lesson's pattern."""
    counts = pattern_counts(seed_record())
    lesson = f"{ROW_SLOW} → {RISE}, {ROW_FAST} → {FALL}"
    n, total = counts.get(lesson, 0), sum(counts.values())
    top, top_n = next(iter(counts.items()))
    return HTML(answer_html(
        f"Predict first: of the seeds that converged, what share found this lesson's pattern, row {ROW_SLOW} "
        f"reading “{RISE}” and row {ROW_FAST} reading “{FALL}” {{about}}`method`?",
        f"{n} of {total} ({fmt(n / total, 2)}); the commonest pattern, "
        f"“{top.replace(' → ', ' reads ')}”, was found by {top_n} {{claim}}`lesson_pattern_is_a_minority`."))

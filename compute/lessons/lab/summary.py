"""What the lab showed, its last section, written from the runs the notebook holds.

On the page (TRAIN = False) the runs are Part III's published models, and each sentence rests on the claim that
checks it. In a learner's notebook (TRAIN = True) the same claims are checked on the learner's own run, and each
sentence says what that run did: where a claim does not hold there, the sentence gives the run's numbers and says
so, instead of a conclusion the run contradicts.
"""
from __future__ import annotations

import html

from IPython.display import HTML

from ...present.prose import said
from ...present.tables import fmt
from ...probes import chance
from . import claims
from .states.follow import KIND, Case
from .states.knockout import knocked_out
from .states.run import LabRun


def findings(mlp: LabRun, head: LabRun, case: Case) -> list[str]:
    """One sentence per finding, each as this run came out."""
    holds = {c.name: o.holds for c, o in claims.check_all(mlp, head, case)}
    h, m, guess = head.scores[f"{KIND} beyond 8"], mlp.scores[f"{KIND} beyond 8"], chance(KIND)
    silenced = knocked_out(head)[f"{KIND} beyond 8"]
    look = case.on_mentions
    return [
        f"Beyond the MLP's window the one-head model picks the right {KIND} far more often than the MLP "
        f"({fmt(h, 2)} against {fmt(m, 2)}), which stays near chance ({fmt(guess, 2)}) "
        "{claim}`head_finds_what_the_window_hides`."
        if holds["head_finds_what_the_window_hides"] else
        f"In this run, beyond the MLP's window, the one-head model picks the right {KIND} {fmt(h, 2)} of the time "
        f"and the MLP {fmt(m, 2)} (a uniform guess: {fmt(guess, 2)}), short of the wide gap the page's claim "
        "asks for: train longer (TOKENS) and look again {about}`reading`.",
        f"At the followed blank the head puts {fmt(look, 2)} of its attention, at least half, on the earlier "
        "mention of the right word {claim}`head_looks_back_at_the_followed_blank`."
        if holds["head_looks_back_at_the_followed_blank"] else
        f"In this run the head puts {fmt(look, 2)} of its attention on the earlier mention at the followed blank, "
        "short of half, or the head does not give the right word more probability than the MLP "
        "{about}`reading`.",
        f"Silence the head and the one-head model's {KIND} accuracy beyond 8 tokens goes from {fmt(h, 2)} back to "
        f"near chance, {fmt(silenced, 2)} {{claim}}`silenced_head_forgets`."
        if holds["silenced_head_forgets"] else
        f"In this run, silencing the head takes the one-head model's {KIND} accuracy beyond 8 tokens from "
        f"{fmt(h, 2)} to {fmt(silenced, 2)}, not yet back to near chance ({fmt(guess, 2)}) {{about}}`reading`.",
    ]


def showed(mlp: LabRun, head: LabRun, case: Case) -> HTML:
    """The findings as the section's list."""
    items = "".join(f"<li>{html.escape(said(text))}</li>" for text in findings(mlp, head, case))
    return HTML(f'<ul class="lab-showed">{items}</ul>')

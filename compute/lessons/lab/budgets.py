"""How long the one-head model must train before its names from far back leave chance, measured on several token
budgets (benchmarks/lab.py --budgets, stored in the lab's run record), and what a learner's run shows against
the published one.

The lab's default budget is the classroom setting: it trains quickly, and its head learns to fetch
objects and colours from beyond the MLP's window, not yet names. The longer setting is the smallest measured
budget whose names beyond 8 tokens back leave chance (LEAVES_CHANCE above a uniform guess among names).
"""
from __future__ import annotations

import html

from IPython.display import HTML

from ...present.prose import said
from ...present.tables import fmt, rows_html
from ...probes import chance
from ...published.story import NAMES, load_published
from ...strength import COPIES
from .states.budgets import budgets, default_budget, leaves_chance, longer_budget
from .states.published import published_runs
from .states.run import LabRun, measured_run


def budgets_table() -> HTML:
    where = measured_run()["budgets"]["measured_on"]
    rows = [(f"{b['tokens']:,}", b["name beyond 8"], b["object beyond 8"], b["val_loss"]) for b in budgets()]
    rows.append(("a uniform guess", chance("name"), chance("object"), ""))
    return HTML(rows_html(["tokens (TOKENS)", "name, beyond 8 back", "object, beyond 8 back", "validation loss"],
                          rows, decimals=2,
                          caption=f"The one-head model trained as this notebook trains it, from seed 0, on each "
                                  f"budget (measured with {where['threads']} threads, torch {where['torch']}, "
                                  f"{where['date']}) {{about}}`method`"))


def against_published(mlp: LabRun, head: LabRun) -> HTML:
    """One paragraph under the scores: what this run shows against Part III's published one, and why."""
    published = load_published(NAMES["one-head"]).manifest["tokens_seen"]
    default, longer = default_budget(), longer_budget()
    if head.source == "published checkpoint":
        text = (f"These are Part III's models, trained on {published:,} tokens each. Run with its default "
                f"TOKENS = {default['tokens']:,}, the notebook's one-head model ends with names beyond 8 back at "
                f"{fmt(default['name beyond 8'], 2)} (a uniform guess: {fmt(chance('name'), 2)}) while its objects "
                f"reach {fmt(default['object beyond 8'], 2)} {{claim}}`the_default_budget_copies_objects_not_names`.")
        if longer:
            text += (f" In the measured runs below, names leave chance from {longer['tokens']:,} tokens on, so "
                     f"TOKENS = {longer['tokens']:_} in the first cell trains a head whose names from far back leave chance "
                     "{claim}`names_leave_chance_on_the_longer_budget`.")
    else:
        score = head.scores["name beyond 8"]
        theirs = published_runs()[1].scores["name beyond 8"]
        text = (f"Your one-head model, {head.source}, ends with names beyond 8 back at {fmt(score, 2)} (a uniform "
                f"guess: {fmt(chance('name'), 2)}); Part III's, trained on {published:,} tokens, at "
                f"{fmt(theirs, 2)}.")
        if score >= COPIES.limit:
            text += (f" Your head copies names from far back: it picks the right name at least {COPIES.limit} of the "
                     "time, the site's meaning of copying.")
        elif leaves_chance(score):
            text += (" Your head's names from far back have left chance, "
                     + ("further than Part III's." if score > theirs else "not yet as far as Part III's."))
        elif longer:
            text += (f" In the measured runs below, names leave chance only from {longer['tokens']:,} tokens on: "
                     f"set TOKENS = {longer['tokens']:_} and run the notebook again to see it.")
    return HTML(f'<p class="lab-against">{html.escape(said(text))}</p>')

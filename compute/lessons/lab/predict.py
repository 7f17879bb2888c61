"""The lab's predict-first questions: each asked before the cells that answer it, its answer computed from the
configuration or from this notebook's run (printed at the handout's end, and in the key)."""
from __future__ import annotations

import math

from IPython.display import HTML

from ...present.tables import fmt
from ...present.widgets import answer_html
from ...probes import chance
from .states.budgets import default_budget
from .states.follow import KIND


def uniform_loss(cfg) -> HTML:
    """Before training: the loss of a model that has learned nothing."""
    V = cfg.vocab_size
    return HTML(answer_html(
        f"Predict first: before any training, a model that spreads its probability evenly over the {V:,} tokens "
        "of its vocabulary: what is its loss per token {about}`method`?",
        f"ln {V:,} = {math.log(V):.2f} nats: the right token gets probability 1/{V:,}, and the loss is minus its "
        "logarithm {about}`method`. Training starts from about there."))


def followed(case) -> HTML:
    """Before the followed prediction's displays: which model finds the word, and where the head looks."""
    head, mlp = case.p_head[case.word], case.p_mlp[case.word]
    finder = "the head" if head > mlp else "the MLP"
    return HTML(answer_html(
        f"Predict first: the right word here, '{case.answer}', was last said {case.distance} tokens before the "
        f"blank, and the MLP reads the last {case.window}. Which model gives it the higher probability, and "
        "where does the head's attention go {about}`method`?",
        f"On this run, {finder}: {head:.3f} for the head against {mlp:.3f} for the MLP, with {case.on_mentions:.2f} "
        "of the head's attention on the earlier mention {claim}`head_looks_back_at_the_followed_blank`."))


def beyond_the_window(mlp, head) -> HTML:
    """Before the scores: which model finds an object last said beyond the MLP's window, against a guess."""
    h, m, c = head.scores[f"{KIND} beyond 8"], mlp.scores[f"{KIND} beyond 8"], chance(KIND)
    first, second = ("the one-head model", "the MLP") if h > m else ("the MLP", "the one-head model")
    return HTML(answer_html(
        f"Predict first: where an {KIND} was last said more than 8 tokens back, beyond the MLP's window, how often "
        f"will each model put the right one first among the {KIND}s, where a uniform guess does so "
        f"{fmt(c, 2)} of the time {{about}}`method`?",
        f"On this run {first} is right more often than {second}: {fmt(h, 2)} for the one-head model against "
        f"{fmt(m, 2)} for the MLP {{claim}}`head_finds_what_the_window_hides`. The MLP's input at such a blank "
        "holds no mention of the object {about}`design`."))


def default_budget_names() -> HTML:
    """Before the paragraph on budgets: what the notebook's default budget teaches the head, by kind."""
    d = default_budget()
    return HTML(answer_html(
        f"Predict first: trained as the notebook trains it by default, on {d['tokens']:,} tokens, will the "
        "one-head model copy names from beyond 8 tokens back as well as objects {about}`method`?",
        f"It copies objects, and its names stay near chance: on that budget it is right on "
        f"{fmt(d['object beyond 8'], 2)} of the objects beyond 8 back and on {fmt(d['name beyond 8'], 2)} of the "
        f"names, where a uniform guess over names scores {fmt(chance('name'), 2)} "
        "{claim}`the_default_budget_copies_objects_not_names`."))

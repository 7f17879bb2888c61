"""The lab's predict-first questions: each asked before the cells that answer it, its answer computed from the
configuration or from this notebook's run (printed at the handout's end, and in the key)."""
from __future__ import annotations

import math

from IPython.display import HTML

from ...present.widgets import answer_html


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

"""The one-head model with its head silenced, scored: what the knockout exercise, its claim and the findings read."""
from __future__ import annotations

import torch

from ....probes import run_probes, summary
from .run import LabRun, data, probes


def knocked_out(head: LabRun) -> dict:
    """The one-head model's scores with its head silenced: W_O set to zero, so attention adds nothing. Scored once
    per run (a pass over every validation story) and kept on it, as its own scores are: the claim, the exercise's
    answer and the findings each read it."""
    if head.silenced is None:
        params = {**head.params, "blocks.0.attn.W_O": torch.zeros_like(head.params["blocks.0.attn.W_O"])}
        with torch.no_grad():
            head.silenced = summary(probes(), run_probes(lambda x: head.fn(params, x), probes(), data().vocab))
    return head.silenced

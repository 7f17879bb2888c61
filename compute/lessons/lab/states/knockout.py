"""The one-head model with its head silenced, scored: what the knockout exercise and its claim read."""
from __future__ import annotations

import torch

from ....probes import run_probes, summary
from .run import LabRun, data, probes


def knocked_out(head: LabRun) -> dict:
    """The one-head model's scores with its head silenced: W_O set to zero, so attention adds nothing."""
    params = {**head.params, "blocks.0.attn.W_O": torch.zeros_like(head.params["blocks.0.attn.W_O"])}
    with torch.no_grad():
        return summary(probes(), run_probes(lambda x: head.fn(params, x), probes(), data().vocab))

"""The lab's claims on runs built from compute's own models: they hold for the published tensors and fail,
naming themselves, when the head is silenced."""
from __future__ import annotations

import pytest
import torch

from compute.claims import ClaimError
from compute.lessons import lab
from compute.lessons.lab import claims
from compute.lessons.lab.states.published import attention, published_runs
from compute.lessons.lab.states.run import LabRun, data, probes, run_probes, summary


@pytest.fixture(scope="module")
def runs():
    mlp, head, _ = published_runs()
    return mlp, head


def test_every_claim_holds_on_the_published_models(runs):
    mlp, head = runs
    case = lab.follow(mlp, head, attention)
    results = claims.check_all(mlp, head, case)
    assert len(results) == len(claims.LAB.claims) == 4 and all(o.holds for _, o in results), [o.evidence for _, o in results]
    assert case.distance > mlp.params["W1"].shape[0] // mlp.params["E"].shape[1]   # beyond the window


def test_the_claims_fail_by_name_when_the_head_is_silenced(runs):
    mlp, head = runs
    silent = {**head.params, "blocks.0.attn.W_O": torch.zeros_like(head.params["blocks.0.attn.W_O"])}
    broken = LabRun("one-head", head.fn, silent, "silenced")
    with torch.no_grad():
        broken.results = run_probes(broken.logits, probes(), data().vocab)
    broken.scores = summary(probes(), broken.results)
    case = lab.follow(mlp, broken, attention)
    with pytest.raises(ClaimError) as err:
        claims.require_all(mlp, broken, case)
    message = str(err.value)
    assert "head_finds_what_the_window_hides" in message
    assert "silenced_head_forgets" not in message          # silenced already: that claim still holds

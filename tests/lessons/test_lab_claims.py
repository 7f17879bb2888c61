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
    assert len(results) == len(claims.LAB.claims) == 6 and all(o.holds for _, o in results), [o.evidence for _, o in results]
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


def test_what_the_lab_showed_is_written_from_the_run_it_is_given(runs):
    """On the published run each finding rests on its claim; on a run where the head is silenced the first and
    last say what that run did (its numbers), not the page's conclusion."""
    from compute.lessons.lab.summary import findings
    mlp, head = runs
    published = findings(mlp, head, lab.follow(mlp, head, attention))
    assert "{claim}`head_finds_what_the_window_hides`" in published[0] and "far more often" in published[0]
    silent = {**head.params, "blocks.0.attn.W_O": torch.zeros_like(head.params["blocks.0.attn.W_O"])}
    broken = LabRun("one-head", head.fn, silent, "silenced")
    with torch.no_grad():
        broken.results = run_probes(broken.logits, probes(), data().vocab)
    broken.scores = summary(probes(), broken.results)
    theirs = findings(mlp, broken, lab.follow(mlp, broken, attention))
    assert "far more often" not in theirs[0] and "{claim}" not in theirs[0] and "In this run" in theirs[0]
    assert f"{broken.scores['object beyond 8']:.2f}" in theirs[0]


def budgets_record(*points):
    """The run record with its budgets replaced: (tokens, names beyond 8, objects beyond 8) for each."""
    from compute.lessons.lab.states.run import measured_run
    record = dict(measured_run())
    record["budgets"] = {**record["budgets"], "one-head": [
        {"tokens": t, "name beyond 8": n, "object beyond 8": o, "val_loss": 1.0, "seconds": 1.0} for t, n, o in points]}
    return record


@pytest.mark.parametrize("points, failing", [
    # the default run's names are already far from chance: the page's "names near chance" would be false
    (((4_000_000, 0.4, 0.7), (8_000_000, 0.5, 0.7)), "the_default_budget_copies_objects_not_names"),
    # nor objects: "while its objects reach" a copying level would be false
    (((4_000_000, 0.02, 0.03), (8_000_000, 0.5, 0.7)), "the_default_budget_copies_objects_not_names"),
    # objects well above chance, yet short of the site's meaning of "copies" (compute.strength.COPIES)
    (((4_000_000, 0.02, 0.55), (8_000_000, 0.5, 0.7)), "the_default_budget_copies_objects_not_names"),
    # names 0.08 above chance: not "near chance" in the site's meaning, though they have not left it
    (((4_000_000, 0.097, 0.7), (8_000_000, 0.5, 0.7)), "the_default_budget_copies_objects_not_names"),
    # no budget's names leave chance: there is no longer setting to name
    (((4_000_000, 0.02, 0.7), (8_000_000, 0.05, 0.7)), "names_leave_chance_on_the_longer_budget"),
    # names leave chance at 8M but are back at 12M: "from 8,000,000 tokens on" would be false
    (((4_000_000, 0.02, 0.7), (8_000_000, 0.4, 0.7), (12_000_000, 0.05, 0.7)), "names_leave_chance_on_the_longer_budget"),
])
def test_the_budget_claims_fail_by_name_on_a_damaged_record(runs, monkeypatch, points, failing):
    from compute.lessons.lab.states import budgets
    monkeypatch.setattr(budgets, "measured_run", lambda: budgets_record(*points))
    mlp, head = runs
    case = lab.follow(mlp, head, attention)
    outcomes = {c.name: o for c, o in claims.check_all(mlp, head, case)}
    assert not outcomes[failing].holds and "chance" in outcomes[failing].evidence

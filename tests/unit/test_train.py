"""Seeded training: it learns, it repeats itself, and the published seed comes back.

What holds on every machine is tested everywhere: the recipe from the published seed reaches the loss
floor, and the published checkpoint satisfies every claim (tests/lessons/test_claims.py). Retraining
repeats the published bits only where torch, the CPU, its vector kernels, the BLAS and the thread count
match the manifest's record of where it was trained (compute.training.machine); that test runs there.
"""
import json
import os
import subprocess
from pathlib import Path

import pytest
import torch

from compute.claims import Claim, Outcome
from compute.lessons.walkthrough import claims
from compute.published.walkthrough import SEED_RECORD
from compute.training import seedsearch
from compute.published.walkthrough import from_weights, load_weights
from compute.training.machine import FIELDS, differences, machine_record
from helpers import cli_error, usage_error
from forked import compute as run_compute
from compute.training.walkthrough import Recipe, train

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_short_run_lowers_the_loss():
    result = train(3, Recipe(steps=60))
    assert result.final_loss < 0.6 * result.loss_history[0]


def test_same_seed_same_bits_on_this_machine():
    a, b = train(5, Recipe(steps=30)), train(5, Recipe(steps=30))
    assert all(torch.equal(a.weights[k], b.weights[k]) for k in a.weights)
    c = train(6, Recipe(steps=30))
    assert not torch.equal(a.weights["E"], c.weights["E"])


PUBLISHED = ROOT / "compute" / "checkpoints" / "walkthrough.safetensors"
MANIFEST = json.loads(PUBLISHED.with_suffix(".json").read_text())
ELSEWHERE = differences(MANIFEST["trained_on"], machine_record(MANIFEST["recipe"]["threads"]))


@pytest.fixture(scope="module")
def retrained():
    """The published seed trained again here with the published recipe."""
    return train(MANIFEST["seed"], Recipe(**MANIFEST["recipe"]))


def test_the_recipe_reaches_the_loss_floor_from_the_published_seed(retrained):
    assert retrained.final_loss < claims.LOSS_CEILING
    assert retrained.trained_on == machine_record(MANIFEST["recipe"]["threads"])


def test_published_seed_retrains_to_a_model_every_claim_holds_for(retrained):
    """On any machine the published seed and recipe give a model the lesson's claims hold for; on the machine it
    was trained on (its manifest's record), the published weights bit for bit. Elsewhere float sums may round
    otherwise, so the bits are compared only there (ELSEWHERE names what differs)."""
    broken = [c.name for c, o in claims.check_all(from_weights(retrained.weights)) if not o.holds]
    assert not broken
    weights, _ = load_weights(PUBLISHED)
    same = all(torch.equal(retrained.weights[k].float(), weights[k]) for k in weights)
    assert same or ELSEWHERE, "retrained on the published model's machine, and the bits differ"


def test_machine_records_name_what_differs():
    here = machine_record(1)
    assert set(FIELDS) <= set(here) and here["threads"] == 1 and here["torch"] == torch.__version__
    assert differences(here, dict(here)) == []
    other = "AVX2" if here["instruction_set"] != "AVX2" else "DEFAULT"  # whatever this CPU is not
    assert differences(here, {**here, "instruction_set": other, "threads": 2}) == [
        f"instruction_set: {here['instruction_set']!r} ≠ {other!r}", "threads: 1 ≠ 2"]


@pytest.mark.parametrize("seed", [-1, 1.5, True, "7"])
def test_bad_seed_is_refused(seed):
    with pytest.raises(ValueError, match="seed must be a whole number"):
        train(seed, Recipe(steps=1))


@pytest.mark.parametrize("args, message", [
    (["--seed", "-3"], "seed must be a whole number"),
    (["--seed", "abc"], "seed must be a whole number"),
    (["--search-seeds", "9-2"], "ends before it starts"),
    (["--search-seeds", "x"], "seed range must look like 0-199"),
])
def test_cli_rejects_bad_options_in_one_sentence(args, message, capsys):
    assert message in usage_error(["train", "walkthrough", *args], capsys)


def test_cli_trains_and_writes_a_checkpoint_with_manifest(tmp_path):
    proc = run_compute("train", "walkthrough", "--seed", "0", "--steps", "40", "--out", str(tmp_path), "--quiet",
                       "--force", cwd=ROOT, env=ENV)
    assert proc.returncode == 0, proc.stderr
    weights, manifest = load_weights(tmp_path / "walkthrough.safetensors")
    assert manifest["seed"] == 0 and manifest["steps"] == 40 and len(manifest["loss_history"]) == 40
    assert manifest["recipe"]["threads"] == 1


def train_cli(out: Path, *args) -> subprocess.CompletedProcess:
    return run_compute("train", "walkthrough", *args, "--out", str(out), "--quiet", cwd=ROOT, env=ENV)


def test_cli_refuses_a_seed_the_seed_record_does_not_publish_before_training(tmp_path):
    proc = train_cli(tmp_path, "--seed", "0", "--steps", "40")
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
    assert (f"seed 0 is not the seed the seed-search record {ROOT / 'compute' / 'checkpoints' / SEED_RECORD} "
            f"publishes ({MANIFEST['seed']}); nothing written") in proc.stderr and "--force" in proc.stderr
    assert "train:" not in proc.stdout and list(tmp_path.iterdir()) == []


def test_cli_refuses_to_publish_the_recorded_seed_when_it_breaks_a_page_claim(tmp_path):
    """The recorded seed, stopped after 40 steps: the selection claims and the page's both fail, and are named."""
    proc = train_cli(tmp_path, "--seed", str(MANIFEST["seed"]), "--steps", "40")
    assert proc.returncode == 1 and "nothing written" in proc.stderr and list(tmp_path.iterdir()) == []
    broken = proc.stderr.split("breaks the page's claims ")[1].split(";")[0].split(", ")
    assert "loss_near_floor" in broken and "final_loss_just_above_floor" in broken     # a selection claim, a page claim


def test_a_search_in_which_no_seed_passes_writes_nothing(tmp_path):
    proc = train_cli(tmp_path, "--search-seeds", "0-2", "--steps", "30", "--workers", "1")
    # 30 steps is far too short to converge: nothing passes, nothing is published, not even the record.
    assert proc.returncode == 1 and list(tmp_path.iterdir()) == []
    assert "no seed in the range passes every selection claim and every claim the page makes of a model" in proc.stderr


def never_trains(*args, **kwargs):
    raise AssertionError("trained although the checkpoint could not be written where --out says")


@pytest.mark.parametrize("args", [["--seed", "0", "--steps", "5", "--force"],
                                  ["--search-seeds", "0-1", "--steps", "5", "--workers", "1"]],
                         ids=["one seed", "a search"])
@pytest.mark.parametrize("out, cause", [
    ("a-file", "is a file, not a folder"),
    ("a-file/seeds", "cannot be made: {tmp}/a-file is a file, not a folder"),
], ids=["out is a file", "out under a file"])
def test_an_out_that_cannot_be_written_is_refused_before_training(tmp_path, args, out, cause, capsys, monkeypatch):
    """`train walkthrough --out` is checked before a seed is trained or searched: no finished run is lost to it."""
    from compute.commands import train as command
    monkeypatch.setattr(command, "train", never_trains)
    monkeypatch.setattr(seedsearch, "search", never_trains)
    (tmp_path / "a-file").write_text("not a folder\n")
    line = cli_error(["train", "walkthrough", *args, "--out", str(tmp_path / out), "--quiet"], capsys)
    assert line.startswith(f"error: {tmp_path / out}: ") and cause.format(tmp=tmp_path) in line
    assert "nothing was trained" in line and "--out" in line
    assert (tmp_path / "a-file").read_text() == "not a folder\n"


def test_a_seed_that_cannot_be_written_after_training_is_written_beside_and_named(tmp_path, capsys, monkeypatch):
    """--out is taken by a file while the seed trains: the checkpoint goes to a new folder beside it, named."""
    from compute.commands import train as command
    out, real = tmp_path / "seed0", command.train

    def trained_then_out_taken(*args, **kwargs):
        result = real(*args, **kwargs)
        out.write_text("someone else's file\n")
        return result
    monkeypatch.setattr(command, "train", trained_then_out_taken)
    line = cli_error(["train", "walkthrough", "--seed", "0", "--steps", "5", "--force", "--out", str(out),
                      "--quiet"], capsys)
    assert line.startswith(f"error: {out}: cannot write the trained run there (")
    kept = Path(line.split("it was written to ")[1].split(" instead")[0])
    assert kept.parent == tmp_path and kept.name.startswith("seed0.unsaved-")
    weights, manifest = load_weights(kept / "walkthrough.safetensors")
    assert manifest["seed"] == 0 and manifest["steps"] == 5


def selection_holds(wt):
    """A stand-in for the selection claims (those that say a seed converged among them) that every seed passes."""
    return [(Claim(name, "", None), Outcome(True, "")) for name in seedsearch.CONVERGED]


def page_fails_on_seed_0(wt):
    """A stand-in for the page's claims on a model: seed 0's model breaks one."""
    return [(Claim("page_stand_in", "", None), Outcome(wt.manifest["seed"] != 0, f"seed {wt.manifest['seed']}"))]


def test_the_search_passes_over_a_seed_that_passes_selection_but_breaks_a_page_claim():
    """The case of a search that published a seed the page then refused: seed 0 passes the selection claims and
    breaks a claim of the page; the search records that and publishes seed 1, and the page's claim on the record
    (the published seed is the first to pass every claim) holds for it."""
    entries = [seedsearch.summarize_seed(s, Recipe(steps=20), selection_holds, page_fails_on_seed_0) for s in (0, 1)]
    assert [(e["failed_claims"], e["failed_page_claims"]) for e in entries] == [([], ["page_stand_in"]), ([], [])]
    assert seedsearch.chosen_seeds(entries, claims.DOMINANT)[0] == 1
    record = seedsearch.record(entries, Recipe(steps=20), claims.DOMINANT)
    one = from_weights(train(1, Recipe(steps=20)).weights, {"seed": 1})
    assert claims.PAGE.claims["published_seed_is_first_to_pass"].check(one, record=record).holds
    zero = from_weights(train(0, Recipe(steps=20)).weights, {"seed": 0})
    assert not claims.PAGE.claims["published_seed_is_first_to_pass"].check(zero, record=record).holds


def test_the_page_claims_a_search_checks_on_each_seed_read_the_model_alone():
    import inspect
    for name in claims.model_claims():
        assert list(inspect.signature(claims.PAGE.claims[name].check).parameters) == ["wt"], name
    for name in claims.SEARCH_CLAIMS:
        assert set(inspect.signature(claims.PAGE.claims[name].check).parameters) - {"wt"}, name
    assert set(claims.model_claims()) | set(claims.SEARCH_CLAIMS) == set(claims.PAGE.claims)

"""Seeded training: it learns, it repeats itself, and the published seed comes back.

What holds on every machine is tested everywhere: the recipe from the published seed reaches the loss
floor, and the published checkpoint satisfies every claim (tests/lessons/test_claims.py). Retraining
repeats the published bits only where torch, the CPU, its vector kernels, the BLAS and the thread count
match the manifest's record of where it was trained (compute.training.machine); that test runs there.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from compute.lessons.walkthrough import claims
from compute.published.walkthrough import from_weights, load_weights
from compute.training.machine import FIELDS, differences, machine_record
from helpers import usage_error
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
    proc = subprocess.run([sys.executable, "-m", "compute", "train", "walkthrough", "--seed", "0",
                           "--steps", "40", "--out", str(tmp_path), "--quiet", "--force"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    weights, manifest = load_weights(tmp_path / "walkthrough.safetensors")
    assert manifest["seed"] == 0 and manifest["steps"] == 40 and len(manifest["loss_history"]) == 40
    assert manifest["recipe"]["threads"] == 1


def test_cli_refuses_to_publish_a_seed_that_breaks_claims(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "compute", "train", "walkthrough", "--seed", "0",
                           "--steps", "40", "--out", str(tmp_path), "--quiet"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert proc.returncode == 1
    assert "breaks the claims" in proc.stderr and "nothing written" in proc.stderr
    assert not (tmp_path / "walkthrough.safetensors").exists()


def test_seed_search_records_every_seed(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "compute", "train", "walkthrough", "--search-seeds", "0-2",
                           "--steps", "30", "--workers", "1", "--out", str(tmp_path), "--quiet"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True)
    record = json.loads((tmp_path / "walkthrough-seeds.json").read_text())
    assert [e["seed"] for e in record["entries"]] == [0, 1, 2]
    assert record["n_seeds"] == 3
    # 30 steps is far too short to converge: nothing passes, nothing is published.
    assert record["published_seed"] is None and proc.returncode == 1
    assert "no seed in the range satisfies every claim" in proc.stderr

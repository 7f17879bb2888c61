"""What the page's trainer reads (compute/lessons/walkthrough/trainer.py), against compute's own model, data and
seed record."""
from __future__ import annotations

import json

import numpy as np
import pytest

from compute.data.walkthrough import data_facts, training_batch
from compute.lessons.walkthrough import trainer
from compute.lessons.walkthrough.seeds import seed_record
from compute.models.walkthrough import named_tensors, parameter_shapes
from compute.training.walkthrough import initial_model


@pytest.fixture(scope="module")
def files():
    return trainer.site_files()


@pytest.fixture(scope="module")
def spec(files):
    return json.loads(files[trainer.FOLDER + trainer.SPEC])


@pytest.mark.parametrize("seed", [0, 2, 131, 199])
def test_a_seeds_file_holds_torchs_initial_weights_exactly(files, seed):
    blob = files[trainer.FOLDER + trainer.init_name(seed)]
    got = np.frombuffer(blob, dtype="<f4")
    tensors = named_tensors(initial_model(seed))
    want = np.concatenate([tensors[n].detach().numpy().ravel() for n in parameter_shapes()])
    assert got.shape == want.shape and np.array_equal(got, want)


def test_every_recorded_seed_has_its_weights_and_nothing_else(files):
    first, last = seed_record()["seeds"]
    inits = sorted(k for k in files if "/init/" in k)
    assert len(inits) == last - first + 1 and len(files) == len(inits) + 1
    assert {len(files[k]) for k in inits} == {4 * sum(np.prod(s) for s in parameter_shapes().values())}


def test_the_spec_holds_the_models_tensors_and_data(spec):
    assert [name for name, _ in spec["tensors"]] == list(parameter_shapes())
    assert [tuple(s) for _, s in spec["tensors"]] == list(parameter_shapes().values())
    x, y = training_batch(spec["config"]["context"])
    assert spec["inputs"] == x.tolist() and spec["targets"] == y.tolist()
    assert spec["goal"]["inputs"] == spec["inputs"][3][: len(spec["goal"]["words"])]


def test_determined_targets_are_every_target_but_the_coin_flips(spec):
    facts = data_facts()
    determined = sum(sum(row) for row in spec["determined"])
    assert determined == facts["n_targets"] - facts["n_coin_flips"]
    for row, targets in zip(spec["determined"], spec["targets"]):
        assert all(t != spec["ignore"] for t, d in zip(targets, row) if d)


def test_the_record_results_are_the_records(spec):
    entries = {e["seed"]: e for e in seed_record()["entries"]}
    assert set(map(int, spec["record"]["results"])) == set(entries)
    for seed, r in spec["record"]["results"].items():
        e = entries[int(seed)]
        assert r["converged"] == e["converged"] and r["loss"] == e["final_loss"]
        assert {k: v[0] for k, v in r["rows"].items()} == {k: v["position"] for k, v in e["rows"].items()}
    assert spec["record"]["n_cue_both"] == sum(
        1 for e in entries.values() if e["converged"] and e["rows"]["5"]["word"] == "rise"
        and e["rows"]["13"]["word"] == "fall")

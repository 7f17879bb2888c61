"""The published layer refuses a story manifest whose model config was edited: one sentence naming the manifest,
whether the config makes no sense, builds other tensors, or keeps every shape but not the recorded loss."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from compute.published.story import FOUR_HEAD, load_story_model, require_recorded_loss, story_corpus
from compute.store import CheckpointError, checkpoint_dir
from conftest import ROOT
from forked import compute as run_compute


@pytest.fixture
def folder(tmp_path):
    """A copy of the published checkpoints."""
    for published in checkpoint_dir().iterdir():
        shutil.copy2(published, tmp_path / published.name)
    return tmp_path


def edit_config(folder, **changes):
    path = folder / f"{FOUR_HEAD}.json"
    manifest = json.loads(path.read_text())
    manifest["config"].update(changes)
    path.write_text(json.dumps(manifest))
    return folder / f"{FOUR_HEAD}.safetensors"


@pytest.mark.parametrize("changes, says", [({"n_head": 0}, "n_head must be a whole number of at least 1"),
                                           ({"n_head": 5}, "d_model 96 does not split into 5 heads"),
                                           ({"rope": "yes"}, "rope must be true or false"),
                                           ({"d_model": 64}, "does not describe its tensors"),
                                           ({"n_layer": 1}, "does not describe its tensors")])
def test_a_config_that_cannot_be_the_model_names_the_manifest(folder, changes, says):
    path = edit_config(folder, **changes)
    with pytest.raises(CheckpointError) as err:
        load_story_model(path, story_corpus())
    message = str(err.value)
    assert message.startswith(f"{path.with_suffix('.json')}: ") and says in message and "\n" not in message


def test_a_config_that_keeps_every_shape_is_caught_by_its_recorded_loss(folder, monkeypatch):
    """n_head 2 instead of 4 builds the same matrices, so the weights load; the loss on the validation stories
    the manifest recorded does not match, and the pre-check says so naming the manifest."""
    path = edit_config(folder, n_head=2)
    load_story_model(path, story_corpus())
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(folder))
    with pytest.raises(CheckpointError) as err:
        require_recorded_loss(FOUR_HEAD)
    assert str(err.value).startswith(f"{path.with_suffix('.json')}: the model its config describes scores")
    monkeypatch.delenv("COMPUTE_CHECKPOINTS")
    require_recorded_loss(FOUR_HEAD)      # the published one holds


def test_compute_check_stops_at_the_edited_config_in_one_line(folder):
    edit_config(folder, n_head=2)
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder), "PYTHONPATH": str(ROOT)}
    proc = run_compute("check", "story", cwd=ROOT, env=env, timeout=600)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: {folder / FOUR_HEAD}.json: the model its config describes scores")
    assert proc.stderr.count("\n") == 1

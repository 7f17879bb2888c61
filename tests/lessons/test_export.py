"""`python -m compute export story`: float16 weights and a header the page's JavaScript reads back exactly."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from compute.export.story import FILES, MAX_BYTES, export_files, model_from_export, write
from compute.published.story import CHECKPOINT_FILES, load, story_corpus
from compute.store import CheckpointError, checkpoint_dir
from forked import compute as run_compute

ROOT = Path(__file__).resolve().parents[2]


def test_export_is_small_hashed_and_reads_back_as_float16_of_the_published_model(tmp_path):
    write(tmp_path)
    blob, header = (tmp_path / FILES[0]).read_bytes(), json.loads((tmp_path / FILES[1]).read_text())
    assert len(blob) == header["bytes"] <= MAX_BYTES
    assert hashlib.sha256(blob).hexdigest() == header["sha256"]
    assert header["vocabulary"] == list(story_corpus().vocab.itos) and "mia" in header["proper"]
    published = load("story-four-head").model
    back = model_from_export(tmp_path)
    for (name, p), (name2, q) in zip(published.named_parameters(), back.named_parameters()):
        assert name == name2 and q.dtype == torch.float64
        assert torch.equal(q, p.detach().to(torch.float16).double())
    ends = [t["offset"] + t["bytes"] for t in header["tensors"].values()]
    assert ends[-1] == len(blob) and sorted(ends) == ends                   # packed back to back, in order


def test_the_float16_model_predicts_like_the_published_one(tmp_path):
    write(tmp_path)
    ids = torch.tensor([[0, 5, 9, 23, 4, 54, 154, 2]])
    with torch.no_grad():
        a = load("story-four-head").model(ids).double()
        b = model_from_export(tmp_path)(ids)
    assert np.abs((a - b).numpy()).max() < 0.05                            # float16 rounding, not another model
    assert torch.equal(a.argmax(-1), b.argmax(-1))


@pytest.fixture
def edited(tmp_path, monkeypatch) -> Path:
    """A copy of the published story checkpoints whose four-head manifest lists two words of its vocabulary
    swapped, its hashes left alone; COMPUTE_CHECKPOINTS points at it. Returns the edited manifest."""
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for name in CHECKPOINT_FILES:
        shutil.copy2(checkpoint_dir() / name, folder / name)
    manifest_file = folder / "story-four-head.json"
    manifest = json.loads(manifest_file.read_text())
    words = manifest["vocabulary"]
    words[2], words[3] = words[3], words[2]
    manifest_file.write_text(json.dumps(manifest, indent=1))
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(folder))
    return manifest_file


def test_an_edited_vocabulary_list_stops_loading_and_export_naming_the_manifest(edited):
    for attempt in (lambda: load("story-four-head"), export_files):
        with pytest.raises(CheckpointError) as err:
            attempt()
        message = str(err.value)
        assert message.startswith(f"{edited}: ") and "vocabulary list does not match" in message
        assert "\n" not in message


def test_an_edited_vocabulary_list_stops_check_with_one_line(edited):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = run_compute("check", "story", cwd=ROOT, env=env, timeout=600)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {edited}: ") and "vocabulary list" in lines[0]


def test_export_into_a_folder_that_cannot_be_made_is_one_sentence(tmp_path):
    """--out under a regular file: one error line naming the folder, exit 1, no traceback."""
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / "a-file" / "export"
    proc = run_compute("export", "story", "--out", str(out), cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == f"error: {out}: cannot write the export there (Not a directory)\n"

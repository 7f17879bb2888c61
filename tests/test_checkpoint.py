"""The published checkpoint, and one-line errors for every way a checkpoint can be wrong."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from compute.checkpoint import CheckpointError, checkpoint_path, load_checkpoint, save_checkpoint, sha256_file
from compute.model import DecoderConfig, parameter_shapes

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "compute" / "checkpoints"


def test_published_checkpoint_matches_its_manifest():
    path = PUBLISHED / "walkthrough.safetensors"
    manifest = json.loads(path.with_suffix(".json").read_text())
    assert sha256_file(path) == manifest["checkpoint_sha256"]
    for field in ("seed", "recipe", "steps", "final_loss", "data_sha256", "torch_version", "loss_history"):
        assert field in manifest
    assert len(manifest["loss_history"]) == manifest["steps"]
    tensors, _ = load_checkpoint(path)
    assert {k: tuple(v.shape) for k, v in tensors.items()} == parameter_shapes(DecoderConfig())


def test_no_pickle_in_the_checkpoint_folder():
    for p in PUBLISHED.iterdir():
        assert p.suffix in {".safetensors", ".json"}, p


@pytest.fixture
def ckdir(tmp_path):
    for p in PUBLISHED.glob("walkthrough*"):
        shutil.copy2(p, tmp_path / p.name)
    return tmp_path


def _rewrite_with_manifest(path: Path, tensors: dict):
    manifest = json.loads(path.with_suffix(".json").read_text())
    save_checkpoint(path, tensors, manifest)


def corrupt(path):
    path.write_bytes(b"\x07not a safetensors file at all" * 3)


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def missing(path):
    path.unlink()


def missing_manifest(path):
    path.with_suffix(".json").unlink()


def bad_manifest(path):
    path.with_suffix(".json").write_text("{ not json")


def tampered(path):
    tensors, _ = load_checkpoint(path)
    tensors["W_Q"] = tensors["W_Q"] + 0.5
    from safetensors.torch import save
    path.write_bytes(save(tensors))  # a valid file, but not the one the manifest recorded


def wrong_shape(path):
    tensors, _ = load_checkpoint(path)
    tensors["W_Q"] = torch.zeros(6, 5)
    _rewrite_with_manifest(path, tensors)


def missing_tensor(path):
    tensors, _ = load_checkpoint(path)
    del tensors["b2"]
    _rewrite_with_manifest(path, tensors)


def non_finite(path):
    tensors, _ = load_checkpoint(path)
    tensors["E"][0, 0] = float("nan")
    _rewrite_with_manifest(path, tensors)


CASES = [
    (corrupt, "corrupt or truncated", ".safetensors"),
    (truncate, "corrupt or truncated", ".safetensors"),
    (missing, "checkpoint file not found", ".safetensors"),
    (missing_manifest, "manifest not found", ".json"),
    (bad_manifest, "not valid JSON", ".json"),
    (tampered, "does not match its manifest", ".safetensors"),
    (wrong_shape, "tensor W_Q has shape (6, 5), the model expects (6, 6)", ".safetensors"),
    (missing_tensor, "lacks the tensors b2", ".safetensors"),
    (non_finite, "tensor E holds NaN", ".safetensors"),
]


@pytest.mark.parametrize("damage, problem, suffix", CASES, ids=[c[0].__name__ for c in CASES])
def test_bad_checkpoint_raises_a_one_line_error_naming_the_file(ckdir, damage, problem, suffix):
    path = ckdir / "walkthrough.safetensors"
    damage(path)
    with pytest.raises(CheckpointError) as err:
        load_checkpoint(path)
    message = str(err.value)
    assert problem in message
    assert str(path.with_suffix(suffix)) in message
    assert "\n" not in message


@pytest.mark.parametrize("damage, problem, suffix", CASES[:3], ids=[c[0].__name__ for c in CASES[:3]])
def test_check_command_exits_non_zero_with_one_line(ckdir, damage, problem, suffix):
    damage(ckdir / "walkthrough.safetensors")
    env = {**os.environ, "COMPUTE_CHECKPOINTS": str(ckdir), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "compute", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and problem in lines[0]
    assert str(ckdir / "walkthrough.safetensors") in lines[0]


def test_checkpoint_dir_can_be_redirected(ckdir, monkeypatch):
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(ckdir))
    assert checkpoint_path("walkthrough") == ckdir / "walkthrough.safetensors"

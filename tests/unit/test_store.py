"""The published checkpoint, and one-line errors for every way a checkpoint can be wrong."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from compute.published.walkthrough import load_weights
from compute.models.walkthrough import parameter_shapes
from compute.store import CheckpointError, checkpoint_path, sha256_file
from forked import compute as run_compute

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "compute" / "checkpoints"


def test_published_checkpoint_matches_its_manifest():
    path = PUBLISHED / "walkthrough.safetensors"
    manifest = json.loads(path.with_suffix(".json").read_text())
    assert sha256_file(path) == manifest["checkpoint_sha256"]
    for field in ("seed", "recipe", "steps", "final_loss", "data_sha256", "torch_version", "loss_history",
                  "tensors", "trained_on"):
        assert field in manifest
    assert len(manifest["loss_history"]) == manifest["steps"]
    tensors, _ = load_weights(path)
    assert {k: tuple(v.shape) for k, v in tensors.items()} == parameter_shapes()


def test_no_pickle_in_the_checkpoint_folder():
    for p in PUBLISHED.iterdir():
        assert p.suffix in {".safetensors", ".json"}, p


@pytest.fixture
def ckdir(tmp_path):
    for p in PUBLISHED.iterdir():  # every published file: `compute check` loads every lesson's
        shutil.copy2(p, tmp_path / p.name)
    return tmp_path


def _rewrite_with_manifest(path: Path, tensors: dict):
    """Save the tensors as they are (any dtype) with a manifest that records their hash, dtypes and shapes."""
    from safetensors.torch import save
    blob = save({k: v.contiguous() for k, v in tensors.items()})
    path.write_bytes(blob)
    manifest = json.loads(path.with_suffix(".json").read_text())
    manifest["checkpoint_sha256"] = sha256_file(path)
    manifest["tensors"] = {k: {"dtype": str(v.dtype).removeprefix("torch."), "shape": list(v.shape)}
                           for k, v in tensors.items()}
    path.with_suffix(".json").write_text(json.dumps(manifest))


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
    tensors, _ = load_weights(path)
    tensors["W_Q"] = tensors["W_Q"] + 0.5
    from safetensors.torch import save
    path.write_bytes(save(tensors))  # a valid file, but not the one the manifest recorded


def wrong_shape(path):
    tensors, _ = load_weights(path)
    tensors["W_Q"] = torch.zeros(6, 5)
    _rewrite_with_manifest(path, tensors)


def missing_tensor(path):
    tensors, _ = load_weights(path)
    del tensors["b2"]
    _rewrite_with_manifest(path, tensors)


def non_finite(path):
    tensors, _ = load_weights(path)
    tensors["E"][0, 0] = float("nan")
    _rewrite_with_manifest(path, tensors)


def float16(path):
    tensors, _ = load_weights(path)
    _rewrite_with_manifest(path, {k: v.to(torch.float16) for k, v in tensors.items()})


def int32_tensor(path):
    tensors, _ = load_weights(path)
    tensors["W_Q"] = tensors["W_Q"].to(torch.int32)
    _rewrite_with_manifest(path, tensors)


def manifest_misrecords_a_tensor(path):
    manifest = json.loads(path.with_suffix(".json").read_text())
    manifest["tensors"]["W_K"]["shape"] = [6, 5]
    path.with_suffix(".json").write_text(json.dumps(manifest))


def manifest_without_tensor_record(path):
    manifest = json.loads(path.with_suffix(".json").read_text())
    del manifest["tensors"]
    path.with_suffix(".json").write_text(json.dumps(manifest))


def folder_in_its_place(path):
    path.unlink()
    path.mkdir()


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
    (float16, "tensor E is float16, the model expects float32", ".safetensors"),
    (int32_tensor, "tensor W_Q is int32, the model expects float32", ".safetensors"),
    (manifest_misrecords_a_tensor, "tensor W_K (float32, [6, 6]) does not match the manifest's record", ".safetensors"),
    (manifest_without_tensor_record, "manifest lacks the field 'tensors'", ".json"),
    (folder_in_its_place, "checkpoint file is a folder, not a file", ".safetensors"),
]


@pytest.mark.parametrize("damage, problem, suffix", CASES, ids=[c[0].__name__ for c in CASES])
def test_bad_checkpoint_raises_a_one_line_error_naming_the_file(ckdir, damage, problem, suffix):
    path = ckdir / "walkthrough.safetensors"
    damage(path)
    with pytest.raises(CheckpointError) as err:
        load_weights(path)
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


def test_an_unreadable_checkpoint_is_one_line(ckdir, monkeypatch):
    """A file the process may not read (permissions; tests may run as root, so the read itself fails here)."""
    path = ckdir / "walkthrough.safetensors"
    real = Path.read_bytes

    def refuse(self):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(CheckpointError, match="cannot be read .Permission denied.") as err:
        load_weights(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_checkpoint_dir_can_be_redirected(ckdir, monkeypatch):
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(ckdir))
    assert checkpoint_path("walkthrough") == ckdir / "walkthrough.safetensors"


def test_check_names_an_unknown_lesson_and_lists_the_real_ones():
    proc = run_compute("check", "walktrough", cwd=ROOT)
    assert proc.returncode == 2
    assert "no lesson called 'walktrough'" in proc.stderr and "walkthrough" in proc.stderr.split("there are")[1]


def test_a_checkpoint_whose_write_fails_leaves_the_one_it_would_replace_whole(ckdir, monkeypatch):
    """The disk fills as the manifest is written: the old tensors and manifest stay, matching, and no partial
    file is left beside them."""
    from compute.store import save_checkpoint
    path = ckdir / "walkthrough.safetensors"
    before = {p.name: p.read_bytes() for p in ckdir.iterdir()}
    weights, manifest = load_weights(path)
    real = Path.write_bytes

    def disk_full_at_the_manifest(self, data):
        if self.name.lstrip(".").startswith("walkthrough.json"):         # the manifest, by any name
            raise OSError(28, "No space left on device", str(self))
        return real(self, data)
    monkeypatch.setattr(Path, "write_bytes", disk_full_at_the_manifest)
    with pytest.raises(OSError, match="No space left"):
        save_checkpoint(path, {k: v + 1 for k, v in weights.items()}, manifest)
    assert {p.name: p.read_bytes() for p in ckdir.iterdir()} == before
    load_weights(path)

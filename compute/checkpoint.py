"""Checkpoints: a safetensors file of named tensors plus a JSON manifest beside it.

Loading checks everything a reader of the lesson relies on and turns each
problem into a one-line CheckpointError that names the file.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load as load_safetensors
from safetensors.torch import save as save_safetensors

from .data import data_hash
from .model import DecoderConfig, parameter_shapes

PACKAGE_DIR = Path(__file__).resolve().parent


class CheckpointError(Exception):
    """A checkpoint or its manifest is missing, corrupt or does not fit the model."""


def checkpoint_dir() -> Path:
    """Where published checkpoints live; COMPUTE_CHECKPOINTS overrides it (tests, authors)."""
    return Path(os.environ.get("COMPUTE_CHECKPOINTS", PACKAGE_DIR / "checkpoints"))


def checkpoint_path(name: str) -> Path:
    return checkpoint_dir() / f"{name}.safetensors"


def manifest_path(path: Path) -> Path:
    return path.with_suffix(".json")


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_checkpoint(path: Path, weights: dict[str, torch.Tensor], manifest: dict) -> Path:
    """Write the tensors and a manifest that records their sha256; returns the tensor file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = save_safetensors({k: v.detach().contiguous().to(torch.float32) for k, v in weights.items()})
    path.write_bytes(blob)
    manifest = {**manifest, "checkpoint_sha256": hashlib.sha256(blob).hexdigest(),
                "data_sha256": data_hash(), "torch_version": torch.__version__.split("+")[0]}
    manifest_path(path).write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def read_manifest(path: Path) -> dict:
    mpath = manifest_path(path)
    if not mpath.is_file():
        raise CheckpointError(f"{mpath}: manifest not found (every checkpoint needs its .json manifest beside it)")
    try:
        manifest = json.loads(mpath.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{mpath}: manifest is not valid JSON ({err})") from None
    for key in ("seed", "checkpoint_sha256", "data_sha256", "final_loss"):
        if key not in manifest:
            raise CheckpointError(f"{mpath}: manifest lacks the field {key!r}")
    return manifest


def read_tensors(path: Path) -> dict[str, torch.Tensor]:
    if not path.is_file():
        raise CheckpointError(f"{path}: checkpoint file not found")
    try:
        return load_safetensors(path.read_bytes())
    except (SafetensorError, ValueError, RuntimeError) as err:
        raise CheckpointError(f"{path}: checkpoint is corrupt or truncated ({err})") from None


def check_shapes(path: Path, tensors: dict[str, torch.Tensor], cfg: DecoderConfig) -> None:
    expected = parameter_shapes(cfg)
    missing = [n for n in expected if n not in tensors]
    if missing:
        raise CheckpointError(f"{path}: checkpoint lacks the tensors {', '.join(missing)}")
    extra = [n for n in tensors if n not in expected]
    if extra:
        raise CheckpointError(f"{path}: checkpoint has unexpected tensors {', '.join(extra)}")
    for name, shape in expected.items():
        got = tuple(tensors[name].shape)
        if got != shape:
            raise CheckpointError(f"{path}: tensor {name} has shape {got}, the model expects {shape}")
        if not torch.isfinite(tensors[name]).all():
            raise CheckpointError(f"{path}: tensor {name} holds NaN or infinite values")


def load_checkpoint(path: Path, cfg: DecoderConfig = DecoderConfig()) -> tuple[dict[str, torch.Tensor], dict]:
    """Tensors and manifest of a checkpoint, after checking file, hash, data and shapes."""
    path = Path(path)
    tensors = read_tensors(path)
    manifest = read_manifest(path)
    actual = sha256_file(path)
    if actual != manifest["checkpoint_sha256"]:
        raise CheckpointError(
            f"{path}: checkpoint does not match its manifest (sha256 {actual[:12]}…, "
            f"manifest says {str(manifest['checkpoint_sha256'])[:12]}…)")
    if manifest["data_sha256"] != data_hash():
        raise CheckpointError(f"{path}: checkpoint was trained on other data than compute/data.py defines")
    check_shapes(path, tensors, cfg)
    if not math.isfinite(float(manifest["final_loss"])):
        raise CheckpointError(f"{path}: manifest records a non-finite final loss")
    return tensors, manifest


def config_dict(cfg: DecoderConfig) -> dict:
    return asdict(cfg)

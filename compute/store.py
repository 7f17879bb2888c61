"""Checkpoints: a safetensors file of named tensors plus a JSON manifest beside it.

The manifest records the file's sha256 and every tensor's dtype and shape.
Loading checks the file, its hash, the tensors against the manifest and the
model, and the training data, and turns each problem into a one-line
CheckpointError that names the file.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load as load_safetensors
from safetensors.torch import save as save_safetensors

PACKAGE_DIR = Path(__file__).resolve().parent
STORED_DTYPE = torch.float32  # every published tensor; printed values are computed from it in float64
REQUIRED = ("seed", "checkpoint_sha256", "data_sha256", "final_loss", "tensors")


class CheckpointError(Exception):
    """A checkpoint or its manifest is missing, corrupt or does not fit the model."""


def checkpoint_dir() -> Path:
    """Where published checkpoints live; COMPUTE_CHECKPOINTS overrides it (tests, authors)."""
    return Path(os.environ.get("COMPUTE_CHECKPOINTS", PACKAGE_DIR / "checkpoints"))


STORY_MODELS_SETTING = "COMPUTE_STORY_MODELS"


def story_models_dir() -> Path:
    """Where Part III's story models live: COMPUTE_STORY_MODELS (an author's models, trained on the generated
    stories or on a story file; `./build --story-models DIR` sets it), else the published checkpoint folder."""
    folder = os.environ.get(STORY_MODELS_SETTING)
    return Path(folder) if folder else checkpoint_dir()


def require_story_models_folder() -> Path:
    """The story-models folder, or one CheckpointError naming the setting compute read it from
    (COMPUTE_STORY_MODELS: compute has no option of its own for it) when what it names is not a folder."""
    folder = story_models_dir()
    if os.environ.get(STORY_MODELS_SETTING) and not folder.is_dir():
        raise CheckpointError(f"{STORY_MODELS_SETTING}: {folder} is not a folder (give the --out folder of "
                              f"python -m compute train story)")
    return folder


def checkpoint_path(name: str) -> Path:
    return checkpoint_dir() / f"{name}.safetensors"


def manifest_path(path: Path) -> Path:
    return path.with_suffix(".json")


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def save_checkpoint(path: Path, weights: dict[str, torch.Tensor], manifest: dict) -> Path:
    """Write the tensors (as float32) and a manifest recording their hash, dtypes and shapes. Both are written in
    full beside their names before either replaces what was there, so a write that fails (a full disk) leaves
    the checkpoint it would have replaced whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().contiguous().to(STORED_DTYPE) for k, v in weights.items()}
    blob = save_safetensors(tensors)
    manifest = {**manifest, "checkpoint_sha256": hashlib.sha256(blob).hexdigest(),
                "tensors": {k: {"dtype": dtype_name(v.dtype), "shape": list(v.shape)} for k, v in tensors.items()},
                "torch_version": torch.__version__.split("+")[0]}
    write_files({path: blob, manifest_path(path): (json.dumps(manifest, indent=1) + "\n").encode()})
    return path


def write_files(contents: dict[Path, bytes]) -> None:
    """Each file written in full under a temporary name beside it, then all renamed into place; where a write
    fails, the temporary files are removed and the error raised, every file as it was."""
    partial = {path: path.with_name(f".{path.name}.{os.getpid()}.partial") for path in contents}
    try:
        for path, blob in contents.items():
            partial[path].write_bytes(blob)
        for path in contents:
            os.replace(partial[path], path)
    finally:
        for temporary in partial.values():
            temporary.unlink(missing_ok=True)


def read_bytes(path: Path, what: str) -> bytes:
    """A file's bytes, or one CheckpointError sentence for a missing, unreadable or folder path."""
    if path.is_dir():
        raise CheckpointError(f"{path}: {what} is a folder, not a file")
    if not path.exists():
        raise CheckpointError(f"{path}: {what} not found")
    try:
        return path.read_bytes()
    except OSError as err:
        raise CheckpointError(f"{path}: {what} cannot be read ({err.strerror or err})") from None


def read_manifest(path: Path) -> dict:
    mpath = manifest_path(path)
    if not mpath.exists():
        raise CheckpointError(f"{mpath}: manifest not found (every checkpoint needs its .json manifest beside it)")
    try:
        manifest = json.loads(read_bytes(mpath, "manifest"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{mpath}: manifest is not valid JSON ({err})") from None
    if not isinstance(manifest, dict):
        raise CheckpointError(f"{mpath}: manifest is not a JSON object")
    for key in REQUIRED:
        if key not in manifest:
            raise CheckpointError(f"{mpath}: manifest lacks the field {key!r}")
    return manifest


def read_tensors(path: Path) -> tuple[dict[str, torch.Tensor], bytes]:
    blob = read_bytes(path, "checkpoint file")
    try:
        return load_safetensors(blob), blob
    except (SafetensorError, ValueError, RuntimeError) as err:
        raise CheckpointError(f"{path}: checkpoint is corrupt or truncated ({err})") from None


def check_tensors(path: Path, tensors: dict[str, torch.Tensor], manifest: dict,
                  shapes: dict[str, tuple[int, ...]]) -> None:
    """Names, dtypes and shapes as the manifest records and the model expects; finite values."""
    missing = [n for n in shapes if n not in tensors]
    if missing:
        raise CheckpointError(f"{path}: checkpoint lacks the tensors {', '.join(missing)}")
    extra = [n for n in tensors if n not in shapes]
    if extra:
        raise CheckpointError(f"{path}: checkpoint has unexpected tensors {', '.join(extra)}")
    recorded = manifest["tensors"]
    for name, shape in shapes.items():
        t = tensors[name]
        got = tuple(t.shape)
        if got != shape:
            raise CheckpointError(f"{path}: tensor {name} has shape {got}, the model expects {shape}")
        if t.dtype != STORED_DTYPE:
            raise CheckpointError(f"{path}: tensor {name} is {dtype_name(t.dtype)}, "
                                  f"the model expects {dtype_name(STORED_DTYPE)}")
        entry = recorded.get(name) if isinstance(recorded, dict) else None
        if entry != {"dtype": dtype_name(t.dtype), "shape": list(got)}:
            raise CheckpointError(f"{path}: tensor {name} ({dtype_name(t.dtype)}, {list(got)}) "
                                  f"does not match the manifest's record {entry}")
        if not torch.isfinite(t).all():
            raise CheckpointError(f"{path}: tensor {name} holds NaN or infinite values")


def load_checkpoint(path: Path, shapes: dict[str, tuple[int, ...]], data_sha256: str,
                    data_source: str = "the training data") -> tuple[dict[str, torch.Tensor], dict]:
    """Tensors and manifest of a checkpoint, after checking file, hash, data, dtypes and shapes."""
    path = Path(path)
    tensors, blob = read_tensors(path)
    manifest = read_manifest(path)
    actual = hashlib.sha256(blob).hexdigest()
    if actual != manifest["checkpoint_sha256"]:
        raise CheckpointError(
            f"{path}: checkpoint does not match its manifest (sha256 {actual[:12]}…, "
            f"manifest says {str(manifest['checkpoint_sha256'])[:12]}…)")
    if manifest["data_sha256"] != data_sha256:
        raise CheckpointError(f"{path}: checkpoint was trained on other data than {data_source} defines")
    check_tensors(path, tensors, manifest, shapes)
    try:
        final_loss = float(manifest["final_loss"])
    except (TypeError, ValueError):
        final_loss = math.nan
    if not math.isfinite(final_loss):
        raise CheckpointError(f"{path}: manifest records a non-finite final loss")
    return tensors, manifest

"""The published four-head story model for the page: float16 weights in one binary file, a small JSON header.

The header names every tensor with its shape and byte offset (in the order the
JavaScript model reads them), the model's sizes, the vocabulary and the sha256
of the binary file. Little-endian IEEE float16 throughout.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from ..data.story import KINDS
from ..published.story import FOUR_HEAD, load

NAME = FOUR_HEAD
FILES = ("story-four-head.f16.bin", "story-four-head.json")  # written into the site's _static/models/
MAX_BYTES = 700_000


def float16_weights(model: torch.nn.Module) -> dict[str, np.ndarray]:
    """Every parameter as little-endian float16, by its name in the model."""
    return {name: p.detach().to(torch.float16).numpy().astype("<f2") for name, p in model.named_parameters()}


def architecture(model: torch.nn.Module) -> dict:
    """Every number and choice of the forward pass, read from the model itself: what _static/generate/model.js
    runs and checks before it runs (one description of the model, not two)."""
    cfg, block = model.cfg, model.blocks[0]
    if not (cfg.layer_norm and cfg.rope):
        raise ValueError("the page's model runs pre-LayerNorm blocks with rotary positions only")
    return {"n_layer": cfg.n_layer, "n_head": cfg.n_head, "d_model": cfg.d_model, "d_k": block.attn.d_k,
            "d_v": block.attn.d_v, "d_ff": block.ffn.W1.shape[1], "vocab_size": cfg.vocab_size, "context": cfg.context,
            "positions": "rope", "rope_base": block.attn.rope_base, "norm": "layernorm", "norm_eps": block.ln1.eps,
            "activation": "relu", "blocks": "pre-norm", "final_norm": True}


def export_files(name: str = NAME) -> dict[str, bytes]:
    """{file name: bytes} of the weights file and its header."""
    published = load(name)
    weights = float16_weights(published.model)
    blob, tensors, offset = bytearray(), {}, 0
    for tensor_name, array in weights.items():
        data = array.tobytes()
        tensors[tensor_name] = {"shape": list(array.shape), "offset": offset, "bytes": len(data)}
        blob += data
        offset += len(data)
    if len(blob) > MAX_BYTES:
        raise ValueError(f"{name}: the exported weights take {len(blob):,} bytes, more than {MAX_BYTES:,}")
    header = {"model": name, "dtype": "float16", "config": asdict(published.config),
              "architecture": architecture(published.model), "tensors": tensors,
              "vocabulary": list(published.vocab.itos), "proper": list(KINDS["name"]), "bytes": len(blob),
              "sha256": hashlib.sha256(bytes(blob)).hexdigest(), "checkpoint_sha256": published.manifest["checkpoint_sha256"]}
    return {FILES[0]: bytes(blob), FILES[1]: (json.dumps(header, separators=(",", ":")) + "\n").encode()}


def write(folder: Path, name: str = NAME) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for file_name, data in export_files(name).items():
        (folder / file_name).write_bytes(data)
        out.append(folder / file_name)
    return out


def model_from_export(folder: Path) -> torch.nn.Module:
    """The exported float16 weights read back into a float64 model: the reference the JavaScript is checked against."""
    blob = (folder / FILES[0]).read_bytes()
    if hashlib.sha256(blob).hexdigest() != json.loads((folder / FILES[1]).read_text())["sha256"]:
        raise ValueError(f"{folder / FILES[0]}: does not match the sha256 in {FILES[1]}")
    return model_from_files({name: (folder / name).read_bytes() for name in FILES})


def model_from_files(files: dict[str, bytes]) -> torch.nn.Module:
    """export_files()'s float16 weights as a float64 model: what the reader's browser runs, to within rounding."""
    from ..models.story import StoryModelConfig, build
    header, blob = json.loads(files[FILES[1]]), files[FILES[0]]
    model = build(StoryModelConfig(**header["config"])).double()
    state = {n: torch.from_numpy(np.frombuffer(blob, "<f2", count=int(np.prod(t["shape"])), offset=t["offset"])
                                 .reshape(t["shape"]).astype(np.float64)) for n, t in header["tensors"].items()}
    model.load_state_dict(state)
    return model.eval()

"""`python -m compute export story`: float16 weights and a header the page's JavaScript reads back exactly."""
from __future__ import annotations

import hashlib
import json

import numpy as np
import torch

from compute.export.story import FILES, MAX_BYTES, model_from_export, write
from compute.lessons.story.published import load


def test_export_is_small_hashed_and_reads_back_as_float16_of_the_published_model(tmp_path):
    write(tmp_path)
    blob, header = (tmp_path / FILES[0]).read_bytes(), json.loads((tmp_path / FILES[1]).read_text())
    assert len(blob) == header["bytes"] <= MAX_BYTES
    assert hashlib.sha256(blob).hexdigest() == header["sha256"]
    assert header["vocabulary"][:2] == ["<eos>", "<unk>"] and "mia" in header["proper"]
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

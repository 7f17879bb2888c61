"""`python -m compute train story`: trains on a TinyStories-format file; bad files and options get one sentence."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from compute.data.story import generate
from compute.data.tinystories import write_stories

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*args):
    return subprocess.run([sys.executable, "-m", "compute", "train", "story", *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=300)


def test_trains_on_a_tinystories_file_and_writes_a_checkpoint(tmp_path):
    data = tmp_path / "stories.txt"
    write_stories(data, [s.text for s in generate(5, 120)])
    proc = run("--model", "mlp", "--data", str(data), "--tokens", "20000", "--out", str(tmp_path), "--quiet")
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((tmp_path / "story-mlp.json").read_text())
    assert manifest["data"]["source"] == str(data) and manifest["vocabulary"][:2] == ["<eos>", "<unk>"]
    assert manifest["config"]["kind"] == "mlp" and manifest["tokens_seen"] >= 20000
    assert manifest["learning_curve"][-1]["val_loss"] < manifest["learning_curve"][0]["val_loss"]
    assert (tmp_path / "story-mlp.safetensors").is_file()


@pytest.mark.parametrize("content, problem", [
    (b"", "holds no stories"),
    (b"\x00\x01\x02binary", "is not a UTF-8 text file"),
    (b"Once upon a time.<|endoftext|>The end.\n", "<|endoftext|>"),
])
def test_a_bad_data_file_gets_one_sentence_and_exit_1(tmp_path, content, problem):
    data = tmp_path / "bad.txt"
    data.write_bytes(content)
    proc = run("--model", "mlp", "--data", str(data), "--tokens", "1000", "--out", str(tmp_path), "--quiet")
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(data) in lines[0] and problem in lines[0]


@pytest.mark.parametrize("args, message", [
    (["--model", "eight-head"], "invalid choice"),
    (["--model", "mlp", "--tokens", "0"], "must be a whole number above 0"),
    (["--model", "mlp", "--seed", "-1"], "seed must be a whole number"),
])
def test_bad_options_exit_2(args, message):
    proc = run(*args)
    assert proc.returncode == 2 and message in proc.stderr

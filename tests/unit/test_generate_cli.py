"""`python -m compute generate`: any story checkpoint (a published name or an author's file) writes on from a
prompt with the page's sampler; unknown words are reported; a bad checkpoint or option is one sentence. That it
writes the page's words is held in Chromium (tests/browser/test_live_model.py)."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest
import torch

from compute.cli import main
from compute.data.tokenizer import Vocabulary, words
from compute.models.story import build, init_weights, preset
from compute.store import save_checkpoint
from helpers import cli_error, usage_error

WORDS = ("<eos>", "<unk>", "the", "cat", "sat", "on", "mat", "lily", "'s", ".")


def authors_checkpoint(folder: Path, kind: str = "one-head", seed: int = 3) -> Path:
    """A story model as `train story --data ... --out FOLDER` writes one: its own vocabulary listed in the
    manifest, data no published model was trained on (untrained weights: the command must not care)."""
    vocab = Vocabulary(WORDS)
    config = preset(kind, len(vocab))
    model = build(config)
    init_weights(model, torch.Generator().manual_seed(seed))
    manifest = {"seed": seed, "config": asdict(config), "data_sha256": "0" * 64, "final_loss": 2.0,
                "vocabulary": list(vocab.itos), "vocabulary_sha256": vocab.sha256()}
    return save_checkpoint(folder / f"story-{kind}.safetensors", dict(model.named_parameters()), manifest)


def generated(argv: list[str], capsys) -> list[str]:
    assert main(["generate", *argv, "--quiet"]) == 0
    return capsys.readouterr().out.strip().splitlines()


@pytest.mark.parametrize("kind", ["one-head", "mlp"])
def test_an_authors_checkpoint_writes_from_its_own_vocabulary_and_a_seed_repeats(tmp_path, capsys, kind):
    path = authors_checkpoint(tmp_path, kind)
    first = generated([str(path), "--prompt", "The cat sat", "--seed", "5", "--length", "12"], capsys)
    again = generated([str(path.with_suffix(".json")), "--prompt", "The cat sat", "--seed", "5", "--length", "12"],
                      capsys)
    other = generated([str(path), "--prompt", "The cat sat", "--seed", "6", "--length", "12"], capsys)
    assert first == again != other and len(first) == 1
    written = words(first[0])
    assert written[:3] == ["the", "cat", "sat"] and 3 < len(written) <= 15
    assert set(written) <= set(WORDS) | {"unk"}                       # <unk> printed as itself


def test_unknown_words_of_the_prompt_are_reported_and_kept_as_typed(tmp_path, capsys):
    path = authors_checkpoint(tmp_path)
    out = generated([str(path), "--prompt", "The dog sat with Zorblax", "--greedy", "--length", "3"], capsys)
    assert out[0] == ("note: 3 word(s) of the prompt are not in the model's 10-word vocabulary and are read as "
                      "<unk>: dog, with, zorblax")
    assert words(out[1])[:5] == ["the", "dog", "sat", "with", "zorblax"]


def test_greedy_takes_the_models_best_word(tmp_path, capsys):
    path = authors_checkpoint(tmp_path)
    out = generated([str(path), "--prompt", "the cat", "--greedy", "--length", "1"], capsys)
    model = build(preset("one-head", len(WORDS)))
    init_weights(model, torch.Generator().manual_seed(3))
    with torch.no_grad():
        best = model(torch.tensor([[0, 2, 3]]))[0, -1].argmax().item()
    assert words(out[0])[2:] == ([] if best == 0 else [WORDS[best]])


def test_a_missing_or_edited_checkpoint_is_one_sentence(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(tmp_path))
    line = cli_error(["generate", "story-nothing", "--quiet"], capsys)
    assert "story-nothing.safetensors: no story checkpoint there" in line
    path = authors_checkpoint(tmp_path)
    manifest = json.loads(path.with_suffix(".json").read_text())
    manifest["vocabulary"][2] = "a"
    path.with_suffix(".json").write_text(json.dumps(manifest))
    line = cli_error(["generate", str(path), "--quiet"], capsys)
    assert str(path.with_suffix(".json")) in line and "vocabulary list does not match" in line


@pytest.mark.parametrize("args, message", [
    (["--top-p", "0"], "top-p must be above 0"),
    (["--top-k", "-2"], "top-k must be 0 or more"),
])
def test_bad_sampling_settings_are_one_sentence_and_exit_2(tmp_path, capsys, args, message):
    path = authors_checkpoint(tmp_path)
    assert main(["generate", str(path), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: generate: ") and message in err[0]


@pytest.mark.parametrize("args, message", [
    (["--length", "0"], "must be a whole number above 0"),
    (["--seed", "-1"], "seed must be a whole number"),
    (["--weights", "bfloat16"], "invalid choice"),
])
def test_bad_options_exit_2(args, message, capsys):
    assert message in usage_error(["generate", "story-mlp", *args], capsys)


@pytest.mark.parametrize("args, message", [
    (["--temperature", "inf"], "argument --temperature: must be a finite number above 0, got 'inf'"),
    (["--temperature", "nan"], "argument --temperature: must be a finite number above 0, got 'nan'"),
    (["--temperature", "0"], "argument --temperature: must be a finite number above 0, got '0'"),
    (["--temperature", "-1"], "argument --temperature: must be a finite number above 0, got '-1'"),
    (["--prompt", ""], "argument --prompt: must hold at least one word, got ''"),
    (["--prompt", "   "], "argument --prompt: must hold at least one word, got '   '"),
], ids=["inf", "nan", "zero", "negative", "empty prompt", "spaces"])
def test_a_temperature_or_prompt_nothing_can_be_drawn_from_is_refused_by_the_parser(args, message, capsys):
    err = usage_error(["generate", "story-mlp", *args], capsys).strip().splitlines()
    assert err == [f"error: generate: {message}"]


def test_a_checkpoint_that_is_not_a_story_model_says_so(capsys):
    """The walkthrough's checkpoint is a checkpoint, of the wrong model: one line says which, and what generate
    reads."""
    from compute.store import checkpoint_path
    path = checkpoint_path("walkthrough")
    line = cli_error(["generate", str(path), "--quiet"], capsys)
    assert line.startswith(f"error: {path}: not a story model: ")
    assert "the walkthrough's" in line and "mlp, one-head or four-head" in line and "__init__" not in line

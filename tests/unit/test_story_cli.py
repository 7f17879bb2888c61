"""`python -m compute train story`: trains on a TinyStories-format file without touching the published folder,
holds out whole stories, keeps the best weights; bad files and options get one sentence."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from compute.data.story import Story
from compute.data.tinystories import SEPARATOR
from compute.data.tokenizer import words
from compute.models.story import preset
from compute.training.story import StoryRecipe, train_story_model
from compute.data.story_file import FileSplit, split_stories
from compute.training.story_file import budget_tokens, file_eval_every
from helpers import N_STORIES, REPEAT, cli_error, letters, tiny_story, tiny_texts, usage_error, write_file
from forked import compute as run_compute

ROOT = Path(__file__).resolve().parents[2]
def folder_hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def published(tmp_path) -> Path:
    """A stand-in for the published folder (COMPUTE_CHECKPOINTS), holding a story checkpoint to be left alone."""
    folder = tmp_path / "published"
    folder.mkdir()
    for name in ("story-mlp.safetensors", "story-mlp.json"):
        (folder / name).write_bytes(b"published " + name.encode())
    return folder


def run(published: Path, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMPUTE_CHECKPOINTS": str(published)}
    return run_compute("train", "story", *args, cwd=ROOT, env=env, timeout=300)


def one_error_line(proc) -> str:
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


def test_trains_on_a_tinystories_file_into_out_and_leaves_the_published_folder_alone(tmp_path, published):
    data = write_file(tmp_path / "stories.txt", tiny_texts(), close_last=False)
    before = folder_hashes(published)
    out = tmp_path / "mine"
    proc = run(published, "--model", "mlp", "--data", str(data), "--passes", "2", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert folder_hashes(published) == before
    m = json.loads((out / "story-mlp.json").read_text())
    # the split: whole stories, every 20th held out, the held-out repeat of a training story dropped
    texts = tiny_texts()
    val_texts = [t for i, t in enumerate(texts) if (i + 1) % 20 == 0 and i != REPEAT[0]]
    assert m["data"]["stories"] == N_STORIES and m["data"]["last_story_unclosed"] is True
    assert (m["data"]["train_stories"], m["data"]["val_stories"], m["data"]["val_dropped_as_repeats"]) == (209, 10, 1)
    assert "note: the last story" in proc.stdout and "no closing" in proc.stdout
    # the unknown-word shares: training text is the vocabulary's; each validation story has two words of its own
    val_tokens = sum(len(words(t)) for t in val_texts)
    assert m["unknown_share"]["train"] == 0
    assert m["unknown_share"]["val"] == pytest.approx(2 * len(val_texts) / val_tokens)
    assert f"{m['unknown_share']['val']:.2%} of validation tokens" in proc.stdout
    vocab = m["vocabulary"]
    assert vocab[:2] == ["<eos>", "<unk>"] and f"qq{letters(19)}" not in vocab and "look" in vocab
    assert '"' in vocab and "'" not in vocab and not {"\u201c", "\u2018", "\u2014", "\u2013"} & set(vocab)
    # the budget: two passes over the training tokens, in whole steps, said in passes
    stream = sum(len(words(t)) + 1 for i, t in enumerate(texts) if (i + 1) % 20) + 1
    assert m["recipe"]["tokens"] == 2 * stream and m["tokens_seen"] >= 2 * stream
    assert m["passes"] == pytest.approx(m["tokens_seen"] / stream) and f"{m['passes']:.2f} passes" in proc.stdout
    # the kept weights: the curve point with the lowest validation loss, recorded; the saved weights give it
    curve = m["learning_curve"]
    best = min(range(len(curve)), key=lambda i: curve[i]["val_loss"])
    assert len(curve) >= 3 and m["recipe"]["keep"] == "best"
    assert m["kept"] == {"rule": "best", "step": curve[best]["tokens"] // (32 * 256), "tokens": curve[best]["tokens"],
                         "val_loss": curve[best]["val_loss"]}
    assert m["final_loss"] == m["kept"]["val_loss"] == pytest.approx(m["metrics"]["val_loss"], abs=1e-6)
    # two steps: no warm-up (a tenth of the run), the decay ending at the last step; too short to learn anything
    assert m["steps"] == 2 and m["schedule"]["warmup_steps"] == 0 and m["schedule"]["decay_ends_at_step"] == 1
    assert "0 warm-up steps (the recipe's 100 cut to a tenth of the run)" in proc.stdout
    assert m["learned_beyond_frequencies"] is False and m["metrics"]["val_loss"] > m["frequency_loss"] - 0.05
    assert "warning: this run of 2 steps was too short to learn anything" in proc.stdout
    # the hand-written stories: scored where the vocabulary holds every word, which this file's does for none
    assert "hand-written: none of the" in proc.stdout and "hand-written" not in m["metrics_by_split"]
    # a file marks no probes: they are found at every repeat of a name, object, colour or place word
    assert m["metrics"]["name"] is not None


def test_data_without_out_is_refused_and_writes_nothing(tmp_path, published):
    data = write_file(tmp_path / "stories.txt", tiny_texts(), close_last=True)
    before = folder_hashes(published)
    line = one_error_line(run(published, "--model", "mlp", "--data", str(data), "--tokens", "1000", "--quiet"))
    assert str(data) in line and "--out" in line and f"--out {published}" in line
    assert folder_hashes(published) == before


def utf16(text: str) -> bytes:
    return text.encode("utf-16")


STORIES = "".join(f"{tiny_story(i)}\n{SEPARATOR}\n" for i in range(30))


@pytest.mark.parametrize("content, problem", [
    (b"", "holds no stories"),
    (b"\x00\x01\x02binary", "is not a UTF-8 text file"),
    (b"Once upon a time.<|endoftext|>The end.\n", "<|endoftext|>"),
    (("Once upon a time, a cat sat. " * 70_000).encode(), "has no <|endoftext|> line"),
    (STORIES.encode("utf-16"), "is UTF-16 (little-endian) text"),
    (STORIES.encode("utf-16-le"), "is UTF-16 (little-endian) text"),
    (STORIES.encode("utf-16-be"), "is UTF-16 (big-endian) text"),
    (STORIES.encode(), "needs at least 190 training and 10 validation stories"),
    ("".join(f"{tiny_story(i % 19)}\n{SEPARATOR}\n" for i in range(400)).encode(), "and 0 validation stories"),
], ids=["empty", "binary", "inline separator", "one long line", "utf-16 with bom", "utf-16-le", "utf-16-be",
        "too few stories", "validation all repeats"])
def test_a_bad_data_file_gets_one_sentence_and_exit_1(tmp_path, published, content, problem, capsys, monkeypatch):
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(published))
    data = tmp_path / "bad.txt"
    data.write_bytes(content)
    line = cli_error(["train", "story", "--model", "mlp", "--data", str(data), "--tokens", "1000",
                      "--out", str(tmp_path / "out"), "--quiet"], capsys)   # in this process: no torch import each
    assert str(data) in line and problem in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["--model", "eight-head"], "invalid choice"),
    (["--model", "mlp", "--tokens", "0"], "must be a whole number above 0"),
    (["--model", "mlp", "--passes", "0"], "must be a finite number above 0"),
    (["--model", "mlp", "--passes", "nan"], "must be a finite number above 0"),
    (["--model", "mlp", "--passes", "inf"], "must be a finite number above 0, got 'inf'"),
    (["--model", "mlp", "--passes", "2", "--tokens", "100"], "not allowed with argument"),
    (["--model", "mlp", "--keep", "first"], "invalid choice"),
    (["--model", "mlp", "--seed", "-1"], "seed must be a whole number"),
    (["--model", "mlp", "--relations", "--data", "stories.txt"], "not allowed with argument"),
])
def test_bad_options_exit_2(args, message, capsys):
    assert message in usage_error(["train", "story", *args], capsys)


def story(text: str) -> Story:
    return Story(text, tuple(words(text)), ())


def test_every_20th_story_is_held_out_and_repeats_never_validate():
    texts = [f"Story {letters(i)}." for i in range(60)]
    texts[19] = texts[3]           # held out, but a training story has its text
    texts[59] = texts[39]          # held out twice: validated once
    data = split_stories([story(t) for t in texts], FileSplit())
    assert [s.text for s in data.val] == [texts[39]] and data.dropped == 2
    assert len(data.train) == 57 and not {s.text for s in data.val} & {s.text for s in data.train}


def test_the_budget_counts_tokens_or_passes_and_a_file_defaults_to_ten_passes():
    recipe = StoryRecipe()
    assert budget_tokens(1000, 5000, None, True) == 5000
    assert budget_tokens(1000, None, 2.5, True) == 2500
    assert budget_tokens(1000, None, None, True) == 10_000 < recipe.tokens
    assert budget_tokens(10**8, None, None, True) == budget_tokens(1000, None, None, False) == recipe.tokens
    per_step = recipe.batch * recipe.context
    assert file_eval_every(40 * per_step, recipe) == 2 * per_step                  # 20 curve points
    assert file_eval_every(recipe.tokens, recipe) == recipe.eval_every            # the recipe's, when often enough


@pytest.mark.parametrize("kind", ["mlp", "one-head", "four-head"])
@pytest.mark.parametrize("relations", [False, True], ids=["page's models", "relation models"])
def test_the_plain_command_gives_each_published_story_model_its_budget(kind, relations):
    """`train story --model KIND [--relations]` with no budget trains on the budget the published checkpoint
    records (the four-head relation model: more than the recipe's), so the documented commands remake them."""
    from compute.cli import parser
    from compute.store import checkpoint_dir
    from compute.training.story_cli import story_recipe
    args = parser().parse_args(["train", "story", "--model", kind, *(["--relations"] if relations else [])])
    name = f"story-{kind}" + ("-relations" if relations else "")
    recorded = json.loads((checkpoint_dir() / f"{name}.json").read_text())["recipe"]
    recipe = story_recipe(args, 5_000_000)
    assert recipe.tokens == recorded["tokens"] and recipe.keep == recorded["keep"] == "last"
    assert (recipe.tokens > StoryRecipe.tokens) == (relations and kind == "four-head")
    assert story_recipe(parser().parse_args(["train", "story", "--model", kind, "--tokens", "5000"]), 10**6).tokens \
        == 5000


def test_keep_best_keeps_the_weights_of_the_lowest_curve_point():
    """The curve's losses go 3, 1, 2, ...: the kept weights are those seen at the second point, not the last."""
    g = torch.Generator().manual_seed(0)
    stream = torch.randint(2, 20, (4000,), generator=g)
    recipe = StoryRecipe(tokens=6 * 4 * 32, batch=4, context=32, warmup=1, eval_every=2 * 4 * 32, threads=1,
                         keep="best")
    seen, losses = [], iter([3.0, 1.0, 2.0, 2.5])

    def evaluate(model):
        seen.append({n: p.detach().clone() for n, p in model.named_parameters()})
        return {"val_loss": next(losses)}

    run = train_story_model(preset("one-head", 20), stream, 0, recipe, evaluate)
    assert [p["tokens"] for p in run.curve] == [0, 256, 512, 768] and len(seen) == 4
    assert run.kept == {"rule": "best", "step": 2, "tokens": 256, "val_loss": 1.0}
    assert all(torch.equal(run.weights[n], seen[1][n]) for n in run.weights)
    assert not all(torch.equal(run.weights[n], seen[-1][n]) for n in run.weights)
    assert run.manifest()["final_loss"] == 1.0
    last = train_story_model(preset("one-head", 20), stream, 0, replace(recipe, keep="last"),
                             lambda m: {"val_loss": 1.0})
    assert last.kept["rule"] == "last" and last.kept["step"] == recipe.steps


def test_keep_best_needs_a_curve():
    with pytest.raises(ValueError, match="needs an evaluate callback"):
        train_story_model(preset("mlp", 20), torch.arange(100) % 20, 0,
                          StoryRecipe(tokens=64, batch=1, context=8, keep="best"))
    with pytest.raises(ValueError, match="keep must be one of last, best"):
        StoryRecipe(keep="first")


@pytest.mark.parametrize("device, message", [
    ("cuda", "cuda: torch finds no such GPU on this machine (0 CUDA devices; the default, cpu, needs none)"),
    ("cuda:1", "cuda:1: torch finds no such GPU"),
    ("tpu", "must be cpu, cuda or cuda:N, got 'tpu'"),
])
def test_a_device_torch_cannot_find_is_one_sentence(device, message, capsys, monkeypatch):
    """On a machine without a GPU (made so here, whatever this one has), --device cuda is refused before any
    work; the default runs on the CPU."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    assert message in usage_error(["train", "story", "--model", "mlp", "--device", device], capsys)


def test_the_cpu_device_is_the_default_run_and_recorded():
    g = torch.Generator().manual_seed(0)
    stream = torch.randint(2, 20, (4000,), generator=g)
    recipe = StoryRecipe(tokens=4 * 4 * 32, batch=4, context=32, eval_every=10**9, threads=1)
    plain = train_story_model(preset("one-head", 20), stream, 0, recipe)
    on_cpu = train_story_model(preset("one-head", 20), stream, 0, recipe, device="cpu")
    assert all(torch.equal(plain.weights[n], on_cpu.weights[n]) for n in plain.weights)
    assert on_cpu.manifest()["trained_on"]["device"] == "cpu"


def never_trains(*args, **kwargs):
    raise AssertionError("trained although the checkpoint could not be written where --out says")


@pytest.mark.parametrize("out, cause", [
    ("a-file", "is a file, not a folder"),
    ("a-file/models", "cannot be made: {tmp}/a-file is a file, not a folder"),
    ("folder", "{tmp}/folder/story-mlp.safetensors is a folder"),
], ids=["out is a file", "out under a file", "the checkpoint's name is a folder"])
def test_an_out_that_cannot_be_written_is_refused_before_training(tmp_path, published, out, cause, capsys,
                                                                   monkeypatch):
    """`--out` is checked before the data is read or a step trained: a finished run is never lost to it."""
    from compute.training import story_cli
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(published))
    monkeypatch.setattr(story_cli, "train_story_model", never_trains)
    (tmp_path / "a-file").write_text("not a folder\n")
    (tmp_path / "folder" / "story-mlp.safetensors").mkdir(parents=True)
    data = write_file(tmp_path / "stories.txt", tiny_texts(), close_last=True)
    line = cli_error(["train", "story", "--model", "mlp", "--data", str(data), "--tokens", "1000",
                      "--out", str(tmp_path / out), "--quiet"], capsys)
    assert line.startswith(f"error: {tmp_path / out}: ") and cause.format(tmp=tmp_path) in line
    assert "nothing was trained" in line and "--out" in line
    assert (tmp_path / "a-file").read_text() == "not a folder\n"


def test_a_run_that_cannot_be_written_after_training_is_written_beside_and_named(tmp_path, published, capsys,
                                                                                   monkeypatch):
    """--out could be written when the run began, and is a file when it ends (a folder removed and replaced
    while it trained): the trained weights go to a new folder beside it, which the one error line names."""
    from compute.training import story_cli
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(published))
    out = tmp_path / "mine"
    real = story_cli.train_story_model

    def trained_then_out_taken(*args, **kwargs):
        run = real(*args, **kwargs)
        out.write_text("someone else's file\n")
        return run
    monkeypatch.setattr(story_cli, "train_story_model", trained_then_out_taken)
    data = write_file(tmp_path / "stories.txt", tiny_texts(), close_last=True)
    line = cli_error(["train", "story", "--model", "mlp", "--data", str(data), "--tokens", "1000",
                      "--out", str(out), "--quiet"], capsys)
    assert line.startswith(f"error: {out}: cannot write the trained run there (")
    kept = Path(line.split("it was written to ")[1].split(" instead")[0])
    assert kept.parent == tmp_path and kept.name.startswith("mine.unsaved-")
    manifest = json.loads((kept / "story-mlp.json").read_text())
    assert manifest["data"]["stories"] == N_STORIES and (kept / "story-mlp.safetensors").is_file()
    assert out.read_text() == "someone else's file\n"

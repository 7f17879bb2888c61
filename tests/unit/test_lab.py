"""The lab's pieces: the flag cell's checks, tensors as a trainable module, the generator after initialisation,
the download's flag switch, and the stored record of a measured run."""
from __future__ import annotations

import json

import nbformat
import pytest
import torch

from compute.lessons.lab.states import run as lab_run
from compute.lessons.lab.tensors import TensorModel
from compute.models.story import build, init_weights, preset
from compute.store import CheckpointError
from compute.training.story import optimizer, StoryRecipe
from sitebuild.notebooks.write import lesson_notebook, train_for_real
from conftest import ROOT


def test_good_settings_pass():
    s = lab_run.settings(True, 4_000_000, 0)
    assert (s.train, s.tokens, s.seed) == (True, 4_000_000, 0)


@pytest.mark.parametrize("train, tokens, seed, name", [
    ("yes", 4_000_000, 0, "TRAIN"), (1, 4_000_000, 0, "TRAIN"),
    (True, 10, 0, "TOKENS"), (True, True, 0, "TOKENS"), (True, 4e6, 0, "TOKENS"), (True, 10 ** 9, 0, "TOKENS"),
    (True, 4_000_000, -1, "SEED"), (True, 4_000_000, "0", "SEED"),
])
def test_a_bad_flag_cell_is_one_sentence_naming_the_setting(train, tokens, seed, name):
    with pytest.raises(ValueError) as err:
        lab_run.settings(train, tokens, seed)
    message = str(err.value)
    assert message.startswith(name) and "\n" not in message and repr(locals()[name.lower()]) in message


def test_tensors_become_parameters_under_their_own_names():
    params = {"E": torch.randn(5, 3), "blocks.0.attn.W_Q": torch.randn(3, 3), "b": torch.zeros(3)}
    model = TensorModel(lambda p, x: p["E"][x] @ p["blocks.0.attn.W_Q"] + p["b"], params)
    assert set(model.params) == set(params)
    assert all(isinstance(p, torch.nn.Parameter) for p in model.parameters())
    x = torch.tensor([[0, 4]])
    assert torch.equal(model(x), params["E"][x] @ params["blocks.0.attn.W_Q"])
    model.params["E"].data.zero_()                     # the module holds its own copies
    assert params["E"].abs().sum() > 0
    decayed = {id(p) for g in optimizer(model, StoryRecipe()).param_groups if g["weight_decay"] > 0 for p in g["params"]}
    assert decayed == {id(model.params["blocks.0.attn.W_Q"])}   # matrices, not the embedding or biases


@pytest.mark.parametrize("kind", ["mlp", "one-head"])
def test_training_continues_from_the_generator_compute_would_use(kind):
    """After the lab's own initial tensors, its generator stands where `compute train story`'s does, so both
    take the same training crops."""
    seed = 7
    ours = lab_run.initial_params(kind, seed)
    generator = torch.Generator().manual_seed(seed)
    model = build(preset(kind, len(lab_run.data().vocab)))
    init_weights(model, generator)
    for name, p in model.named_parameters():
        assert torch.equal(p, ours[name]), name
    assert torch.equal(torch.rand(5, generator=generator),
                       torch.rand(5, generator=lab_run.past_initialisation(ours, seed)))


def test_initial_params_take_other_sizes():
    wide = lab_run.initial_params("mlp", 0, window=16)
    assert wide["W1"].shape[0] == 16 * lab_run.config("mlp").d_model


def cell(source, tags=()):
    c = nbformat.v4.new_code_cell(source)
    c.metadata["tags"] = list(tags)
    return c


def test_the_download_switches_only_the_flag_cell():
    flagged = cell("TRAIN = False   # comment\nTOKENS = 5\nOTHER_TRAIN = False", ["train-flag"])
    train_for_real(flagged)
    assert flagged.source == "TRAIN = True   # comment\nTOKENS = 5\nOTHER_TRAIN = False"
    plain = cell("TRAIN = False")
    train_for_real(plain)
    assert plain.source == "TRAIN = False"
    with pytest.raises(ValueError, match="must set TRAIN = False"):
        train_for_real(cell("TRAIN = maybe", ["train-flag"]))


def test_the_lab_page_is_built_without_training_and_the_download_trains():
    source = (ROOT / "posts" / "lab.md").read_text()
    assert "\nTRAIN = False " in source
    flags = [c for c in lesson_notebook(ROOT / "posts" / "lab.md").cells if "train-flag" in c.metadata.get("tags", [])]
    assert len(flags) == 1 and flags[0].source.startswith("TRAIN = True ")


@pytest.fixture
def record_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPUTE_CHECKPOINTS", str(tmp_path))
    lab_run.measured_run.cache_clear()
    yield tmp_path
    lab_run.measured_run.cache_clear()


def test_a_malformed_run_record_is_one_sentence_naming_it(record_dir):
    (record_dir / lab_run.RECORD).write_text(json.dumps({"seconds": 80}))
    with pytest.raises(CheckpointError) as err:
        lab_run.measured_run()
    assert str(record_dir / lab_run.RECORD) in str(err.value) and "malformed" in str(err.value)
    assert "\n" not in str(err.value)


def test_without_a_record_the_notebook_still_starts(record_dir, capsys):
    lab_run.setup(False, 4_000_000, 0)
    out = capsys.readouterr().out
    assert "TRAIN = False" in out and "No stored measurement" in out and "not found" in out


def test_the_check_against_compute_refuses_a_function_that_is_off(capsys):
    """A learner's function within 1e-4 of compute's model passes; one that is off is refused by name."""
    from compute.claims import ClaimError
    from compute.lessons.lab.tensors import check_against_compute, compute_model
    params = lab_run.initial_params("one-head", 0)
    right = lambda p, tokens: compute_model("one-head", p)(tokens)  # noqa: E731
    check_against_compute(right, params, "one-head")
    assert "largest difference between their logits 0.00e+00" in capsys.readouterr().out
    off = lambda p, tokens: right(p, tokens) * (1 + 1e-3)  # noqa: E731  (a slip: logits scaled)
    with pytest.raises(ClaimError, match="the lab's one-head function does not match compute's model"):
        check_against_compute(off, params, "one-head")


def test_the_loops_bar_shows_steps_tokens_and_loss_and_a_check_shows_none(capsys):
    from compute.lessons.lab.loop import CHECK_STEPS, progress
    recipe = StoryRecipe(tokens=20 * StoryRecipe.batch * StoryRecipe.context)
    show = progress(recipe)
    for step in range(recipe.steps):
        show(step, 3.0 - step / 10)
    out = capsys.readouterr().out
    assert "20/20" in out and f"{20 * recipe.batch * recipe.context:,} tokens" in out and "loss 1.100" in out
    check = progress(StoryRecipe(tokens=CHECK_STEPS * StoryRecipe.batch * StoryRecipe.context))
    for step in range(CHECK_STEPS):
        check(step, 1.0)
    assert capsys.readouterr().out == ""


def test_a_sample_cut_at_its_token_limit_ends_at_its_last_full_sentence():
    from compute.lessons.story.states.samples import whole_sentences
    ended = ("the", "cat", "sat", ".")
    assert whole_sentences(ended, limit=10) == ended                      # ended on its own: whole
    cut = ("the", "cat", "sat", ".", '"', "hi", "!", '"', "said", "ben", "and", "thank")
    assert whole_sentences(cut, limit=len(cut)) == cut[:8]                # to "!" and its closing quote
    assert whole_sentences(("a", "b", "."), limit=3) == ("a", "b", ".")


def test_a_run_with_its_head_silenced_is_scored_once_and_with_w_o_zero(monkeypatch):
    """The claim, the knockout exercise and the findings each read the silenced scores: one pass over the
    validation stories per run, with W_O zero in that pass alone; another run is scored afresh."""
    from compute.lessons.lab.states import knockout
    passes = []

    def run_probes(logits, probe_set, vocab):
        passes.append(logits(None))
        return len(passes)
    monkeypatch.setattr(knockout, "run_probes", run_probes)
    monkeypatch.setattr(knockout, "summary", lambda probe_set, results: {"pass": results})
    monkeypatch.setattr(knockout, "probes", lambda: "probes")
    monkeypatch.setattr(knockout, "data", lambda: type("Data", (), {"vocab": "vocab"}))
    w_o = lambda params, tokens: float(params["blocks.0.attn.W_O"].abs().sum())  # noqa: E731
    head = lab_run.LabRun("one-head", w_o, {"blocks.0.attn.W_O": torch.ones(2, 2)}, "published checkpoint")
    first = knockout.knocked_out(head)
    assert knockout.knocked_out(head) is first and knockout.knocked_out(head) == {"pass": 1}
    assert passes == [0.0] and float(head.params["blocks.0.attn.W_O"].sum()) == 4.0   # silenced in the pass alone
    other = lab_run.LabRun("one-head", w_o, {"blocks.0.attn.W_O": torch.ones(2, 2)}, "trained here")
    assert knockout.knocked_out(other) == {"pass": 2} and passes == [0.0, 0.0]

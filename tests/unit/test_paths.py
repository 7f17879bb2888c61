"""Paths (compute.models.paths): a sender's write changed in one receiver's input alone, against what the model
itself does when the change reaches every reader (then path patching is the whole model on the other story, and a
path cut is the head silenced)."""
from __future__ import annotations

import pytest
import torch

from compute.models import paths
from compute.models.readout import read

from test_circuit import IDS, OTHER, small_model


def probs(logits: torch.Tensor) -> torch.Tensor:
    return torch.softmax(logits[-1], -1)


def test_nothing_added_is_the_models_own_run():
    model = small_model()
    with torch.no_grad():
        trace = model.trace(torch.tensor([IDS]))
    r = paths.run(model, IDS)
    assert torch.allclose(r.logits, trace.logits[0], atol=1e-12)
    for l in range(2):
        assert torch.allclose(r.attention[l], trace.attention[l].A[0], atol=1e-12)


def test_the_embedding_patched_into_every_reader_is_the_model_on_the_other_story():
    model = small_model()
    with torch.no_grad():
        other = model(torch.tensor([OTHER]))[0]
    every = paths.path_patch(model, IDS, OTHER, "embedding", paths.receivers_of(model, "embedding"))
    assert torch.allclose(every.logits, other, atol=1e-10)
    some = paths.path_patch(model, IDS, OTHER, "embedding", ["L1 MLP", "logits"])
    assert not torch.allclose(some.logits, other, atol=1e-3)            # the heads still read this story


def without(model, sender: str) -> torch.Tensor:
    """The logits with one part's write removed from the stream for every later part, worked by hand: a head by
    the readout's switch; an MLP by taking its write out of the stream after its block and running the rest."""
    if " H" in sender:
        layer, head = (int(x[1:]) - 1 for x in sender.split())
        return read(model, IDS, silenced={(layer, head)}).logits
    r, layer = read(model, IDS), int(sender.split()[0][1:])
    x = r.streams[layer] - r.parts[r.names.index(sender)]             # (T, d_model) after its block, without it
    with torch.no_grad():
        for block in model.blocks[layer:]:
            x = block(x[None])[0]
        return model.unembed(x[None])[0]


@pytest.mark.parametrize("sender", ["L1 H1", "L1 H2", "L1 MLP", "L2 H2", "L2 MLP"])
def test_a_write_cut_from_every_reader_is_the_part_silenced(sender):
    model = small_model(1)
    cut = paths.path_patch(model, IDS, None, sender, paths.receivers_of(model, sender))
    assert torch.allclose(cut.logits, without(model, sender), atol=1e-10)
    assert not torch.allclose(cut.logits, paths.run(model, IDS).logits, atol=1e-4)   # the cut changed something


def test_one_receiver_changes_only_what_reads_through_it():
    model = small_model()
    plain = paths.run(model, IDS)
    values = paths.path_patch(model, IDS, OTHER, "L1 H1", ["L2 H2 V"])
    assert torch.equal(values.attention, plain.attention)              # values move no weight
    assert not torch.allclose(probs(values.logits), probs(plain.logits), atol=1e-6)
    keys = paths.path_patch(model, IDS, OTHER, "L1 H1", ["L2 H2 K"])
    assert torch.equal(keys.attention[:, 0], plain.attention[:, 0])    # the other head of layer 2 and all of layer 1
    assert torch.equal(keys.attention[0], plain.attention[0])
    assert not torch.allclose(keys.attention[1, 1], plain.attention[1, 1], atol=1e-6)
    mlp = paths.path_patch(model, IDS, OTHER, "L1 H1", ["L2 MLP"])
    assert torch.equal(mlp.attention, plain.attention)                 # the MLP comes after every head it could move
    assert not torch.allclose(probs(mlp.logits), probs(plain.logits), atol=1e-6)


def test_receivers_are_the_inputs_after_the_sender():
    model = small_model()
    assert paths.receivers_of(model, "L1 H2") == [
        "L1 MLP", "L2 H1 Q", "L2 H1 K", "L2 H1 V", "L2 H2 Q", "L2 H2 K", "L2 H2 V", "L2 MLP", "logits"]
    assert paths.receivers_of(model, "L1 MLP") == [
        "L2 H1 Q", "L2 H1 K", "L2 H1 V", "L2 H2 Q", "L2 H2 K", "L2 H2 V", "L2 MLP", "logits"]
    assert paths.receivers_of(model, "L2 H1") == ["L2 MLP", "logits"]


def test_a_name_the_model_lacks_is_refused_by_name():
    model = small_model()
    with pytest.raises(ValueError, match="'L3 MLP'"):
        paths.run(model, IDS, {"L3 MLP": torch.zeros(len(IDS), 8)})
    with pytest.raises(ValueError, match="'L1 H9'"):
        paths.change(model, IDS, OTHER, "L1 H9")


def test_a_patched_head_is_its_write_from_the_other_story_given_to_every_reader():
    """A head patched (run(patched=...)) writes what it writes on the other story: the same as that write given to
    every input that reads it (path_patch to every receiver), and its own write where the other story has none."""
    model = small_model()
    borrowed = paths.borrowed(model, OTHER, [(0, 1)])
    assert borrowed[(0, 1)].shape == (len(OTHER), 8)
    r = paths.run(model, IDS, patched=borrowed)
    every = paths.path_patch(model, IDS, OTHER, "L1 H2", paths.receivers_of(model, "L1 H2"))
    assert torch.allclose(r.logits, every.logits, atol=1e-10)
    assert torch.allclose(r.writes["L1 H2"][:len(OTHER)], paths.writes(model, OTHER)["L1 H2"][:len(IDS)], atol=1e-12)
    assert not torch.allclose(r.logits, paths.run(model, IDS).logits, atol=1e-4)     # the patch changed something
    shorter = paths.run(model, IDS, patched={(0, 1): borrowed[(0, 1)][:2]})
    assert torch.allclose(shorter.writes["L1 H2"][2:], paths.writes(model, IDS)["L1 H2"][2:], atol=1e-12)


def test_the_runs_writes_are_the_readouts():
    model = small_model()
    silenced = frozenset({(1, 0)})
    r = read(model, IDS, silenced=silenced)
    have, want = paths.run(model, IDS, silenced=silenced).writes, dict(zip(r.names, r.parts))
    assert list(have) == list(want)
    for name in want:
        assert torch.allclose(have[name], want[name], atol=1e-12), name
    assert not have["L2 H1"].any() and have["L2 H2"].abs().max() > 1e-6

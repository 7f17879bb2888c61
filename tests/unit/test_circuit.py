"""The circuit across layers (compute.models.circuit): composition scores read the weights as the formula says, and
path patching changes a second-layer head's one input and nothing else."""
from __future__ import annotations

import pytest
import torch

from compute.models import circuit
from compute.models.decoder import Decoder, DecoderConfig


def small_model(seed: int = 0) -> Decoder:
    """Two pre-LayerNorm layers of two heads, rotary positions, random weights (float64)."""
    torch.manual_seed(seed)
    model = Decoder(DecoderConfig(vocab_size=11, context=16, d_model=8, n_layer=2, n_head=2, d_ff=16,
                                  layer_norm=True, rope=True)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p) * 0.5)
    return model


IDS, OTHER = [1, 4, 2, 7, 4, 3, 9], [1, 5, 2, 7, 5, 3, 9]


def test_no_source_gives_the_models_own_prediction_and_attention():
    model = small_model()
    with torch.no_grad():
        trace = model.trace(torch.tensor([IDS]))
    own = torch.softmax(trace.logits[0, -1], -1)
    for via in circuit.INPUTS:
        got = circuit.path_patch(model, IDS, receiver=1, via=via)
        assert torch.allclose(got.probs, own, atol=1e-12)
        assert torch.allclose(got.attention, trace.attention[1].A[0, 1, -1], atol=1e-12)


def test_a_story_patched_from_itself_is_unchanged_and_from_another_changes():
    model = small_model()
    own = circuit.path_patch(model, IDS, receiver=0).probs
    for via in circuit.INPUTS:
        same = circuit.path_patch(model, IDS, IDS, sender=1, receiver=0, via=via)
        assert torch.allclose(same.probs, own, atol=1e-12)
        other = circuit.path_patch(model, IDS, OTHER, sender=1, receiver=0, via=via)
        assert (other.probs - own).abs().max() > 1e-6, via      # random weights: every input carries something


def test_patching_one_input_leaves_the_receivers_other_inputs_and_the_other_heads_alone():
    """A patch into head 0's queries moves head 0's attention; head 1's is the story's own."""
    model = small_model()
    with torch.no_grad():
        trace = model.trace(torch.tensor([IDS]))
    moved = circuit.path_patch(model, IDS, OTHER, sender=0, receiver=0, via="Q")
    assert (moved.attention - trace.attention[1].A[0, 0, -1]).abs().max() > 1e-6
    kept = circuit.path_patch(model, IDS, OTHER, sender=0, receiver=1, via="V")   # values: attention as it was
    assert torch.allclose(kept.attention, trace.attention[1].A[0, 1, -1], atol=1e-12)


def test_a_head_that_writes_where_another_does_not_read_composes_zero():
    """First-layer head 0 writes only in rows of zero mean on dims 0-3; second-layer head 0's keys read only
    dims 4-7: its K-composition is 0, and reading dims 0-3 instead it is not."""
    model = small_model()
    attn1, attn2 = model.blocks[0].attn, model.blocks[1].attn
    with torch.no_grad():
        W = torch.randn(4, 8, dtype=torch.float64)
        W[:, 4:] = 0
        W[:, :4] -= W[:, :4].mean(1, keepdim=True)
        attn1.W_O[:4] = W                                   # head 0's d_v = 4 rows of W_O
        model.blocks[1].ln1.weight.fill_(1.0)
        attn2.W_K[:4, :4] = 0                               # head 0's 4 key columns read dims 4-7 alone
    scores = circuit.composition(model)
    assert scores["K"][0, 0] < 1e-6
    assert scores["K"][1, 0] > 0.05 and scores["Q"][0, 0] > 0.05          # another head; another input
    with torch.no_grad():
        attn2.W_K[:4, :4] = torch.randn(4, 4, dtype=torch.float64)
    assert circuit.composition(model)["K"][0, 0] > 0.05


def test_scores_are_shares_and_the_story_shares_sum_within_one():
    model = small_model()
    for via, s in circuit.composition(model).items():
        assert s.shape == (2, 2) and ((s >= 0) & (s <= 1)).all(), via
    for via, s in circuit.composition_on(model, IDS).items():
        assert s.shape == (2, 2) and ((s > 0) & (s < 1)).all() and (s.sum(0) < 1).all(), via


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="queries, keys or values"):
        circuit.path_patch(small_model(), IDS, OTHER, sender=0, receiver=0, via="O")
    one_layer = Decoder(DecoderConfig(vocab_size=11, context=16, d_model=8, n_layer=1, n_head=2, layer_norm=True,
                                      rope=True))
    with pytest.raises(ValueError, match="two layers or more"):
        circuit.composition(one_layer)

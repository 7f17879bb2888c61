"""compute.models.readout, the live box's instruments in Python: the parts of the residual stream, direct logit
attribution, the layer view and patching, on a random four-head model (LayerNorm gains and biases away from 1
and 0); and the sampler's top-p."""
from __future__ import annotations

import math

import pytest
import torch

from compute.generate import Mulberry32, Sampling, choose_one, choose_row
from compute.models.readout import BIAS, Patch, attribution, head_output, layer_logits, part_names, read
from compute.models.walkthrough import build as build_walkthrough
from test_story_models import model

IDS = [0, 5, 9, 3, 5, 12, 7, 9]
OTHER = [0, 5, 11, 3, 5, 12, 7, 11]       # IDS with one word changed at both its places


def logits(m, ids, mask=None):
    with torch.no_grad():
        return m(torch.tensor([ids]), head_mask=mask)[0]


def test_the_parts_add_up_to_the_stream_and_give_the_models_logits():
    m = model("four-head").double()
    r = read(m, IDS)
    assert r.names == part_names(m) and r.names[:2] == ["embedding", "L1 H1"] and r.names[-1] == "L2 MLP"
    assert r.parts.shape == (1 + 2 * 5, len(IDS), 96) and r.streams.shape == (3, len(IDS), 96)
    assert torch.allclose(r.parts.sum(0), r.streams[-1], atol=1e-12)
    assert torch.allclose(r.logits, logits(m, IDS), atol=1e-10)


@pytest.mark.parametrize("position", [-1, 2])
def test_attribution_adds_up_to_the_logit_and_names_every_part(position):
    m = model("four-head").double()
    r = read(m, IDS)
    for word in (0, 17, 39):
        a = attribution(m, r, position, word)
        assert list(a) == part_names(m) + [BIAS]
        assert math.isclose(sum(a.values()), float(r.logits[position, word]), abs_tol=1e-10)
        assert len({round(v, 6) for v in a.values()}) == len(a)          # every part pushes its own amount


def test_a_silenced_head_pushes_nothing_and_reads_as_the_head_mask_does():
    m = model("four-head").double()
    mask = torch.ones(2, 4, dtype=torch.float64)
    mask[1, 2] = 0.0
    r = read(m, IDS, {(1, 2)})
    assert attribution(m, r, -1, 7)["L2 H3"] == 0.0 and attribution(m, read(m, IDS), -1, 7)["L2 H3"] != 0.0
    assert torch.allclose(r.logits, logits(m, IDS, mask), atol=1e-10)


def test_the_layer_view_ends_with_the_models_logits_and_starts_from_the_embedding():
    m = model("four-head").double()
    r = read(m, IDS)
    lens = layer_logits(m, r, -1)
    assert lens.shape == (3, 40)
    assert torch.allclose(lens[-1], r.logits[-1], atol=1e-12)
    with torch.no_grad():
        assert torch.allclose(lens[0], m.ln_f(m.E[IDS[-1]]) @ m.W_U, atol=1e-12)   # the word itself, unread


def test_a_patch_changes_only_the_last_word_and_a_patch_from_the_same_prompt_nothing():
    m = model("four-head").double()
    same = read(m, IDS, patch=Patch((0, 1), tuple(IDS)))
    assert torch.allclose(same.logits, read(m, IDS).logits, atol=1e-12)
    patched = read(m, IDS, patch=Patch((0, 1), tuple(OTHER)))
    assert torch.equal(patched.logits[:-1], read(m, IDS).logits[:-1])
    assert (patched.logits[-1] - read(m, IDS).logits[-1]).abs().max() > 1e-3
    # what the patched head writes at the last word is what it wrote at the other prompt's
    z = head_output(m, OTHER, (0, 1))
    with torch.no_grad():
        write = z @ m.blocks[0].attn.W_O[24:48]
    assert torch.allclose(patched.parts[2, -1], write, atol=1e-12)


def test_a_patch_source_past_the_context_is_read_as_a_prompt_is():
    """Its last context - 1 ids, as the page cuts it (run.js inContext): not an error, not the whole of it."""
    m = model("four-head").double()
    n = m.cfg.context
    long = [0] + [5, 9, 3, 12, 7] * (n // 5 + 10)                    # past the context
    assert torch.allclose(head_output(m, long, (0, 1)), head_output(m, long[len(long) - n + 1:], (0, 1)), atol=1e-12)
    assert not torch.allclose(head_output(m, long, (0, 1)), head_output(m, long[-n:], (0, 1)), atol=1e-6)


def test_the_readout_refuses_a_model_without_layernorm_in_one_sentence():
    with pytest.raises(ValueError, match=r"^the readout takes pre-LayerNorm models with rotary positions"):
        read(build_walkthrough(), [0, 1, 2])


def test_top_p_keeps_the_fewest_best_words_that_reach_it():
    """Softmax of [log 4, log 3, log 2, log 1] is 0.4, 0.3, 0.2, 0.1: top-p 0.6 keeps the first two (0.7 reaches
    it), 0.7 too (exactly), 0.71 three; every draw lands among them, and each kept word is drawn."""
    row = [math.log(2), math.log(4), math.log(1), math.log(3)]      # ids 1, 3, 0, 2 best first
    for p, kept in ((0.6, {1, 3}), (0.7, {1, 3}), (0.71, {1, 3, 0}), (0.05, {1}), (1.0, {0, 1, 2, 3})):
        random = Mulberry32(3)
        drawn = {choose_one(row, Sampling(temperature=1.0, top_p=p), random) for _ in range(400)}
        assert drawn == kept, p


def test_top_p_after_top_k_and_a_top_p_of_one_draws_as_before():
    row = [0.5, 2.0, 1.0, 1.5, 0.1]
    a, b = Mulberry32(9), Mulberry32(9)
    assert ([choose_one(row, Sampling(top_k=3), a) for _ in range(50)]
            == [choose_one(row, Sampling(top_k=3, top_p=1.0), b) for _ in range(50)])
    random = Mulberry32(1)
    drawn = {choose_one(row, Sampling(temperature=1.0, top_k=3, top_p=0.6), random) for _ in range(300)}
    assert drawn == {1, 3}          # of the top 3 (0.51, 0.31, 0.19 of them): the fewest that reach 0.6


@pytest.mark.parametrize("sampling", [Sampling(), Sampling(temperature=1.7), Sampling(temperature=0.05),
                                      Sampling(greedy=True), Sampling(top_k=5), Sampling(top_p=0.5)])
def test_the_fast_row_sampler_draws_what_the_spelled_out_one_draws(sampling):
    """choose_row (numpy) is choose_one (the page's sampler, step for step) for every draw: rows of a story model's
    size with tied, equal and far-apart logits, each drawn 30 times from one generator of each."""
    rows = torch.randn(40, 380, generator=torch.Generator().manual_seed(4), dtype=torch.float64) * 4
    rows[1::4, 7] = rows[1::4, 300] = rows[1::4].max(dim=1).values + 1   # two words tie for the best
    rows[2::4] = 0.0                                                    # every word alike
    rows[3::4, :200] -= 60                                              # half the words all but impossible
    for row in rows:
        a, b = Mulberry32(11), Mulberry32(11)
        fast = [choose_row(row.numpy(), sampling, a) for _ in range(30)]
        assert fast == [choose_one(row.tolist(), sampling, b) for _ in range(30)]
    assert len({choose_row(rows[2].numpy(), Sampling(), Mulberry32(s)) for s in range(50)}) > 10  # draws vary


@pytest.mark.parametrize("options, message", [
    ({"top_p": 0.0}, "top-p must be above 0 and at most 1, not 0.0"),
    ({"top_p": 1.5}, "top-p must be above 0 and at most 1, not 1.5"),
    ({"temperature": 0}, "the temperature must be above 0, not 0"),
    ({"top_k": -2}, "top-k must be 0 or more, not -2"),
])
def test_a_sampling_out_of_range_is_refused_in_one_sentence(options, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        Sampling(**options)

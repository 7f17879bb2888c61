"""The story models: shapes and sizes, an independent numpy forward pass, knock-outs, cached generation,
seeded sampling, and a short training run that learns."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import reference
from compute.generate import Sampling, generate
from compute.models.decoder import Decoder
from compute.models.story import build, init_weights, parameter_count, preset
from compute.training.story import StoryRecipe, learning_rate, train_story_model

VOCAB = 40


def model(kind: str, seed: int = 0, vocab: int = VOCAB):
    m = build(preset(kind, vocab))
    init_weights(m, torch.Generator().manual_seed(seed))
    with torch.no_grad():  # LayerNorm gains and biases away from 1 and 0, so the test sees them
        for name, p in m.named_parameters():
            if ".ln" in name or name.startswith("ln"):
                p.add_(torch.randn(p.shape, generator=torch.Generator().manual_seed(len(name))) * 0.1)
    return m.eval()


def test_presets_have_the_lessons_shapes():
    four = preset("four-head", 339)
    assert (four.d_model, four.n_layer, four.n_head, four.layer_norm, four.rope) == (96, 2, 4, True, True)
    assert preset("one-head", 339).n_head == 1 and preset("mlp", 339).window == 8
    sizes = {k: parameter_count(build(preset(k, 339))) for k in ("mlp", "one-head", "four-head")}
    assert sizes["four-head"] * 4 <= 1.3e6                       # float32 checkpoint within 1.3 MB
    assert sizes["one-head"] < sizes["mlp"] < sizes["four-head"]
    with pytest.raises(ValueError, match="model must be one of"):
        preset("eight-head", 339)


def numpy_forward(m: Decoder, ids: list[int]) -> np.ndarray:
    """Logits of the four-head model, computed with tests/reference.py block by block."""
    w = {n: p.detach().double().numpy() for n, p in m.named_parameters()}
    x = w["E"][ids]
    for layer in range(m.cfg.n_layer):
        pre = f"blocks.{layer}."
        block = {k[len(pre):].split(".", 1)[-1] if not k[len(pre):].startswith("ln") else k[len(pre):]: v
                 for k, v in w.items() if k.startswith(pre)}
        x = reference.block_forward(block, x, m.cfg.n_head, rope=m.cfg.rope, ln=m.cfg.layer_norm)
    x = reference.layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])
    return x @ w["W_U"]


def test_four_head_model_equals_an_independent_numpy_forward():
    m = model("four-head")
    ids = [0, 5, 9, 3, 3, 17, 22, 5, 1, 39, 8]
    with torch.no_grad():
        got = m(torch.tensor([ids]))[0].double().numpy()
    assert np.abs(got - numpy_forward(m, ids)).max() < 1e-5


def test_knocking_out_a_head_changes_only_what_it_wrote():
    m = model("four-head")
    x = torch.tensor([[0, 4, 7, 4, 2, 9, 7]])
    mask = torch.ones(2, 4)
    mask[1, 0] = 0
    with torch.no_grad():
        full, knocked = m(x), m(x, head_mask=mask)
        first_layer_out = m.blocks[0](m.embed(x))
        att = m.blocks[1].attn.trace(m.blocks[1].ln1(first_layer_out))
        d_v = m.blocks[1].attn.d_v
        z = att.Z.clone()
        z[..., :d_v] = 0                                    # layer 2, head 1 zeroed; the other heads untouched
        h = first_layer_out + z @ m.blocks[1].attn.W_O
        want = m.ln_f(m.blocks[1].feed_forward(h)[0]) @ m.W_U
    assert torch.allclose(knocked, want, atol=1e-5)
    assert not torch.allclose(knocked, full, atol=1e-3)


def test_window_mlp_sees_only_its_window():
    m = model("mlp")
    a = torch.tensor([[3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]])
    b = a.clone()
    b[0, :2] = torch.tensor([30, 31])                        # change tokens more than 8 back from the end
    with torch.no_grad():
        la, lb = m(a), m(b)
    assert torch.equal(la[0, -1], lb[0, -1])                 # the last position's window is unchanged
    assert not torch.equal(la[0, 2], lb[0, 2])
    assert torch.allclose(m.next_logits(a)[0], la[0, -1], atol=1e-6)  # the same window, a smaller product


@pytest.mark.parametrize("kind", ["one-head", "four-head", "mlp"])
def test_greedy_generation_with_the_cache_equals_recomputing_every_prefix(kind):
    m = model(kind)
    prompts = torch.tensor([[0, 5], [0, 9]])
    got = generate(m, prompts, Sampling(greedy=True, max_tokens=12), seed=0, eos=-1)
    for row, new in zip(prompts.tolist(), got):
        seq = list(row)
        for _ in range(12):
            with torch.no_grad():
                seq.append(int(m(torch.tensor([seq]))[0, -1].argmax()))
        assert new == seq[2:]


def test_seeded_sampling_repeats_and_depends_on_the_seed():
    m = model("four-head")
    prompts = torch.zeros(4, 1, dtype=torch.long)
    s = Sampling(temperature=1.5, top_k=10, max_tokens=20)
    a, b = generate(m, prompts, s, seed=3, eos=-1), generate(m, prompts, s, seed=3, eos=-1)
    assert a == b and a != generate(m, prompts, s, seed=4, eos=-1)
    top = m(prompts)[:, -1].topk(10).indices.tolist()
    assert all(seq[0] in top[i] for i, seq in enumerate(a))    # top-k holds for the first draw


def test_each_row_of_a_batch_writes_what_it_writes_alone():
    """A row draws from its own generator (seed + its row) and its batch's other rows change nothing, finished
    or not: each of eight samples, most ending at <eos> at different steps, is the sample its seed writes alone."""
    m = model("four-head")
    prompts = torch.zeros(8, 1, dtype=torch.long)
    s = Sampling(temperature=1.5, max_tokens=30)
    eos = int(m(prompts[:1])[0, -1].topk(3).indices[2])      # a likely word as the end: rows end at different steps
    batch = generate(m, prompts, s, seed=5, eos=eos)
    alone = [generate(m, prompts[:1], s, seed=5 + b, eos=eos)[0] for b in range(8)]
    assert batch == alone
    assert len({len(row) for row in batch}) > 2 and min(map(len, batch)) < 30    # rows ended at different steps


def schedule_of(steps: int) -> tuple[StoryRecipe, list[float]]:
    r = StoryRecipe(tokens=32 * 256 * steps)
    return r, [learning_rate(s, r) for s in range(r.steps)]


@pytest.mark.parametrize("steps, warmup", [(1465, 100), (65, 6), (9, 0), (2, 0)])
def test_the_warm_up_is_at_most_a_tenth_of_the_run_and_the_decay_ends_at_its_last_step(steps, warmup):
    """The published run (1,465 steps) keeps the recipe's 100 warm-up steps; a 65-step run warms up over 6, not
    100 (where its rate would only ever climb); every run peaks at lr and reaches lr / 10 at its last step."""
    r, lrs = schedule_of(steps)
    assert r.steps == steps and r.warmup_steps == warmup == r.schedule()["warmup_steps"]
    assert all(a < b for a, b in zip(lrs[:warmup], lrs[1:warmup]))              # climbs through the warm-up
    assert max(lrs) == pytest.approx(r.lr) == lrs[warmup]
    assert all(a >= b for a, b in zip(lrs[warmup:], lrs[warmup + 1:]))           # then only falls
    assert lrs[-1] == pytest.approx(r.lr / 10, rel=1e-12) == r.schedule()["lr_end"]
    assert r.schedule()["decay_ends_at_step"] == steps - 1
    assert r.schedule()["warmup_shortened"] is (warmup < 100)


def test_a_short_training_run_learns_to_copy():
    """Blocks "a b c a b c" with fresh random a, b, c: only looking back 3 tokens predicts the repeats."""
    g = torch.Generator().manual_seed(0)
    first = torch.randint(2, 20, (2000, 3), generator=g)
    stream = torch.cat([first, first], dim=1).reshape(-1)                # (12000,)
    recipe = StoryRecipe(tokens=150 * 8 * 64, batch=8, context=64, warmup=10, eval_every=10**9, threads=1)
    cfg = preset("four-head", 20)
    run = train_story_model(cfg, stream, seed=0, recipe=recipe)
    m = build(cfg)
    m.load_state_dict(run.weights)
    x = stream[:66][None]                                                 # 11 blocks
    with torch.no_grad():
        logits = m(x[:, :-1])[0]                                          # position i predicts token i + 1
    repeats = [i for i in range(65) if (i + 1) % 6 >= 3 and i >= 6]
    loss = torch.nn.functional.cross_entropy(logits[repeats], x[0, [i + 1 for i in repeats]]).item()
    assert loss < 0.5 * np.log(18)                                        # without copying: log 18 (18 ids)


def test_the_frequency_yardstick_is_the_loss_of_guessing_each_words_share():
    """Counts 3, 1, 0 (+1 each) for <eos>, a, b; the stories' targets a, b, <eos> then a, <eos>: the mean of
    -log p over those five, worked by hand; a run learned only when it beats that by more than the margin."""
    from compute.data.story import Story
    from compute.data.tokenizer import Vocabulary
    from compute.training.baseline import frequency_loss, learned
    vocab = Vocabulary(("<eos>", "<unk>", "a", "b"))
    stream = torch.tensor([0, 2, 0, 0])
    stories = [Story("a b", ("a", "b"), ()), Story("a", ("a",), ())]
    p = {"<eos>": 4 / 8, "a": 2 / 8, "b": 1 / 8}
    want = -np.mean([np.log(p[w]) for w in ("a", "b", "<eos>", "a", "<eos>")])
    assert frequency_loss(stream, stories, vocab, context=256) == pytest.approx(want, rel=1e-12)
    assert frequency_loss(stream, stories, vocab, context=1) == pytest.approx(-np.log(p["a"]), rel=1e-12)
    assert learned(want - 0.2, want) and not learned(want - 0.01, want) and not learned(want + 1, want)

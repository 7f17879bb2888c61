"""compute.costs: every count against an independent one, torch's own, on small cases."""
from __future__ import annotations

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from compute.costs import GPT3, ModelSize, costs, kv_cache_bytes, token_macs
from compute.models.story import build, preset
from compute.nn.mixers import AttentionMixer, AverageMixer, ConcatMixer
from compute.nn.rope import apply_rope, rope_angles


def macs(fn) -> int:
    """Multiply-adds of the matrix products fn runs, as torch counts them (2 FLOPs each)."""
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops() // 2


def plain(m):
    """The mixer's plain forward pass: attention through its traced path (explicit matrix products;
    torch's fused kernel does the same products but is not counted by FlopCounterMode)."""
    return (lambda X: m.attn.trace(X).out) if isinstance(m, AttentionMixer) else m


def explicit_cached_step(m: AttentionMixer, X, cache):
    """The newest token's context from the KV cache, product by product (q, k, v, one row of scores, W_O)."""
    T = X.shape[1]
    q, k, v = m.attn.project(X[:, -1:], start=T - 1)
    K = torch.cat([cache.K[:, :, :T - 1], k], dim=2)
    V = torch.cat([cache.V[:, :, :T - 1], v], dim=2)
    A = torch.softmax(q @ K.transpose(-2, -1) / k.shape[-1] ** 0.5, dim=-1)
    return m.attn.output(A @ V, None)


def explicit_recomputed_step(m: AttentionMixer, X):
    """The newest token's context with nothing kept, doing only what it needs: every key and value again, its
    own query, one row of scores, W_O (RoPE as the layer applies it)."""
    T = X.shape[1]
    att = m.attn
    K, V = att.split_heads(X @ att.W_K, att.d_k), att.split_heads(X @ att.W_V, att.d_v)
    q = att.split_heads(X[:, -1:] @ att.W_Q, att.d_k)
    if att.rope:
        cos, sin = rope_angles(torch.arange(0, T), att.d_k, att.rope_base)
        K, q = apply_rope(K, cos, sin), apply_rope(q, cos[-1:], sin[-1:])
    A = torch.softmax(q @ K.transpose(-2, -1) / K.shape[-1] ** 0.5, dim=-1)
    return att.output(A @ V, None)


def mixer(name: str, T: int, d: int):
    return {"concatenate": lambda: ConcatMixer(d, T), "average": lambda: AverageMixer(d),
            "attend": lambda: AttentionMixer(d, T)}[name]()


CASES = [(name, T, d) for name in ("concatenate", "average", "attend") for T, d in ((4, 3), (7, 5), (16, 8))]


@pytest.mark.parametrize("name, T, d", CASES)
def test_parameters_and_forward_macs_match_torch(name, T, d):
    m, c = mixer(name, T, d), costs(name, T, d)
    assert sum(p.numel() for p in m.parameters()) == c.parameters
    X = torch.randn(1, T, d)
    assert macs(lambda: plain(m)(X)) == c.forward


@pytest.mark.parametrize("name, T, d", CASES)
def test_training_costs_three_forward_passes(name, T, d):
    m, c = mixer(name, T, d), costs(name, T, d)
    X = torch.randn(1, T, d, requires_grad=True)        # the rows come from trained embeddings
    assert macs(lambda: plain(m)(X).sum().backward()) == c.training


@pytest.mark.parametrize("name, T, d", CASES)
def test_one_new_token_with_and_without_the_cache(name, T, d):
    m, c = mixer(name, T, d), costs(name, T, d)
    X = torch.randn(1, T, d)
    with torch.no_grad():
        uncached = (lambda: plain(m)(X)[:, -1:]) if name == "attend" else (lambda: m.next_context(X))
        assert macs(uncached) == c.token_uncached
        if name == "attend":
            assert macs(lambda: explicit_recomputed_step(m, X)) == c.token_recomputed
            assert torch.allclose(explicit_recomputed_step(m, X), plain(m)(X)[:, -1:], atol=1e-5)
            assert c.token_cached < c.token_recomputed < c.token_uncached
            cache = m.new_cache(1)
            m.attn.step(X[:, :-1], cache)                          # the first T - 1 tokens, read before
            assert macs(lambda: explicit_cached_step(m, X, cache)) == c.token_cached
            assert torch.allclose(explicit_cached_step(m, X, cache), m.next_context(X, cache)[0], atol=1e-5)
        else:
            assert c.token_recomputed == c.token_uncached         # nothing to keep but what is read again
        if name == "average":
            state = (X[:, :-1].sum(1, keepdim=True), T - 1)
            assert macs(lambda: m.next_context(X, state)) == c.token_cached
            assert torch.allclose(m.next_context(X, state)[0], m.next_context(X)[0], atol=1e-6)


def test_the_kv_cache_holds_what_the_formula_says():
    model = build(preset("four-head", 50))
    caches = model.new_caches(batch=1)                             # room for the whole context, float32
    held = sum(c.K.numel() + c.V.numel() for c in caches) * 4
    cfg = model.cfg
    assert held == kv_cache_bytes(cfg.n_layer, cfg.d_model, cfg.context, bytes_per_number=4)
    assert kv_cache_bytes(GPT3.n_layer, GPT3.d_model, GPT3.context) == 2 * 96 * 2048 * 12288 * 2


def test_a_new_tokens_weight_products_in_the_four_head_model_match_the_decoder_count():
    """token_macs' projections and feed-forward, plus the unembedding, against torch's count of one cached step
    (the fused attention kernel that reads the T cached keys and values is not counted by torch; the one-head
    mixer's explicit products check that part above)."""
    model = build(preset("four-head", 50))
    cfg, T = model.cfg, 20
    size = ModelSize("story", cfg.n_layer, cfg.d_model, cfg.n_head, cfg.context, "")
    ids = torch.randint(0, cfg.vocab_size, (1, T), generator=torch.Generator().manual_seed(0))
    caches = model.new_caches(batch=1)
    with torch.no_grad():
        model.step(ids[:, :-1], caches)
        counted = macs(lambda: model.step(ids[:, -1:], caches))
    parts = token_macs(size, T, d_ff_factor=cfg.d_ff // cfg.d_model)
    assert counted == parts["projections"] + parts["feed-forward"] + cfg.d_model * cfg.vocab_size


@pytest.mark.parametrize("T, d", [(4, 3), (7, 5), (16, 8)])
def test_averagings_other_forward_passes_give_the_same_means(T, d):
    """The bench times averaging two more ways: with its matrix built once and kept (the same products, so the
    same count), and as a running sum (no T x T product: only W's, T d^2 multiply-adds)."""
    m, X = AverageMixer(d), torch.randn(1, T, d)
    means = AverageMixer.matrix(T)
    with torch.no_grad():
        assert torch.allclose(m(X, means), m(X), atol=0) and torch.allclose(m.running_mean(X), m(X), atol=1e-5)
        assert macs(lambda: m(X, means)) == costs("average", T, d).forward
        assert macs(lambda: m.running_mean(X)) == T * d * d


def test_the_share_spent_on_the_context_with_and_without_the_output_projection():
    """At GPT-3's sizes (Brown et al., Table 2.1; GPT-2's vocabulary of 50,257): L(4d² + 8d² + 2Td) MACs in the
    layers, 2LTd of them reading the context; the output projection adds d x 50,257 and lowers the share."""
    from compute.lessons.context.states.scale import scale_rows
    row = next(r for r in scale_rows() if r["name"] == GPT3.name)
    L, d, T, V = 96, 12288, 2048, 50257
    layers = L * (4 * d * d + 8 * d * d + 2 * T * d)
    assert row["token_macs"] == layers and row["output_macs"] == d * V
    assert row["attention_share"] == pytest.approx(2 * L * T * d / layers, rel=1e-12)
    assert row["attention_share_with_output"] == pytest.approx(2 * L * T * d / (layers + d * V), rel=1e-12)
    assert row["attention_share_with_output"] < row["attention_share"]


@pytest.mark.parametrize("rope", [False, True])
def test_the_timed_recomputed_token_is_the_last_row_of_a_whole_pass(rope):
    """What `bench recompute` times as a new token with nothing kept gives the last row of the full pass, with
    two heads and RoPE too, and does no more products than the count says."""
    from compute.nn.attention import CausalSelfAttention
    torch.manual_seed(3)
    att = CausalSelfAttention(8, 2, 4, 4, rope=rope)
    with torch.no_grad():
        for p in att.parameters():
            p.normal_(0, 0.5)
        X = torch.randn(2, 11, 8)
        assert torch.allclose(att.last(X), att(X)[:, -1:], atol=1e-5)
    m = AttentionMixer(8, 16)
    X = torch.randn(1, 16, 8)
    with torch.no_grad():
        assert torch.allclose(m.recomputed_context(X), m(X)[:, -1:], atol=1e-5)
        projections = macs(lambda: m.recomputed_context(X))     # the fused kernel's row is not counted
    c = costs("attend", 16, 8)
    assert projections == c.token_recomputed - 2 * 16 * 8         # all but the score row and its mix


def test_a_count_that_does_not_change_has_a_slope_of_exactly_zero():
    """A running sum's cached token costs the same at every T: its slope is 0, not a rounding error that prints as
    '>-0.0001'; a count that grows keeps its fitted slope."""
    from compute.lessons.context.states.growth import slope
    from compute.present.tables import fmt
    assert slope([512, 1024, 2048], [64, 64, 64]) == 0.0 and fmt(slope([512, 1024, 2048], [64, 64, 64])) == "0.00"
    assert abs(slope([512, 1024, 2048], [1, 2, 4]) - 1.0) < 1e-12

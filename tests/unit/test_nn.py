"""compute.nn: attention with n heads, RoPE, LayerNorm and the block, against plain numpy."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import reference
from compute.nn.attention import CausalSelfAttention
from compute.nn.block import Block, BlockConfig
from compute.nn.functional import windows
from compute.nn.rope import apply_rope, rope_angles


def random_block(cfg: BlockConfig, seed: int = 0) -> Block:
    """A float64 block with every parameter drawn at random (LayerNorm gains and biases included)."""
    g = torch.Generator().manual_seed(seed)
    block = Block(cfg).double()
    with torch.no_grad():
        for p in block.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64) * 0.5)
    return block


def numpy_weights(block: Block) -> dict[str, np.ndarray]:
    """Parameters by their last name (W_Q, W1, ...) and LayerNorms as ln1.weight, ln2.bias, ..."""
    out = {}
    for name, p in block.named_parameters():
        parts = name.split(".")
        key = name if parts[0].startswith("ln") else parts[-1]
        out[key] = p.detach().numpy()
    return out


@pytest.mark.parametrize("n_head, rope, ln", [(1, False, False), (4, True, True), (4, False, True), (2, True, False)])
def test_block_equals_an_independent_numpy_forward(n_head, rope, ln):
    cfg = BlockConfig(d_model=16, n_head=n_head, d_ff=24, layer_norm=ln, rope=rope)
    block = random_block(cfg)
    X = torch.randn(1, 9, 16, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    want = reference.block_forward(numpy_weights(block), X[0].numpy(), n_head, rope, ln)
    with torch.no_grad():
        slow, fast = block.trace(X).y[0].numpy(), block(X)[0].numpy()
    assert np.abs(slow - want).max() < 1e-10
    assert np.abs(fast - want).max() < 1e-10


def test_fast_and_explicit_attention_agree_in_float32():
    attn = CausalSelfAttention(d_model=12, n_head=3, d_k=4, d_v=4, rope=True)
    with torch.no_grad():
        for p in attn.parameters():
            p.normal_(0, 0.4, generator=torch.Generator().manual_seed(2))
        X = torch.randn(2, 7, 12, generator=torch.Generator().manual_seed(3))
        assert torch.allclose(attn(X), attn.trace(X).out, atol=1e-5)


def test_attention_weights_are_causal_rows_that_sum_to_one():
    block = random_block(BlockConfig(d_model=8, n_head=2, rope=True))
    with torch.no_grad():
        A = block.trace(torch.randn(1, 6, 8, dtype=torch.float64)).attention.A  # (1, 2, 6, 6)
    assert torch.allclose(A.sum(-1), torch.ones(1, 2, 6, dtype=torch.float64))
    assert torch.all(torch.triu(A[0, 0], diagonal=1) == 0)


def test_rope_scores_depend_only_on_the_offset():
    g = torch.Generator().manual_seed(4)
    q, k = torch.randn(1, 8, generator=g, dtype=torch.float64), torch.randn(1, 8, generator=g, dtype=torch.float64)
    T = 12
    cos, sin = rope_angles(torch.arange(T), 8)
    Q, K = apply_rope(q.expand(T, 8), cos, sin), apply_rope(k.expand(T, 8), cos, sin)
    S = Q @ K.T  # S[i, j] = <R_i q, R_j k>
    for offset in (0, 1, 5):
        diag = torch.diagonal(S, offset)
        assert torch.allclose(diag, diag[0].expand_as(diag), atol=1e-12)
    assert not torch.allclose(S[0, 1], S[0, 2])  # and it does depend on the offset


def test_rope_keeps_lengths():
    x = torch.randn(5, 6, dtype=torch.float64)
    cos, sin = rope_angles(torch.arange(5), 6)
    assert torch.allclose(apply_rope(x, cos, sin).norm(dim=-1), x.norm(dim=-1))
    with pytest.raises(ValueError, match="even width"):
        rope_angles(torch.arange(3), 5)


def test_head_mask_zeroes_one_head_and_leaves_the_others():
    block = random_block(BlockConfig(d_model=12, n_head=3, rope=True, layer_norm=True))
    X = torch.randn(1, 5, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        full = block.attn.trace(block.ln1(X))
        knocked = block.attn.trace(block.ln1(X), head_mask=torch.tensor([1.0, 0.0, 1.0]))
        fast = block.attn(block.ln1(X), head_mask=torch.tensor([1.0, 0.0, 1.0]))
    d_v = block.attn.d_v
    assert torch.equal(knocked.A, full.A)                          # the weights are untouched
    kept = full.Z.clone()
    kept[..., d_v:2 * d_v] = 0                                     # head 1's slice of Z, zeroed
    assert torch.allclose(knocked.out, kept @ block.attn.W_O, atol=1e-12)
    assert torch.allclose(fast, knocked.out, atol=1e-12)
    assert not torch.allclose(knocked.out, full.out)


def test_cached_steps_give_the_same_output_as_one_pass():
    block = random_block(BlockConfig(d_model=12, n_head=3, rope=True, layer_norm=True))
    X = torch.randn(2, 9, 12, dtype=torch.float64, generator=torch.Generator().manual_seed(6))
    with torch.no_grad():
        whole = block(X)
        cache = block.attn.new_cache(2, capacity=9, dtype=torch.float64)
        first = block.step(X[:, :4], cache)                 # a prompt of four tokens at once
        rest = [block.step(X[:, t:t + 1], cache) for t in range(4, 9)]  # then one token at a time
    assert cache.length == 9
    assert torch.allclose(torch.cat([first, *rest], dim=1), whole, atol=1e-12)
    with pytest.raises(ValueError, match="holds 9 positions"):
        block.step(X[:, :1], cache)


def test_windows_hold_the_last_w_entries_oldest_first_filled_before_the_start():
    ids = torch.tensor([[5, 6, 7]])
    assert windows(ids, 4).tolist() == [[[0, 0, 0, 5], [0, 0, 5, 6], [0, 5, 6, 7]]]
    rows = torch.arange(6.0).reshape(1, 3, 2)                       # rows (0, 1), (2, 3), (4, 5)
    got = windows(rows, 2, fill=-1.0)                              # (1, 3, 2, 2)
    assert got.tolist() == [[[[-1, -1], [0, 1]], [[0, 1], [2, 3]], [[2, 3], [4, 5]]]]

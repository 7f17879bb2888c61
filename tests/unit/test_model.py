"""The walkthrough model: shapes, the causal mask, a stable softmax, and a numpy reference."""
import numpy as np
import pytest
import torch

import reference
from compute.data.walkthrough import SENTENCES, inputs_and_targets
from compute.published.walkthrough import load_weights
from compute.models.walkthrough import CONFIG, build, from_weights, named_tensors, parameter_shapes, trace
from compute.nn.functional import causal_mask, softmax_rows
from compute.store import checkpoint_path


@pytest.fixture(scope="module")
def weights():
    return load_weights(checkpoint_path("walkthrough"))[0]


def test_parameter_shapes_are_the_row_vector_shapes():
    shapes = parameter_shapes(CONFIG)
    assert shapes == {"E": (9, 6), "P": (14, 6), "W_Q": (6, 6), "W_K": (6, 6), "W_V": (6, 6),
                      "W_O": (6, 6), "W1": (6, 12), "b1": (12,), "W2": (12, 6), "b2": (6,), "W_U": (6, 9)}
    model = build(CONFIG)
    assert {n: tuple(p.shape) for n, p in named_tensors(model).items()} == shapes
    assert len(list(model.parameters())) == len(shapes)  # no parameter hides behind another's symbol


def test_trace_shapes(weights):
    model = from_weights(weights)
    tr = trace(model, torch.tensor([[0, 1, 2, 0, 3, 4, 5]]))
    T = 7
    expect = {"X": (1, T, 6), "Q": (1, T, 6), "K": (1, T, 6), "V": (1, T, 6), "S": (1, T, T),
              "M": (T, T), "A": (1, T, T), "Z": (1, T, 6), "hidden": (1, T, 6),
              "ffn_hidden": (1, T, 12), "y": (1, T, 6), "logits": (1, T, 9), "probs": (1, T, 9)}
    assert {k: tuple(v.shape) for k, v in tr.as_dict().items()} == expect
    assert torch.allclose(tr.A.sum(-1), torch.ones(1, T, dtype=torch.float64))
    assert torch.allclose(tr.probs.sum(-1), torch.ones(1, T, dtype=torch.float64))


def test_mask_is_minus_infinity_above_the_diagonal_only():
    M = causal_mask(5)
    for i in range(5):
        for j in range(5):
            assert (M[i, j] == float("-inf")) == (j > i)
            if j <= i:
                assert M[i, j] == 0


def test_mask_blocks_the_future(weights):
    """Changing later words changes nothing at earlier positions."""
    model = from_weights(weights)
    a = torch.tensor([[0, 1, 2, 0, 3, 4, 5, 6]])
    b = a.clone()
    b[0, 5:] = torch.tensor([7, 8, 0])
    ta, tb = trace(model, a), trace(model, b)
    assert torch.equal(ta.probs[0, :5], tb.probs[0, :5])
    assert not torch.allclose(ta.probs[0, 5:], tb.probs[0, 5:])
    assert torch.all(ta.A[0].triu(diagonal=1) == 0)


@pytest.mark.parametrize("scale", [1e4, 1e30, 3e38])
def test_softmax_stays_finite_for_huge_scores(scale):
    S = torch.tensor([[scale, 0.0, -scale], [scale, scale, scale], [-scale, -scale, 0.0]], dtype=torch.float32)
    naive = torch.exp(S) / torch.exp(S).sum(-1, keepdim=True)
    assert not torch.isfinite(naive).all()  # the reason for max-subtraction
    A = softmax_rows(S)
    assert torch.isfinite(A).all()
    assert torch.allclose(A.sum(-1), torch.ones(3))
    assert A[0, 0] == 1.0 and torch.allclose(A[1], torch.full((3,), 1 / 3))


def test_softmax_with_masked_entries():
    S = torch.tensor([[2.0, float("-inf")], [1.0, 1.0]])
    A = softmax_rows(S)
    assert A[0].tolist() == [1.0, 0.0] and torch.allclose(A[1], torch.tensor([0.5, 0.5]))


@pytest.mark.parametrize("sentence", SENTENCES)
def test_numpy_reference_matches_torch(weights, sentence):
    x, _ = inputs_and_targets(sentence)
    model = from_weights(weights)
    with torch.no_grad():
        tr = trace(model, torch.tensor([x])).as_dict()
    ref = reference.forward({k: v.double().numpy() for k, v in weights.items()}, x)
    for name, expected in ref.items():
        got = tr[name][0].numpy()
        np.testing.assert_allclose(got, expected, atol=1e-6, rtol=0, err_msg=name)


def test_float32_model_agrees_with_float64_to_printed_precision(weights):
    x, _ = inputs_and_targets(SENTENCES[3])
    with torch.no_grad():
        p32 = trace(from_weights(weights, dtype=torch.float32), torch.tensor([x])).probs
        p64 = trace(from_weights(weights), torch.tensor([x])).probs
    assert torch.allclose(p32.double(), p64, atol=1e-4)

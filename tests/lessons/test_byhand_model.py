"""The hand-set attention-by-hand model: its claims hold, and could fail."""
import numpy as np
import pytest

from compute.lessons.byhand import claims, model as m
from compute.lessons.byhand.states import context, positions, scaling, search
from compute.lessons.byhand.states.attention import attend, predict


def test_every_byhand_claim_holds():
    broken = [(c.name, o.evidence) for c, o in claims.check_all() if not o.holds]
    assert not broken


def test_sentences_share_their_ending_and_bank_position():
    a, b = m.sentence("A"), m.sentence("B")
    assert len(a) == len(b) == 10
    assert a[-3:] == b[-3:] == ["and", "watched", "the"]
    assert a[m.BANK - 1] == b[m.BANK - 1] == "bank"
    assert a[0] == "The" and a[4] == "the" and a[5] == "river"
    assert {"cheque", "deposited"} <= set(b)
    assert len(m.VOCAB) == 20 and set(a) | set(b) <= set(m.VOCAB)


def test_projection_shapes():
    assert m.W_Q.shape == m.W_K.shape == (4, 3)
    assert m.W_V.shape == (4, 2) and m.W_O.shape == (2, 4)
    assert m.W1.shape == (4, 8) and m.W2.shape == (8, 20)


def test_mask_keeps_every_row_on_the_past():
    att = attend(m.rows(m.sentence("A")).e)
    assert np.allclose(att.A.sum(axis=1), 1)
    assert np.all(np.triu(att.A, 1) == 0)


def test_claims_can_fail(monkeypatch):
    """Without river's water feature, bank no longer reads river."""
    features = dict(m.WORD_FEATURES, river=(0.0, 0.0, 1.0, 0.0))
    monkeypatch.setattr(m, "WORD_FEATURES", features)
    outcome = dict((c.name, o) for c, o in claims.check_all())
    assert not outcome["bank_reads_river_in_A"].holds


def test_bypass_claim_fails_if_the_head_read_earlier_rows(monkeypatch):
    """If the bypass fed the pooled rows instead of the last row, context would leak in."""
    import compute.lessons.byhand.claims as cl
    monkeypatch.setattr(cl, "predict", lambda words, attention=True, positions=True:
                        {"p": np.full(20, 0.05) + (0.01 if words[0] == "He" else 0)})
    outcome = cl.context_reaches_the_prediction()
    assert not outcome.holds


@pytest.mark.parametrize("w", range(1, 11))
def test_parameter_formulas_by_hand(w):
    d, H, V = 4, 8, 20
    assert context.mlp_parameters(w) == (w * d) * H + H + H * V + V
    assert context.linear_parameters(w) == (w * d) * V + V
    assert context.torch_parameter_counts(w) == (context.mlp_parameters(w), context.linear_parameters(w))


def test_window_rejects_impossible_sizes():
    with pytest.raises(ValueError, match="window must be between 1 and 10, got 11"):
        context.window_positions(10, 11)


def test_pooling_stays_four_wide_and_averages():
    e = m.rows(m.sentence("A")).e[:7]
    assert context.pooled(e, np.ones(7)).shape == (4,)
    assert np.allclose(context.pooled(e, np.ones(7)), e.mean(axis=0))


def test_retrieval_modes():
    hard = search.retrieve(1, "hard")
    assert hard["weights"].max() == 1 and hard["weights"].sum() == 1
    cold = search.retrieve(1, "soft", temperature=0.05)
    assert np.allclose(cold["returned"], hard["returned"], atol=1e-6)
    warm = search.retrieve(1, "soft", temperature=100)
    assert np.allclose(warm["weights"], 1 / 5, atol=0.02)
    with pytest.raises(ValueError, match="temperature must be positive"):
        search.retrieve(0, "soft", temperature=0)


def test_measured_spread_is_seeded():
    a, b = scaling.measured_spread((4, 16)), scaling.measured_spread((4, 16))
    assert np.array_equal(a["raw"], b["raw"])


def test_dividing_by_prefix_length_changes_earlier_features():
    short = positions.scalar_index_features(5, divide_by_length=True)
    longer = positions.scalar_index_features(6, divide_by_length=True)
    assert not np.allclose(short, longer[:5])
    assert np.array_equal(positions.scalar_index_features(5, False), positions.scalar_index_features(6, False)[:5])


def test_bypass_uses_only_the_last_row():
    pa = predict(m.sentence("A"), attention=False)
    assert np.allclose(pa["x"], m.rows(m.sentence("A")).e[-1])


def test_queries_claim_fails_when_every_token_asks_the_same(monkeypatch):
    """The reader's report: thing and grammar rows equal, the others zero, so every query points one way."""
    same = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [2.0, 2.0, 0.5], [2.0, 2.0, 0.5]])
    monkeypatch.setattr(m, "W_Q", same)
    outcome = dict((c.name, o) for c, o in claims.check_all())
    assert not outcome["queries_ask_different_questions"].holds
    assert "cosine(q_10, q_7) = 1.00" in outcome["queries_ask_different_questions"].evidence


def test_queries_keys_and_values_have_their_own_axis_names():
    assert len(m.K_AXES) == len(m.QK_AXES) == m.W_Q.shape[1] == m.W_K.shape[1]
    assert not set(m.K_AXES) & set(m.QK_AXES) and not set(m.V_AXES) & set(m.QK_AXES)
    assert all(name.startswith("wants") for name in m.QK_AXES)
    assert not any(name.startswith("wants") for name in m.K_AXES)

"""Sections 1-10 of the attention-by-hand lesson: every worked state, recomputed independently with numpy."""
from __future__ import annotations

import math

import numpy as np
from tables import unlabelled
import pytest

from compute.lessons.byhand import bank, claims, model as m, prediction, retrieval, values, windows
from compute.lessons.byhand.states import attention as attn, context, search
from compute.present.tables import fmt, position_labels
from compute.present.widgets import cell_text, widgets_in

WIDGETS = widgets_in(prediction, windows, retrieval, bank)  # sections 2-10 (and 14: the last position)
del WIDGETS["last_position"]

A, B = m.sentence("A"), m.sentence("B")
FEATURE_ROWS = {w: np.array(f) for w, f in m.WORD_FEATURES.items()}


def softmax(x):
    """Plain softmax, written out again (not compute's)."""
    z = np.exp(np.asarray(x, dtype=float) - np.max(x))
    return z / z.sum()


def e_rows(words):
    return np.array([FEATURE_ROWS[w] + m.POSITION_ROWS[i] for i, w in enumerate(words)])


def forward(words):
    """An independent single-head forward pass: every row attends to itself and earlier rows."""
    e = e_rows(words)
    out = np.zeros_like(e)
    for i in range(len(words)):
        q = e[i] @ m.W_Q
        s = np.array([q @ (e[j] @ m.W_K) for j in range(i + 1)]) / math.sqrt(m.W_K.shape[1])
        a = softmax(s)
        msg = sum(a[j] * (e[j] @ m.W_V) for j in range(i + 1))
        out[i] = e[i] + msg @ m.W_O
    return e, out


def head_p(x):
    h = np.maximum(0, x @ m.W1 + m.b1)
    return softmax(h @ m.W2 + m.b2)


def bank_by_hand(words):
    e = e_rows(words)
    q = e[6] @ m.W_Q
    K = e[:7] @ m.W_K
    V = e[:7] @ m.W_V
    dots = np.array([sum(q[c] * K[j, c] for c in range(3)) for j in range(7)])
    alpha = softmax(dots / math.sqrt(3))
    msg = alpha @ V
    return dict(e=e[6], q=q, K=K, V=V, dots=dots, alpha=alpha, m=msg, dE=msg @ m.W_O)


# --- worked states ---------------------------------------------------------

def test_labels_number_positions_from_one():
    assert position_labels(A, 1)[0] == "1 The" and position_labels(A, 1)[6] == "7 bank"


def test_shared_tail_counts_the_common_ending():
    n = 0
    for a, b in zip(reversed(A), reversed(B)):
        if a != b:
            break
        n += 1
    assert attn.shared_tail() == n == 4


@pytest.mark.parametrize("key", ["A", "B"])
def test_full_prediction_equals_an_independent_forward_pass(key):
    _, out = forward(m.sentence(key))
    assert np.allclose(attn.full_prediction(key), head_p(out[-1]), atol=1e-12)


def test_baseline_reads_only_the_last_row():
    for key in "AB":
        assert np.allclose(attn.baseline_prediction(key), head_p(e_rows(m.sentence(key))[-1]), atol=1e-12)
    assert np.array_equal(attn.baseline_prediction("A"), attn.baseline_prediction("B"))


@pytest.mark.parametrize("w", range(1, 11))
def test_window_state(w):
    s = context.window_state(w)
    assert s["positions"] == list(range(11 - w, 11))
    assert s["words"] == A[10 - w:]
    assert s["inputs"] == 4 * w
    assert s["shapes"] == {"W1": (4 * w, 8), "b1": (8,), "W2": (8, 20), "b2": (20,)}
    assert s["mlp"] == 4 * w * 8 + 8 + 8 * 20 + 20
    assert s["linear"] == 4 * w * 20 + 20 and s["linear_shape"] == (4 * w, 20)


@pytest.mark.parametrize("focus", context.POOL_FOCUS)
@pytest.mark.parametrize("share", [0.0, 0.35, 1.0])
def test_pool_weights_and_summary(focus, share):
    w = context.pool_weights(focus, share)
    assert w.shape == (7,) and math.isclose(w.sum(), 1.0)
    j = A.index(focus)
    assert math.isclose(w[j], share + (1 - share) / 7)
    p = context.pool(w)
    e = e_rows(A)[:7]
    by_hand = sum(w[k] * e[k] for k in range(7))
    assert np.allclose(p["summary"], by_hand) and p["summary"].shape == (4,)
    assert np.allclose(p["parts"][j], w[j] * e[j])


def test_plain_average_is_the_mean_of_rows_1_to_7():
    assert np.allclose(context.pool(context.pool_weights(None, 0.0))["summary"], e_rows(A)[:7].mean(axis=0))


def test_temperatures_are_fine_log_steps_through_one():
    T = search.TEMPERATURES
    assert 25 <= len(T) <= 40 and np.allclose(np.diff(np.log(T)), np.log(T[1] / T[0]))
    assert np.any(np.isclose(T, 1.0))


@pytest.mark.parametrize("T", [0.25, 1.0, 5.0, 32.0])
def test_soft_retrieval_grid(T):
    Q, K, V = (np.array(list(d.values()), dtype=float) for d in (search.QUERIES, search.VIDEOS, search.VALUES))
    s = K @ Q[search.SEARCH_QUERY]
    w = softmax(s / T)
    g = search.retrieval_grid("soft", T)
    assert g.shape == (6, 5)
    assert np.allclose(g[:5, 0], s) and np.allclose(g[:5, 1], w)
    assert np.allclose(g[:5, 2:], w[:, None] * V)
    assert np.isnan(g[5, 0]) and math.isclose(g[5, 1], 1.0) and np.allclose(g[5, 2:], w @ V)


def test_hard_retrieval_returns_the_best_value_row():
    g = search.retrieval_grid("hard")
    best = int(np.argmax(g[:5, 0]))
    assert list(g[:5, 1]) == [1.0 if j == best else 0.0 for j in range(5)]
    assert np.array_equal(g[5, 2:], np.array(list(search.VALUES.values()))[best])


@pytest.mark.parametrize("key", ["A", "B"])
def test_bank_phase_a_and_b(key):
    b, h = attn.bank(key), bank_by_hand(m.sentence(key))
    for name in ("e", "q", "K", "V", "dots", "alpha", "m", "dE"):
        assert np.allclose(b[name], h[name], atol=1e-12), name
    assert np.allclose(b["scores"], h["dots"] / math.sqrt(3))
    assert np.allclose(b["weighted"], h["alpha"][:, None] * h["V"])
    assert np.allclose(b["e_new"], h["e"] + h["dE"])
    _, out = forward(m.sentence(key))
    assert np.allclose(b["e_new"], out[6])


@pytest.mark.parametrize("j", range(1, 8))
def test_dot_grid(j):
    h = bank_by_hand(A)
    g = bank.dot_grid("A", j)
    assert np.allclose(g[:3, 0], h["q"]) and np.allclose(g[:3, 1], h["K"][j - 1])
    assert np.allclose(g[:3, 2], h["q"] * h["K"][j - 1])
    assert math.isclose(g[3, 2], h["dots"][j - 1]) and math.isclose(g[4, 2], h["dots"][j - 1] / math.sqrt(3))
    assert np.isnan(g[3:, :2]).all()


@pytest.mark.parametrize("weighted", [True, False])
def test_mix_grid(weighted):
    h = bank_by_hand(A)
    g = bank.mix_grid("A", weighted)
    assert np.allclose(g[:7, 0], h["alpha"])
    assert np.allclose(g[:7, 1:], h["alpha"][:, None] * h["V"] if weighted else h["V"])
    assert math.isclose(g[7, 0], 1.0) and np.allclose(g[7, 1:], h["m"])


def test_residual_panels_and_steps():
    h = bank_by_hand(A)
    p = bank.residual_panels("A")
    assert np.allclose(p[0]["M"], h["m"][None]) and p[0]["cols"] == list(m.V_AXES)
    assert np.array_equal(p[1]["M"], m.W_O) and p[1]["cols"] == list(m.FEATURES)
    assert np.allclose(p[2]["M"], [h["dE"], h["e"], h["e"] + h["dE"]])
    assert p[2]["hover"][2][0] == f"e {fmt(h['e'][0])} + Δe {fmt(h['dE'][0])} = {fmt(h['e'][0] + h['dE'][0])}"
    shown = [[v.sum() for v in bank.residual_visible(s)] for s in range(4)]
    assert shown == [[2, 0, 0], [2, 8, 0], [2, 8, 4], [2, 8, 12]]


@pytest.mark.parametrize("lam", [0.0, 0.3, 1.0])
def test_blend(lam):
    for key in "AB":
        h = bank_by_hand(m.sentence(key))
        assert np.allclose(attn.blend(key, lam), h["e"] + lam * h["dE"])


# --- prose values -------------------------------------------------------------

def test_prose_values_are_plain_python_and_prefixed():
    v = values.first_pass_values()
    for name, val in v.items():
        assert type(val) in (int, float, str), (name, type(val))
        assert name[0] == "s" and name[1:3].isdigit() and 1 <= int(name[1:3]) <= 10 and name[3] == "_", name


def test_prose_values_recomputed():
    v = values.prose_values()
    hA, hB = bank_by_hand(A), bank_by_hand(B)
    pA = head_p(forward(A)[1][-1])
    base = head_p(e_rows(A)[-1])
    assert v["s02_top_A"] == m.VOCAB[int(np.argmax(pA))] and math.isclose(v["s02_top_p_A"], pA.max())
    assert v["s02_bank_e_water"] == pytest.approx(0.25 + 0.04)
    assert v["s03_n_tied"] == int(np.sum(np.isclose(base, base.max()))) == 8
    assert math.isclose(v["s03_tied_p"], base.max()) and math.isclose(v["s03_other_p"], base.min())
    assert v["s04_river_pos"] == 6 and v["s04_small_w"] == 4 and v["s04_reach_w"] == 5
    assert v["s04_step_weights"] == 80 and v["s04_step_mlp"] == 32
    assert v["s05_concat_width"] == 28 and math.isclose(v["s05_plain_weight"], 1 / 7)
    assert math.isclose(v["s05_plain_water"], e_rows(A)[:7, 0].mean())
    assert v["s06_best_video"] == "Herons of the delta" and v["s06_best_score"] == 16
    assert math.isclose(v["s08_river_alpha"], hA["alpha"][5]) and math.isclose(v["s08_river_dot"], hA["dots"][5])
    assert math.isclose(v["s08_m_water"], hA["m"][0]) and math.isclose(v["s09_new_water"], hA["e"][0] + hA["dE"][0])
    assert math.isclose(v["s10_alpha_cheque_B"], hB["alpha"][3])
    assert math.isclose(v["s10_new_finance_B"], hB["e"][1] + hB["dE"][1])


# --- figures: every state is the computed one ---------------------------------

def _menu_args(fig, menu=0):
    return [b.args for b in fig.layout.updatemenus[menu].buttons]


def test_prediction_buttons_carry_each_sentence():
    fig = prediction.prediction_figure()
    for key, args in zip("AB", _menu_args(fig)):
        assert np.allclose(args[0]["y"][0], head_p(forward(m.sentence(key))[1][-1]))
    fig = prediction.prediction_figure(baseline=True)
    ys = [np.array(a[0]["y"][0]) for a in _menu_args(fig)]
    assert np.array_equal(ys[0], ys[1])


def test_window_slider_has_every_w():
    fig = windows.window_figure()
    steps = fig.layout.sliders[0].steps
    assert [s.label for s in steps] == [str(w) for w in range(1, 11)]
    for w, s in zip(range(1, 11), steps):
        assert s.args[0]["z"][0] == [[1.0 if p > 10 - w else 0.0 for p in range(1, 11)]]
        assert f"→ {4 * w * 8 + 8 + 180} parameters" in s.args[1]["title.text"]


def test_pool_sliders_and_buttons():
    fig = windows.pool_figure()
    assert len(fig.layout.sliders) == len(context.POOL_FOCUS)
    for focus, sl in zip(context.POOL_FOCUS, fig.layout.sliders):
        assert len(sl.steps) == len(context.POOL_SHARES)
        last = sl.steps[-1].args[0]
        assert np.allclose(last["x"][0], context.pool_weights(focus, 1.0)) and last["y"][0] == position_labels(A[: 7], 1)
        assert last["text"][1][-1] == [fmt(x) for x in e_rows(A)[A.index(focus)]]
    for n, args in enumerate(_menu_args(fig)):
        assert [args[1][f"sliders[{k}].visible"] for k in range(4)] == [k == n for k in range(4)]


def test_retrieval_states():
    fig = retrieval.retrieval_figure()
    steps = fig.layout.sliders[0].steps
    assert len(steps) == len(search.TEMPERATURES)
    for T, s in zip(search.TEMPERATURES, steps):
        assert s.args[0]["text"][0] == cell_text(search.retrieval_grid("soft", T), retrieval.RETRIEVE_DECIMALS)
        assert s.args[1]["updatemenus[0].active"] == 1
    hard, soft = _menu_args(fig)
    assert hard[0]["text"][0] == cell_text(search.retrieval_grid("hard"), retrieval.RETRIEVE_DECIMALS)


def test_dot_buttons_cover_every_key():
    fig = bank.dot_figure()
    args = _menu_args(fig)
    assert len(args) == 7
    for j, a in enumerate(args, 1):
        assert a[0]["text"][0] == cell_text(bank.dot_grid("A", j))


def test_residual_frames_build_up():
    fig = bank.residual_figure()
    assert len(fig.frames) == 4 and len(fig.layout.sliders[0].steps) == 4
    first = fig.frames[0].data
    assert first[1].text == tuple(tuple("" for _ in range(4)) for _ in range(2)) or \
        all(c == "" for row in first[1].text for c in row)
    last = fig.frames[-1].data[2]
    assert list(last.text[2]) == [fmt(x) for x in attn.bank("A")["e_new"]]


def test_blend_slider():
    fig = bank.blend_figure()
    steps = fig.layout.sliders[0].steps
    assert len(steps) == len(attn.BLEND_STEPS) >= 20
    for lam, s in zip(attn.BLEND_STEPS, steps):
        for k, key in enumerate("AB"):
            h = bank_by_hand(m.sentence(key))
            assert np.allclose(s.args[0]["y"][k], h["e"] + lam * h["dE"])


def test_widgets_emit_fixed_id_printed_states_and_no_autoplay():
    assert set(WIDGETS) == {"predict", "baseline", "window", "pool", "scores", "retrieve", "dot", "mix",
                            "residual", "blend"}
    for w in WIDGETS.values():
        html = w.html()
        assert f'id="{w.id}"' in html and ' data-print="' in html and "widget-note" not in html
        assert w.id.startswith("bh-s")
    assert [s.label.split(":")[0] for s in bank.BLEND.prints().states] == ["λ = 0.00", "λ = 1.00"]
    assert "Plotly.animate" not in bank.RESIDUAL.html()


def test_tables_label_rows_and_columns():
    html = prediction.sums_table("A").data
    assert "7 bank" in html and "water" in html and "0.25 + 0.04 = 0.29" in html
    for table in (prediction.baseline_table, windows.window_table, windows.pool_table, retrieval.search_tables,
                  retrieval.values_table, bank.qk_tables, bank.weights_table, bank.residual_tables,
                  bank.contexts_tables):
        assert unlabelled(table().data) == [], table.__name__


# --- claims ---------------------------------------------------------------------

NEW_CLAIMS = ["full_model_prefers_topic_words", "pooling_toward_river_raises_water",
              "low_temperature_approaches_hard", "bank_message_follows_context",
              "w_o_writes_only_topic_features", "bank_starts_identical"]


def test_first_pass_claims_hold():
    out = {c.name: o for c, o in claims.check_all()}
    for name in NEW_CLAIMS:
        assert out[name].holds, (name, out[name].evidence)


def test_first_pass_claims_can_fail(monkeypatch):
    """Give W_O a finance→water leak and move river's water onto finance: the claims notice."""
    monkeypatch.setattr(m, "W_O", np.array([[1.0, 0.0, 0.5, 0.0], [0.0, 1.0, 0.0, 0.0]]))
    monkeypatch.setattr(m, "WORD_FEATURES", dict(m.WORD_FEATURES, river=(0.0, 1.0, 1.0, 0.0)))
    out = {c.name: o for c, o in claims.BYHAND.check_all(names=NEW_CLAIMS)}
    assert not out["w_o_writes_only_topic_features"].holds
    assert not out["bank_message_follows_context"].holds
    assert not out["pooling_toward_river_raises_water"].holds

"""What sections 1-10 of the attention-by-hand lesson show: worked steps, tables, widgets, prose values.

The pure functions (no plotly) compute each widget state; the `*_figure`
functions turn those states into Plotly figures whose every state is built
here, at build time; the `show_*` one-liners are what the lesson cells call.
Positions are numbered 1..T as in the lesson (array index = position - 1).
"""
from __future__ import annotations

import numpy as np

from .. import figures
from ..tables import fmt, matrix_html, rows_html
from . import context, model as m, search
from .attention import attend, head, predict, top_words

# Fixed div ids of the widgets (the browser tests find them by these).
IDS = {
    "predict": "bh-s02-predict",
    "baseline": "bh-s03-baseline",
    "window": "bh-s04-window",
    "pool": "bh-s05-pool",
    "scores": "bh-s06-scores",
    "retrieve": "bh-s07-retrieve",
    "dot": "bh-s08-dot",
    "mix": "bh-s08-mix",
    "residual": "bh-s09-residual",
    "blend": "bh-s10-blend",
}

BAR = "#3b528b"        # viridis blue
MARK = "#5ec962"       # viridis green: the selected item
SENTENCE_COLOURS = {"A": "#21918c", "B": "#440154"}   # teal / purple: differ in lightness too
POOL_FOCUS = ("river", "heron", "The", "bank")         # tokens the pooling slider can favour
POOL_SHARES = np.linspace(0.0, 1.0, 21)                # extra weight moved onto the chosen token
TEMPERATURES = 2.0 ** np.linspace(-2, 5, 29)           # 1/4 .. 32, a quarter-octave apart; includes 1
SEARCH_QUERY = 1                                       # "birds along the river"
BLEND_STEPS = np.linspace(0.0, 1.0, 21)                # λ in e_7 + λ Δe_7
KEYS = ("A", "B")


# ---------------------------------------------------------------------------
# Worked states (pure numpy; the unit tests recompute each one independently)
# ---------------------------------------------------------------------------

def labels(words, upto: int | None = None) -> list[str]:
    """'1 The', '2 heron', ...: position (from 1) and word."""
    words = list(words)[:upto]
    return [f"{i} {w}" for i, w in enumerate(words, 1)]


def sentence_text(key: str) -> str:
    return " ".join(m.sentence(key))


def shared_tail() -> int:
    """How many final words the two sentences share."""
    a, b = m.sentence("A"), m.sentence("B")
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def full_prediction(key: str) -> np.ndarray:
    """Next-word probabilities of the full model (attention, then head) after sentence `key`."""
    return predict(m.sentence(key))["p"]


def baseline_prediction(key: str) -> np.ndarray:
    """Next-word probabilities when only the last row e_10 reaches the head."""
    return head(m.rows(m.sentence(key)).e[-1])["p"]


def window_state(w: int, key: str = "A") -> dict[str, object]:
    """Which tokens a window of the last w rows takes in, and the head's shapes and counts."""
    words = m.sentence(key)
    pos = context.window_positions(len(words), w)
    return {"w": w, "positions": pos, "words": [words[p - 1] for p in pos],
            "inputs": w * context.D_MODEL, "shapes": context.mlp_shapes(w),
            "mlp": context.mlp_parameters(w), "linear": context.linear_parameters(w),
            "linear_shape": (w * context.D_MODEL, context.VOCAB_SIZE)}


def pool_weights(focus: str | None, share: float, key: str = "A") -> np.ndarray:
    """Weights over positions 1..7: a plain average, with `share` of the total moved onto `focus`."""
    words = m.sentence(key)[: m.BANK]
    w = np.full(m.BANK, (1.0 - share) / m.BANK)
    if focus is not None:
        w[words.index(focus)] += share
    return w


def pool(weights: np.ndarray, key: str = "A") -> dict[str, np.ndarray]:
    """Each row 1..7 scaled by its weight, and their sum: the four-number summary m_7."""
    e = m.rows(m.sentence(key)).e[: m.BANK]
    w = np.asarray(weights, dtype=float)
    parts = w[:, None] * e
    return {"weights": w, "parts": parts, "summary": parts.sum(axis=0)}


def retrieval_grid(mode: str, temperature: float = 1.0, query: int = SEARCH_QUERY) -> np.ndarray:
    """One row per video (score, weight, weight × each value), then the returned row (sums)."""
    r = search.retrieve(query, mode, temperature)
    body = np.column_stack([r["scores"], r["weights"], r["weighted"]])
    total = np.concatenate([[np.nan, r["weights"].sum()], r["returned"]])
    return np.vstack([body, total])


def bank(key: str) -> dict[str, np.ndarray]:
    """Phase A and B for bank (position 7) over keys 1..7: q, K, q·k, scores, weights, V, α·v, m_7."""
    att = attend(m.rows(m.sentence(key)).e)
    i = m.BANK - 1
    q, K, V = att.Q[i], att.K[: m.BANK], att.V[: m.BANK]
    dots = K @ q
    return {"e": att.e[i], "q": q, "K": K, "dots": dots, "scores": att.S[i, : m.BANK],
            "alpha": att.A[i, : m.BANK], "V": V, "weighted": att.A[i, : m.BANK, None] * V,
            "m": att.M[i], "dE": att.dE[i], "e_new": att.e_new[i]}


def dot_terms(key: str, j: int) -> np.ndarray:
    """q_7 and k_j on each QK axis and their products: a (3, 3) array [q_c, k_c, q_c k_c]."""
    b = bank(key)
    q, k = b["q"], b["K"][j - 1]
    return np.column_stack([q, k, q * k])


def blend(key: str, lam: float) -> np.ndarray:
    """e_7 + λ Δe_7: bank's row with a fraction λ of its update added."""
    b = bank(key)
    return b["e"] + lam * b["dE"]


def prose_values() -> dict[str, object]:
    """Every number (and computed word) that the prose of sections 1-10 cites, for glue."""
    v: dict[str, object] = {}
    A, B = m.sentence("A"), m.sentence("B")
    v["s02_shared_tail"] = shared_tail()
    v["s02_vocab_size"] = len(m.VOCAB)
    v["s02_d_model"] = len(m.FEATURES)
    v["s02_bank_pos"] = m.BANK
    v["s02_T"] = len(A)
    for key in KEYS:
        v[f"s02_sentence_{key}"] = sentence_text(key)
    v["s02_tail"] = " ".join(A[len(A) - shared_tail():])
    for key in KEYS:
        p = full_prediction(key)
        top = top_words(p)[0]
        v[f"s02_top_{key}"] = top
        v[f"s02_top_p_{key}"] = float(p.max())
    r = m.rows(A)
    i = m.BANK - 1
    v["s02_bank_word_water"] = float(r.word_rows[i, 0])
    v["s02_bank_pos_water"] = float(r.position_rows[i, 0])
    v["s02_bank_e_water"] = float(r.e[i, 0])
    # 3. baseline
    pb = baseline_prediction("A")
    tied = top_words(pb)
    v["s03_n_tied"] = len(tied)
    v["s03_tied_words"] = ", ".join(tied)
    v["s03_tied_p"] = float(pb.max())
    v["s03_other_p"] = float(pb.min())
    v["s03_last_pos"] = len(A)
    v["s03_last_word"] = A[-1]
    # 4. window
    river = A.index("river") + 1
    v["s04_river_pos"] = river
    v["s04_small_w"] = max(w for w in range(1, len(A) + 1) if river not in context.window_positions(len(A), w))
    v["s04_reach_w"] = len(A) - river + 1
    v["s04_d"] = context.D_MODEL
    v["s04_H"] = context.HIDDEN_UNITS
    v["s04_V"] = context.VOCAB_SIZE
    v["s04_step_weights"] = context.linear_parameters(2) - context.linear_parameters(1)
    v["s04_step_mlp"] = context.mlp_parameters(2) - context.mlp_parameters(1)
    v["s04_mlp_10"] = context.mlp_parameters(len(A))
    v["s04_linear_10"] = context.linear_parameters(len(A))
    # 5. pooling
    plain = pool(pool_weights(None, 0.0))
    v["s05_plain_weight"] = float(plain["weights"][0])
    v["s05_plain_water"] = float(plain["summary"][0])
    v["s05_river_water"] = float(m.rows(A).e[A.index("river"), 0])
    v["s05_n_rows"] = m.BANK
    v["s05_concat_width"] = m.BANK * len(m.FEATURES)
    # 6. search
    S = search.match_scores()
    names, videos = list(search.QUERIES), list(search.VIDEOS)
    v["s06_n_topics"] = len(search.TOPICS)
    v["s06_query"] = names[SEARCH_QUERY]
    best = int(np.argmax(S[SEARCH_QUERY]))
    v["s06_best_video"] = videos[best]
    v["s06_best_score"] = int(S[SEARCH_QUERY, best])
    # 7. retrieval
    hard = retrieval_grid("hard")
    v["s07_hard_minutes"] = float(hard[-1, 2])
    v["s07_T_low"] = float(TEMPERATURES[0])
    v["s07_T_high"] = float(TEMPERATURES[-1])
    v["s07_n_T"] = len(TEMPERATURES)
    v["s07_T_default"] = 1.0
    v["s07_soft1_top_weight"] = float(retrieval_grid("soft", 1.0)[best, 1])
    v["s07_soft_high_top_weight"] = float(retrieval_grid("soft", TEMPERATURES[-1])[best, 1])
    # 8. bank, phase A and B
    bA = bank("A")
    v["s08_d_k"] = len(m.QK_AXES)
    v["s08_d_v"] = len(m.V_AXES)
    v["s08_sqrt_dk"] = float(np.sqrt(len(m.QK_AXES)))
    j_river = A.index("river")
    v["s08_river_dot"] = float(bA["dots"][j_river])
    v["s08_river_score"] = float(bA["scores"][j_river])
    v["s08_river_alpha"] = float(bA["alpha"][j_river])
    v["s08_m_water"] = float(bA["m"][0])
    v["s08_m_finance"] = float(bA["m"][1])
    # 9. W_O and the residual
    v["s09_e_water"] = float(bA["e"][0])
    v["s09_dE_water"] = float(bA["dE"][0])
    v["s09_new_water"] = float(bA["e_new"][0])
    # 10. both contexts
    bB = bank("B")
    v["s10_alpha_river_A"] = float(bA["alpha"][j_river])
    v["s10_alpha_cheque_B"] = float(bB["alpha"][B.index("cheque")])
    v["s10_alpha_deposited_B"] = float(bB["alpha"][B.index("deposited")])
    v["s10_new_water_A"] = float(bA["e_new"][0])
    v["s10_new_finance_B"] = float(bB["e_new"][1])
    v["s10_start_water"] = float(bA["e"][0])
    v["s10_start_finance"] = float(bA["e"][1])
    v["s10_n_steps"] = len(BLEND_STEPS)
    return v


# ---------------------------------------------------------------------------
# Tables (static: they print in the handout as they are)
# ---------------------------------------------------------------------------

def _html(*parts: str):
    from IPython.display import HTML
    return HTML("".join(parts))


def sum_rows_html(key: str) -> str:
    """Each position's word row plus its position row, written out per feature."""
    r = m.rows(m.sentence(key))
    body = [(lab, *[f"{fmt(r.word_rows[i, c])} + {fmt(r.position_rows[i, c])} = {fmt(r.e[i, c])}"
                    for c in range(len(m.FEATURES))])
            for i, lab in enumerate(labels(r.words))]
    return rows_html(["position word"] + list(m.FEATURES), body,
                     caption=f"Sentence {key}: e = E[word] + P, feature by feature (word + position = sum)")


def baseline_html() -> str:
    rows = []
    for key in KEYS:
        words = m.sentence(key)
        e = m.rows(words).e[-1]
        rows.append((f"{key}: {len(words)} {words[-1]}", *map(float, e)))
    return rows_html(["sentence: position word"] + list(m.FEATURES), rows, decimals=2,
                     caption="The only row the last-token model sees, in each sentence")


def window_html() -> str:
    rows = []
    for w in range(1, len(m.sentence("A")) + 1):
        s = window_state(w)
        sh = s["shapes"]
        rows.append((w, " ".join(s["words"]), s["inputs"], f"{sh['W1'][0]}×{sh['W1'][1]}",
                     s["mlp"], f"{s['linear_shape'][0]}×{s['linear_shape'][1]}", s["linear"]))
    return rows_html(["w", "tokens in the window (sentence A)", "inputs w·d", "W1", "MLP parameters",
                      "linear W", "linear parameters"], rows,
                     caption="Every window size: what it takes in and what it costs")


def pool_html() -> str:
    words = m.sentence("A")
    p = pool(pool_weights(None, 0.0))
    e = m.rows(words).e[: m.BANK]
    M = np.vstack([e, p["summary"]])
    return matrix_html(M, labels(words, m.BANK) + ["plain average"], m.FEATURES,
                       corner="position word \\ feature", name="s05_pool",
                       caption="Rows 1 to 7 of sentence A and their plain average")


def search_html() -> str:
    Q, K, V = search.matrices()
    S = search.match_scores()
    return "".join([
        matrix_html(Q, list(search.QUERIES), search.TOPICS, corner="query \\ topic", decimals=0,
                    name="s06_queries", caption="Queries: how strongly each search asks for each topic"),
        matrix_html(K, list(search.VIDEOS), search.TOPICS, corner="video \\ topic", decimals=0,
                    name="s06_videos", caption="Video descriptions on the same topic axes"),
        matrix_html(S, list(search.QUERIES), list(search.VIDEOS), corner="query \\ video", decimals=0,
                    name="s06_scores", caption="Match scores: query · description"),
    ])


def values_html() -> str:
    _, _, V = search.matrices()
    return matrix_html(V, list(search.VIDEOS), search.VALUE_AXES, corner="video \\ value", decimals=1,
                       name="s07_values", caption="Values: what each video hands back when retrieved")


def qk_html(key: str = "A") -> str:
    b = bank(key)
    words = m.sentence(key)
    return "".join([
        matrix_html(b["q"][None, :], [f"q_{m.BANK} (bank)"], m.QK_AXES, corner="query \\ axis",
                    name="s08_q", caption="Bank's query"),
        matrix_html(b["K"], labels(words, m.BANK), m.QK_AXES, corner="key \\ axis", name="s08_K",
                    caption=f"Keys of positions 1 to {m.BANK} (sentence {key})"),
    ])


def weights_html(key: str = "A") -> str:
    b = bank(key)
    s = b["scores"]
    ex = np.exp(s - s.max())
    rows = [(lab, float(b["dots"][j]), float(s[j]), float(ex[j]), float(b["alpha"][j]))
            for j, lab in enumerate(labels(m.sentence(key), m.BANK))]
    return rows_html(["key", "q·k", "score = q·k / √d_k", "exp(score − max)", "weight α"], rows, decimals=2,
                     caption="From scores to weights for bank's query (weights sum to 1)")


def residual_html(key: str = "A") -> str:
    b = bank(key)
    return "".join([
        matrix_html(m.W_O, m.V_AXES, m.FEATURES, corner="value axis \\ feature", name="s09_W_O",
                    caption="W_O: value axes in, feature axes out"),
        matrix_html(np.vstack([b["e"], b["dE"], b["e_new"]]), ["e_7", "Δe_7 = m_7 W_O", "e_7 + Δe_7"],
                    m.FEATURES, corner="row \\ feature", name="s09_residual",
                    caption=f"Bank's row before and after the update (sentence {key})"),
    ])


def contexts_html() -> str:
    bA, bB = bank("A"), bank("B")
    A, B = m.sentence("A"), m.sentence("B")
    rows = [(j + 1, A[j], float(bA["alpha"][j]), B[j], float(bB["alpha"][j])) for j in range(m.BANK)]
    alpha = rows_html(["j", "A: word", "A: α_7j", "B: word", "B: α_7j"], rows, decimals=2,
                      caption="Where bank looks in each sentence")
    msgs = matrix_html(np.vstack([bA["m"], bB["m"]]), ["A: m_7", "B: m_7"], m.V_AXES,
                       corner="sentence \\ value axis", name="s10_messages", caption="Bank's message")
    upd = matrix_html(np.vstack([bA["e"], bA["dE"], bA["e_new"], bB["e"], bB["dE"], bB["e_new"]]),
                      ["A: e_7", "A: Δe_7", "A: e_7 + Δe_7", "B: e_7", "B: Δe_7", "B: e_7 + Δe_7"],
                      m.FEATURES, corner="row \\ feature", name="s10_updates",
                      caption="Same start, different update")
    return alpha + msgs + upd


# ---------------------------------------------------------------------------
# Figures: every state computed here
# ---------------------------------------------------------------------------

def _go():
    import plotly.graph_objects as go
    return go


def _text(M: np.ndarray, decimals: int | tuple[int, ...] = 2) -> list[list[str]]:
    """Cell strings as printed (blank for NaN); `decimals` may give one count per column."""
    M = np.atleast_2d(M)
    d = decimals if isinstance(decimals, tuple) else (decimals,) * M.shape[1]
    return [["" if np.isnan(x) else fmt(float(x), d[c]) for c, x in enumerate(row)] for row in M]


def _colour(M: np.ndarray) -> list[list[float | None]]:
    """Colour per column, scaled by the column's largest magnitude (columns differ in units)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    scale = np.nanmax(np.abs(M), axis=0)
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    Z = M / scale
    return [[None if np.isnan(x) else float(x) for x in row] for row in Z]


def _grid(M, rows, cols, decimals: int = 2, hover: str | None = None, customdata=None, per_column=True,
          zmax: float | None = None, **kw):
    """A labelled table drawn as a heatmap: every cell shows its number."""
    go = _go()
    M = np.atleast_2d(np.asarray(M, dtype=float))
    z = _colour(M) if per_column else [[None if np.isnan(x) else float(x) for x in r] for r in M]
    return go.Heatmap(z=z, x=list(cols), y=list(rows), text=_text(M, decimals), texttemplate="%{text}",
                      textfont=dict(size=13), colorscale=figures.COLORSCALE, showscale=False,
                      zmin=0 if per_column else 0, zmax=1 if per_column else zmax, xgap=2, ygap=2,
                      customdata=customdata, hoverongaps=False,
                      hovertemplate=hover or "%{y} · %{x}: %{text}<extra></extra>", **kw)


def _buttons(labels_, args_list, active=0, x=0.0, y=1.18, direction="right"):
    return dict(type="buttons", direction=direction, active=active, x=x, y=y, xanchor="left",
                yanchor="bottom", showactive=True, pad=dict(r=4, t=0),
                buttons=[dict(label=l, method="update", args=a) for l, a in zip(labels_, args_list)])


def _place(fig, title: str, height: int, top: int, bottom: int, above: int = 0, **margin):
    """Title in the top strip, buttons (if any) `above` pixels over the plot area, out of the title's way."""
    plot = height - top - bottom
    fig.update_layout(height=height, margin=dict(t=top, b=bottom, **margin),
                      title=dict(text=title, x=0.01, xref="container", xanchor="left", y=1 - 6 / height,
                                 yanchor="top", font=dict(size=13)))
    for menu in fig.layout.updatemenus:
        if menu.type == "buttons" and menu.buttons[0].method == "update":
            menu.update(y=1 + above / plot, yanchor="bottom", x=0, xanchor="left")
    return fig


def _prob_title(key: str, model: str) -> str:
    return f"{model}, sentence {key}: “{sentence_text(key)} …”"


def prediction_figure(baseline: bool = False):
    """Next-word bars with an A/B switch (full model, or the last-token baseline)."""
    go = _go()
    fn = baseline_prediction if baseline else full_prediction
    model = "Last token only" if baseline else "Full model"
    P = {k: fn(k) for k in KEYS}
    fig = go.Figure(go.Bar(x=list(m.VOCAB), y=P["A"].tolist(), marker_color=BAR,
                           hovertemplate="p(%{x}) = %{y:.3f}<extra></extra>"))
    fig.update_layout(
        margin=dict(l=60, r=20),
        yaxis=dict(range=[0, 0.35], title=dict(text="probability of the next word")),
        xaxis=dict(tickangle=-45),
        updatemenus=[_buttons([f"A: … {m.CONTEXT_NAMES[k]} …" if k == "A" else f"B: … {m.CONTEXT_NAMES[k]} …"
                               for k in KEYS],
                              [[{"y": [P[k].tolist()]}, {"title.text": _prob_title(k, model)}] for k in KEYS])])
    return _place(fig, _prob_title("A", model), height=420, top=80, bottom=80, above=12)


def window_figure(key: str = "A"):
    """Slider w = 1..10: the tokens the window takes in, and both heads' parameter counts."""
    go = _go()
    from plotly.subplots import make_subplots
    words = m.sentence(key)
    T = len(words)
    ws = list(range(1, T + 1))
    fig = make_subplots(rows=2, cols=1, row_heights=[0.25, 0.75], vertical_spacing=0.18)

    def strip(w):
        inside = set(window_state(w)["positions"])
        return [[1.0 if p in inside else 0.0 for p in range(1, T + 1)]]

    def title(w):
        s = window_state(w)
        sh = s["shapes"]
        return (f"w = {w}: input {s['inputs']} numbers · MLP W1 {sh['W1'][0]}×{sh['W1'][1]}, b1 {sh['b1'][0]}, "
                f"W2 {sh['W2'][0]}×{sh['W2'][1]}, b2 {sh['b2'][0]} → {s['mlp']} parameters"
                f"<br>direct linear head W {s['linear_shape'][0]}×{s['linear_shape'][1]}, "
                f"b {s['linear_shape'][1]} → {s['linear']} parameters")

    def band(w):
        return [dict(type="rect", xref="x2", yref="y2 domain", x0=w - 0.5, x1=w + 0.5, y0=0, y1=1,
                     fillcolor=MARK, opacity=0.25, line=dict(width=0), layer="below")]

    start = 3
    fig.add_trace(go.Heatmap(z=strip(start), x=labels(words), y=["window"], text=[words], texttemplate="%{text}",
                             colorscale=[[0, "#e8e8e8"], [1, "#21918c"]], zmin=0, zmax=1, showscale=False,
                             xgap=2, hovertemplate="%{x}<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Bar(x=ws, y=[context.mlp_parameters(w) for w in ws], name="MLP head",
                         marker_color=BAR, hovertemplate="w = %{x}: %{y} parameters (MLP)<extra></extra>"),
                  row=2, col=1)
    fig.add_trace(go.Bar(x=ws, y=[context.linear_parameters(w) for w in ws], name="direct linear head",
                         marker_color="#fde725", marker_line=dict(color="#444", width=1),
                         hovertemplate="w = %{x}: %{y} parameters (linear)<extra></extra>"), row=2, col=1)
    steps = [dict(method="update", label=str(w),
                  args=[{"z": [strip(w)]}, {"title.text": title(w), "shapes": band(w)}, [0]]) for w in ws]
    fig.update_layout(
        title=dict(text=title(start), font=dict(size=13)), height=470, shapes=band(start),
        margin=dict(l=70, r=20, t=80, b=40), barmode="group",
        legend=dict(orientation="h", x=0, y=0.72),
        xaxis=dict(side="top", showticklabels=False), yaxis=dict(showticklabels=False),
        xaxis2=dict(title=dict(text="window size w"), dtick=1),
        yaxis2=dict(title=dict(text="parameters")),
        sliders=[dict(active=start - 1, steps=steps, currentvalue=dict(prefix="window w = "), pad=dict(t=40))])
    return fig


def pool_figure(key: str = "A"):
    """Choose a token (buttons) and move weight onto it (slider): the weights and the four-number summary."""
    go = _go()
    from plotly.subplots import make_subplots
    words = m.sentence(key)[: m.BANK]
    labs = labels(words)
    rows_ = labs + [f"m_{m.BANK} (sum)"]

    def state(focus, share):
        p = pool(pool_weights(focus, share, key), key)
        grid = np.vstack([p["parts"], p["summary"]])
        return p["weights"], grid

    def data(focus, share):
        w, grid = state(focus, share)
        return {"x": [w.tolist(), list(m.FEATURES)], "y": [labs, rows_], "text": [[fmt(x) for x in w], _text(grid)],
                "z": [None, [[float(x) for x in r] for r in grid]]}

    def title(focus, share):
        if share == 0:
            return f"Plain average of rows 1 to {m.BANK}"
        return f"{round(share * 100)}% of the weight moved onto “{focus}”"

    fig = make_subplots(rows=1, cols=2, column_widths=[0.4, 0.6], horizontal_spacing=0.14,
                        subplot_titles=("weight of each row", "weight × row, and the summary"))
    w0, g0 = state(None, 0.0)
    fig.add_trace(go.Bar(x=w0.tolist(), y=labs, orientation="h", marker_color=BAR, text=[fmt(x) for x in w0],
                         textposition="outside", cliponaxis=False,
                         hovertemplate="%{y}: weight %{x:.3f}<extra></extra>"), row=1, col=1)
    fig.add_trace(_grid(g0, rows_, m.FEATURES, per_column=False, zmax=1.1,
                        hover="%{y} · %{x}: %{text}<extra></extra>"), row=1, col=2)
    sliders, buttons = [], []
    for n, focus in enumerate(POOL_FOCUS):
        steps = [dict(method="update", label=f"{round(s * 100)}%",
                      args=[data(focus, s), {"title.text": title(focus, s)}, [0, 1]]) for s in POOL_SHARES]
        sliders.append(dict(active=0, steps=steps, visible=n == 0, pad=dict(t=50), len=1.0,
                            currentvalue=dict(prefix=f"weight moved onto “{focus}”: ")))
    for n, focus in enumerate(POOL_FOCUS):
        layout = {"title.text": title(focus, 0.0)}
        for k in range(len(POOL_FOCUS)):
            layout[f"sliders[{k}].visible"] = k == n
        layout[f"sliders[{n}].active"] = 0
        buttons.append([data(focus, 0.0), layout, [0, 1]])
    fig.update_layout(
        margin=dict(l=80, r=20),
        xaxis=dict(range=[0, 1.15], title=dict(text="weight")), yaxis=dict(autorange="reversed"),
        yaxis2=dict(autorange="reversed"), xaxis2=dict(side="bottom"),
        updatemenus=[_buttons([f"favour “{f}”" for f in POOL_FOCUS], buttons)],
        sliders=sliders)
    fig.update_annotations(font=dict(size=12, color="#555"))
    return _place(fig, title(None, 0.0), height=500, top=110, bottom=40, above=34)


def scores_figure():
    """Match scores as a heatmap; hovering a cell writes out its dot product topic by topic."""
    go = _go()
    Q, K, _ = search.matrices()
    S = search.match_scores()
    work = [[" + ".join(f"{int(Q[a, c])}·{int(K[b, c])}" for c in range(len(search.TOPICS))
                        if Q[a, c] and K[b, c]) or "no shared topic"
             for b in range(len(K))] for a in range(len(Q))]
    fig = go.Figure(go.Heatmap(
        z=S.tolist(), x=list(search.VIDEOS), y=list(search.QUERIES), text=_text(S, 0), texttemplate="%{text}",
        customdata=work, colorscale=figures.COLORSCALE, colorbar=dict(title=dict(text="score")), xgap=2, ygap=2,
        hovertemplate="%{y} · %{x}<br>%{customdata} = %{z}<extra></extra>"))
    fig.update_layout(height=330, margin=dict(l=230, r=20, t=30, b=90), yaxis=dict(autorange="reversed"),
                      xaxis=dict(tickangle=-20))
    return fig


RETRIEVE_COLS = ("score", "weight") + tuple(f"weight ×<br>{a}" for a in search.VALUE_AXES)
RETRIEVE_DECIMALS = (0, 2, 1, 2, 1)


def retrieval_figure():
    """Hard/soft switch and a temperature slider: weights, weighted values, and the returned row."""
    go = _go()
    rows_ = list(search.VIDEOS) + ["returned (sum)"]
    one = int(np.argmin(np.abs(TEMPERATURES - 1.0)))

    def data(grid):
        return {"z": [_colour(grid)], "text": [_text(grid, RETRIEVE_DECIMALS)]}

    def title(mode, T=None):
        q = list(search.QUERIES)[SEARCH_QUERY]
        return (f"Hard retrieval for “{q}”: the best match takes all the weight" if mode == "hard"
                else f"Soft retrieval for “{q}”: weights = softmax(score / {fmt(T)})")

    hard = retrieval_grid("hard")
    fig = go.Figure(_grid(hard, rows_, RETRIEVE_COLS, decimals=RETRIEVE_DECIMALS))
    steps = [dict(method="update", label=fmt(T),
                  args=[data(retrieval_grid("soft", T)), {"title.text": title("soft", T), "updatemenus[0].active": 1}])
             for T in TEMPERATURES]
    fig.update_layout(
        margin=dict(l=160, r=20),
        yaxis=dict(autorange="reversed"), xaxis=dict(side="top", tickangle=0),
        updatemenus=[_buttons(["hard", "soft"],
                              [[data(hard), {"title.text": title("hard")}],
                               [data(retrieval_grid("soft", 1.0)),
                                {"title.text": title("soft", 1.0), "sliders[0].active": one}]])],
        sliders=[dict(active=one, steps=steps, currentvalue=dict(prefix="temperature = "), pad=dict(t=10))])
    return _place(fig, title("hard"), height=470, top=120, bottom=30, above=44)


DOT_ROWS = tuple(m.QK_AXES) + ("q·k (sum)", "score = q·k / √d_k")


def dot_grid(key: str, j: int) -> np.ndarray:
    """Rows: the three QK axes, the sum, the scaled score; columns: q_7, k_j, product."""
    t = dot_terms(key, j)
    total = t[:, 2].sum()
    return np.vstack([t, [np.nan, np.nan, total], [np.nan, np.nan, total / np.sqrt(len(m.QK_AXES))]])


def dot_figure(key: str = "A"):
    """Select a key (buttons): q_7 · k_j coordinate by coordinate, beside all of bank's weights."""
    go = _go()
    from plotly.subplots import make_subplots
    b = bank(key)
    labs = labels(m.sentence(key), m.BANK)
    def cols(j):
        return [f"q_{m.BANK} (bank)", f"k_{j} ({m.sentence(key)[j - 1]})", "product"]

    def colours(j):
        return [MARK if n == j - 1 else BAR for n in range(m.BANK)]

    def title(j):
        return f"bank’s query · key {labs[j - 1]}: weight α_{m.BANK},{j} = {fmt(b['alpha'][j - 1], 3)}"

    def data(j):
        g = dot_grid(key, j)
        return {"z": [_colour(g), None], "text": [_text(g), [fmt(x) for x in b["alpha"]]],
                "x": [cols(j), b["alpha"].tolist()], "marker.color": [None, colours(j)]}

    start = labs.index(f"6 {m.sentence(key)[5]}") + 1 if key == "A" else 1
    fig = make_subplots(rows=1, cols=2, column_widths=[0.55, 0.45], horizontal_spacing=0.16,
                        subplot_titles=("one key, coordinate by coordinate", "bank’s weights over keys 1 to 7"))
    g = dot_grid(key, start)
    fig.add_trace(_grid(g, DOT_ROWS, cols(start)), row=1, col=1)
    fig.add_trace(go.Bar(x=b["alpha"].tolist(), y=labs, orientation="h", marker_color=colours(start),
                         text=[fmt(x) for x in b["alpha"]], textposition="outside", cliponaxis=False,
                         hovertemplate="%{y}: α = %{x:.3f}<extra></extra>"), row=1, col=2)
    fig.update_layout(
        margin=dict(l=150, r=30),
        yaxis=dict(autorange="reversed"), yaxis2=dict(autorange="reversed"),
        xaxis2=dict(range=[0, 0.75], title=dict(text="weight α")),
        updatemenus=[_buttons(labs, [[data(j), {"title.text": title(j)}, [0, 1]] for j in range(1, m.BANK + 1)],
                              active=start - 1)])
    fig.update_annotations(font=dict(size=12, color="#555"))
    return _place(fig, title(start), height=450, top=110, bottom=40, above=34)


MIX_COLS = ("α_7j",) + tuple(m.V_AXES)


def mix_grid(key: str, weighted: bool) -> np.ndarray:
    """Rows 1..7: α and either v_j or α_j v_j; last row: m_7 = Σ α_j v_j."""
    b = bank(key)
    body = np.column_stack([b["alpha"], b["weighted"] if weighted else b["V"]])
    return np.vstack([body, np.concatenate([[b["alpha"].sum()], b["m"]])])


def mix_figure(key: str = "A"):
    """Toggle between the value rows and the weighted rows α_j v_j; the bottom row is the message m_7."""
    go = _go()
    rows_ = labels(m.sentence(key), m.BANK) + [f"m_{m.BANK} = Σ α v"]
    title = {False: "Value rows v_j: what each token would send",
             True: "Weighted rows α_j v_j: what each token actually sends"}
    def z(w):
        return [[float(x) for x in r] for r in mix_grid(key, w)]

    fig = go.Figure(_grid(mix_grid(key, True), rows_, MIX_COLS, per_column=False, zmax=1.1))
    fig.update_layout(
        margin=dict(l=130, r=20), yaxis=dict(autorange="reversed"), xaxis=dict(side="top"),
        updatemenus=[_buttons(["α·v products", "value rows"],
                              [[{"z": [z(w)], "text": [_text(mix_grid(key, w))]},
                                {"title.text": title[w]}] for w in (True, False)])])
    return _place(fig, title[True], height=440, top=100, bottom=20, above=30)


RESIDUAL_STEPS = ("message m_7", "W_O", "Δe_7 = m_7 W_O", "e_7 + Δe_7")
RESIDUAL_ROWS = ("Δe_7", "e_7", "e_7 + Δe_7")


def residual_panels(key: str = "A") -> list[dict[str, object]]:
    """The three panels of the W_O figure: the message (value axes), W_O, and the feature rows."""
    b = bank(key)
    mv, dE, e, new = b["m"], b["dE"], b["e"], b["e_new"]
    F, Vx = list(m.FEATURES), list(m.V_AXES)
    dE_hover = [f"Δe_7 {f} = " + " + ".join(f"{fmt(mv[a])}×{fmt(m.W_O[a, c])}" for a in range(len(Vx)))
                + f" = {fmt(dE[c])}" for c, f in enumerate(F)]
    add = [f"e {fmt(e[c])} + Δe {fmt(dE[c])} = {fmt(new[c])}" for c in range(len(F))]
    return [
        dict(rows=["m_7"], cols=Vx, M=mv[None, :], hover=[[f"m_7 {a} = {fmt(mv[i])}" for i, a in enumerate(Vx)]]),
        dict(rows=Vx, cols=F, M=m.W_O, hover=[[f"W_O: {a} → {f} = {fmt(m.W_O[i, c])}" for c, f in enumerate(F)]
                                              for i, a in enumerate(Vx)]),
        dict(rows=list(RESIDUAL_ROWS), cols=F, M=np.vstack([dE, e, new]),
             hover=[dE_hover, [f"e_7 {f} = {fmt(e[c])}" for c, f in enumerate(F)], add]),
    ]


def residual_visible(step: int) -> list[np.ndarray]:
    """Which cells of each panel are shown at step 0..3: the message, then W_O, then Δe_7, then the sum."""
    shown_rows = [1, len(m.V_AXES) if step >= 1 else 0, (step >= 2) + 2 * (step >= 3)]
    return [np.repeat((np.arange(len(p_rows)) < k)[:, None], n_cols, axis=1)
            for p_rows, k, n_cols in zip([["m_7"], m.V_AXES, RESIDUAL_ROWS], shown_rows,
                                         [len(m.V_AXES), len(m.FEATURES), len(m.FEATURES)])]


def residual_figure(key: str = "A"):
    """Play or step: m_7 (value axes) → W_O → Δe_7 (feature axes) → e_7 + Δe_7 (hover adds)."""
    go = _go()
    from plotly.subplots import make_subplots
    panels = residual_panels(key)
    final = len(RESIDUAL_STEPS) - 1

    def traces(step):
        out = []
        for p, shown in zip(panels, residual_visible(step)):
            M = np.where(shown, p["M"], np.nan)
            hover = [[h if ok else "" for h, ok in zip(hr, sr)] for hr, sr in zip(p["hover"], shown)]
            out.append(_grid(M, p["rows"], p["cols"], per_column=False, zmax=1.1, customdata=hover,
                             hover="%{customdata}<extra></extra>"))
        return out

    def title(step):
        return f"Step {step + 1} of {len(RESIDUAL_STEPS)}: {RESIDUAL_STEPS[step]}"

    fig = make_subplots(rows=3, cols=1, row_heights=[1, 2, 3], vertical_spacing=0.16,
                        subplot_titles=("message m_7 on the value axes", "W_O: value axes in, feature axes out",
                                        "the update on the feature axes, and the residual addition"))
    for r, t in enumerate(traces(final), 1):
        fig.add_trace(t, row=r, col=1)
    fig.frames = [go.Frame(name=str(n), data=traces(n), traces=[0, 1, 2], layout=dict(title=dict(text=title(n))))
                  for n in range(len(RESIDUAL_STEPS))]
    anim = dict(mode="immediate", frame=dict(duration=1000, redraw=True), transition=dict(duration=0))
    fig.update_layout(
        margin=dict(l=130, r=20),
        updatemenus=[dict(type="buttons", direction="right", x=0, y=-0.06, xanchor="left", yanchor="top",
                          showactive=False, pad=dict(t=0),
                          buttons=[dict(label="▶ Play", method="animate",
                                        args=[None, {**anim, "fromcurrent": False}])])],
        sliders=[dict(active=final, x=0.16, len=0.8, y=-0.02, yanchor="top", pad=dict(t=0),
                      currentvalue=dict(prefix="step: "),
                      steps=[dict(method="animate", label=RESIDUAL_STEPS[n],
                                  args=[[str(n)], {**anim, "frame": dict(duration=0, redraw=True)}])
                             for n in range(len(RESIDUAL_STEPS))])])
    for r, p in enumerate(panels, 1):  # fixed categories: hidden rows keep their labels
        fig.update_xaxes(side="top", type="category", categoryorder="array", categoryarray=p["cols"],
                         range=[-0.5, len(p["cols"]) - 0.5], row=r, col=1)
        fig.update_yaxes(type="category", categoryorder="array", categoryarray=p["rows"],
                         range=[len(p["rows"]) - 0.5, -0.5], row=r, col=1)
    fig.update_annotations(x=0, xanchor="left", yshift=20, font=dict(size=12, color="#555"))
    fig.layout.sliders[0].steps[-1].label = "e_7 + Δe_7  "
    return _place(fig, title(final), height=600, top=70, bottom=110, above=0)


def blend_figure():
    """Slider λ: bank's row e_7 + λ Δe_7 in both sentences, feature by feature."""
    go = _go()
    fig = go.Figure()

    def hover(key, lam):
        b = bank(key)
        return [f"{key} {f}: e {fmt(b['e'][c])} + {fmt(lam)}·Δe {fmt(b['dE'][c])} = {fmt(b['e'][c] + lam * b['dE'][c])}"
                for c, f in enumerate(m.FEATURES)]

    for key in KEYS:
        fig.add_trace(go.Bar(x=list(m.FEATURES), y=blend(key, 0.0).tolist(), name=f"{key} ({m.CONTEXT_NAMES[key]})",
                             marker_color=SENTENCE_COLOURS[key], customdata=hover(key, 0.0),
                             hovertemplate="%{customdata}<extra></extra>"))
    steps = [dict(method="update", label=fmt(lam),
                  args=[{"y": [blend(k, lam).tolist() for k in KEYS], "customdata": [hover(k, lam) for k in KEYS]},
                        {"title.text": f"bank’s row e_7 + λ·Δe_7 with λ = {fmt(lam)}"}, [0, 1]])
             for lam in BLEND_STEPS]
    fig.update_layout(
        title=dict(text=f"bank’s row e_7 + λ·Δe_7 with λ = {fmt(0.0)}", font=dict(size=14)), barmode="group",
        height=420, margin=dict(l=60, r=20, t=60, b=40), yaxis=dict(range=[0, 1.2], title=dict(text="value")),
        legend=dict(orientation="h", x=0, y=1.02, yanchor="bottom"),
        sliders=[dict(active=0, steps=steps, currentvalue=dict(prefix="λ = "), pad=dict(t=40))])
    return fig


# ---------------------------------------------------------------------------
# What the lesson cells call
# ---------------------------------------------------------------------------

NOTES = {
    "predict": "On the web page, buttons switch between sentence A and sentence B; the bars show B's "
               "distribution too.",
    "baseline": "On the web page, buttons switch between A and B; the bars stay the same.",
    "window": "On the web page, a slider sets w from 1 to 10 and updates the highlighted tokens, the shapes and "
              "the counts.",
    "pool": "On the web page, buttons choose a token to favour and a slider moves weight onto it, from the plain "
            "average to all of the weight.",
    "scores": "On the web page, hovering a score writes out its dot product topic by topic.",
    "retrieve": "On the web page, buttons switch between hard and soft retrieval and a slider sets the "
                "temperature of the soft mode.",
    "dot": "On the web page, buttons select each of the seven keys and show its dot product with bank's query.",
    "mix": "On the web page, a toggle switches between the weighted rows and the original value rows.",
    "residual": "On the web page, a play button and a step slider build the update in four steps; hovering the "
                "final row shows each addition.",
    "blend": "On the web page, a slider adds the update gradually, from none of it to all of it.",
}

_FIGURES = {"predict": prediction_figure, "baseline": lambda: prediction_figure(baseline=True),
            "window": window_figure, "pool": pool_figure, "scores": scores_figure,
            "retrieve": retrieval_figure, "dot": dot_figure, "mix": mix_figure,
            "residual": residual_figure, "blend": blend_figure}


CAPTIONS = {
    "predict": "The full model's next-word probabilities after sentence A or B (buttons).",
    "baseline": "Next-word probabilities when only the last token reaches the head, for sentence A or B.",
    "window": "A window of the last w tokens: which tokens it takes in, and what each head costs in parameters.",
    "pool": "Pooling rows 1 to 7 of sentence A with weights: the plain average, or more weight on one token.",
    "scores": "Match scores between three searches and five video descriptions (query · description).",
    "retrieve": "Retrieval for one search: hard (best match only) or soft (softmax weights at a temperature).",
    "dot": "Bank's query against each key of sentence A, coordinate by coordinate, beside all of bank's weights.",
    "mix": "Bank's message: each value row weighted by its attention weight, and their sum.",
    "residual": "The update of bank's row in four steps: message, W_O, the update Δe_7, and e_7 + Δe_7.",
    "blend": "Bank's row with a fraction λ of its update added, in both sentences.",
}


def _summary(name: str) -> str:
    """The figure `name` in words (its first state, and what the controls reach), from the same states."""
    V = list(m.VOCAB)
    if name in ("predict", "baseline"):
        if name == "baseline":
            return ("Only the last token reaches the head, and both sentences end in the same token, so the bars "
                    f"are the same for A and B: {figures.ranked(V, baseline_prediction('A'))} lead.")
        fn = full_prediction
        return " ".join(f"After sentence {k} (… {m.CONTEXT_NAMES[k]} …) the most likely next words are "
                        f"{figures.ranked(V, fn(k))}." for k in KEYS)
    if name == "window":
        ends = [window_state(w) for w in (1, len(m.sentence("A")))]
        s3 = window_state(3)
        return (f"Shown: w = 3 takes in “{' '.join(s3['words'])}” ({s3['inputs']} numbers): the MLP head has "
                f"{s3['mlp']} parameters, the direct linear head {s3['linear']}. Over w = 1 to {ends[1]['w']} "
                f"the MLP head grows from {ends[0]['mlp']} to {ends[1]['mlp']} parameters and the linear head "
                f"from {ends[0]['linear']} to {ends[1]['linear']}.")
    if name == "pool":
        avg = pool(pool_weights(None, 0.0))["summary"]
        return (f"Each of the {m.BANK} rows gets weight {1 / m.BANK:.3f}; their weighted sum m_7 is "
                + ", ".join(f"{f} {x:.2f}" for f, x in zip(m.FEATURES, avg))
                + f". Moving all the weight onto one token makes m_7 that token's row.")
    if name == "scores":
        S = search.match_scores()
        return " ".join(f"“{q}” matches best: {figures.ranked(list(search.VIDEOS), S[a], 2, 0)}."
                        for a, q in enumerate(search.QUERIES))
    if name == "retrieve":
        hard, soft = search.retrieve(SEARCH_QUERY, "hard"), search.retrieve(SEARCH_QUERY, "soft", 1.0)
        q, vids = list(search.QUERIES)[SEARCH_QUERY], list(search.VIDEOS)
        return (f"For “{q}”, hard retrieval returns {vids[int(np.argmax(hard['weights']))]} alone; soft retrieval "
                f"at temperature 1 weighs {figures.ranked(vids, soft['weights'])} and returns "
                + ", ".join(f"{a} {x:.2f}" for a, x in zip(search.VALUE_AXES, soft["returned"])) + ".")
    b = bank("A")
    labs = labels(m.sentence("A"), m.BANK)
    if name == "dot":
        return (f"Bank's weights over keys 1 to {m.BANK}: " + ", ".join(f"{l} {a:.3f}" for l, a in zip(labs, b["alpha"]))
                + f". Largest: {labs[int(np.argmax(b['alpha']))]}.")
    if name in ("mix", "residual"):
        msg = ", ".join(f"{a} {x:.2f}" for a, x in zip(m.V_AXES, b["m"]))
        if name == "mix":
            return f"The weighted rows add up to bank's message m_7: {msg}."
        return (f"m_7 ({msg}) times W_O gives Δe_7: " + ", ".join(f"{f} {x:.2f}" for f, x in zip(m.FEATURES, b["dE"]))
                + "; added to e_7 it gives " + ", ".join(f"{f} {x:.2f}" for f, x in zip(m.FEATURES, b["e_new"])) + ".")
    if name == "blend":
        return " ".join(f"Sentence {k}: from " + ", ".join(f"{f} {x:.2f}" for f, x in zip(m.FEATURES, blend(k, 0.0)))
                        + " at λ = 0 to " + ", ".join(f"{f} {x:.2f}" for f, x in zip(m.FEATURES, blend(k, 1.0)))
                        + " at λ = 1." for k in KEYS)
    raise KeyError(name)


def show(name: str):
    """One widget, by name, with its fixed div id, caption, summary and handout note."""
    return _html(figures.figure_html(_FIGURES[name](), IDS[name], CAPTIONS[name], _summary(name)),
                 figures.print_note(NOTES[name]).data)


def table(name: str):
    """One static table block, by name."""
    return _html({
        "sums_A": lambda: sum_rows_html("A"), "sums_B": lambda: sum_rows_html("B"),
        "baseline": baseline_html, "window": window_html, "pool": pool_html, "search": search_html,
        "values": values_html, "qk": qk_html, "weights": weights_html, "residual": residual_html,
        "contexts": contexts_html,
    }[name]())


def reveal(summary: str, name: str):
    """A static table block inside a <details> reveal."""
    return _html(f"<details><summary>{summary}</summary>", table(name).data, "</details>")

"""The bank update (sections 8 to 10): bank's query against every key, the weighted values, W_O and the
residual connection, and the two contexts side by side."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.palette import BAR, MARK, PURPLE, SUBTITLE, TEAL
from ...present.tables import fmt, matrix_html, position_labels, rows_html
from ...present.widgets import Print, Slide, State, Widget, cell_text, column_scaled, grid, pairs, place, update_buttons
from . import model as m
from .states.attention import BLEND_STEPS, KEYS, bank, blend, dot_terms

SENTENCE_COLOURS = {"A": TEAL, "B": PURPLE}   # teal / purple: differ in lightness too


def qk_html(key: str = "A") -> str:
    b = bank(key)
    words = m.sentence(key)
    return "".join([
        matrix_html(b["q"][None, :], [f"q_{m.BANK} (bank)"], m.QK_AXES, corner="query \\ axis",
                    name="s08_q", caption="Bank's query"),
        matrix_html(b["K"], position_labels(words[: m.BANK], 1), m.K_AXES, corner="key \\ axis", name="s08_K",
                    caption=f"Keys of positions 1 to {m.BANK} (sentence {key})"),
    ])


def weights_html(key: str = "A") -> str:
    b = bank(key)
    s = b["scores"]
    ex = np.exp(s - s.max())
    rows = [(lab, float(b["dots"][j]), float(s[j]), float(ex[j]), float(b["alpha"][j]))
            for j, lab in enumerate(position_labels(m.sentence(key)[: m.BANK], 1))]
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
                      caption="Same start, different update {claim}`bank_starts_identical update_follows_context`")
    return alpha + msgs + upd


DOT_ROWS = tuple(f"{q} · {k}" for q, k in zip(m.QK_AXES, m.K_AXES)) + ("q·k (sum)", "score = q·k / √d_k")


def dot_grid(key: str, j: int) -> np.ndarray:
    """Rows: the three QK axes, the sum, the scaled score; columns: q_7, k_j, product."""
    t = dot_terms(key, j)
    total = t[:, 2].sum()
    return np.vstack([t, [np.nan, np.nan, total], [np.nan, np.nan, total / np.sqrt(len(m.QK_AXES))]])


def dot_figure(key: str = "A"):
    """Select a key (buttons): q_7 · k_j coordinate by coordinate, beside all of bank's weights."""
    b = bank(key)
    labs = position_labels(m.sentence(key)[: m.BANK], 1)
    def cols(j):
        return [f"q_{m.BANK} (bank)", f"k_{j} ({m.sentence(key)[j - 1]})", "product"]

    def colours(j):
        return [MARK if n == j - 1 else BAR for n in range(m.BANK)]

    def title(j):
        return f"bank’s query · key {labs[j - 1]}: weight α_{m.BANK},{j} = {fmt(b['alpha'][j - 1], 3)}"

    def data(j):
        g = dot_grid(key, j)
        return {"z": [column_scaled(g), None], "text": [cell_text(g), [fmt(x) for x in b["alpha"]]],
                "x": [cols(j), b["alpha"].tolist()], "marker.color": [None, colours(j)]}

    start = labs.index(f"6 {m.sentence(key)[5]}") + 1 if key == "A" else 1
    fig = make_subplots(rows=1, cols=2, column_widths=[0.55, 0.45], horizontal_spacing=0.16,
                        subplot_titles=("one key, coordinate by coordinate", "bank’s weights over keys 1 to 7"))
    g = dot_grid(key, start)
    fig.add_trace(grid(g, DOT_ROWS, cols(start)), row=1, col=1)
    fig.add_trace(go.Bar(x=b["alpha"].tolist(), y=labs, orientation="h", marker_color=colours(start),
                         text=[fmt(x) for x in b["alpha"]], textposition="outside", cliponaxis=False,
                         hovertemplate="%{y}: α = %{text}<extra></extra>"), row=1, col=2)
    fig.update_layout(
        margin=dict(l=150, r=30),
        yaxis=dict(autorange="reversed"), yaxis2=dict(autorange="reversed"),
        xaxis2=dict(range=[0, 0.75], title=dict(text="weight α")),
        updatemenus=[update_buttons(labs, [[data(j), {"title.text": title(j)}, [0, 1]] for j in range(1, m.BANK + 1)],
                              active=start - 1)])
    fig.update_annotations(font=dict(size=12, color=SUBTITLE))
    return place(fig, title(start), height=450, top=110, bottom=40, above=34)


MIX_COLS = ("α_7j",) + tuple(m.V_AXES)


def mix_grid(key: str, weighted: bool) -> np.ndarray:
    """Rows 1..7: α and either v_j or α_j v_j; last row: m_7 = Σ α_j v_j."""
    b = bank(key)
    body = np.column_stack([b["alpha"], b["weighted"] if weighted else b["V"]])
    return np.vstack([body, np.concatenate([[b["alpha"].sum()], b["m"]])])


def mix_figure(key: str = "A"):
    """Toggle between the value rows and the weighted rows α_j v_j; the bottom row is the message m_7."""
    rows_ = position_labels(m.sentence(key)[: m.BANK], 1) + [f"m_{m.BANK} = Σ α v"]
    title = {False: "Value rows v_j: what each token would send",
             True: "Weighted rows α_j v_j: what each token actually sends"}
    def z(w):
        return [[float(x) for x in r] for r in mix_grid(key, w)]

    fig = go.Figure(grid(mix_grid(key, True), rows_, MIX_COLS, per_column=False, zmax=1.1))
    fig.update_layout(
        margin=dict(l=130, r=20), yaxis=dict(autorange="reversed"), xaxis=dict(side="top"),
        updatemenus=[update_buttons(["α·v products", "value rows"],
                              [[{"z": [z(w)], "text": [cell_text(mix_grid(key, w))]},
                                {"title.text": title[w]}] for w in (True, False)])])
    return place(fig, title[True], height=440, top=100, bottom=20, above=30)


RESIDUAL_STEPS = ("message m_7", "W_O", "Δe_7 = m_7 W_O", "e_7 + Δe_7")
RESIDUAL_PANELS = ("message m_7 on the value axes", "W_O: value axes in, feature axes out",
                   "the update on the feature axes, and the residual addition")


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
    panels = residual_panels(key)
    final = len(RESIDUAL_STEPS) - 1

    def traces(step):
        out = []
        for p, shown in zip(panels, residual_visible(step)):
            M = np.where(shown, p["M"], np.nan)
            hover = [[h if ok else "" for h, ok in zip(hr, sr)] for hr, sr in zip(p["hover"], shown)]
            out.append(grid(M, p["rows"], p["cols"], per_column=False, zmax=1.1, customdata=hover,
                             hover="%{customdata}<extra></extra>"))
        return out

    def title(step):
        return f"Step {step + 1} of {len(RESIDUAL_STEPS)}: {RESIDUAL_STEPS[step]}"

    fig = make_subplots(rows=3, cols=1, row_heights=[1, 2, 3], vertical_spacing=0.16, subplot_titles=RESIDUAL_PANELS)
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
    fig.update_annotations(x=0, xanchor="left", yshift=20, font=dict(size=12, color=SUBTITLE))
    fig.layout.sliders[0].steps[-1].label = "e_7 + Δe_7  "
    return place(fig, title(final), height=600, top=70, bottom=110, above=0)


def blend_figure():
    """Slider λ: bank's row e_7 + λ Δe_7 in both sentences, feature by feature."""
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


def qk_tables() -> HTML:
    return HTML(qk_html())


def weights_table() -> HTML:
    return HTML(weights_html())


def residual_tables() -> HTML:
    return HTML(residual_html())


def contexts_tables() -> HTML:
    return HTML(contexts_html())


def _bank_words(name: str) -> str:
    """Bank's weights, message and update in words, for the summaries."""
    b = bank("A")
    labs = position_labels(m.sentence("A")[: m.BANK], 1)
    if name == "dot":
        return (f"Bank's weights over keys 1 to {m.BANK}: " + ", ".join(f"{l} {fmt(a, 3)}" for l, a in zip(labs, b["alpha"]))
                + f". Largest: {labs[int(np.argmax(b['alpha']))]} {{about}}`reading`.")
    msg = pairs(m.V_AXES, b["m"])
    if name == "mix":
        return f"The weighted rows add up to bank's message m_7: {msg}."
    return (f"m_7 ({msg}) times W_O gives Δe_7: " + pairs(m.FEATURES, b["dE"])
            + "; added to e_7 it gives " + pairs(m.FEATURES, b["e_new"]) + ".")


def blend_summary() -> str:
    return " ".join(f"Sentence {k}: from " + pairs(m.FEATURES, blend(k, 0.0))
                    + " at λ = 0 to " + pairs(m.FEATURES, blend(k, 1.0))
                    + " at λ = 1." for k in KEYS)


DOT = Widget(
    "bh-s08-dot", "Bank's query against each key of sentence A, coordinate by coordinate, beside bank's weights.",
    dot_figure, lambda: _bank_words("dot"), min_width=680, controls="Buttons choose the key.",
    prints=Print(why="Printed for river, the key the text follows; the table after it gives each key's dot "
                     "product, score and weight."))

MIX = Widget(
    "bh-s08-mix", "Bank's message: each value row weighted by its attention weight, and their sum.",
    mix_figure, lambda: _bank_words("mix"), controls="A toggle switches between the weighted rows and the value rows.",
    prints=Print((State.opening("weighted rows α·v"), State.button("value rows v", 1))))

RESIDUAL = Widget(
    "bh-s09-residual", "The update of bank's row in four steps: message, W_O, the update Δe_7, and e_7 + Δe_7.",
    residual_figure, lambda: _bank_words("residual"), controls="A play button and a slider step through it.",
    prints=Print(why="Printed at the last of the four steps, where each panel holds its numbers: the message, "
                     "W_O, the update and the sum."),
    # on a slide the message and W_O stand on the left, the update and the sum on the right
    slide=Slide({"margin.t": 56, "margin.b": 96, "margin.l": 100,
                 "xaxis.domain": [0, 0.42], "yaxis.domain": [0.78, 0.93], "annotations[0].y": 0.93,
                 "xaxis2.domain": [0, 0.42], "yaxis2.domain": [0.06, 0.42], "annotations[1].y": 0.42,
                 "xaxis3.domain": [0.6, 1], "yaxis3.domain": [0.06, 0.6], "annotations[2].x": 0.6,
                 "annotations[2].y": 0.6,
                 "annotations[2].text": RESIDUAL_PANELS[2].replace(", and", ",<br>and")}))

BLEND = Widget(
    "bh-s10-blend", "Bank's row with a fraction λ of its update added, in both sentences.",
    blend_figure, blend_summary, min_width=0, controls="A slider sets λ.",
    slide=Slide({"margin.t": 84, "title.y": 0.97, "title.yanchor": "top"}),   # on a slide the title over the legend
    prints=lambda: Print((State.slider(f"λ = {fmt(BLEND_STEPS[0])}: none of the update", 0),
                          State.slider(f"λ = {fmt(BLEND_STEPS[-1])}: all of it", len(BLEND_STEPS) - 1))))

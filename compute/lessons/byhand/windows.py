"""Fixed windows and pooling (sections 4 and 5): what a window of w tokens takes in and costs, and a
weighted average of rows that stays four numbers wide."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.palette import BAR, EDGE, EMPTY, HIGHLIGHT, MARK, SUBTITLE, TEAL
from ...present.tables import fmt, matrix_html, position_labels, rows_html
from ...present.widgets import Print, Slide, State, Widget, cell_text, grid, pairs, place, update_buttons
from . import model as m
from .states import context
from .states.context import POOL_FOCUS, POOL_SHARES, pool, pool_weights, window_state

SHOWN_W = 3  # the window the figure opens on


def window_html() -> str:
    rows = []
    for w in range(1, len(m.sentence("A")) + 1):
        s = window_state(w)
        sh = s["shapes"]
        rows.append((w, " ".join(s["words"]), s["inputs"], f"{sh['W1'][0]}×{sh['W1'][1]}",
                     s["mlp"], f"{s['linear_shape'][0]}×{s['linear_shape'][1]}", s["linear"]))
    return rows_html(["w", "tokens in the window (sentence A)", "inputs w·d", "W1", "MLP parameters",
                      "linear W", "linear parameters"], rows,
                     caption="Each window size: what it takes in and what it costs")


def pool_html() -> str:
    words = m.sentence("A")
    p = pool(pool_weights(None, 0.0))
    e = m.rows(words).e[: m.BANK]
    M = np.vstack([e, p["summary"]])
    return matrix_html(M, position_labels(words[: m.BANK], 1) + ["plain average"], m.FEATURES,
                       corner="position word \\ feature", name="s05_pool",
                       caption="Rows 1 to 7 of sentence A and their plain average")


def window_figure(key: str = "A"):
    """Slider w = 1..10: the tokens the window takes in, and both heads' parameter counts."""
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

    start = SHOWN_W
    fig.add_trace(go.Heatmap(z=strip(start), x=position_labels(words, 1), y=["window"], text=[words], texttemplate="%{text}",
                             colorscale=[[0, EMPTY], [1, TEAL]], zmin=0, zmax=1, showscale=False,
                             xgap=2, hovertemplate="%{x}<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Bar(x=ws, y=[context.mlp_parameters(w) for w in ws], name="MLP head",
                         marker_color=BAR, hovertemplate="w = %{x}: %{y} parameters (MLP)<extra></extra>"),
                  row=2, col=1)
    fig.add_trace(go.Bar(x=ws, y=[context.linear_parameters(w) for w in ws], name="direct linear head",
                         marker_color=HIGHLIGHT, marker_line=dict(color=EDGE, width=1),
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
    words = m.sentence(key)[: m.BANK]
    labs = position_labels(words, 1)
    rows_ = labs + [f"c_{m.BANK} (sum)"]

    def state(focus, share):
        p = pool(pool_weights(focus, share, key), key)
        grid = np.vstack([p["parts"], p["summary"]])
        return p["weights"], grid

    def data(focus, share):
        w, grid = state(focus, share)
        return {"x": [w.tolist(), list(m.FEATURES)], "y": [labs, rows_], "text": [[fmt(x) for x in w], cell_text(grid)],
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
                         hovertemplate="%{y}: weight %{text}<extra></extra>"), row=1, col=1)
    fig.add_trace(grid(g0, rows_, m.FEATURES, per_column=False, zmax=1.1,
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
        updatemenus=[update_buttons([f"favour “{f}”" for f in POOL_FOCUS], buttons)],
        sliders=sliders)
    fig.update_annotations(font=dict(size=12, color=SUBTITLE))
    return place(fig, title(None, 0.0), height=500, top=110, bottom=40, above=34)


def window_table() -> HTML:
    return HTML(window_html())


def pool_table() -> HTML:
    return HTML(pool_html())


def window_summary() -> str:
    ends = [window_state(w) for w in (1, len(m.sentence("A")))]
    s3 = window_state(SHOWN_W)
    return (f"Shown: w = {SHOWN_W} takes in “{' '.join(s3['words'])}” ({s3['inputs']} numbers): the MLP head has "
            f"{s3['mlp']} parameters, the direct linear head {s3['linear']}. At w = 1 the MLP head has "
            f"{ends[0]['mlp']} parameters and the linear head {ends[0]['linear']}; at w = {ends[1]['w']}, "
            f"{ends[1]['mlp']} and {ends[1]['linear']}.")


def pool_summary() -> str:
    avg = pool(pool_weights(None, 0.0))["summary"]
    return (f"Each of the {m.BANK} rows gets weight {fmt(1 / m.BANK, 3)}; their weighted sum c_7 is "
            + pairs(m.FEATURES, avg)
            + ". Moving all the weight onto one token makes c_7 that token's row {about}`method`.")


def window_states() -> Print:
    """The windows the text cites: the largest that misses river, the first that holds it, the whole sentence."""
    words = m.sentence("A")
    cited = (*context.window_reach(words, "river"), len(words))
    return Print(tuple(State.slider(f"w = {w}", w - 1) for w in cited), columns=1, height=330)


def pool_states() -> Print:
    """The plain average, then all the weight on river, on The and on bank (the text compares them)."""
    last = len(POOL_SHARES) - 1
    favour = [State.button(f"favour “{f}”", n).then(State.slider("", last, n), f"all the weight on “{f}”")
              for n, f in enumerate(POOL_FOCUS) if f != "heron"]
    return Print((State.opening("plain average"), *favour), columns=1, height=330)


WINDOW = Widget(
    "bh-s04-window", "A window of the last w tokens: which tokens it takes in, and what each head costs in parameters.",
    window_figure, window_summary, prints=window_states, controls="A slider sets w.")

POOL = Widget(
    "bh-s05-pool", "Pooling rows 1 to 7 of sentence A with weights: the plain average, or more weight on one token {about}`method`.",
    pool_figure, pool_summary, prints=pool_states,
    controls="Buttons choose a token to favour; a slider moves weight onto it.",
    # on a slide the buttons sit on the panels' titles and each slider just under the axis title
    slide=Slide({"margin.t": 76, "margin.b": 20, "updatemenus[0].y": 1, "updatemenus[0].pad.b": 22,
                 **{f"sliders[{k}].pad.t": 44 for k in range(len(POOL_FOCUS))}}))

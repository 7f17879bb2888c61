"""Position is a design choice (section 18): additive rows, index features as the prefix grows, sine and
cosine pairs, rotations (RoPE), cross terms, and the word-order swap experiments."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.palette import BAR, HIGHLIGHT
from ...present.tables import fmt, matrix_table, rows_table
from ...present.widgets import (Print, State, Widget, arithmetic_grid, button_rows, cell_text, gaps, pairs,
                                row_button, table_axes)
from . import model as m
from .states.positions import (OMEGA, PREFIX_LENGTHS, ROPE_K, ROPE_Q, SINCOS_DELTA, SINCOS_I,
                               SWAP_ORDERS, SWAP_WORDS, WATCH_POSITION, angle_addition, cross_term_rows,
                               prefix_features, rope_rows, swap_regression_rows, swap_state)


def position_rows_table() -> HTML:
    return matrix_table(m.POSITION_ROWS, [f"position {i}" for i in range(1, 11)], m.FEATURES,
                        caption="P: the additive position rows", corner="position \\ feature", name="s18_P")


def prefix_figure():
    """A slider over the prefix length T: the index feature keeps earlier values; i / T rewrites them."""
    Tmax = PREFIX_LENGTHS[-1]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("index i", "index divided by length, i / T"),
                        horizontal_spacing=0.1)

    def ys(T):
        f = prefix_features(T)
        pad = [None] * (Tmax - T)
        return [f["index i"].tolist() + pad, f["i / T"].tolist() + pad]

    def shown(T):  # each bar's value as the hover prints it (honestly rounded)
        f = prefix_features(T)
        pad = [""] * (Tmax - T)
        return [[f"{x:g}" for x in f["index i"]] + pad, [fmt(x, 3) for x in f["i / T"]] + pad]

    def colors():
        return [HIGHLIGHT if i == WATCH_POSITION else BAR for i in range(1, Tmax + 1)]

    def title(T):
        f = prefix_features(T)
        return (f"prefix length T = {T}: position {WATCH_POSITION} has index {f['index i'][WATCH_POSITION - 1]:g}"
                f" and i / T = {fmt(f['i / T'][WATCH_POSITION - 1], 3)}")

    x = list(range(1, Tmax + 1))
    start = PREFIX_LENGTHS[0]
    for c, (y, h) in enumerate(zip(ys(start), shown(start)), 1):
        fig.add_trace(go.Bar(x=x, y=y, marker_color=colors(), customdata=h,
                             hovertemplate="position %{x}: %{customdata}<extra></extra>"), 1, c)
    steps = [dict(method="update", label=str(T), args=[{"y": ys(T), "customdata": shown(T)}, {"title.text": title(T)}])
             for T in PREFIX_LENGTHS]
    fig.update_layout(title=dict(text=title(start)), height=420, showlegend=False,
                      margin=dict(l=50, r=20, t=80, b=40), yaxis=dict(range=[0, Tmax + 1]), yaxis2=dict(range=[0, 1.05]),
                      xaxis=dict(title=dict(text="position")), xaxis2=dict(title=dict(text="position")),
                      sliders=[dict(steps=steps, active=0, currentvalue=dict(prefix="prefix length T = "),
                                    pad=dict(t=50))])
    return fig


def angle_addition_table() -> HTML:
    r = angle_addition()
    i, d = SINCOS_I, SINCOS_DELTA
    rows = [f"position i = {i}", "row 1 of T_δ", "row 2 of T_δ", f"position {i} mapped by T_δ",
            f"position i + δ = {i + d}"]
    M = np.vstack([r["at i"], r["T_δ"], r["at i · T_δ"], r["at i + δ"]])
    return matrix_table(M, rows, ["sin(iω)", "cos(iω)"], corner="row \\ feature", name="s18_sincos",
                        caption=f"Angle addition with ω = {OMEGA:g}, δ = {d}: T_δ = [[cos δω, −sin δω], [sin δω, cos δω]]")


def rope_table() -> HTML:
    return rows_table(["positions", "offset j − i", "⟨R_i q, R_j k⟩", "qᵀ R_(j−i) k"], rope_rows(),
                      caption=f"RoPE with q = {ROPE_Q.tolist()}, k = {ROPE_K.tolist()}, ω = {OMEGA:g}", decimals=4)


def cross_term_table() -> HTML:
    return rows_table(["positions", "u·v", "u·p_j", "p_i·v", "p_i·p_j", "total"], cross_term_rows(),
                      caption=f"Additive positions p = (sin iω, cos iω), ω = {OMEGA:g}, gap 2 each time",
                      decimals=3)


def swap_row_labels(order) -> list[str]:
    """Each row's word after its place in `order` ("2 dog"): the rows stay in word order, the places swap."""
    return [f"{list(order).index(w) + 1} {w}" for w in SWAP_ROWS]


def swap_figure():
    """Four states (two orders × positions on/off): each word's output row, rows kept in the same word order."""
    rows, cols = SWAP_ROWS, SWAP_COLS
    fig = make_subplots(rows=1, cols=2, subplot_titles=("input x = token (+ position)", "output Σ α x"),
                        horizontal_spacing=0.15)

    def state(order, pos):
        s = swap_state(order, pos)
        hov_in = [[f"{w}: {fmt(v)}" for v in row] for w, row in zip(rows, s["x"])]
        hov_out = [[f"{w}'s output: {fmt(v)}" for v in row] for w, row in zip(rows, s["out"])]
        return s, [(s["x"], hov_in), (s["out"], hov_out)]

    s, parts = state(SWAP_ORDERS[0], True)
    for c, (M, h) in enumerate(parts, 1):
        fig.add_trace(arithmetic_grid(M, swap_row_labels(SWAP_ORDERS[0]), cols, h, zmin=-0.6, zmax=1.6), 1, c)
    table_axes(fig)
    buttons = []
    for pos in (True, False):
        for order in SWAP_ORDERS:
            s, parts = state(order, pos)
            label = f"“{' '.join(order)}”, " + ("with positions" if pos else "no positions")
            buttons.append(dict(method="update", label=label,
                                args=[{"z": [gaps(M) for M, _ in parts], "text": [cell_text(M) for M, _ in parts],
                                       "customdata": [h for _, h in parts],
                                       "y": [swap_row_labels(order)] * len(parts)}, {"title.text": label}]))
    for a in fig.layout.annotations:
        a.y += 0.13
    fig.update_layout(title=dict(text=buttons[0]["label"], y=0.98), height=340,
                      margin=dict(l=70, r=20, t=150, b=20),
                      updatemenus=button_rows(buttons, 2, y=1.3, pad_b=0, active=0, font=dict(size=11)))
    return fig


def swap_regression_table() -> HTML:
    r = swap_regression_rows()
    return matrix_table(np.vstack(list(r.values())), list(r), [f"p({w})" for w in SWAP_WORDS], decimals=4,
                        corner="sentence \\ next word", name="s18_swap",
                        caption="Sentence A and its swap: next-word probabilities of the water words")


def prefix_summary() -> str:
    first, last = prefix_features(PREFIX_LENGTHS[0]), prefix_features(PREFIX_LENGTHS[-1])
    return (f"Position {WATCH_POSITION} keeps index {first['index i'][WATCH_POSITION - 1]:g} for every prefix "
            f"length, but its i / T falls from {fmt(first['i / T'][WATCH_POSITION - 1], 3)} at T = {PREFIX_LENGTHS[0]} "
            f"to {fmt(last['i / T'][WATCH_POSITION - 1], 3)} at T = {PREFIX_LENGTHS[-1]} "
            "{claim}`length_scaling_changes_earlier_features`.")


SWAP_ROWS, SWAP_COLS = ["dog", "bites"], ["coord 1", "coord 2"]


def swap_summary() -> str:
    def outs(order, pos):
        o = swap_state(order, pos)["out"]
        return "; ".join(f"{w} ({pairs(SWAP_COLS, row)})" for w, row in zip(SWAP_ROWS, o))
    return " ".join(f"“{' '.join(order)}”, {'with' if pos else 'no'} positions: outputs {outs(order, pos)}."
                    for pos in (True, False) for order in SWAP_ORDERS)


PREFIX = Widget(
    "bh-s18-prefix", "Two position features as the prefix lengthens: the index i, and the index divided by "
    "the length, i / T.", prefix_figure, prefix_summary, controls="A slider sets the prefix length.",
    prints=Print(tuple(State.slider(f"prefix length T = {PREFIX_LENGTHS[k]}", k) for k in (0, -1))))

SWAP = Widget(
    "bh-s18-swap", "Each word's input and output row for two word orders, with and without positions.",
    swap_figure, swap_summary, controls="Buttons choose the order and whether positions are added.",
    prints=Print(tuple(row_button(f"“{' '.join(order)}”, " + ("with positions" if pos else "no positions"), k, 2)
                       for k, (pos, order) in enumerate((p, o) for p in (True, False) for o in SWAP_ORDERS)),
                 columns=1, height=260))

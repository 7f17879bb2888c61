"""The causal mask (section 13): one row's weights and message with the mask on and off, and the rule."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.palette import ACCENT, BAR
from ...present.tables import fmt, matrix_table, position_labels, rows_table
from ...present.widgets import Print, State, Widget, pairs, sub
from . import model as m
from .states.attention import MASK_ROW, causal_mask, mask_states, sentence_att


def mask_figure(key: str = "A", row: int = MASK_ROW):
    words = m.sentence(key)
    st = mask_states(key, row)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.72, 0.28], horizontal_spacing=0.1,
                        subplot_titles=(f"weights of row {row} ({words[row - 1]}) over sources j",
                                        f"message m{sub(row)} = Σ α v"))
    colors = [BAR if j <= row else ACCENT for j in range(1, len(words) + 1)]
    on = st["mask on"]
    fig.add_trace(go.Bar(x=position_labels(words, 1), y=on["alpha"].tolist(), marker_color=colors,
                         text=[fmt(x) for x in on["alpha"]], textposition="outside",
                         hovertemplate="α from %{x} = %{text}<extra></extra>"), 1, 1)
    fig.add_trace(go.Bar(x=list(m.V_AXES), y=on["message"].tolist(), marker_color=BAR,
                         text=[fmt(x) for x in on["message"]], textposition="outside",
                         hovertemplate="%{x}: %{text}<extra></extra>"), 1, 2)

    def title(name):
        fut = st[name]["alpha"][row:].sum()
        return f"{name}: weight on future positions {row + 1}–{len(words)} = {fmt(fut)}"

    buttons = [dict(method="update", label=name,
                    args=[{"y": [s["alpha"].tolist(), s["message"].tolist()],
                           "text": [[fmt(x) for x in s["alpha"]], [fmt(x) for x in s["message"]]]},
                          {"title.text": title(name)}]) for name, s in st.items()]
    fig.update_layout(title=dict(text=title("mask on"), y=0.97), height=430, showlegend=False,
                      margin=dict(l=50, r=20, t=120, b=60),
                      yaxis=dict(range=[0, 1.1]), yaxis2=dict(range=[0, 1.1]),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.22,
                                        xanchor="left", yanchor="bottom")])
    return fig


def mask_row_table(key: str = "A", row: int = MASK_ROW) -> HTML:
    words = m.sentence(key)
    _, att = sentence_att(key)
    T = len(words)
    st = mask_states(key, row)
    M = np.vstack([att.S[row - 1], causal_mask(T)[row - 1], att.S[row - 1] + causal_mask(T)[row - 1],
                   st["mask on"]["alpha"], st["mask off"]["alpha"]])
    return matrix_table(M, ["score s", "mask", "s + mask", "weight, mask on", "weight, mask off"],
                        position_labels(words, 1), corner=f"row {row} \\ source", name="s13_row",
                        caption=f"Row {row} ({words[row - 1]}) of sentence {key}")


def rule_rows(T: int = 4) -> list[list[str]]:
    words = m.sentence("A")[:T]
    lab = position_labels(words, 1)
    return [[lab[i]] + ["✓" if j <= i else "✗" for j in range(T)] for i in range(T)]


def rule_table(T: int = 4) -> HTML:
    lab = position_labels(m.sentence("A")[:T], 1)
    return rows_table(["receiver i \\ source j"] + lab, rule_rows(T),
                      caption="✓ allowed (j ≤ i), ✗ blocked (j > i)")


def mask_summary(key: str = "A", row: int = MASK_ROW) -> str:
    words = m.sentence(key)
    st = mask_states(key, row)
    on, off = st["mask on"], st["mask off"]
    return (f"Row {row} ({words[row - 1]}) with the mask on: weights over sources "
            + pairs(position_labels(words, 1), on["alpha"]) + f"; weight on the future {fmt(on['alpha'][row:].sum())}. "
            f"With the mask off the future gets {fmt(off['alpha'][row:].sum())}, and the message changes from "
            f"({pairs(m.V_AXES, on['message'])}) to ({pairs(m.V_AXES, off['message'])}).")


MASK = Widget(
    "bh-s13-mask", f"Weights and message of row {MASK_ROW} with the causal mask on and with it off.",
    mask_figure, mask_summary, controls="Buttons switch the mask on and off.",
    prints=Print((State.button("mask on", 0), State.button("mask off", 1))))

"""Scaling (section 12): why scores are divided by √d_k, measured on random pairs, shown on two keys and on
a slider over the divisor, and why softmax subtracts the maximum first."""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...present.numbers import shown
from ...present.palette import ACCENT, BAR, GUIDE
from ...present.prose import said
from ...present.tables import fmt, matrix_table, position_labels, rows_table
from ...present.widgets import Print, State, Widget, pairs
from . import model as m
from .states import scaling
from .states.scaling import (DIVISOR_DK, DIVISORS, RANDOM_DK, bank_scaled_rows, divisor_scores, divisor_weights,
                             random_entries, saturation_rows, stable_rows)


def random_entries_table(d_k: int = RANDOM_DK) -> HTML:
    r = random_entries(d_k)
    M = np.vstack([r["q"], r["k"], r["qk"]])
    M = np.hstack([M, [[np.nan], [np.nan], [r["dot"]]]])
    cols = [f"coord {c}" for c in range(1, d_k + 1)] + ["sum"]
    return matrix_table(M, ["query q", "key k", "q × k"], cols, caption=f"One random pair, d_k = {d_k}",
                        corner="row \\ coordinate", name="s12_random", missing="")   # a sum for the products alone


def spread_figure():
    """Measured variance of q·k (raw and divided by √d_k) over many random pairs, against d_k."""
    s = scaling.measured_spread()
    d = s["d_k"].tolist()
    fig = go.Figure([
        go.Scatter(x=d, y=d, mode="lines", name="d_k (the derivation)", line=dict(color=GUIDE, dash="dot"),
                   hoverinfo="skip"),
        go.Scatter(x=d, y=s["raw"].tolist(), mode="markers+lines", name="var(q·k), raw",
                   marker=dict(color=BAR, size=9), customdata=[fmt(x, 3) for x in s["raw"]],
                   hovertemplate="d_k = %{x}: var = %{customdata}<extra>raw</extra>"),
        go.Scatter(x=d, y=s["scaled"].tolist(), mode="markers+lines", name="var(q·k / √d_k), scaled",
                   marker=dict(color=ACCENT, size=9, symbol="diamond"), customdata=[fmt(x, 3) for x in s["scaled"]],
                   hovertemplate="d_k = %{x}: var = %{customdata}<extra>scaled</extra>"),
    ])
    fig.update_layout(height=400, margin=dict(l=60, r=20, t=30, b=50), legend=dict(x=0.02, y=0.98),
                      xaxis=dict(type="log", title=dict(text="d_k (coordinates per query and key)"),
                                 tickvals=d),
                      yaxis=dict(type="log", title=dict(text=f"variance over {scaling.N_PAIRS} pairs")))
    return fig


def saturation_table() -> HTML:
    return rows_table(["d_k", "score gap √d_k", "top weight, raw", "slope a(1−a), raw",
                       "top weight, scaled", "slope a(1−a), scaled"], saturation_rows(),
                      caption="Two keys, scores one spread apart", decimals=4)


def divisor_figure():
    """A slider over the divisor: softmax of fixed scores divided by 1 … 8 (√d_k = 4 marked)."""
    s = divisor_scores()
    keys = [f"key {j}" for j in range(1, 6)]
    sq = math.sqrt(DIVISOR_DK)

    def title(c):
        w = divisor_weights(c)
        mark = " = √d_k" if c == sq else ""
        return f"scores ÷ {shown(c, '.2f')}{mark}: largest weight {fmt(w.max(), 3)}"

    start = DIVISORS.index(sq)
    hover = [f"score {fmt(x)}" for x in s]
    fig = go.Figure(go.Bar(x=keys, y=divisor_weights(sq).tolist(), marker_color=BAR, customdata=hover,
                           text=[fmt(x) for x in divisor_weights(sq)], textposition="outside",
                           hovertemplate="%{x}: %{customdata}, weight %{text}<extra></extra>"))
    steps = [dict(method="update", label=(f"{c:g}" + ("=√d_k" if c == sq else "")) if c == int(c) else "",
                  args=[{"y": [divisor_weights(c).tolist()], "text": [[fmt(x) for x in divisor_weights(c)]]},
                        {"title.text": title(c)}]) for c in DIVISORS]
    fig.update_layout(title=dict(text=title(sq)), height=420, margin=dict(l=60, r=20, t=50, b=40),
                      yaxis=dict(range=[0, 1.1], title=dict(text="softmax weight")),
                      sliders=[dict(steps=steps, active=start, currentvalue=dict(prefix="divisor: ", visible=False),
                                    pad=dict(t=40))])
    return fig


def variance_reveal() -> HTML:
    """The variance derivation, in a reveal."""
    body = (r"\[\operatorname{Var}(q\cdot k)=\sum_{l=1}^{d_k}\operatorname{Var}(q_l k_l)"
            r"=\sum_{l=1}^{d_k}\mathbb{E}[q_l^2]\,\mathbb{E}[k_l^2]=d_k,\qquad"
            r"\operatorname{Var}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right)=\frac{d_k}{d_k}=1.\]")
    text = said("Each product has mean zero, since the two factors are independent with mean zero. Its variance "
                "is the product of the two second moments, which is one. Independent terms add their variances, so "
                "the sum over the coordinates has variance equal to their number {about}`general`. Dividing a "
                "quantity by a constant divides its variance by the square of that constant {about}`general`.")
    return HTML(f"<details><summary>Derive the variance of q·k</summary><p>{text}</p>"
                f'<div class="math notranslate nohighlight">{body}</div></details>')


def stable_table() -> HTML:
    r = stable_rows()
    return matrix_table(np.vstack(list(r.values())), list(r), ["key 1", "key 2", "key 3"],
                        caption="Stable softmax keeps every probability; scaling changes them (overflow: exp "
                        "overflowed, and the naive softmax divides infinity by infinity) "
                        "{claim}`stable_softmax_agrees shift_keeps_weights_scaling_changes_them`",
                        corner="row \\ source", name="s12_stable", missing="overflow")


def bank_scaled_table(key: str = "A") -> HTML:
    r = bank_scaled_rows(key)
    dk = m.W_K.shape[1]
    return matrix_table(np.column_stack([r["raw"], r["scaled"], r["alpha"]]), position_labels(r["words"], 1),
                        ["q₇·kⱼ", f"q₇·kⱼ / √{dk}", "weight α₇ⱼ"], corner="source j",
                        caption=f"The bank query in sentence {key}, scaled by √d_k with d_k = {dk}", name="s12_bank")


def spread_summary() -> str:
    s = scaling.measured_spread()
    d = s["d_k"].tolist()
    return (f"Over {scaling.N_PAIRS} random pairs, the raw variance of q·k grows with d_k "
            "{claim}`score_spread_grows_like_dk`: " + pairs([f"d_k = {x}:" for x in d], s["raw"])
            + ". Divided by √d_k it is near one at every d_k {claim}`score_spread_grows_like_dk`: "
            + pairs([f"d_k = {x}:" for x in d], s["scaled"]) + ".")


def divisor_summary() -> str:
    s, sq = divisor_scores(), math.sqrt(DIVISOR_DK)
    return (f"Five fixed scores ({', '.join(fmt(x) for x in s)}) divided by a divisor, then softmax. "
            f"Divisor 1: largest weight {fmt(divisor_weights(1.0).max(), 3)}; divisor √d_k = {sq:g}: weights "
            f"{', '.join(fmt(x) for x in divisor_weights(sq))}; divisor {DIVISORS[-1]:g}: largest weight "
            f"{fmt(divisor_weights(DIVISORS[-1]).max(), 3)} {{about}}`reading`.")


def divisor_states() -> Print:
    """No division, √d_k and the largest divisor: the text follows the largest weight from one to the next."""
    sq = math.sqrt(DIVISOR_DK)
    return Print(tuple(State.slider(label, DIVISORS.index(d)) for label, d in
                       ((f"divisor {DIVISORS[0]:g}", DIVISORS[0]), (f"divisor √d_k = {sq:g}", sq),
                        (f"divisor {DIVISORS[-1]:g}", DIVISORS[-1]))), columns=3, height=330)


SPREAD = Widget(
    "bh-s12-spread", "Measured variance of q·k, raw and divided by √d_k, against d_k (both axes logarithmic).",
    spread_figure, spread_summary, min_width=0)

DIVISOR = Widget(
    "bh-s12-divisor", "Softmax weights of five fixed scores divided by a divisor; a larger "
    "divisor spreads the weight {claim}`divisor_flattens_weights`.", divisor_figure, divisor_summary, prints=divisor_states, min_width=0,
    controls="A slider sets the divisor.")

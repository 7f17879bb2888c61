"""Plotly figures for the lessons, emitted as HTML that uses the site's own plotly.js."""
from __future__ import annotations

import html
import json
import math

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from IPython.display import HTML

from .data import VOCAB
from .tables import position_labels

COLORSCALE = "Viridis"  # perceptually even and readable with colour-blindness
FONT = dict(family="system-ui, -apple-system, 'Segoe UI', sans-serif", size=13)
CONFIG = {"displaylogo": False, "responsive": True}
DEFAULT_HEIGHT = 450  # plotly.js's own, for a figure whose layout sets none


def figure_html(fig: go.Figure, div_id: str, caption: str, summary: str) -> str:
    """The figure as <figure>: an empty plotly div (fixed id, stable across builds) at the figure's
    height, the figure's JSON beside it for _static/figures.js to draw when the reader nears it,
    a visible caption, and `summary`, the figure in words, as its accessible description
    (visually hidden). A figure with frames waits for its Play button instead of animating."""
    if not caption.strip() or not summary.strip():
        raise ValueError(f"figure {div_id}: a caption and a summary are required")
    fig.update_layout(font=FONT, template="plotly_white")
    height = fig.layout.height or DEFAULT_HEIGHT
    # The div keeps the figure's height before it is drawn, so nothing moves when it is.
    # The figcaption comes last: HTML allows it only as a <figure>'s first or last child.
    return (f'<figure class="plotly-figure" aria-describedby="{div_id}-summary">'
            f'<div id="{div_id}" class="plotly-graph-div" style="height:{height}px; width:100%;"></div>'
            f'<script type="application/json" class="plotly-figure-spec" data-for="{div_id}">'
            f'{figure_json(fig)}</script>'
            f'<p class="figure-summary" id="{div_id}-summary">{html.escape(summary)}</p>'
            f'<figcaption>{html.escape(caption)}</figcaption></figure>')


def figure_json(fig: go.Figure) -> str:
    """{"data", "layout", "frames", "config"} for Plotly.newPlot, safe inside a <script> element."""
    spec = json.loads(pio.to_json(fig, validate=False, pretty=False))
    spec["config"] = CONFIG
    # The template's trace defaults only for the trace types drawn (plotly_white has ~40 types).
    template = spec["layout"].get("template", {})
    if "data" in template:
        used = {trace.get("type", "scatter") for trace in spec["data"]}
        template["data"] = {kind: v for kind, v in template["data"].items() if kind in used}
    # '<' occurs in JSON only inside strings, where \u003c means the same: no '</script>' in it.
    return json.dumps(spec, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def show(fig: go.Figure, div_id: str, caption: str, summary: str) -> HTML:
    """figure_html, ready to display in a notebook cell."""
    return HTML(figure_html(fig, div_id, caption, summary))


def ranked(labels, values, n: int = 3, decimals: int = 2) -> str:
    """The n largest values with their labels, largest first: 'fall 0.62, rise 0.21, of 0.05'."""
    order = np.argsort(-np.asarray(values, dtype=float), kind="stable")[:n]
    return ", ".join(f"{labels[k]} {float(values[k]):.{decimals}f}" for k in order)


def attention_heatmap(A: np.ndarray, S: np.ndarray, tokens, title: str) -> go.Figure:
    """A as a heatmap over (query row, key column); hover gives the scaled score and weight.
    Masked cells (key after query) are left blank."""
    labels = position_labels(tokens)
    T = len(tokens)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    z = np.where(future, np.nan, A)                       # (T, T)
    scores = np.where(future, np.nan, S)                  # (T, T)
    custom = np.dstack([scores, np.broadcast_to(np.array(labels)[:, None], (T, T)),
                        np.broadcast_to(np.array(labels)[None, :], (T, T))])
    fig = go.Figure(go.Heatmap(
        z=z, x=labels, y=labels, customdata=custom, colorscale=COLORSCALE, zmin=0, zmax=1,
        hoverongaps=False, colorbar=dict(title=dict(text="weight")),
        hovertemplate="query %{customdata[1]} → key %{customdata[2]}<br>"
                      "score s = %{customdata[0]:.2f}<br>weight a = %{z:.3f}<extra></extra>"))
    fig.update_layout(title=dict(text=title), height=520, margin=dict(l=90, r=20, t=50, b=90),
                      xaxis=dict(title=dict(text="key position j"), tickangle=-45),
                      yaxis=dict(title=dict(text="query position i"), autorange="reversed"))
    return fig


def next_token_bars(probs: np.ndarray, tokens, start: int) -> go.Figure:
    """Next-word probabilities at one position, with a slider to move along the sentence."""
    labels = position_labels(tokens)

    def title(i):
        return f"After “{' '.join(tokens[: i + 1])}”: next word"
    fig = go.Figure(go.Bar(x=list(VOCAB), y=probs[start].tolist(), marker_color="#3b528b",
                           hovertemplate="p(%{x}) = %{y:.4f}<extra></extra>"))
    steps = [dict(method="update", label=labels[i],
                  args=[{"y": [probs[i].tolist()]}, {"title.text": title(i)}])
             for i in range(len(tokens))]
    fig.update_layout(
        title=dict(text=title(start)), height=440, margin=dict(l=60, r=20, t=60, b=40),
        yaxis=dict(range=[0, 1.05], title=dict(text="probability")),
        sliders=[dict(active=start, steps=steps, currentvalue=dict(prefix="position "),
                      pad=dict(t=50))])
    return fig


def loss_curve(history: list[float], n_coin_flips: int, n_targets: int) -> go.Figure:
    """Training loss per Adam step against the floor that the data allows."""
    floor = loss_floor(n_coin_flips, n_targets)
    steps = list(range(len(history)))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=steps, y=history, mode="lines", name="mean loss",
                             line=dict(color="#21918c"),
                             hovertemplate="step %{x}: %{y:.4f} nats<extra></extra>"))
    fig.add_trace(go.Scatter(x=[0, steps[-1]], y=[floor, floor], mode="lines",
                             name=f"floor {n_coin_flips}·ln2/{n_targets} = {floor:.4f}",
                             line=dict(color="#440154", dash="dash"), hoverinfo="skip"))
    fig.update_layout(height=380, margin=dict(l=60, r=20, t=30, b=50),
                      xaxis=dict(title=dict(text="Adam step")),
                      yaxis=dict(title=dict(text="loss (nats per target)"), type="log"),
                      legend=dict(x=0.55, y=0.95))
    return fig


def pattern_bars(counts: dict[str, int], highlight: str) -> go.Figure:
    """How many converged seeds found each attention pattern of rows 5 and 13."""
    labels = list(counts)
    fig = go.Figure(go.Bar(
        x=[counts[k] for k in labels], y=labels, orientation="h",
        marker_color=["#fde725" if k == highlight else "#3b528b" for k in labels],
        hovertemplate="%{y}: %{x} seeds<extra></extra>"))
    fig.update_layout(height=max(260, 26 * len(labels) + 80), margin=dict(l=220, r=20, t=20, b=50),
                      xaxis=dict(title=dict(text="converged seeds")),
                      yaxis=dict(autorange="reversed"))
    return fig


def loss_floor(n_coin_flips: int, n_targets: int) -> float:
    return n_coin_flips * math.log(2) / n_targets


def print_note(text: str) -> HTML:
    """A note shown only in the printed handout, e.g. which other states a widget has on the page."""
    return HTML(f'<p class="print-only widget-note">{html.escape(text)}</p>')

"""Training: the three models' learning curves on one figure, and what each run cost."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.numbers import shown
from ...present.palette import ACCENT, BAR, GUIDE, TEAL
from ...present.tables import fmt, rows_html
from ...present.widgets import Print, Slide, State, Widget, update_buttons
from ...probes import KIND_NAMES
from ...published.story import CHECK_STORIES, LABELS, MODELS, NAMES, ONE_HEAD, load
from .states import evaluation as ev

COLOURS = {"mlp": ACCENT, "one-head": TEAL, "four-head": BAR}
SHOWN_KIND = "object"  # the accuracy panel opens on it


def curve_figure() -> go.Figure:
    """Validation loss (top) and one kind's probe accuracy (below) against training tokens, stacked so that a phone
    shows both without scrolling sideways; buttons choose the kind."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.16,
                        subplot_titles=("validation loss (nats per token)", "probe accuracy within kind"))
    for kind in MODELS:
        c = ev.learning_curve(NAMES[kind])
        x = [p["tokens"] / 1e6 for p in c]
        line = dict(color=COLOURS[kind])
        fig.add_trace(go.Scatter(x=x, y=[p["val_loss"] for p in c], name=LABELS[kind], line=line, legendgroup=kind,
                                 hovertemplate="%{x:.1f}M tokens: loss %{y:.3f}<extra>" + LABELS[kind] + "</extra>"),
                      row=1, col=1)
        fig.add_trace(go.Scatter(x=x, y=[p[SHOWN_KIND] for p in c], name=LABELS[kind], line=line, legendgroup=kind,
                                 showlegend=False, text=_printed(c, SHOWN_KIND),
                                 hovertemplate="%{x:.1f}M tokens: %{text}<extra>" + LABELS[kind] + "</extra>"),
                      row=2, col=1)
    chance = ev.chances()
    fig.add_trace(go.Scatter(x=[0, x[-1]], y=[chance[SHOWN_KIND]] * 2, name="chance", mode="lines",
                             line=dict(color=GUIDE, dash="dot"), hoverinfo="skip"), row=2, col=1)

    def args(kind):
        curves = [ev.learning_curve(NAMES[m]) for m in MODELS]
        ys = [[p[kind] for p in c] for c in curves] + [[chance[kind]] * 2]
        texts = [_printed(c, kind) for c in curves] + [["", ""]]
        return [{"y": ys, "text": texts}, {"title.text": f"Accuracy on {kind}s during training"},
                [1, 3, 5, 6]]

    fig.update_layout(height=640, margin=dict(l=60, r=20, t=110, b=50),
                      title=dict(text=f"Accuracy on {SHOWN_KIND}s during training", font=dict(size=13),
                                 x=0.01, xref="container", y=0.98),
                      legend=dict(orientation="h", x=0, y=-0.14),
                      yaxis2=dict(range=[0, 1.05]),
                      updatemenus=[update_buttons(list(KIND_NAMES), [args(k) for k in KIND_NAMES],
                                                  active=KIND_NAMES.index(SHOWN_KIND), y=1.123)])
    fig.update_xaxes(title=dict(text="training tokens (millions)"), row=2, col=1)
    fig.update_annotations(font=dict(size=12))
    return fig


def _printed(curve: list[dict], kind: str) -> list[str]:
    """One kind's accuracies as the hover prints them (never rounded to exactly 1 or 0)."""
    return ["" if p.get(kind) is None else fmt(p[kind], 2) for p in curve]


def curve_summary() -> str:
    parts = []
    for kind in MODELS:
        c = ev.learning_curve(NAMES[kind])
        parts.append(f"{LABELS[kind]}: loss {fmt(c[0]['val_loss'], 2)} at the first point and "
                     f"{fmt(c[-1]['val_loss'], 2)} at the last, "
                     + ", ".join(f"{k} {fmt(c[-1][k], 2)}" for k in KIND_NAMES))
    j = ev.sudden_jump(ONE_HEAD, "object")
    return ("; ".join(parts) + f". The one-head model's object accuracy jumps from {fmt(j['before'], 2)} to "
            f"{fmt(j['after'], 2)} between {fmt(j['from_tokens'] / 1e6, 1)}M and {fmt(j['to_tokens'] / 1e6, 1)}M tokens "
            "{claim}`copying_appears_suddenly`.")


CURVES = Widget(
    "st-training-curves", "Learning curves of the three models on one token budget: validation loss, and probe "
    f"accuracy within one kind, each point scored on the first {CHECK_STORIES} validation stories (the tables of "
    "the measured comparison score all of them) {about}`method`.", curve_figure, curve_summary, controls="Buttons choose the kind.", min_width=0,
    prints=lambda: Print(tuple(State.button(kind, k) for k, kind in enumerate(KIND_NAMES)), height=480),
    # on a slide the two panels side by side
    slide=Slide({"xaxis.domain": [0, 0.44], "yaxis.domain": [0, 1], "annotations[0].x": 0.22, "margin.t": 100,
                 "xaxis2.domain": [0.56, 1], "yaxis2.domain": [0, 1], "annotations[1].x": 0.78,
                 "annotations[1].y": 1, "yaxis2.ticklabelstandoff": 6}))


def budget_table() -> HTML:
    rows = []
    for kind in MODELS:
        m = load(NAMES[kind]).manifest
        r = m["recipe"]
        rows.append((LABELS[kind], m["parameters"], m["steps"], f"{r['batch']} × {r['context']}",
                     shown(m['tokens_seen'] / 1e6, ".1f") + "M", float(m["train_seconds"])))
    return HTML(rows_html(["model", "parameters", "steps", "batch", "tokens", "seconds"],
                          rows, caption="One token budget, three models (training time on 2 CPU threads, "
                                        "evaluations excluded)", decimals=0))

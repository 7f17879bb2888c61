"""The measured comparison: one table of size, cost, loss and probe accuracy, and accuracy against distance."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML

from ...present.palette import GUIDE
from ...present.tables import fmt, rows_html
from ...present.widgets import Print, State, Widget, update_buttons
from ...probes import BUCKETS, KIND_NAMES, bucket_label
from ...published.story import LABELS, MODELS, NAMES
from .states import evaluation as ev
from .training import COLOURS

SHOWN_KIND = "name"


def cost_table() -> HTML:
    c = ev.comparison()
    rows = [(LABELS[k], v["parameters"], round(v["train_seconds"]), v["val_loss"]) for k, v in c.items()]
    return HTML(rows_html(["model", "parameters", "training seconds", "validation loss"], rows, decimals=3,
                          caption="Size, cost and validation loss (nats per token)"))


def accuracy_table() -> HTML:
    c, chance = ev.comparison(), ev.chances()
    rows = [(LABELS[k], *[v[kind] for kind in KIND_NAMES], v["name among mentioned"]) for k, v in c.items()]
    rows.append(("chance", *[chance[k] for k in KIND_NAMES], 0.5))
    return HTML(rows_html(["model", *KIND_NAMES, "names: right of those mentioned"], rows, decimals=3,
                          caption="Probe accuracy within kind on the same validation stories {about}`design`"))


def distance_table() -> HTML:
    rows = [(LABELS[m], kind, *ev.by_distance(NAMES[m], kind)) for kind in KIND_NAMES for m in MODELS]
    return HTML(rows_html(["model", "kind", *[f"{bucket_label(b)} back" for b in BUCKETS]],
                          [tuple("" if v is None else v for v in r) for r in rows], decimals=2,
                          caption="Accuracy within kind by distance to the deciding mention"))


def distance_figure() -> go.Figure:
    labels = [bucket_label(b) for b in BUCKETS]
    fig = go.Figure()
    for m in MODELS:
        fig.add_trace(go.Scatter(x=labels, y=ev.by_distance(NAMES[m], SHOWN_KIND), name=LABELS[m],
                                 mode="lines+markers", line=dict(color=COLOURS[m]),
                                 text=_printed(ev.by_distance(NAMES[m], SHOWN_KIND)),
                                 hovertemplate="%{x} tokens back: %{text}<extra>" + LABELS[m] + "</extra>"))
    chance = ev.chances()
    fig.add_trace(go.Scatter(x=labels, y=[chance[SHOWN_KIND]] * len(labels), name="chance", mode="lines",
                             line=dict(color=GUIDE, dash="dot"), hoverinfo="skip"))

    def args(kind):
        return [{"y": [ev.by_distance(NAMES[m], kind) for m in MODELS] + [[chance[kind]] * len(labels)],
                 "text": [_printed(ev.by_distance(NAMES[m], kind)) for m in MODELS] + [[""] * len(labels)]},
                {"title.text": f"{kind.capitalize()}s: accuracy against distance"}]

    fig.update_layout(height=420, margin=dict(l=60, r=20, t=100, b=50),
                      title=dict(text=f"{SHOWN_KIND.capitalize()}s: accuracy against distance", font=dict(size=13),
                                 x=0.01, xref="container", y=0.97),
                      xaxis=dict(title=dict(text="tokens back to the deciding mention"), type="category"),
                      yaxis=dict(range=[0, 1.05], title=dict(text="accuracy within kind")),
                      legend=dict(orientation="h", x=0, y=-0.2),
                      updatemenus=[update_buttons(list(KIND_NAMES), [args(k) for k in KIND_NAMES],
                                                  active=KIND_NAMES.index(SHOWN_KIND), y=1.12)])
    return fig


def _printed(values: list[float | None]) -> list[str]:
    """Accuracies as the hover prints them (never rounded to exactly 1 or 0)."""
    return ["" if v is None else fmt(v, 2) for v in values]


def distance_summary() -> str:
    parts = []
    for m in MODELS:
        acc = ev.by_distance(NAMES[m], SHOWN_KIND)
        parts.append(f"{LABELS[m]} " + ", ".join(f"{bucket_label(b)}: {fmt(a, 2)}" for b, a in zip(BUCKETS, acc)
                                                 if a is not None))
    return "Name accuracy by distance (tokens back): " + "; ".join(parts) + ". Buttons show the other kinds."


DISTANCE = Widget(
    "st-comparison-distance", "Probe accuracy of the three models against the distance to the deciding mention.",
    distance_figure, distance_summary, controls="Buttons choose the kind.",
    prints=lambda: Print(tuple(State.button(kind, k) for k, kind in enumerate(KIND_NAMES)), height=360))

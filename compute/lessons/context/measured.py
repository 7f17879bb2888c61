"""Measuring (Part 2B, sections 3-4): the stored timings as figures and tables, and where they were taken."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML

from ...costs import MIXERS
from ...measure.context import LENGTHS, STORY
from ...present.palette import ACCENT, BAR, TEAL
from ...present.tables import fmt, rows_html
from ...present.widgets import Widget, update_buttons
from .counts import COLOURS, t_axis
from .published import timings
from .states.growth import LARGE_T, measured, measured_slope

MEASURES = (("forward", "forward pass"), ("token uncached", "new token, nothing kept"),
            ("token cached", "new token, cache kept"))
BUTTONS = ("forward", "no cache", "with cache")     # short enough for a phone
STORY_LABELS = {"story-mlp": "MLP, window of 8", "story-one-head": "1 layer × 1 head",
                "story-four-head": "2 layers × 4 heads"}
STORY_COLOURS = dict(zip(STORY, (ACCENT, TEAL, BAR)))


def where_measured() -> str:
    m = timings().measured_on
    return (f"{m['cpu']}, {m['threads']} thread, torch {m['torch']} ({m['instruction_set']} kernels), "
            f"on {m['date']}; medians of {timings().repeats} runs")


def _ms(seconds):
    return [s * 1000 for s in seconds]


def _state(measure: str, label: str) -> list:
    """Plotly update args for one measure: each mixer's times and a name with its fitted slope."""
    xs, ys, names = [], [], []
    for m in MIXERS:
        T, sec = measured(m, measure)
        xs.append(T)
        ys.append(_ms(sec))
        names.append(f"{m} (slope {fmt(measured_slope(m, measure))} from T = {LARGE_T})" if len(T) > 2 else m)
    return [{"x": xs, "y": ys, "name": names}, {"title.text": f"Measured: {label}"}]


def mixer_figure() -> go.Figure:
    """Measured milliseconds against T (log-log) for the three mixers; buttons choose the measure."""
    first = _state(*MEASURES[0])[0]
    fig = go.Figure([go.Scatter(x=x, y=y, mode="lines+markers", name=n, line=dict(color=COLOURS[m]),
                                hovertemplate="T = %{x}: %{y:.4f} ms<extra>" + m + "</extra>")
                     for m, x, y, n in zip(MIXERS, first["x"], first["y"], first["name"])])
    fig.update_layout(height=460, margin=dict(l=60, r=20, t=100, b=50),
                      title=dict(text=f"Measured: {MEASURES[0][1]}", font=dict(size=13), x=0.01, xref="container",
                                 y=0.97),
                      xaxis=t_axis(LENGTHS),
                      yaxis=dict(type="log", dtick=1, title=dict(text="milliseconds (median)")),
                      legend=dict(orientation="h", x=0, y=-0.2),
                      updatemenus=[update_buttons(list(BUTTONS),
                                                  [_state(m, label) for m, label in MEASURES], y=1.1)])
    return fig


def mixer_summary() -> str:
    return ("Fitted slopes of measured time from T = " + str(LARGE_T) + ": " + "; ".join(
        f"{m} {label} {fmt(measured_slope(m, measure))}" for m in MIXERS for measure, label in MEASURES
        if len(measured(m, measure)[0]) > 2) + f". Measured on {where_measured()}.")


MIXER_TIMES = Widget(
    "ctx-measured-mixers", "Measured time of the three mixers against T (log-log): a forward pass, or one new "
    "token with or without its cache (buttons).", mixer_figure, mixer_summary,
    note="On the web page, buttons switch between the forward pass and a new token with or without the cache; "
         "the figure shows the forward pass, and the table below gives every fitted slope.")


def slope_table() -> HTML:
    rows = []
    for m in MIXERS:
        rows.append((m, *(fmt(measured_slope(m, measure)) if len(measured(m, measure)[0]) > 2 else "—"
                          for measure, _ in MEASURES)))
    return HTML(rows_html(["mixer", *[label for _, label in MEASURES]], rows,
                          caption=f"Measured growth with T: log-log slope fitted from T = {LARGE_T} "
                                  "to the longest T measured"))


def story_figure() -> go.Figure:
    """Measured milliseconds per new token of the story models, with and without the KV cache."""
    fig = go.Figure()
    for name in STORY:
        for measure, dash in (("token uncached", "dot"), ("token cached", "solid")):
            T, s = measured(name, measure)
            if not T:
                continue
            label = f"{STORY_LABELS[name]}, {'cache kept' if measure == 'token cached' else 'nothing kept'}"
            fig.add_trace(go.Scatter(x=T, y=_ms(s), mode="lines+markers", name=label,
                                     line=dict(color=STORY_COLOURS[name], dash=dash),
                                     hovertemplate="T = %{x}: %{y:.3f} ms<extra>" + label + "</extra>"))
    fig.update_layout(height=520, margin=dict(l=60, r=20, t=30, b=50),
                      xaxis=t_axis(story_lengths(), "tokens already in the context"),
                      yaxis=dict(type="log", dtick=1, title=dict(text="milliseconds per new token (median)")),
                      legend=dict(orientation="h", x=0, y=-0.22, font=dict(size=11)))
    return fig


def story_lengths() -> list[int]:
    return sorted({t for name in STORY for m in ("token uncached", "token cached") for t in measured(name, m)[0]})


def story_summary() -> str:
    parts = []
    for name in STORY:
        for measure in ("token uncached", "token cached"):
            T, s = measured(name, measure)
            if T:
                parts.append(f"{STORY_LABELS[name]} {measure}: {s[0] * 1000:.3f} ms at T = {T[0]}, "
                             f"{s[-1] * 1000:.3f} ms at T = {T[-1]}")
    return "; ".join(parts) + "."


STORY_TIMES = Widget(
    "ctx-measured-story", "Measured time per new token of Part III's story models, with the KV cache (solid) and "
    "reading everything again (dotted).", story_figure, story_summary,
    note="Solid lines keep the KV cache, dotted ones read everything again; the MLP's line stays flat because it "
         "reads only its window.")

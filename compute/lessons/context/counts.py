"""Counting (Part 2B, sections 1-2): the cost formulas as a table, a widget over T and d, counted growth."""
from __future__ import annotations

import textwrap

import plotly.graph_objects as go
from IPython.display import HTML

from ...costs import MIXERS, costs
from ...present.palette import ACCENT, BAR, TEAL
from ...present.tables import fmt, rows_html
from ...present.widgets import Print, Slide, State, Widget
from .states.growth import LENGTHS, SHOWN_D, SHOWN_T, WIDTHS, counted, counted_slope

COLOURS = dict(zip(MIXERS, (ACCENT, TEAL, BAR)))


def t_axis(lengths, title: str = "context length T (tokens)") -> dict:
    """A log axis of context lengths, labelled flat at every other length when there are many (room on a phone)."""
    ticks = list(lengths)[::2] if len(lengths) > 5 else list(lengths)
    return dict(type="log", tickvals=ticks, tickangle=0, title=dict(text=title))


FIELDS = (("parameters", "parameters"), ("forward", "forward pass (MACs)"), ("training", "training pass (MACs)"),
          ("token_uncached", "new token, no cache, all read again (MACs)"),
          ("token_recomputed", "new token, no cache, only its needs recomputed (MACs)"),
          ("token_cached", "new token, cache kept (MACs)"),
          ("activations", "activations (numbers)"), ("kept", "kept between tokens (numbers)"))


def cost_table(T: int = SHOWN_T, d: int = SHOWN_D) -> HTML:
    rows = [(label, *[getattr(costs(m, T, d), field) for m in MIXERS]) for field, label in FIELDS]
    return HTML(rows_html(["at T = %d, d = %d" % (T, d), *MIXERS], [(r[0], *[f"{v:,}" for v in r[1:]]) for r in rows],
                          caption="Counted cost of each way to read a context"))


def _bars(T: int, d: int) -> list[list[int]]:
    return [[getattr(costs(m, T, d), f) for f, _ in FIELDS] for m in MIXERS]


def _title(T: int, d: int) -> str:
    return f"Counted cost at T = {T} tokens of width d = {d}"


def _cost_sliders() -> list[dict]:
    """A T slider for each d and a d slider for each T; one of each is visible.

    Moving one slider redraws the bars for (T, d) and shows the other slider's
    copy that belongs to the new value, standing on the unchanged one, so the
    two compose although every state is computed here, at build time.
    """
    nT = len(WIDTHS)                                   # sliders[0 .. nT-1] choose T; sliders[nT + j] choose d

    def step(T, d, label, show, active_at):
        layout = {"title.text": _title(T, d), **{f"sliders[{i}].visible": i == show for i in show_range(show)},
                  f"sliders[{show}].active": active_at}
        return dict(method="update", label=label, args=[{"y": _bars(T, d)}, layout])

    def show_range(show):
        return range(nT) if show < nT else range(nT, nT + len(LENGTHS))

    t_sliders = [dict(active=LENGTHS.index(SHOWN_T), visible=d == SHOWN_D, pad=dict(t=110),
                      currentvalue=dict(prefix="context length T = "),
                      steps=[step(T, d, str(T), nT + j, k) for j, T in enumerate(LENGTHS)])
                 for k, d in enumerate(WIDTHS)]
    d_sliders = [dict(active=WIDTHS.index(SHOWN_D), visible=T == SHOWN_T, pad=dict(t=190),
                      currentvalue=dict(prefix="token width d = "),
                      steps=[step(T, d, str(d), k, j) for k, d in enumerate(WIDTHS)])
                 for j, T in enumerate(LENGTHS)]
    return t_sliders + d_sliders


def cost_figure() -> go.Figure:
    """Bars (log scale) of every count for the three mixers; a slider for T and one for d (all states built here)."""
    labels = [label for _, label in FIELDS]
    fig = go.Figure([go.Bar(x=labels, y=ys, name=m, marker_color=COLOURS[m],
                            hovertemplate="%{x}: %{y:,}<extra>" + m + "</extra>")
                     for m, ys in zip(MIXERS, _bars(SHOWN_T, SHOWN_D))])
    fig.update_layout(height=640, margin=dict(l=60, r=20, t=90, b=40), barmode="group",
                      title=dict(text=_title(SHOWN_T, SHOWN_D), font=dict(size=13), x=0.01, xref="container",
                                 y=0.97),
                      yaxis=dict(type="log", title=dict(text="count (log scale)")), xaxis=dict(tickangle=-25),
                      # under the title: one row on a wide screen, three on a phone (room kept for three)
                      legend=dict(orientation="h", x=0, yref="container", y=1 - 30 / 640, yanchor="top"),
                      sliders=_cost_sliders())
    return fig


def cost_summary() -> str:
    parts = []
    for T in (LENGTHS[0], LENGTHS[-1]):
        c = {m: costs(m, T, SHOWN_D) for m in MIXERS}
        parts.append(f"At T = {T}, d = {SHOWN_D}: forward MACs " + ", ".join(f"{m} {c[m].forward:,}" for m in MIXERS)
                     + "; a new token with its cache " + ", ".join(f"{m} {c[m].token_cached:,}" for m in MIXERS) + ".")
    return " ".join(parts) + " One slider chooses T, the other d."


def cost_states() -> Print:
    """The counts at the T and d of the text's table, and at the longest context for the same d."""
    slider = WIDTHS.index(SHOWN_D)  # the T slider of this d (one per d; _cost_sliders)
    return Print(tuple(State.slider(f"T = {T}, d = {SHOWN_D}", LENGTHS.index(T), slider)
                       for T in (SHOWN_T, LENGTHS[-1])), columns=1, height=420)


def cost_slide() -> Slide:
    """On a slide: the bars' names upright on a few lines, the legend under the title, the two sliders side by side."""
    labels, nT = [label for _, label in FIELDS], len(WIDTHS)
    return Slide({"margin.t": 64, "margin.b": 10, "margin.l": 50, "margin.r": 4, "legend.y": 0.9, "yaxis.dtick": 2,
                  "xaxis.tickangle": 0, "xaxis.tickvals": labels,
                  "xaxis.ticktext": ["<br>".join(textwrap.wrap(label, 10, break_long_words=False)) for label in labels],
                  **{f"sliders[{i}].pad.t": 110 for i in range(nT + len(LENGTHS))},
                  **{f"sliders[{i}].len": 0.56 for i in range(nT)},
                  **{f"sliders[{nT + j}].{key}": value for j in range(len(LENGTHS))
                     for key, value in (("x", 0.62), ("len", 0.38))}})


COSTS = Widget(
    "ctx-cost-counts", "The counts of the three ways to read a context, at a context length T and a width d "
    "(log scale).", cost_figure, cost_summary, prints=cost_states, controls="A slider chooses T, another d.",
    slide=cost_slide())


GROWTH_FIELDS = (("forward", "forward pass"), ("token_uncached", "new token, no cache"),
                 ("token_cached", "new token, cache kept"))


def growth_figure() -> go.Figure:
    """Counted MACs against T (log-log) for each mixer: forward pass and a new token with and without a cache."""
    fig = go.Figure()
    dashes = {"forward": "solid", "token_uncached": "dot", "token_cached": "dash"}
    for m in MIXERS:
        for field, label in GROWTH_FIELDS:
            s = counted_slope(m, field, SHOWN_D)
            fig.add_trace(go.Scatter(x=list(LENGTHS), y=counted(m, field, SHOWN_D), mode="lines+markers",
                                     name=f"{m}: {label} (slope {fmt(s)})",
                                     line=dict(color=COLOURS[m], dash=dashes[field]),
                                     hovertemplate="T = %{x}: %{y:,} MACs<extra>" + f"{m}, {label}" + "</extra>"))
    fig.update_layout(height=640, margin=dict(l=60, r=20, t=30, b=50),
                      xaxis=t_axis(LENGTHS),
                      yaxis=dict(type="log", dtick=1, title=dict(text=f"multiply-adds (d = {SHOWN_D})")),
                      legend=dict(font=dict(size=10), orientation="h", x=0, y=-0.15, yanchor="top"))
    return fig


def growth_summary() -> str:
    return ("Counted growth with T (slope of the log-log line over the last three lengths, d = "
            f"{SHOWN_D}): " + "; ".join(f"{m} {label} {fmt(counted_slope(m, f, SHOWN_D))}"
                                       for m in MIXERS for f, label in GROWTH_FIELDS) + ".")


GROWTH = Widget(
    "ctx-cost-growth", "Counted multiply-adds against context length T, on log-log axes: a straight line of slope s "
    "means the work grows like T to the power s {about}`general`; the legend gives each line's slope.", growth_figure, growth_summary,
    # on a slide the legend stands beside the lines, not under them
    slide=Slide({"legend.orientation": "v", "legend.x": 1.02, "legend.xanchor": "left", "legend.y": 1,
                 "legend.yanchor": "top", "margin.r": 4}))


def mixer_table() -> HTML:
    rows = [(m, *(fmt(counted_slope(m, f, SHOWN_D)) for f, _ in GROWTH_FIELDS)) for m in MIXERS]
    return HTML(rows_html(["mixer", *[label for _, label in GROWTH_FIELDS]], rows,
                          caption=f"Counted growth with T (log-log slope over T = {LENGTHS[-3]}, {LENGTHS[-2]} and "
                                  f"{LENGTHS[-1]}, d = {SHOWN_D})"))

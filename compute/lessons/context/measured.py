"""Measuring (Part 2B, sections 3-4): the stored timings as figures and tables, and where they were taken."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML

from ...costs import MIXERS
from ...present.numbers import shown
from ...present.palette import ACCENT, BAR, TEAL
from ...present.tables import fmt, rows_html
from ...present.widgets import Print, State, Widget, update_buttons
from ...published.story import LABELS, MODELS, NAMES
from ...published.timings import LENGTHS, STORY, VARIANTS, timings
from .counts import COLOURS, t_axis
from .states import recompute as rc
from .states.growth import LARGE_T, at, measured, measured_slope, record

MEASURES = (("forward", "forward pass"), ("token uncached", "new token, no cache"),
            ("token cached", "new token, cache kept"))
BUTTONS = ("forward", "no cache", "with cache")     # short enough for a phone
STORY_LABELS = {NAMES[k]: LABELS[k] for k in MODELS}
STORY_COLOURS = dict(zip(STORY, (ACCENT, TEAL, BAR)))
VARIANT_DASHES = dict(zip(VARIANTS, ("dash", "dot")))   # averaging's other forward passes: its colour, dashed
# What each timed forward pass runs (compute/nn/mixers.py), for the kernel table.
KERNELS = (("average", "as written: torch.ones, torch.tril and a division build the T × T averaging matrix; "
                       "its product with X; W"),
           (VARIANTS[0], "the same product with the matrix built once, before the timing; W"),
           (VARIANTS[1], "torch.cumsum of X divided by 1, 2, …, T; W"),
           ("attend", "X W_Q, X W_K, X W_V; torch's scaled_dot_product_attention with the causal mask (a fused "
                      "kernel); W_O"))
MB = 1e6


def where_measured(t=None) -> str:
    """Where and how a timings file was measured (the main one unless another is given)."""
    t = t or timings()
    m = t.measured_on
    return (f"{m['cpu']}, {m['threads']} thread, torch {m['torch']} ({m['instruction_set']} kernels), "
            f"on {m['date']}; medians of {t.repeats} runs")


def _ms(seconds):
    return [s * 1000 for s in seconds]


def _label(model: str, measure: str) -> str:
    T = measured(model, measure)[0]
    return f"{model}, slope {fmt(measured_slope(model, measure))}" if len(T) > 2 else model   # short: a phone's width


def _state(measure: str, label: str) -> list:
    """Plotly update args for one measure: each mixer's times and a name with its fitted slope; averaging's other
    forward passes are drawn in the forward view only."""
    xs, ys, names, shown = [], [], [], []
    for m in MIXERS:
        T, sec = measured(m, measure)
        xs.append(T)
        ys.append(_ms(sec))
        names.append(_label(m, measure))
        shown.append(True)
    for v in VARIANTS:
        T, sec = measured(v, measure)
        xs.append(T)
        ys.append(_ms(sec))
        names.append(_label(v, measure) if T else v)
        shown.append(bool(T))
    return [{"x": xs, "y": ys, "name": names, "visible": shown}, {"title.text": f"Measured: {label}"}]


def mixer_figure() -> go.Figure:
    """Measured milliseconds against T (log-log) for the three mixers, and averaging's other two forward passes
    (dashed); buttons choose the measure."""
    first = _state(*MEASURES[0])[0]
    models = [*MIXERS, *VARIANTS]
    colours = {**COLOURS, **{v: COLOURS["average"] for v in VARIANTS}}
    fig = go.Figure([go.Scatter(x=x, y=y, mode="lines+markers", name=n, visible=vis,
                                line=dict(color=colours[m], dash=VARIANT_DASHES.get(m, "solid")),
                                hovertemplate="T = %{x}: %{y:.4f} ms<extra>" + m + "</extra>")
                     for m, x, y, n, vis in zip(models, first["x"], first["y"], first["name"], first["visible"])])
    fig.update_layout(height=500, margin=dict(l=60, r=20, t=100, b=50),
                      title=dict(text=f"Measured: {MEASURES[0][1]}", font=dict(size=13), x=0.01, xref="container",
                                 y=0.97),
                      xaxis=t_axis(LENGTHS),
                      yaxis=dict(type="log", dtick=1, title=dict(text="milliseconds (median)")),
                      legend=dict(orientation="h", x=0, y=-0.2),
                      updatemenus=[update_buttons(list(BUTTONS),
                                                  [_state(m, label) for m, label in MEASURES], y=1.1)])
    return fig


def mixer_summary() -> str:
    T = LENGTHS[-1]
    return ("Fitted slopes of measured time from T = " + str(LARGE_T) + ": " + "; ".join(
        f"{m} {label} {fmt(measured_slope(m, measure))}" for m in MIXERS for measure, label in MEASURES
        if len(measured(m, measure)[0]) > 2) + ". Forward pass at T = " + str(T) + ": " + "; ".join(
        f"{m} {fmt(at(m, 'forward', T) * 1000)} ms" for m in (*MIXERS[1:], *VARIANTS))
        + f". Measured on {where_measured()}.")


MIXER_TIMES = Widget(
    "ctx-measured-mixers", "Measured time of the three mixers against T (log-log): a forward pass, or one new "
    "token with or without its cache; dashed, averaging's forward pass with its matrix kept and as a "
    f"running sum. Each slope is fitted from T = {LARGE_T}.", mixer_figure, mixer_summary, min_width=0,
    controls="Buttons switch between the forward pass and a new token with or without the cache.",
    prints=Print((State.button("forward pass", 0), State.button("new token, no cache", 1),
                  State.button("new token, cache kept", 2)), columns=1, height=380))


def slope_table() -> HTML:
    rows = []
    for m in (*MIXERS, *VARIANTS):
        rows.append((m, *(fmt(measured_slope(m, measure)) if len(measured(m, measure)[0]) > 2 else "—"
                          for measure, _ in MEASURES)))
    return HTML(rows_html(["mixer", *[label for _, label in MEASURES]], rows,
                          caption=f"Measured growth with T: log-log slope fitted from T = {LARGE_T} "
                                  "to the longest T measured {about}`method`"))


def recompute_table() -> HTML:
    """A new attention token three ways at every T timed, with the cache's speed-up measured and counted."""
    ways = (rc.UNCACHED, rc.RECOMPUTED, rc.CACHED)
    rows = [(T, *(fmt(rc.seconds(m, T) * 1000, 3) for m in ways), fmt(rc.speedup(rc.RECOMPUTED, T), 1),
             fmt(rc.counted_speedup(rc.RECOMPUTED, T), 1)) for T in LENGTHS]
    return HTML(rows_html(["T", *(f"{rc.WAYS[m]} (ms)" for m in ways), "cache's speed-up over recomputing, timed",
                           "… counted"], rows,
                          caption=f"One new attention token (d = {rc.D}) three ways, timed side by side: "
                                  f"{where_measured(rc.recompute_timings())}"))


def kernel_rows(T: int, before: int) -> list[tuple]:
    """Each timed forward pass: what it runs, its time at `before` and at T, and what one call at T allocates."""
    rows = []
    for model, runs in KERNELS:
        mem = [record(model, "forward", T, f) for f in ("largest_bytes", "allocated_bytes", "peak_bytes")]
        rows.append((model, runs, fmt(at(model, "forward", before) * 1000), fmt(at(model, "forward", T) * 1000),
                     *(fmt(b / MB) for b in mem), fmt(record(model, "forward", T, "faults"), 0)))
    return rows


def kernel_table() -> HTML:
    T = LENGTHS[-1]
    before = LENGTHS[-2]
    return HTML(rows_html(["forward pass", "what it runs", f"ms at T = {before}", f"ms at T = {T}",
                           "largest block (MB)", "allocated in all (MB)", "held at once (MB)",
                           "page faults per call"], kernel_rows(T, before),
                          caption=f"What each timed forward pass runs, its median time, and what one call at T = {T} "
                                  "allocates (torch's profiler; MB of 10^6 bytes) and the fresh pages the "
                                  "operating system mapped in for it (page faults)"))


def story_figure() -> go.Figure:
    """Measured milliseconds per new token of the story models, with and without the KV cache."""
    fig = go.Figure()
    for name in STORY:
        for measure, dash in (("token uncached", "dot"), ("token cached", "solid")):
            T, s = measured(name, measure)
            if not T:
                continue
            label = f"{STORY_LABELS[name]}, {'cache kept' if measure == 'token cached' else 'no cache'}"
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
                parts.append(f"{STORY_LABELS[name]} {measure}: {shown(s[0] * 1000, '.3f')} ms at T = {T[0]}, "
                             f"{shown(s[-1] * 1000, '.3f')} ms at T = {T[-1]}")
    return "; ".join(parts) + "."


STORY_TIMES = Widget(
    "ctx-measured-story", "Measured time per new token of Part III's story models, with the KV cache (solid) and "
    "reading everything again (dotted).", story_figure, story_summary, min_width=0,
    prints=Print(height=320))   # short enough on paper to sit under the short section that cites it

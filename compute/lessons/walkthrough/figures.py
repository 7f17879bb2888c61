"""The walkthrough's figures: loss curve, attention heatmap, next-word bars, seed patterns."""
from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...data.walkthrough import VOCAB, data_facts, loss_floor
from ...present.numbers import shown
from ...present.figures import ranked
from ...present.palette import BAR, COLORSCALE, HIGHLIGHT, PURPLE, TEAL
from ...present.tables import fmt, position_labels, rows_html
from ...present.widgets import Print, Slide, State, Widget
from .claims import CUE_FALL, FALL, RISE, ROW_FAST, ROW_SLOW
from .history import loss_spike
from ...published.walkthrough import ALTERNATIVE, Walkthrough, load
from .seeds import pattern_counts, seed_record


def attention_heatmap(A: np.ndarray, S: np.ndarray, tokens, title: str) -> go.Figure:
    """A as a heatmap over (query row, key column); hover gives the scaled score and weight, written in
    Python (a weight that is not exactly 1 never reads 1.000). Masked cells (key after query) are left blank."""
    labels = position_labels(tokens)
    T = len(tokens)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    z = np.where(future, np.nan, A)                       # (T, T)
    custom = [[["" if future[i, j] else fmt(S[i, j], 2), labels[i], labels[j],
                "" if future[i, j] else fmt(A[i, j], 2)] for j in range(T)] for i in range(T)]
    fig = go.Figure(go.Heatmap(
        z=z, x=labels, y=labels, customdata=custom, colorscale=COLORSCALE, zmin=0, zmax=1,
        hoverongaps=False, colorbar=dict(title=dict(text="weight", side="right")),
        hovertemplate="query %{customdata[1]} → key %{customdata[2]}<br>"
                      "score s = %{customdata[0]}<br>weight a = %{customdata[3]}<extra></extra>"))
    fig.update_layout(title=dict(text=title), height=520, margin=dict(l=90, r=20, t=50, b=90),
                      xaxis=dict(title=dict(text="key position j"), tickangle=-45),
                      yaxis=dict(title=dict(text="query position i"), autorange="reversed"))
    return fig


def next_token_bars(probs: np.ndarray, tokens, start: int) -> go.Figure:
    """Next-word probabilities at one position, with a slider to move along the sentence. The hover text is
    written in Python, so a probability that is not exactly 1 or 0 never reads 1.0000 or 0.0000."""
    labels = position_labels(tokens)

    def title(i):
        return f"Next word after position {i} ({tokens[i]})"

    def texts(i):
        return [fmt(p, 4) for p in probs[i]]
    fig = go.Figure(go.Bar(x=list(VOCAB), y=probs[start].tolist(), customdata=texts(start), marker_color=BAR,
                           hovertemplate="p(%{x}) = %{customdata}<extra></extra>"))
    steps = [dict(method="update", label=labels[i],
                  args=[{"y": [probs[i].tolist()], "customdata": [texts(i)]}, {"title.text": title(i)}])
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
                             line=dict(color=TEAL),
                             hovertemplate="step %{x}: %{y:.4f} nats<extra></extra>"))
    fig.add_trace(go.Scatter(x=[0, steps[-1]], y=[floor, floor], mode="lines",
                             name=f"floor {n_coin_flips}·ln2/{n_targets} = {shown(floor, '.4f')}",
                             line=dict(color=PURPLE, dash="dash"), hoverinfo="skip"))
    spike = loss_spike(history, floor)
    fig.add_annotation(x=spike["step"], y=float(np.log10(spike["loss"])), text=f"step {spike['step']}",
                       showarrow=True, arrowhead=2, ax=0, ay=-40)
    ticks = log_ticks(min(history), max(history))
    fig.update_layout(height=380, margin=dict(l=60, r=20, t=30, b=50),
                      xaxis=dict(title=dict(text="Adam step")),
                      # labelled ticks only: plotly's own minor labels on a log axis read "2, 1, 9 ... 3, 2"
                      yaxis=dict(title=dict(text="loss (nats per target, log scale)"), type="log",
                                 tickvals=ticks, ticktext=[f"{t:g}" for t in ticks]),
                      legend=dict(x=0.55, y=0.95))
    return fig


def log_ticks(low: float, high: float) -> list[float]:
    """1, 2, 5 times powers of ten from just below `low` to just above `high`."""
    out = [m * 10.0 ** e for e in range(int(np.floor(np.log10(low))), int(np.ceil(np.log10(high))) + 1)
           for m in (1, 2, 5)]
    below = max(t for t in out if t <= low)
    above = min(t for t in out if t >= high)
    return [round(t, 12) for t in out if below <= t <= above]


def pattern_bars(counts: dict[str, int], highlight: str) -> go.Figure:
    """How many converged seeds found each attention pattern of rows 5 and 13."""
    labels = list(counts)
    fig = go.Figure(go.Bar(
        x=[counts[k] for k in labels], y=labels, orientation="h",
        marker_color=[HIGHLIGHT if k == highlight else BAR for k in labels],
        hovertemplate="%{y}: %{x} seeds<extra></extra>"))
    fig.update_layout(height=max(260, 26 * len(labels) + 80), margin=dict(l=220, r=20, t=20, b=50),
                      xaxis=dict(title=dict(text="converged seeds")),
                      yaxis=dict(autorange="reversed"))
    return fig


def attention_summary(wt: Walkthrough) -> str:
    """Where each row of A puts most of its weight, in words."""
    A, tokens = wt["A"], wt.tokens
    tops = [f"{i} “{tokens[i]}” → {int(np.argmax(A[i]))} “{tokens[int(np.argmax(A[i]))]}” ({fmt(A[i].max(), 2)})"
            for i in range(len(tokens))]
    return ("Each query row attends only to itself and earlier keys (later cells are blank) {about}`design`. "
            "Largest weight in each row, query → key (weight): " + "; ".join(tops) + " {about}`reading`.")


def attention_plot(wt: Walkthrough, title: str = "Attention weights A") -> go.Figure:
    return attention_heatmap(wt["A"], wt["S"], wt.tokens, title)


def probability_summary(start: int = ROW_FAST) -> str:
    wt = load()
    probs, tokens = wt["probs"], wt.tokens
    tops = [f"after {i} “{tokens[i]}”: “{VOCAB[int(np.argmax(probs[i]))]}” ({fmt(probs[i].max(), 2)})"
            for i in range(len(tokens))]
    return (f"At position {start} (“{tokens[start]}”) the most likely next words are "
            f"{ranked(list(VOCAB), probs[start])} {{about}}`reading`. The most likely next word at each position: "
            + "; ".join(tops) + " {about}`reading`.")


def probability_print_table(n: int = 3):
    """For the handout: the n likeliest next words at every position (the figure prints four of them)."""
    wt = load()
    probs, tokens = wt["probs"], wt.tokens
    rows = [(f"{i} {tokens[i]}",
             *(f"{VOCAB[k]} {fmt(probs[i, k], 2)}" for k in np.argsort(-probs[i], kind="stable")[:n]))
            for i in range(len(tokens))]
    table = rows_html(["position", *(f"choice {k + 1}" for k in range(n))], rows,
                      caption="The likeliest next words at each position {about}`reading`")
    return HTML(f'<div class="print-only">{table}</div>')


def loss_plot() -> go.Figure:
    facts = data_facts()
    return loss_curve(load().manifest["loss_history"], facts["n_coin_flips"], facts["n_targets"])


def loss_summary() -> str:
    wt, facts = load(), data_facts()
    history = wt.manifest["loss_history"]
    floor = loss_floor(facts["n_coin_flips"], facts["n_targets"])
    return (f"The mean loss is {shown(history[0], '.3f')} nats per target at the first of {wt.manifest['steps']} AdamW "
            f"steps and {shown(history[-1], '.4f')} at the last (log scale), just above the floor of {shown(floor, '.4f')} that "
            f"{facts['n_coin_flips']} two-way choices among {facts['n_targets']} targets allow "
            "{claim}`final_loss_just_above_floor`.")


LESSON_PATTERN = f"{ROW_SLOW} → {RISE}, {ROW_FAST} → {FALL}"


def pattern_summary() -> str:
    counts = pattern_counts(seed_record())
    def quoted(pattern: str) -> str:   # "5 → rise" -> "5 → “rise”": the words are tokens, not verbs
        return re.sub(r"→ (\w+)", r"→ “\1”", pattern)
    return (f"Converged seeds per pattern (the word rows {ROW_SLOW} and {ROW_FAST} attend to most): "
            + "; ".join(f"{quoted(k)}: {n}" for k, n in counts.items()) + " {about}`reading`.")


def _seed() -> int:
    return load(ALTERNATIVE).manifest["seed"]


# The page's figures, one Widget each (compute.present.widgets): built when shown, from the published checkpoints.
LOSS = Widget(id="fig-loss", caption="Training loss per AdamW step against the floor that the data allows.",
              figure=loss_plot, summary=loss_summary)
# On a slide an attention map keeps a label on every row: the margins give the rows their room.
ATTENTION_SLIDE = Slide({"margin.t": 36, "margin.b": 80, "yaxis.dtick": 1})
ATTENTION = Widget(id="fig-attention", caption="Attention weights A of the published model: one row per query "
                   "position, one column per key position, the masked future blank.",
                   figure=lambda: attention_plot(load()), summary=lambda: attention_summary(load()),
                   slide=ATTENTION_SLIDE)
def next_word_states() -> Print:
    """The positions the text cites: the two the data decides by attention, "but the" (just before the second
    cue), and the opening coin flip."""
    tokens = load().tokens
    cited = (ROW_SLOW, CUE_FALL - 1, ROW_FAST, 0)
    return Print(tuple(State.slider(f"after position {i} ({tokens[i]})", i) for i in cited),
                 height=300)


NEXT_WORD = Widget(id="fig-next-word",
                   caption="Next-word probabilities of the published model at each position of the sentence.",
                   figure=lambda: next_token_bars(load()["probs"], load().tokens, ROW_FAST),
                   summary=probability_summary, prints=next_word_states,
                   controls="A slider chooses the position.")
SEED_PATTERNS = Widget(id="fig-seed-patterns",
                       caption=f"The number of converged seeds that found each attention pattern of rows {ROW_SLOW} and "
                               f"{ROW_FAST}; the lesson's pattern is highlighted.",
                       figure=lambda: pattern_bars(pattern_counts(seed_record()), LESSON_PATTERN),
                       summary=pattern_summary,
                       prints=Print(height=360))  # 11 px a pattern on paper: it fits beside the text before it
ALTERNATIVE_ATTENTION = Widget(
    id="fig-attention-alt",
    caption=lambda: f"Attention weights A of seed {_seed()}, a converged solution whose row {ROW_FAST} looks elsewhere.",
    figure=lambda: attention_plot(load(ALTERNATIVE), f"Attention weights of seed {_seed()}"),
    summary=lambda: attention_summary(load(ALTERNATIVE)), slide=ATTENTION_SLIDE)


def block_diagram() -> HTML:
    """The walkthrough's model, drawn from its configuration (compute.present.diagram)."""
    from ...models.walkthrough import CONFIG
    from ...present.diagram import block_figure, described
    return HTML(block_figure(CONFIG, f"The walkthrough's model, drawn from its configuration: {described(CONFIG)}."))

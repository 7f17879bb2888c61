"""Four ways to mix the context (section 17): a fixed window, a plain mean, distance weights, attention."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...present.figures import ranked
from ...present.tables import fmt, position_labels
from ...present.widgets import Print, State, Widget, arithmetic_grid, cell_text, gaps, table_axes
from . import model as m
from .states import mixing


def _spread(names, w) -> str:
    """Where a weight row puts its weight, in words: one weight on each of the tokens it reads, where they are
    all equal, or its two largest."""
    on = [(n, x) for n, x in zip(names, w) if x > 1e-12]
    if max(x for _, x in on) - min(x for _, x in on) < 1e-9:
        return f"puts {fmt(on[0][1])} on each of {len(on)} tokens ({on[0][0]} to {on[-1][0]})"
    return f"puts its two largest weights on {ranked(names, w, 2)}"


def mixing_figure():
    lab_rows = list(mixing.SCHEMES)

    def state(key):
        words = m.sentence(key)
        w = mixing.scheme_weights(words)
        M = np.vstack([w[s] for s in lab_rows])
        hover = [[f"{s}: weight on {lab} = {fmt(x, 3)}" for lab, x in zip(position_labels(words, 1), w[s])] for s in lab_rows]
        return M, position_labels(words, 1), hover

    M, cols, hover = state("A")
    fig = go.Figure(arithmetic_grid(M, lab_rows, cols, hover, zmin=0, zmax=0.6))
    table_axes(fig)
    buttons = []
    for key in ("A", "B"):
        M, cols, hover = state(key)
        buttons.append(dict(method="update", label=f"{m.CONTEXT_NAMES[key]} sentence ({key})",
                            args=[{"z": [gaps(M)], "text": [cell_text(M)], "customdata": [hover], "x": [cols]},
                                  {"title.text": f"Weights for the blank after the last 'the', sentence {key}"}]))
    fig.update_layout(title=dict(text="Weights for the blank after the last 'the', sentence A", y=0.97),
                      height=330, margin=dict(l=160, r=20, t=130, b=20),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.0,
                                        xanchor="left", yanchor="bottom", pad=dict(b=45))])
    return fig


def mixing_summary() -> str:
    return " ".join(f"Sentence {k}: " + "; ".join(
        f"{sch} {_spread(position_labels(m.sentence(k), 1), w)}" for sch, w in mixing.scheme_weights(m.sentence(k)).items())
        + " {about}`reading`." for k in ("A", "B"))


MIXING = Widget(
    "bh-s17-mixing", "Four ways to weigh the earlier tokens for the blank after the last 'the', in sentence A and "
    "in sentence B.", mixing_figure, mixing_summary, controls="Buttons switch the sentence.",
    prints=Print((State.button("sentence A (river)", 0), State.button("sentence B (cheque)", 1)), columns=1,
                 height=300))

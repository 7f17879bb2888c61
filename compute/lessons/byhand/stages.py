"""The whole sentence, stage by stage (sections 15 and 16): every matrix of attention with each cell's
arithmetic on hover, one query's row, and the products for a prefix with bank outlined."""
from __future__ import annotations

import html
import math

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...present.figures import ranked
from ...present.palette import OUTLINE
from ...present.tables import fmt, position_labels
from ...present.widgets import (Print, State, Widget, arithmetic_grid, button_rows, cell_text, dot_text, gaps, pairs,
                                spelled, sub, table_axes)
from . import model as m
from .states.attention import causal_mask, sentence_att


def stage_hovers(words, att) -> dict[str, list[list[str]]]:
    """For each stage matrix, the arithmetic of every cell, as hover text."""
    T = len(words)
    r = m.rows(words)
    lab = position_labels(words, 1)
    sq = math.sqrt(att.K.shape[1])
    out = {}
    out["e"] = [[f"e[{lab[i]}, {f}] = E[{words[i]}] + P{sub(i + 1)}<br>= {fmt(r.word_rows[i, c])} + "
                 f"{fmt(r.position_rows[i, c])} = {fmt(att.e[i, c])}" for c, f in enumerate(m.FEATURES)]
                for i in range(T)]
    for name, W, axes in (("Q", m.W_Q, m.QK_AXES), ("K", m.W_K, m.K_AXES), ("V", m.W_V, m.V_AXES)):
        R = getattr(att, name)
        out[name] = [[f"{name.lower()}[{lab[i]}, {a}] = e{sub(i + 1)} · W_{name}[:, {a}]<br>"
                      f"= {dot_text(att.e[i], W[:, c])}<br>= {fmt(R[i, c])}" for c, a in enumerate(axes)]
                     for i in range(T)]
    S = att.S + causal_mask(T)
    out["S"] = [[(f"s[{lab[i]} ← {lab[j]}] = q{sub(i + 1)}·k{sub(j + 1)} / √{att.K.shape[1]}<br>"
                  f"= ({dot_text(att.Q[i], att.K[j])}) / {fmt(sq)}<br>= {fmt(S[i, j])}") if j <= i else
                 f"s[{lab[i]} ← {lab[j]}]: {lab[j]} comes after {lab[i]}<br>mask sets the score to −∞"
                 for j in range(T)] for i in range(T)]
    out["A"] = []
    for i in range(T):
        z = S[i, : i + 1] - S[i, : i + 1].max()
        total = float(np.exp(z).sum())
        out["A"].append([(f"α[{lab[i]} ← {lab[j]}] = exp(s − max s) / Σ exp(s − max s)<br>"
                          f"= exp({fmt(z[j])}) / {fmt(total)} = {fmt(att.A[i, j])}") if j <= i else
                         f"α[{lab[i]} ← {lab[j]}] = exp(−∞) / … = 0" for j in range(T)])
    out["M"] = [[f"m[{lab[i]}, {a}] = Σⱼ αᵢⱼ vⱼ[{a}]<br>= {dot_text(att.A[i, : i + 1], att.V[: i + 1, c])}"
                 f"<br>= {fmt(att.M[i, c])}" for c, a in enumerate(m.V_AXES)] for i in range(T)]
    out["dE"] = [[f"Δe[{lab[i]}, {f}] = m{sub(i + 1)} · W_O[:, {f}]<br>= {dot_text(att.M[i], m.W_O[:, c])}"
                  f" = {fmt(att.dE[i, c])}" for c, f in enumerate(m.FEATURES)] for i in range(T)]
    out["e_new"] = [[f"e′[{lab[i]}, {f}] = e + Δe = {fmt(att.e[i, c])} + {fmt(att.dE[i, c])} = "
                     f"{fmt(att.e_new[i, c])}" for c, f in enumerate(m.FEATURES)] for i in range(T)]
    return out


def stages(words, att) -> list[dict]:
    """The walkthrough's stage tables in order: name, formula, matrix, column labels, hover text."""
    hov = stage_hovers(words, att)
    lab = position_labels(words, 1)
    T = len(words)
    return [
        dict(name="e", title="E = word rows + position rows", M=att.e, cols=m.FEATURES, hover=hov["e"]),
        dict(name="Q", title="Q = E W_Q: what each token asks for", M=att.Q, cols=m.QK_AXES, hover=hov["Q"]),
        dict(name="K", title="K = E W_K: when each token is a useful match", M=att.K, cols=m.K_AXES,
             hover=hov["K"]),
        dict(name="V", title="V = E W_V: what each token sends", M=att.V, cols=m.V_AXES, hover=hov["V"]),
        dict(name="scores", title="S = Q Kᵀ / √d_k + mask (rows receive, columns send)",
             M=att.S + causal_mask(T), cols=lab, hover=hov["S"]),
        dict(name="weights", title="A = softmax of each row of S", M=att.A, cols=lab, hover=hov["A"]),
        dict(name="messages", title="messages = A V", M=att.M, cols=m.V_AXES, hover=hov["M"]),
        dict(name="Δe", title="ΔE = messages · W_O", M=att.dE, cols=m.FEATURES, hover=hov["dE"]),
        dict(name="e′", title="E′ = E + ΔE: the rows passed on", M=att.e_new, cols=m.FEATURES,
             hover=hov["e_new"]),
    ]


def _stage_args(st, lab):
    return ({"z": [gaps(st["M"])], "text": [cell_text(st["M"])], "customdata": [st["hover"]],
             "x": [list(st["cols"])], "y": [lab]}, {"title.text": st["title"]})


def _stages_summary(words, att) -> str:
    """The stage tables in words: their order, and where the last row puts its weight."""
    i = len(words) - 1
    lab = position_labels(words, 1)
    return (f"Stages in order: {', '.join(st['name'] for st in stages(words, att))}. Shown first: e, one row per "
            f"token over {', '.join(m.FEATURES)}. In the weights, the last row ({lab[i]}) puts its largest weights on "
            f"{ranked(lab, att.A[i])}; its final row e′ is ({pairs(m.FEATURES, att.e_new[i])}) {{about}}`reading`.")


def _stage_figure(words, att, control: str, highlight_row: int | None = None) -> go.Figure:
    lab = position_labels(words, 1)
    sts = stages(words, att)
    first = sts[0]
    fig = go.Figure(arithmetic_grid(first["M"], lab, first["cols"], first["hover"]))
    table_axes(fig)
    steps = [dict(method="update", label=st["name"], args=list(_stage_args(st, lab))) for st in sts]
    fig.update_layout(title=dict(text=first["title"], y=0.99), margin=dict(l=90, r=20, t=110, b=20),
                      height=80 + 38 * len(words) + 90,
                      meta=dict(inspect=[m.BANK - 1, m.SENTENCES["A"].index("river")]))  # bank's row, river's column
    if control == "buttons":
        fig.update_layout(updatemenus=[dict(type="buttons", direction="right", buttons=steps, x=0, y=1.0,
                                            xanchor="left", yanchor="bottom", pad=dict(b=62), showactive=True)],
                          margin=dict(l=90, r=20, t=132, b=20))  # the buttons clear the slanted column labels
    else:
        fig.update_layout(sliders=[dict(steps=steps, active=0, currentvalue=dict(prefix="stage: "),
                                        pad=dict(t=10), y=0, yanchor="top")],
                          margin=dict(l=90, r=20, t=90, b=90))
    if highlight_row is not None:
        k = highlight_row - 1
        fig.add_shape(type="rect", xref="paper", yref="y", x0=0, x1=1, y0=k - 0.5, y1=k + 0.5,
                      line=dict(color=OUTLINE, width=4))
    return fig


def query_row_state(key: str, pos: int) -> dict:
    """One query's scores (masked), weights and the arithmetic of each."""
    words, att = sentence_att(key)
    hov = stage_hovers(words, att)
    T = len(words)
    i = pos - 1
    mask = causal_mask(T)[i]
    M = np.vstack([att.S[i] + mask, mask, att.A[i]])
    mask_h = [f"source {position_labels(words, 1)[j]}: " + ("allowed (j ≤ i), adds 0" if j <= i else "future, adds −∞")
              for j in range(T)]
    return {"M": M, "hover": [hov["S"][i], mask_h, hov["A"][i]], "message": att.M[i]}


def query_row_figure(key: str = "A", start: int = m.BANK):
    words = m.sentence(key)
    lab = position_labels(words, 1)
    rows = ["score s (masked)", "mask", "weight α"]
    st = query_row_state(key, start)
    fig = go.Figure(arithmetic_grid(st["M"], rows, lab, st["hover"]))
    table_axes(fig)

    def title(pos):
        s = query_row_state(key, pos)
        return (f"query {lab[pos - 1]}: message = ({', '.join(fmt(x) for x in s['message'])}) "
                f"({', '.join(m.V_AXES)})")

    buttons = []
    for pos in range(1, len(words) + 1):
        s = query_row_state(key, pos)
        buttons.append(dict(method="update", label=lab[pos - 1],
                            args=[{"z": [gaps(s["M"])], "text": [cell_text(s["M"])], "customdata": [s["hover"]]},
                                  {"title.text": title(pos)}]))
    fig.update_layout(title=dict(text=title(start), y=0.98, font=dict(size=13)), height=370,
                      margin=dict(l=130, r=20, t=180, b=20),
                      updatemenus=button_rows(buttons, 5, pad_b=55, active=start - 1, font=dict(size=11)))
    return fig


def worked_score(key: str = "A", i: int = m.BANK, j: int = 6) -> HTML:
    """One score written out in full, as the hover shows it."""
    words, att = sentence_att(key)
    text = stage_hovers(words, att)["S"][i - 1][j - 1].replace("<br>", " ")
    return HTML(f'<p class="bh-arithmetic"><code>{html.escape(text)}</code></p>')


PREFIX = m.BANK  # the prefix of section 16: up to and including bank
STAGE_NAMES = tuple(st["name"] for st in stages(*sentence_att("A")))


def walkthrough_figure(key: str = "A"):
    """Stage tables of the ten-token sentence, one button per stage; each cell carries its arithmetic."""
    return _stage_figure(*sentence_att(key), "buttons")


def matrices_figure(key: str = "A", T: int = PREFIX):
    """A slider through the products for the seven-token prefix, with row 7 (bank) outlined."""
    return _stage_figure(*sentence_att(key, T=T), "slider", highlight_row=m.BANK)


def query_row_summary(key: str = "A", start: int = m.BANK) -> str:
    lab = position_labels(m.sentence(key), 1)
    st = query_row_state(key, start)
    return (f"Query {lab[start - 1]}: weights " + pairs(lab, st["M"][2]) + "; message ("
            + pairs(m.V_AXES, st["message"]) + "). Buttons show the row of each query token.")


STAGES = Widget(
    "bh-s15-stages", f"Each stage of attention for sentence A, {spelled(len(STAGE_NAMES))} tables, one per stage.",
    walkthrough_figure, lambda: _stages_summary(*sentence_att("A")), min_width=0,
    controls="Buttons choose the stage; a cell, touched, shows its arithmetic.",
    prints=Print(tuple(State.button(name, k) for k, name in enumerate(STAGE_NAMES)), columns=2, height=320))

QUERY_ROW = Widget(
    "bh-s15-query", "One query's masked scores, mask and weights over its sources.",
    query_row_figure, query_row_summary, controls="Buttons choose the query.",
    prints=Print(why=f"Printed for bank (position {m.BANK}), the query the text follows; each query's scores and "
                     "weights are the rows of the stage tables before it."))

MATRICES = Widget(
    "bh-s16-matrices", f"The matrix products for the first {PREFIX} tokens, one table per product; row {m.BANK} "
    "(bank) is outlined.", matrices_figure, lambda: _stages_summary(*sentence_att("A", T=PREFIX)), min_width=0,
    controls="A slider steps through the products.",
    prints=Print(tuple(State.slider(name, k) for k, name in enumerate(STAGE_NAMES)), columns=2, height=300))

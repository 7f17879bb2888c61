"""Sections 11–20 of the attention-by-hand lesson: projections, scaling, the mask, the prediction,
the full walkthrough, matrices, mixing schemes, position, self-check and summaries.

Every function returns plain data (tested) or a ready-to-display table, reveal or figure whose
states are all computed here, at build time.
"""
from __future__ import annotations

import html
import math

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from .. import figures
from ..tables import fmt, matrix_html, matrix_table, rows_html, rows_table
from . import mixing, model as m, positions, scaling
from .attention import attend, causal_mask, head, predict, softmax, top_words
from .claims import swapped

SCALE = "Cividis"          # colour-blind safe, for tables drawn as heatmaps
BAR = "#3b528b"            # viridis blue
HIGHLIGHT = "#fde725"      # viridis yellow
OUTLINE = "#d01c8b"        # magenta: visible on navy and on yellow cells
MUTED = "#b8c2d6"
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    """An integer as subscript digits: 7 -> ₇."""
    return str(n).translate(SUB)


def labels(words) -> list[str]:
    """'1 The', '2 heron', ...: position (from 1) and the word there."""
    return [f"{i} {w}" for i, w in enumerate(words, 1)]


def sentence_att(key: str = "A", T: int | None = None, masked: bool = True):
    words = m.sentence(key)[:T]
    return words, attend(m.rows(words).e, masked=masked)


def _dot_terms(a, b) -> str:
    return " + ".join(f"{fmt(x)}×{fmt(y)}" for x, y in zip(a, b))


def _show(fig, div_id, caption, summary, height=None):
    """compute.figures.show, with an optional height."""
    if height:
        fig.update_layout(height=height)
    return figures.show(fig, div_id, caption, summary)


def _spread(names, w) -> str:
    """Where a weight row puts its weight, in words: evenly over some names, or its two largest."""
    on = [(n, x) for n, x in zip(names, w) if x > 1e-12]
    if max(x for _, x in on) - min(x for _, x in on) < 1e-9:
        return f"spreads it evenly over {len(on)} tokens ({on[0][1]:.2f} each, from {on[0][0]} to {on[-1][0]})"
    return f"puts most weight on {figures.ranked(names, w, 2)}"


def _pairs(names, values, decimals: int = 2) -> str:
    """'water 0.72, finance 0.06': names with their values."""
    return ", ".join(f"{n} {float(x):.{decimals}f}" for n, x in zip(names, values))


def button_rows(buttons: list[dict], per_row: int, y: float = 1.0, pad_b: int = 40, **kw) -> list[dict]:
    """Buttons split over several rows of updatemenus (top row first); the title names the state shown."""
    rows = [buttons[k:k + per_row] for k in range(0, len(buttons), per_row)]
    n = len(rows)
    return [dict(type="buttons", direction="right", buttons=r, x=0, y=y, xanchor="left", yanchor="bottom",
                 pad=dict(b=pad_b + 34 * (n - 1 - k)), showactive=False, **kw) for k, r in enumerate(rows)]


def _cell_text(M) -> list[list[str]]:
    return [[fmt(x) for x in row] for row in np.atleast_2d(M)]


def _z(M) -> list[list[float | None]]:
    """Heatmap z: -inf (masked) cells become gaps."""
    return [[None if not np.isfinite(x) else float(x) for x in row] for row in np.atleast_2d(M)]


def _table_trace(M, rows, cols, hover, **kw) -> go.Heatmap:
    """A matrix drawn as a heatmap with its numbers printed in the cells and arithmetic on hover."""
    return go.Heatmap(z=_z(M), x=list(cols), y=list(rows), text=_cell_text(M), texttemplate="%{text}",
                      customdata=hover, hovertemplate="%{customdata}<extra></extra>", colorscale=SCALE,
                      showscale=False, xgap=2, ygap=2, hoverongaps=True, **kw)


def _table_axes(fig, **where):
    fig.update_xaxes(side="top", type="category", **where)
    fig.update_yaxes(autorange="reversed", type="category", **where)


# ---------------------------------------------------------------- hover arithmetic, one stage at a time

def stage_hovers(words, att) -> dict[str, list[list[str]]]:
    """For each stage matrix, the arithmetic of every cell, as hover text."""
    T = len(words)
    r = m.rows(words)
    lab = labels(words)
    sq = math.sqrt(att.K.shape[1])
    out = {}
    out["e"] = [[f"e[{lab[i]}, {f}] = E[{words[i]}] + P{sub(i + 1)}<br>= {fmt(r.word_rows[i, c])} + "
                 f"{fmt(r.position_rows[i, c])} = {fmt(att.e[i, c])}" for c, f in enumerate(m.FEATURES)]
                for i in range(T)]
    for name, W, axes in (("Q", m.W_Q, m.QK_AXES), ("K", m.W_K, m.QK_AXES), ("V", m.W_V, m.V_AXES)):
        R = getattr(att, name)
        out[name] = [[f"{name.lower()}[{lab[i]}, {a}] = e{sub(i + 1)} · W_{name}[:, {a}]<br>"
                      f"= {_dot_terms(att.e[i], W[:, c])}<br>= {fmt(R[i, c])}" for c, a in enumerate(axes)]
                     for i in range(T)]
    S = att.S + causal_mask(T)
    out["S"] = [[(f"s[{lab[i]} ← {lab[j]}] = q{sub(i + 1)}·k{sub(j + 1)} / √{att.K.shape[1]}<br>"
                  f"= ({_dot_terms(att.Q[i], att.K[j])}) / {fmt(sq)}<br>= {fmt(S[i, j])}") if j <= i else
                 f"s[{lab[i]} ← {lab[j]}]: {lab[j]} comes after {lab[i]}<br>mask sets the score to −∞"
                 for j in range(T)] for i in range(T)]
    out["A"] = []
    for i in range(T):
        z = S[i, : i + 1] - S[i, : i + 1].max()
        total = float(np.exp(z).sum())
        out["A"].append([(f"α[{lab[i]} ← {lab[j]}] = exp(s − max s) / Σ exp(s − max s)<br>"
                          f"= exp({fmt(z[j])}) / {fmt(total)} = {fmt(att.A[i, j])}") if j <= i else
                         f"α[{lab[i]} ← {lab[j]}] = exp(−∞) / … = 0" for j in range(T)])
    out["M"] = [[f"m[{lab[i]}, {a}] = Σⱼ αᵢⱼ vⱼ[{a}]<br>= {_dot_terms(att.A[i, : i + 1], att.V[: i + 1, c])}"
                 f"<br>= {fmt(att.M[i, c])}" for c, a in enumerate(m.V_AXES)] for i in range(T)]
    out["dE"] = [[f"Δe[{lab[i]}, {f}] = m{sub(i + 1)} · W_O[:, {f}]<br>= {_dot_terms(att.M[i], m.W_O[:, c])}"
                  f" = {fmt(att.dE[i, c])}" for c, f in enumerate(m.FEATURES)] for i in range(T)]
    out["e_new"] = [[f"e′[{lab[i]}, {f}] = e + Δe = {fmt(att.e[i, c])} + {fmt(att.dE[i, c])} = "
                     f"{fmt(att.e_new[i, c])}" for c, f in enumerate(m.FEATURES)] for i in range(T)]
    return out


def stages(words, att) -> list[dict]:
    """The walkthrough's stage tables in order: name, formula, matrix, column labels, hover text."""
    hov = stage_hovers(words, att)
    lab = labels(words)
    T = len(words)
    return [
        dict(name="e", title="E = word rows + position rows", M=att.e, cols=m.FEATURES, hover=hov["e"]),
        dict(name="Q", title="Q = E W_Q: what each token asks for", M=att.Q, cols=m.QK_AXES, hover=hov["Q"]),
        dict(name="K", title="K = E W_K: when each token is a useful match", M=att.K, cols=m.QK_AXES,
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
    return ({"z": [_z(st["M"])], "text": [_cell_text(st["M"])], "customdata": [st["hover"]],
             "x": [list(st["cols"])], "y": [lab]}, {"title.text": st["title"]})


def _stages_summary(words, att) -> str:
    """The stage tables in words: their order, and where the last row puts its weight."""
    i = len(words) - 1
    lab = labels(words)
    return (f"Stages in order: {', '.join(st['name'] for st in stages(words, att))}. Shown first: e, one row per "
            f"token over {', '.join(m.FEATURES)}. In the weights, the last row ({lab[i]}) puts most weight on "
            f"{figures.ranked(lab, att.A[i])}; its final row e′ is ({_pairs(m.FEATURES, att.e_new[i])}).")


def _stage_figure(words, att, control: str, highlight_row: int | None = None) -> go.Figure:
    lab = labels(words)
    sts = stages(words, att)
    first = sts[0]
    fig = go.Figure(_table_trace(first["M"], lab, first["cols"], first["hover"]))
    _table_axes(fig)
    steps = [dict(method="update", label=st["name"], args=list(_stage_args(st, lab))) for st in sts]
    fig.update_layout(title=dict(text=first["title"], y=0.99), margin=dict(l=90, r=20, t=110, b=20),
                      height=80 + 38 * len(words) + 90)
    if control == "buttons":
        fig.update_layout(updatemenus=[dict(type="buttons", direction="right", buttons=steps, x=0, y=1.0,
                                            xanchor="left", yanchor="bottom", pad=dict(b=40), showactive=True)])
    else:
        fig.update_layout(sliders=[dict(steps=steps, active=0, currentvalue=dict(prefix="stage: "),
                                        pad=dict(t=10), y=0, yanchor="top")],
                          margin=dict(l=90, r=20, t=90, b=90))
    if highlight_row is not None:
        k = highlight_row - 1
        fig.add_shape(type="rect", xref="paper", yref="y", x0=0, x1=1, y0=k - 0.5, y1=k + 0.5,
                      line=dict(color=OUTLINE, width=4))
    return fig


# ---------------------------------------------------------------- section 11: learned projections

def projection_rows(key: str = "A", pos: int = m.BANK) -> dict[str, np.ndarray]:
    """The e row of one position and the q, k, v rows the shared matrices make from it; and e + Δe."""
    _, att = sentence_att(key)
    i = pos - 1
    return {"e": att.e[i], "q": att.Q[i], "k": att.K[i], "v": att.V[i], "dE": att.dE[i], "e_new": att.e_new[i]}


def reader_positions(pos: int, T: int = 10) -> list[int]:
    """The receiving positions that read position `pos`'s key and value under the causal mask."""
    return list(range(pos, T + 1))


def projection_figure(key: str = "A", start: int = m.BANK):
    """Buttons over the tokens: e, then q, k, v from the shared W_Q, W_K, W_V, then e + Δe."""
    words = m.sentence(key)
    parts = [("e", m.FEATURES, "e (input, unchanged)"), ("q", m.QK_AXES, "q = e W_Q: asks for"),
             ("k", m.QK_AXES, "k = e W_K: offers a match on"), ("v", m.V_AXES, "v = e W_V: sends"),
             ("e_new", m.FEATURES, "e + Δe: passed on")]
    Wm = {"q": ("W_Q", m.W_Q), "k": ("W_K", m.W_K), "v": ("W_V", m.W_V)}

    def state(pos):
        rws = projection_rows(key, pos)
        zs, texts, hovers, ys = [], [], [], []
        for name, axes, label in parts:
            row = rws[name]
            if name == "e":
                h = [f"e{sub(pos)}[{f}] = {fmt(x)}" for f, x in zip(axes, row)]
            elif name == "e_new":
                h = [f"e{sub(pos)} + Δe{sub(pos)} = {fmt(a)} + {fmt(b)} = {fmt(c)}"
                     for a, b, c in zip(rws["e"], rws["dE"], row)]
            else:
                wn, W = Wm[name]
                h = [f"{name}{sub(pos)}[{a}] = e{sub(pos)} · {wn}[:, {a}]<br>= {_dot_terms(rws['e'], W[:, c])}"
                     f" = {fmt(row[c])}" for c, a in enumerate(axes)]
            zs.append(_z(row[None]))
            texts.append(_cell_text(row[None]))
            hovers.append([h])
            ys.append([f"{label}"])
        readers = reader_positions(pos, len(words))
        title = (f"{pos} {words[pos - 1]}: q{sub(pos)} is used once, when position {pos} receives; "
                 f"k{sub(pos)}, v{sub(pos)} are read by positions {readers[0]}–{readers[-1]}")
        return zs, texts, hovers, ys, title

    fig = make_subplots(rows=len(parts), cols=1, vertical_spacing=0.09)
    zs, texts, hovers, ys, title = state(start)
    for r, (name, axes, _) in enumerate(parts, 1):
        fig.add_trace(go.Heatmap(z=zs[r - 1], x=list(axes), y=ys[r - 1], text=texts[r - 1],
                                 texttemplate="%{text}", customdata=hovers[r - 1],
                                 hovertemplate="%{customdata}<extra></extra>", colorscale=SCALE,
                                 showscale=False, xgap=2, zmin=-0.5, zmax=2.5), row=r, col=1)
    fig.update_xaxes(side="top", type="category")
    fig.update_yaxes(type="category", tickfont=dict(size=12))
    buttons = []
    for pos in range(1, len(words) + 1):
        zs, texts, hovers, ys, title = state(pos)
        buttons.append(dict(method="update", label=labels(words)[pos - 1],
                            args=[{"z": zs, "text": texts, "customdata": hovers, "y": ys},
                                  {"title.text": title}]))
    fig.update_layout(title=dict(text=state(start)[4], font=dict(size=13), y=0.985),
                      height=590, margin=dict(l=170, r=20, t=180, b=20),
                      updatemenus=button_rows(buttons, 5, pad_b=45, font=dict(size=11)))
    r = projection_rows(key, start)
    summary = (f"Shown: {labels(words)[start - 1]}. e = ({_pairs(m.FEATURES, r['e'])}); q = ({_pairs(m.QK_AXES, r['q'])}); "
               f"k = ({_pairs(m.QK_AXES, r['k'])}); v = ({_pairs(m.V_AXES, r['v'])}); "
               f"e + Δe = ({_pairs(m.FEATURES, r['e_new'])}). Buttons show the same rows for every token.")
    return _show(fig, "bh-s11-projections",
                 "One token's row e and the rows q, k, v that the shared matrices make from it, then e + Δe "
                 "(buttons choose the token).", summary)


def weight_tables() -> HTML:
    """W_Q, W_K, W_V with their named axes: shared by every token."""
    parts = [matrix_html(m.W_Q, m.FEATURES, m.QK_AXES, caption="W_Q (shared)", corner="feature \\ asks for",
                         name="W_Q"),
             matrix_html(m.W_K, m.FEATURES, m.QK_AXES, caption="W_K (shared)", corner="feature \\ matches on",
                         name="W_K"),
             matrix_html(m.W_V, m.FEATURES, m.V_AXES, caption="W_V (shared)", corner="feature \\ sends",
                         name="W_V")]
    return HTML('<div class="bh-side-by-side">' + "".join(parts) + "</div>")


def lifetime_rows(pos: int = m.BANK, T: int = 10) -> list[tuple[str, str, str, str]]:
    """When each working row of position `pos` is computed and where it is used."""
    p = sub(pos)
    readers = reader_positions(pos, T)
    span = f"positions {readers[0]}–{readers[-1]}" if len(readers) > 1 else f"position {readers[0]}"
    return [
        (f"e{p}", f"E[token] + P{p}", f"when token {pos} enters", f"input to q{p}, k{p}, v{p}; kept for the residual"),
        (f"q{p}", f"e{p} W_Q", f"when position {pos} receives", f"scores of position {pos} only"),
        (f"k{p}", f"e{p} W_K", f"once, when token {pos} enters", f"scores of {span} (every receiver from {pos} on)"),
        (f"v{p}", f"e{p} W_V", f"once, when token {pos} enters", f"messages of {span}"),
        (f"Δe{p}", f"m{p} W_O", f"after position {pos}'s weights", f"added to e{p}"),
        (f"e{p} + Δe{p}", "residual addition", "last", "passed on (here: to the output head)"),
    ]


def lifetime_table(pos: int = m.BANK) -> HTML:
    return rows_table(["row", "computed from", "computed when", "used by"], lifetime_rows(pos),
                      caption=f"Lifetime of the rows of position {pos} ({m.sentence('A')[pos - 1]})")


# ---------------------------------------------------------------- section 12: scaling

RANDOM_DK = 8
DIVISOR_DK = 16
DIVISORS = tuple(float(x) for x in np.arange(1.0, 8.01, 0.25))   # 29 steps, √16 = 4 among them


def random_entries(d_k: int = RANDOM_DK) -> dict[str, np.ndarray | float]:
    """One seeded query/key pair with N(0, 1) entries, their products and dot product."""
    q, k = scaling.random_pairs(d_k, n=1)
    q, k = q[0], k[0]
    return {"q": q, "k": k, "qk": q * k, "dot": float(q @ k)}


def random_entries_table(d_k: int = RANDOM_DK) -> HTML:
    r = random_entries(d_k)
    M = np.vstack([r["q"], r["k"], r["qk"]])
    M = np.hstack([M, [[np.nan], [np.nan], [r["dot"]]]])
    cols = [f"coord {c}" for c in range(1, d_k + 1)] + ["sum"]
    return matrix_table(M, ["query q", "key k", "q × k"], cols, caption=f"One random pair, d_k = {d_k}",
                        corner="row \\ coordinate", name="s12_random")


def spread_figure():
    """Measured variance of q·k (raw and divided by √d_k) over many random pairs, against d_k."""
    s = scaling.measured_spread()
    d = s["d_k"].tolist()
    fig = go.Figure([
        go.Scatter(x=d, y=d, mode="lines", name="d_k (the derivation)", line=dict(color="#888", dash="dot"),
                   hoverinfo="skip"),
        go.Scatter(x=d, y=s["raw"].tolist(), mode="markers+lines", name="var(q·k), raw",
                   marker=dict(color=BAR, size=9), hovertemplate="d_k = %{x}: var = %{y:.3f}<extra>raw</extra>"),
        go.Scatter(x=d, y=s["scaled"].tolist(), mode="markers+lines", name="var(q·k / √d_k), scaled",
                   marker=dict(color="#e3a71b", size=9, symbol="diamond"),
                   hovertemplate="d_k = %{x}: var = %{y:.3f}<extra>scaled</extra>"),
    ])
    fig.update_layout(height=400, margin=dict(l=60, r=20, t=30, b=50), legend=dict(x=0.02, y=0.98),
                      xaxis=dict(type="log", title=dict(text="d_k (coordinates per query and key)"),
                                 tickvals=d),
                      yaxis=dict(type="log", title=dict(text=f"variance over {scaling.N_PAIRS} pairs")))
    summary = (f"Over {scaling.N_PAIRS} random pairs, the raw variance of q·k grows with d_k: "
               + _pairs([f"d_k = {x}:" for x in d], s["raw"]) + ". Divided by √d_k it stays near one: "
               + _pairs([f"d_k = {x}:" for x in d], s["scaled"]) + ".")
    return _show(fig, "bh-s12-spread", "Measured variance of q·k, raw and divided by √d_k, against d_k "
                 "(both axes logarithmic).", summary)


SATURATION_DKS = (1, 4, 16, 64, 256)


def saturation_rows(d_ks=SATURATION_DKS) -> list[tuple]:
    """Two keys whose scores differ by one typical spread √d_k: top weight and slope a(1 − a), raw and scaled."""
    out = []
    for d in d_ks:
        gap = math.sqrt(d)
        raw, scaled = scaling.two_key_weights(gap)[0], scaling.two_key_weights(gap, math.sqrt(d))[0]
        out.append((d, float(gap), float(raw), float(raw * (1 - raw)), float(scaled), float(scaled * (1 - scaled))))
    return out


def saturation_table() -> HTML:
    return rows_table(["d_k", "score gap √d_k", "top weight, raw", "slope a(1−a), raw",
                       "top weight, scaled", "slope a(1−a), scaled"], saturation_rows(),
                      caption="Two keys, scores one spread apart", decimals=4)


def divisor_scores() -> np.ndarray:
    """Five fixed scores q·k_j from one seeded random query and five keys, d_k = 16."""
    rng = np.random.default_rng([scaling.SEED, 99])
    q, K = rng.standard_normal(DIVISOR_DK), rng.standard_normal((5, DIVISOR_DK))
    return K @ q


def divisor_weights(divisor: float) -> np.ndarray:
    return softmax(divisor_scores() / divisor)


def divisor_figure():
    """A slider over the divisor: softmax of fixed scores divided by 1 … 8 (√d_k = 4 marked)."""
    s = divisor_scores()
    keys = [f"key {j}" for j in range(1, 6)]
    sq = math.sqrt(DIVISOR_DK)

    def title(c):
        w = divisor_weights(c)
        mark = " = √d_k" if c == sq else ""
        return f"scores ÷ {c:.2f}{mark}: largest weight {w.max():.3f}"

    start = DIVISORS.index(sq)
    hover = [f"score {fmt(x)}" for x in s]
    fig = go.Figure(go.Bar(x=keys, y=divisor_weights(sq).tolist(), marker_color=BAR, customdata=hover,
                           text=[fmt(x) for x in divisor_weights(sq)], textposition="outside",
                           hovertemplate="%{x}: %{customdata}, weight %{y:.3f}<extra></extra>"))
    steps = [dict(method="update", label=(f"{c:g}" + ("=√d_k" if c == sq else "")) if c == int(c) else "",
                  args=[{"y": [divisor_weights(c).tolist()], "text": [[fmt(x) for x in divisor_weights(c)]]},
                        {"title.text": title(c)}]) for c in DIVISORS]
    fig.update_layout(title=dict(text=title(sq)), height=420, margin=dict(l=60, r=20, t=50, b=40),
                      yaxis=dict(range=[0, 1.1], title=dict(text="softmax weight")),
                      sliders=[dict(steps=steps, active=start, currentvalue=dict(prefix="divisor: ", visible=False),
                                    pad=dict(t=40))])
    summary = (f"Five fixed scores ({', '.join(fmt(x) for x in s)}) divided by a divisor, then softmax. "
               f"Divisor 1: largest weight {divisor_weights(1.0).max():.3f}; divisor √d_k = {sq:g}: weights "
               f"{', '.join(fmt(x) for x in divisor_weights(sq))}; divisor {DIVISORS[-1]:g}: largest weight "
               f"{divisor_weights(DIVISORS[-1]).max():.3f}.")
    return _show(fig, "bh-s12-divisor", "Softmax weights of five fixed scores divided by 1 to 8 (slider); "
                 "a larger divisor spreads the weight.", summary)


def variance_reveal() -> HTML:
    """The variance derivation, in a reveal."""
    body = (r"\[\operatorname{Var}(q\cdot k)=\sum_{l=1}^{d_k}\operatorname{Var}(q_l k_l)"
            r"=\sum_{l=1}^{d_k}\mathbb{E}[q_l^2]\,\mathbb{E}[k_l^2]=d_k,\qquad"
            r"\operatorname{Var}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right)=\frac{d_k}{d_k}=1.\]")
    text = ("Each product has mean zero, since the two factors are independent with mean zero. Its variance is "
            "the product of the two second moments, which is one. Independent terms add their variances, so the "
            "sum over the coordinates has variance equal to their number. Dividing a quantity by a constant "
            "divides its variance by the square of that constant.")
    return HTML(f"<details><summary>Derive the variance of q·k</summary><p>{text}</p>"
                f'<div class="math notranslate nohighlight">{body}</div></details>')


STABLE_SCORES = np.array([2.0, 1.0, 0.0])
SHIFT = 798.0


def stable_rows() -> dict[str, np.ndarray]:
    """Stable softmax versus scaling, on one small score row and the same row shifted into overflow."""
    s, big = STABLE_SCORES, STABLE_SCORES + SHIFT
    return {"scores s": s, "naive exp(s)/Σ": scaling.naive_softmax(s), "stable: max subtracted": softmax(s),
            "scaled: s ÷ 2": softmax(s / 2), f"shifted s + {SHIFT:g}": big,
            "naive on shifted": scaling.naive_softmax(big), "stable on shifted": softmax(big)}


def stable_table() -> HTML:
    r = stable_rows()
    return matrix_table(np.vstack(list(r.values())), list(r), ["key 1", "key 2", "key 3"],
                        caption="Stable softmax keeps every probability; scaling changes them (nan: exp overflowed)",
                        corner="row \\ source", name="s12_stable")


def bank_scaled_rows(key: str = "A") -> dict[str, np.ndarray]:
    words, att = sentence_att(key, T=m.BANK)
    raw = att.Q[-1] @ att.K.T
    return {"words": words, "raw": raw, "scaled": raw / math.sqrt(att.K.shape[1]), "alpha": att.A[-1]}


def bank_scaled_table(key: str = "A") -> HTML:
    r = bank_scaled_rows(key)
    dk = m.W_K.shape[1]
    return matrix_table(np.column_stack([r["raw"], r["scaled"], r["alpha"]]), labels(r["words"]),
                        ["q₇·kⱼ", f"q₇·kⱼ / √{dk}", "weight α₇ⱼ"], corner="source j",
                        caption=f"The bank query in sentence {key}, scaled by √d_k with d_k = {dk}", name="s12_bank")


# ---------------------------------------------------------------- section 13: causal mask

ROW = 5  # 'the' in sentence A


def mask_states(key: str = "A", row: int = ROW) -> dict[str, dict[str, np.ndarray]]:
    """Row `row`'s weights and message with the mask on and off."""
    out = {}
    for name, masked in (("mask on", True), ("mask off", False)):
        _, att = sentence_att(key, masked=masked)
        out[name] = {"alpha": att.A[row - 1], "message": att.M[row - 1]}
    return out


def mask_figure(key: str = "A", row: int = ROW):
    words = m.sentence(key)
    st = mask_states(key, row)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.72, 0.28], horizontal_spacing=0.1,
                        subplot_titles=(f"weights of row {row} ({words[row - 1]}) over sources j",
                                        f"message m{sub(row)} = Σ α v"))
    colors = [BAR if j <= row else "#e3a71b" for j in range(1, len(words) + 1)]
    on = st["mask on"]
    fig.add_trace(go.Bar(x=labels(words), y=on["alpha"].tolist(), marker_color=colors,
                         text=[fmt(x) for x in on["alpha"]], textposition="outside",
                         hovertemplate="α from %{x} = %{y:.3f}<extra></extra>"), 1, 1)
    fig.add_trace(go.Bar(x=list(m.V_AXES), y=on["message"].tolist(), marker_color=BAR,
                         text=[fmt(x) for x in on["message"]], textposition="outside",
                         hovertemplate="%{x}: %{y:.3f}<extra></extra>"), 1, 2)

    def title(name):
        fut = st[name]["alpha"][row:].sum()
        return f"{name}: weight on future positions {row + 1}–{len(words)} = {fmt(fut)}"

    buttons = [dict(method="update", label=name,
                    args=[{"y": [s["alpha"].tolist(), s["message"].tolist()],
                           "text": [[fmt(x) for x in s["alpha"]], [fmt(x) for x in s["message"]]]},
                          {"title.text": title(name)}]) for name, s in st.items()]
    fig.update_layout(title=dict(text=title("mask on"), y=0.97), height=430, showlegend=False,
                      margin=dict(l=50, r=20, t=120, b=60),
                      yaxis=dict(range=[0, 1.1]), yaxis2=dict(range=[0, 1.1]),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.22,
                                        xanchor="left", yanchor="bottom")])
    on, off = st["mask on"], st["mask off"]
    summary = (f"Row {row} ({words[row - 1]}) with the mask on: weights over sources "
               + _pairs(labels(words), on["alpha"]) + f"; weight on the future {on['alpha'][row:].sum():.2f}. "
               f"With the mask off the future gets {off['alpha'][row:].sum():.2f}, and the message changes from "
               f"({_pairs(m.V_AXES, on['message'])}) to ({_pairs(m.V_AXES, off['message'])}).")
    return _show(fig, "bh-s13-mask", f"Weights and message of row {row} with the causal mask on or off (buttons).",
                 summary)


def mask_row_table(key: str = "A", row: int = ROW) -> HTML:
    words = m.sentence(key)
    _, att = sentence_att(key)
    T = len(words)
    st = mask_states(key, row)
    M = np.vstack([att.S[row - 1], causal_mask(T)[row - 1], att.S[row - 1] + causal_mask(T)[row - 1],
                   st["mask on"]["alpha"], st["mask off"]["alpha"]])
    return matrix_table(M, ["score s", "mask", "s + mask", "weight, mask on", "weight, mask off"],
                        labels(words), corner=f"row {row} \\ source", name="s13_row",
                        caption=f"Row {row} ({words[row - 1]}) of sentence {key}")


def rule_rows(T: int = 4) -> list[list[str]]:
    words = m.sentence("A")[:T]
    lab = labels(words)
    return [[lab[i]] + ["✓" if j <= i else "✗" for j in range(T)] for i in range(T)]


def rule_table(T: int = 4) -> HTML:
    lab = labels(m.sentence("A")[:T])
    return rows_table(["receiver i \\ source j"] + lab, rule_rows(T),
                      caption="✓ allowed (j ≤ i), ✗ blocked (j > i)")


# ---------------------------------------------------------------- section 14: the prediction

PREDICT_STATES = (("A", True), ("B", True), ("A", False), ("B", False))


def prediction_state(key: str, attention: bool) -> dict:
    words = m.sentence(key)
    out = predict(words, attention=attention)
    p = out["p"]
    top = top_words(p)
    return {"words": words, "alpha": out["alpha"] if attention else np.zeros(len(words)), "x": out["x"],
            "p": p, "top": top, "p_top": float(p.max())}


def _state_label(key, attention):
    return f"{key} ({m.CONTEXT_NAMES[key]}), " + ("attention" if attention else "bypassed")


def prediction_figure():
    fig = make_subplots(rows=2, cols=2, specs=[[{}, {}], [{"colspan": 2}, None]], row_heights=[0.42, 0.58],
                        column_widths=[0.7, 0.3], vertical_spacing=0.2, horizontal_spacing=0.1,
                        subplot_titles=("weights α₁₀ⱼ of the last 'the'", "row fed to the head",
                                        "next-word probabilities"))

    def traces(key, att):
        s = prediction_state(key, att)
        return s, [labels(s["words"]), list(m.FEATURES), list(m.VOCAB)], [s["alpha"], s["x"], s["p"]]

    s, xs, ys = traces("A", True)
    for (r, c), x, y in zip(((1, 1), (1, 2), (2, 1)), xs, ys):
        fig.add_trace(go.Bar(x=x, y=y.tolist(), marker_color=BAR, hovertemplate="%{x}: %{y:.4f}<extra></extra>"),
                      r, c)

    def title(s, key, att):
        return f"{_state_label(key, att)}: top word {', '.join(s['top'])} ({s['p_top']:.3f})"

    buttons = []
    for key, att in PREDICT_STATES:
        s, xs, ys = traces(key, att)
        buttons.append(dict(method="update", label=_state_label(key, att),
                            args=[{"x": xs, "y": [y.tolist() for y in ys]}, {"title.text": title(s, key, att)}]))
    fig.update_layout(title=dict(text=title(prediction_state("A", True), "A", True), y=0.98), height=640,
                      showlegend=False, margin=dict(l=50, r=20, t=140, b=80),
                      yaxis=dict(range=[0, 1]), yaxis3=dict(range=[0, 0.5], title=dict(text="probability")),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.13,
                                        xanchor="left", yanchor="bottom", font=dict(size=11))])
    fig.update_xaxes(tickangle=-40)
    summary = " ".join(f"{_state_label(k, a)}: top words {figures.ranked(list(m.VOCAB), prediction_state(k, a)['p'])}."
                       for k, a in PREDICT_STATES)
    return _show(fig, "bh-s14-predict", "The last position's weights, the row fed to the head and the next-word "
                 "probabilities, for sentence A or B, with attention or bypassed (buttons).", summary)


# ---------------------------------------------------------------- section 15: the full walkthrough

def walkthrough_figure(key: str = "A"):
    """Stage tables of the ten-token sentence, one button per stage; hover a cell for its arithmetic."""
    words, att = sentence_att(key)
    return _show(_stage_figure(words, att, "buttons"), "bh-s15-stages",
                 f"Every stage of attention for sentence {key}, one table per button; hover a cell for its arithmetic.",
                 _stages_summary(words, att))


def query_row_state(key: str, pos: int) -> dict:
    """One query's scores (masked), weights and the arithmetic of each."""
    words, att = sentence_att(key)
    hov = stage_hovers(words, att)
    T = len(words)
    i = pos - 1
    mask = causal_mask(T)[i]
    M = np.vstack([att.S[i] + mask, mask, att.A[i]])
    mask_h = [f"source {labels(words)[j]}: " + ("allowed (j ≤ i), adds 0" if j <= i else "future, adds −∞")
              for j in range(T)]
    return {"M": M, "hover": [hov["S"][i], mask_h, hov["A"][i]], "message": att.M[i]}


def query_row_figure(key: str = "A", start: int = m.BANK):
    words = m.sentence(key)
    lab = labels(words)
    rows = ["score s (masked)", "mask", "weight α"]
    st = query_row_state(key, start)
    fig = go.Figure(_table_trace(st["M"], rows, lab, st["hover"]))
    _table_axes(fig)

    def title(pos):
        s = query_row_state(key, pos)
        return (f"query {lab[pos - 1]}: message = ({', '.join(fmt(x) for x in s['message'])}) "
                f"({', '.join(m.V_AXES)})")

    buttons = []
    for pos in range(1, len(words) + 1):
        s = query_row_state(key, pos)
        buttons.append(dict(method="update", label=lab[pos - 1],
                            args=[{"z": [_z(s["M"])], "text": [_cell_text(s["M"])], "customdata": [s["hover"]]},
                                  {"title.text": title(pos)}]))
    fig.update_layout(title=dict(text=title(start), y=0.98, font=dict(size=13)), height=370,
                      margin=dict(l=130, r=20, t=180, b=20),
                      updatemenus=button_rows(buttons, 5, pad_b=55, font=dict(size=11)))
    summary = (f"Query {lab[start - 1]}: weights " + _pairs(lab, st["M"][2]) + "; message ("
               + _pairs(m.V_AXES, st["message"]) + "). Buttons show the row of every query token.")
    return _show(fig, "bh-s15-query", "One query's masked scores, mask and weights over every source "
                 "(buttons choose the query).", summary)


def worked_score(key: str = "A", i: int = m.BANK, j: int = 6) -> HTML:
    """One score written out in full, as the hover shows it."""
    words, att = sentence_att(key)
    text = stage_hovers(words, att)["S"][i - 1][j - 1].replace("<br>", " ")
    return HTML(f'<p class="bh-arithmetic"><code>{html.escape(text)}</code></p>')


# ---------------------------------------------------------------- section 16: parallel matrices

PREFIX = 7


def matrices_figure(key: str = "A", T: int = PREFIX):
    """A slider through the products for the seven-token prefix, with row 7 (bank) outlined."""
    words, att = sentence_att(key, T=T)
    return _show(_stage_figure(words, att, "slider", highlight_row=m.BANK), "bh-s16-matrices",
                 f"The matrix products for the first {T} tokens, one per slider step; row {m.BANK} (bank) is outlined.",
                 _stages_summary(words, att))


# ---------------------------------------------------------------- section 17: four mixing schemes

def mixing_figure():
    lab_rows = list(mixing.SCHEMES)

    def state(key):
        words = m.sentence(key)
        w = mixing.scheme_weights(words)
        M = np.vstack([w[s] for s in lab_rows])
        hover = [[f"{s}: weight on {lab} = {fmt(x, 3)}" for lab, x in zip(labels(words), w[s])] for s in lab_rows]
        return M, labels(words), hover

    M, cols, hover = state("A")
    fig = go.Figure(_table_trace(M, lab_rows, cols, hover, zmin=0, zmax=0.6))
    _table_axes(fig)
    buttons = []
    for key in ("A", "B"):
        M, cols, hover = state(key)
        buttons.append(dict(method="update", label=f"{m.CONTEXT_NAMES[key]} sentence ({key})",
                            args=[{"z": [_z(M)], "text": [_cell_text(M)], "customdata": [hover], "x": [cols]},
                                  {"title.text": f"Weights for the blank after the last 'the', sentence {key}"}]))
    fig.update_layout(title=dict(text="Weights for the blank after the last 'the', sentence A", y=0.97),
                      height=330, margin=dict(l=160, r=20, t=130, b=20),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.0,
                                        xanchor="left", yanchor="bottom", pad=dict(b=45))])
    summary = " ".join(f"Sentence {k}: " + "; ".join(
        f"{sch} {_spread(labels(m.sentence(k)), w)}" for sch, w in mixing.scheme_weights(m.sentence(k)).items()) + "." for k in ("A", "B"))
    return _show(fig, "bh-s17-mixing", "Four ways to weigh the earlier tokens for the blank after the last 'the' "
                 "(buttons switch sentence).", summary)


# ---------------------------------------------------------------- section 18: position

def position_rows_table() -> HTML:
    return matrix_table(m.POSITION_ROWS, [f"position {i}" for i in range(1, 11)], m.FEATURES,
                        caption="P: the additive position rows", corner="position \\ feature", name="s18_P")


PREFIX_LENGTHS = tuple(range(3, 21))
WATCH_POSITION = 3


def prefix_features(T: int) -> dict[str, np.ndarray]:
    return {"index i": positions.scalar_index_features(T, False),
            "i / T": positions.scalar_index_features(T, True)}


def prefix_figure():
    """A slider over the prefix length T: the index feature keeps earlier values; i / T rewrites them."""
    Tmax = PREFIX_LENGTHS[-1]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("index i", "index divided by length, i / T"),
                        horizontal_spacing=0.1)

    def ys(T):
        f = prefix_features(T)
        pad = [None] * (Tmax - T)
        return [f["index i"].tolist() + pad, f["i / T"].tolist() + pad]

    def colors():
        return [HIGHLIGHT if i == WATCH_POSITION else BAR for i in range(1, Tmax + 1)]

    def title(T):
        f = prefix_features(T)
        return (f"prefix length T = {T}: position {WATCH_POSITION} has index {f['index i'][WATCH_POSITION - 1]:g}"
                f" and i / T = {f['i / T'][WATCH_POSITION - 1]:.3f}")

    x = list(range(1, Tmax + 1))
    start = PREFIX_LENGTHS[0]
    for c, y in enumerate(ys(start), 1):
        fig.add_trace(go.Bar(x=x, y=y, marker_color=colors(), hovertemplate="position %{x}: %{y:.3f}<extra></extra>"),
                      1, c)
    steps = [dict(method="update", label=str(T), args=[{"y": ys(T)}, {"title.text": title(T)}])
             for T in PREFIX_LENGTHS]
    fig.update_layout(title=dict(text=title(start)), height=420, showlegend=False,
                      margin=dict(l=50, r=20, t=80, b=40), yaxis=dict(range=[0, Tmax + 1]), yaxis2=dict(range=[0, 1.05]),
                      xaxis=dict(title=dict(text="position")), xaxis2=dict(title=dict(text="position")),
                      sliders=[dict(steps=steps, active=0, currentvalue=dict(prefix="prefix length T = "),
                                    pad=dict(t=50))])
    first, last = prefix_features(PREFIX_LENGTHS[0]), prefix_features(Tmax)
    summary = (f"Position {WATCH_POSITION} keeps index {first['index i'][WATCH_POSITION - 1]:g} for every prefix "
               f"length, but its i / T falls from {first['i / T'][WATCH_POSITION - 1]:.3f} at T = {PREFIX_LENGTHS[0]} "
               f"to {last['i / T'][WATCH_POSITION - 1]:.3f} at T = {Tmax}.")
    return _show(fig, "bh-s18-prefix", "Two position features as the prefix grows (slider): the index i, "
                 "and the index divided by the length, i / T.", summary)


OMEGA = 0.5
SINCOS_I, SINCOS_DELTA = 3, 2


def angle_addition() -> dict[str, np.ndarray]:
    i, d = SINCOS_I, SINCOS_DELTA
    a = positions.sincos(i, OMEGA)
    T = positions.shift_map(d, OMEGA)
    return {"at i": a, "T_δ": T, "at i · T_δ": a @ T, "at i + δ": positions.sincos(i + d, OMEGA)}


def angle_addition_table() -> HTML:
    r = angle_addition()
    i, d = SINCOS_I, SINCOS_DELTA
    rows = [f"position i = {i}", "row 1 of T_δ", "row 2 of T_δ", f"position {i} mapped by T_δ",
            f"position i + δ = {i + d}"]
    M = np.vstack([r["at i"], r["T_δ"], r["at i · T_δ"], r["at i + δ"]])
    return matrix_table(M, rows, ["sin(iω)", "cos(iω)"], corner="row \\ feature", name="s18_sincos",
                        caption=f"Angle addition with ω = {OMEGA:g}, δ = {d}: T_δ = [[cos δω, −sin δω], [sin δω, cos δω]]")


ROPE_Q, ROPE_K = np.array([1.0, 0.5]), np.array([0.3, 1.0])
ROPE_PAIRS = ((1, 3), (4, 6), (8, 10), (1, 4))


def rope_rows() -> list[tuple]:
    out = []
    for i, j in ROPE_PAIRS:
        out.append((f"i = {i}, j = {j}", j - i, positions.rope_score(ROPE_Q, ROPE_K, i, j, OMEGA),
                    positions.relative_score(ROPE_Q, ROPE_K, i, j, OMEGA)))
    return out


def rope_table() -> HTML:
    return rows_table(["positions", "offset j − i", "⟨R_i q, R_j k⟩", "qᵀ R_(j−i) k"], rope_rows(),
                      caption=f"RoPE with q = {ROPE_Q.tolist()}, k = {ROPE_K.tolist()}, ω = {OMEGA:g}", decimals=4)


CROSS_U, CROSS_V = np.array([1.0, 0.0]), np.array([0.6, 0.8])
CROSS_PAIRS = ((1, 3), (4, 6), (7, 9))


def cross_term_rows() -> list[tuple]:
    """(u + p_i)·(v + p_j) split into its four terms, same gap at three absolute positions (sin/cos p)."""
    out = []
    for i, j in CROSS_PAIRS:
        t = positions.additive_terms(CROSS_U, CROSS_V, positions.sincos(i, OMEGA), positions.sincos(j, OMEGA))
        out.append((f"i = {i}, j = {j}", t["u·v"], t["u·p_j"], t["p_i·v"], t["p_i·p_j"], t["total"]))
    return out


def cross_term_table() -> HTML:
    return rows_table(["positions", "u·v", "u·p_j", "p_i·v", "p_i·p_j", "total"], cross_term_rows(),
                      caption=f"Additive positions p = (sin iω, cos iω), ω = {OMEGA:g}, gap 2 each time",
                      decimals=3)


SWAP_ORDERS = (("dog", "bites"), ("bites", "dog"))


def swap_state(order, with_positions: bool) -> dict[str, np.ndarray]:
    """Identity projections, no mask: the inputs, weights and output row of each token (rows in word order)."""
    x = np.array([positions.SWAP_TOKENS[w] for w in order])
    if with_positions:
        x = x + positions.SWAP_POSITIONS
    A = softmax(x @ x.T)
    out = A @ x
    idx = [list(order).index(w) for w in ("dog", "bites")]
    return {"x": x[idx], "out": out[idx], "A": A}


def swap_figure():
    """Four states (two orders × positions on/off): each word's output row, rows kept in the same word order."""
    rows = ["dog", "bites"]
    cols = ["coord 1", "coord 2"]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("input x = token (+ position)", "output Σ α x"),
                        horizontal_spacing=0.15)

    def state(order, pos):
        s = swap_state(order, pos)
        hov_in = [[f"{w}: {fmt(v)}" for v in row] for w, row in zip(rows, s["x"])]
        hov_out = [[f"{w}'s output: {fmt(v)}" for v in row] for w, row in zip(rows, s["out"])]
        return s, [(s["x"], hov_in), (s["out"], hov_out)]

    s, parts = state(SWAP_ORDERS[0], True)
    for c, (M, h) in enumerate(parts, 1):
        fig.add_trace(_table_trace(M, rows, cols, h, zmin=-0.6, zmax=1.6), 1, c)
    _table_axes(fig)
    buttons = []
    for pos in (True, False):
        for order in SWAP_ORDERS:
            s, parts = state(order, pos)
            label = f"“{' '.join(order)}”, " + ("with positions" if pos else "no positions")
            buttons.append(dict(method="update", label=label,
                                args=[{"z": [_z(M) for M, _ in parts], "text": [_cell_text(M) for M, _ in parts],
                                       "customdata": [h for _, h in parts]}, {"title.text": label}]))
    for a in fig.layout.annotations:
        a.y += 0.13
    fig.update_layout(title=dict(text=buttons[0]["label"], y=0.98), height=400,
                      margin=dict(l=70, r=20, t=210, b=20),
                      updatemenus=button_rows(buttons, 2, y=1.3, pad_b=0, font=dict(size=11)))
    def outs(order, pos):
        o = swap_state(order, pos)["out"]
        return "; ".join(f"{w} ({_pairs(cols, row)})" for w, row in zip(rows, o))
    summary = " ".join(f"“{' '.join(order)}”, {'with' if pos else 'no'} positions: outputs {outs(order, pos)}."
                       for pos in (True, False) for order in SWAP_ORDERS)
    return _show(fig, "bh-s18-swap", "Each word's input and output row for two word orders, with or without "
                 "positions (buttons).", summary)


SWAP_WORDS = ("water", "river", "ducks", "heron")


def swap_regression_rows() -> dict[str, np.ndarray]:
    words = m.sentence("A")
    out = {}
    for pos in (True, False):
        tag = "positions" if pos else "positions zeroed"
        for name, w in (("original", words), ("The ↔ river", swapped(words))):
            p = predict(w, positions=pos)["p"]
            out[f"{name}, {tag}"] = np.array([p[m.VOCAB.index(x)] for x in SWAP_WORDS])
    return out


def swap_regression_table() -> HTML:
    r = swap_regression_rows()
    return matrix_table(np.vstack(list(r.values())), list(r), [f"p({w})" for w in SWAP_WORDS], decimals=4,
                        corner="sentence \\ next word", name="s18_swap",
                        caption="Sentence A and its swap: next-word probabilities of the water words")


# ---------------------------------------------------------------- section 19: self-check

def _reveal(question: str, answer: str, tables: list[str]) -> str:
    return (f"<details><summary>{html.escape(question)}</summary><p>{html.escape(answer)}</p>"
            + "".join(tables) + "</details>")


def self_check() -> HTML:
    words, att = sentence_att("A")
    _, attB = sentence_att("B")
    i = m.BANK - 1
    river = words.index("river")
    lab = labels(words)
    q1 = _reveal(
        "What is the difference between a key and a value?",
        "The key says when a source is a good match: it only meets queries in dot products. The value is what the "
        "source sends once it is chosen. River's two rows come from the same e row through different matrices, "
        "and even have different widths.",
        [matrix_html(att.K[river][None], [lab[river]], m.QK_AXES, caption="key k₆", corner="source"),
         matrix_html(att.V[river][None], [lab[river]], m.V_AXES, caption="value v₆", corner="source")])
    q2 = _reveal(
        "Why is bank's query not its updated representation?",
        "The query is a working vector in the query/key axes that scores the sources; it is never passed on. "
        "What is passed on is e + Δe, in the four representation features.",
        [matrix_html(att.Q[i][None], [lab[i]], m.QK_AXES, caption="query q₇ (used, then dropped)", corner="token"),
         matrix_html(att.e_new[i][None], [lab[i]], m.FEATURES, caption="e₇ + Δe₇ (passed on)", corner="token")])
    q3 = _reveal(
        "What does Δe₇ mean?",
        "It is the change that attention adds to bank's row: the message mapped back into the representation "
        "features by W_O. Its starting row is the same in both sentences; the change is not.",
        [matrix_html(np.vstack([att.e[i], att.dE[i], att.e_new[i], attB.dE[i], attB.e_new[i]]),
                     ["e₇", "Δe₇ (A)", "e₇ + Δe₇ (A)", "Δe₇ (B)", "e₇ + Δe₇ (B)"], m.FEATURES,
                     caption="bank in sentences A and B", corner="row \\ feature")])
    q4 = _reveal(
        "Where does the mask act, and what does it change?",
        "On the scores, before softmax: a future source gets −∞ and so weight zero. The past weights are then "
        "renormalised among themselves.",
        [matrix_html(np.vstack([mask_states()["mask on"]["alpha"], mask_states()["mask off"]["alpha"]]),
                     ["row 5, mask on", "row 5, mask off"], lab, caption="weights of row 5 (the)",
                     corner="row \\ source")])
    return HTML("".join((q1, q2, q3, q4)))


# ---------------------------------------------------------------- section 20: the chain

CHAIN = ("e₁₀", "q₁₀", "scores", "weights", "message", "e′₁₀", "p(next)")


def chain_stages(key: str) -> list[dict]:
    """The last position's values at each stage of the chain: labels, values, title."""
    words, att = sentence_att(key)
    i = len(words) - 1
    lab = labels(words)
    p = head(att.e_new[i])["p"]
    top = top_words(p)
    return [
        dict(x=list(m.FEATURES), y=att.e[i], title="embed: e₁₀ = E[the] + P₁₀ (the same row in A and B)"),
        dict(x=list(m.QK_AXES), y=att.Q[i], title="project: q₁₀ = e₁₀ W_Q (keys k = E W_K, values v = E W_V)"),
        dict(x=lab, y=att.S[i], title="score: q₁₀·kⱼ / √d_k for every source j ≤ 10"),
        dict(x=lab, y=att.A[i], title="normalise: α₁₀ⱼ = softmax of the scores"),
        dict(x=list(m.V_AXES), y=att.M[i], title="mix: m₁₀ = Σⱼ α₁₀ⱼ vⱼ"),
        dict(x=list(m.FEATURES), y=att.e_new[i], title="update: e′₁₀ = e₁₀ + m₁₀ W_O"),
        dict(x=list(m.VOCAB), y=p, title=f"predict: p = head(e′₁₀); top word {', '.join(top)} ({p.max():.3f})"),
    ]


def _chain_axes(st) -> dict:
    """Axis settings of one chain frame: only this stage's categories, a range that fits its values."""
    y = np.asarray(st["y"])
    lo, hi = min(0.0, float(y.min())), max(0.0, float(y.max()))
    span = (hi - lo) or 1.0
    return dict(xaxis2=dict(categoryorder="array", categoryarray=list(st["x"]), range=[-0.5, len(st["x"]) - 0.5]),
                yaxis2=dict(range=[lo - 0.05 * span if lo < 0 else 0, hi + 0.2 * span]))


def chain_figure():
    """Frames stepping through the chain for the last position; play buttons for sentences A and B."""
    fig = make_subplots(rows=2, cols=1, row_heights=[0.2, 0.8], vertical_spacing=0.12)
    n = len(CHAIN)

    def chain_trace(k):
        return go.Scatter(x=list(range(n)), y=[0] * n, mode="lines+markers+text", text=list(CHAIN),
                          textposition="bottom center", hoverinfo="skip", line=dict(color=MUTED, width=2),
                          marker=dict(size=22, symbol="square", color=[HIGHLIGHT if s == k else MUTED for s in range(n)],
                                      line=dict(color=BAR, width=1)))

    def bar_trace(st):
        return go.Bar(x=list(st["x"]), y=st["y"].tolist(), marker_color=BAR, text=[fmt(v) for v in st["y"]],
                      textposition="outside", hovertemplate="%{x}: %{y:.4f}<extra></extra>")

    frames, steps = [], []
    # mode "afterall" queues a new animation instead of interrupting the running one: plotly.js rejects an
    # interrupted animation's promise uncaught (a console error), so nothing here ever interrupts (no pause).
    anim = dict(mode="afterall", frame=dict(duration=0, redraw=True), transition=dict(duration=0))
    for key in ("A", "B"):
        for k, st in enumerate(chain_stages(key)):
            name = f"{key}{k + 1}"
            title = f"sentence {key} ({m.CONTEXT_NAMES[key]}), step {k + 1}/{n}: {st['title']}"
            frames.append(go.Frame(name=name, data=[chain_trace(k), bar_trace(st)], traces=[0, 1],
                                   layout=dict(title=dict(text=title), **_chain_axes(st))))
            steps.append(dict(method="animate", label=name, args=[[name], anim]))
    first = chain_stages("A")[0]
    fig.add_trace(chain_trace(0), 1, 1)
    fig.add_trace(bar_trace(first), 2, 1)
    fig.frames = frames
    play = dict(mode="afterall", frame=dict(duration=1100, redraw=True), transition=dict(duration=0),
                fromcurrent=False)
    buttons = [dict(method="animate", label=f"▶ play {m.CONTEXT_NAMES[k]} sentence ({k})",
                    args=[[f"{k}{s}" for s in range(1, n + 1)], play]) for k in ("A", "B")]
    fig.update_layout(title=dict(text=frames[0].layout.title.text, font=dict(size=13), y=0.97), height=580,
                      showlegend=False, margin=dict(l=50, r=20, t=110, b=130),
                      xaxis=dict(visible=False, range=[-0.6, n - 0.4]), yaxis=dict(visible=False, range=[-1, 0.6]),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.12,
                                        xanchor="left", yanchor="bottom", showactive=False)],
                      sliders=[dict(steps=steps, active=0, currentvalue=dict(prefix="step "), pad=dict(t=90))],
                      **_chain_axes(first))
    fig.update_xaxes(tickangle=-40, row=2, col=1)
    summary = " ".join(f"Sentence {k} ({m.CONTEXT_NAMES[k]}): steps {', '.join(CHAIN)}; the last weights put most on "
                       f"{figures.ranked(st[3]['x'], st[3]['y'], 2)}, and the top words are "
                       f"{figures.ranked(st[6]['x'], st[6]['y'])}."
                       for k, st in (("A", chain_stages("A")), ("B", chain_stages("B"))))
    return _show(fig, "bh-s20-chain", "The chain for the last position, step by step: play buttons for "
                 "sentences A and B, and a slider for any step.", summary)


# ---------------------------------------------------------------- the numbers the prose cites

def prose_values() -> dict[str, object]:
    """Every number sections 11–20 cite, as plain Python values for glue."""
    v: dict[str, object] = {}
    v["s11_d_model"], v["s11_d_k"], v["s11_d_v"] = m.W_Q.shape[0], m.W_Q.shape[1], m.W_V.shape[1]
    sp = scaling.measured_spread()
    v["s12_n_pairs"] = scaling.N_PAIRS
    v["s12_dk_max"] = int(sp["d_k"].max())
    v["s12_raw_var_max"] = float(sp["raw"][-1])
    v["s12_ratio_min"], v["s12_ratio_max"] = float((sp["raw"] / sp["d_k"]).min()), float((sp["raw"] / sp["d_k"]).max())
    v["s12_scaled_min"], v["s12_scaled_max"] = float(sp["scaled"].min()), float(sp["scaled"].max())
    sat = saturation_rows()
    v["s12_sat_dk"], v["s12_sat_raw"], v["s12_sat_scaled"] = sat[-1][0], sat[-1][2], sat[-1][4]
    v["s12_divisor_dk"], v["s12_divisor_sqrt"] = DIVISOR_DK, int(math.sqrt(DIVISOR_DK))
    v["s12_divisor_top_1"] = float(divisor_weights(1.0).max())
    v["s12_divisor_top_sqrt"] = float(divisor_weights(math.sqrt(DIVISOR_DK)).max())
    b = bank_scaled_rows("A")
    v["s12_sqrt_dk"] = math.sqrt(m.W_K.shape[1])
    v["s12_bank_top_word"] = b["words"][int(np.argmax(b["alpha"]))]
    v["s12_bank_top_weight"] = float(b["alpha"].max())
    st = mask_states()
    words = m.sentence("A")
    v["s13_row"] = ROW
    v["s13_river_off"] = float(st["mask off"]["alpha"][words.index("river")])
    v["s13_future_off"] = float(st["mask off"]["alpha"][ROW:].sum())
    v["s13_future_on"] = float(st["mask on"]["alpha"][ROW:].sum())
    for key in ("A", "B"):
        s = prediction_state(key, True)
        v[f"s14_top_{key}"], v[f"s14_p_{key}"] = ", ".join(s["top"]), s["p_top"]
    pa, pb = prediction_state("A", False)["p"], prediction_state("B", False)["p"]
    v["s14_bypass_gap"] = float(np.abs(pa - pb).max())
    wa, wb = mixing.scheme_weights(m.sentence("A")), mixing.scheme_weights(m.sentence("B"))
    v["s17_att_gap"] = float(np.abs(wa["attention"] - wb["attention"]).max())
    reg = swap_regression_rows()
    keys = list(reg)
    v["s18_swap_change"] = float(np.abs(reg[keys[0]] - reg[keys[1]]).max())
    v["s18_swap_change_zeroed"] = float(np.abs(reg[keys[2]] - reg[keys[3]]).max())
    v["s18_omega"] = OMEGA
    v["s20_top_A"], v["s20_top_B"] = v["s14_top_A"], v["s14_top_B"]
    return v

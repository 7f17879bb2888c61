"""The recap (sections 19 and 20): check-yourself questions with computed answers, and the chain for the
last position played step by step for both sentences."""
from __future__ import annotations


import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.figures import ranked
from ...present.palette import BAR, EDGE, HIGHLIGHT, MUTED
from ...present.tables import fmt, matrix_html, position_labels
from ...present.widgets import Print, Slide, State, Widget, answer_html, spelled
from . import model as m
from .states.attention import head, mask_states, sentence_att, top_words


_reveal = answer_html   # class answer: the handout prints it at the end (sitebuild.prints)


def self_check() -> HTML:
    words, att = sentence_att("A")
    _, attB = sentence_att("B")
    i = m.BANK - 1
    river = words.index("river")
    lab = position_labels(words, 1)
    q1 = _reveal(
        "What is the difference between a key and a value?",
        "The key says when a source is a good match: it only meets queries in dot products {about}`design`. The value is what the "
        "source sends once it is chosen. River's two rows come from the same e row through different matrices, "
        "and even have different widths {about}`design`.",
        [matrix_html(att.K[river][None], [lab[river]], m.K_AXES, caption="key k₆", corner="source"),
         matrix_html(att.V[river][None], [lab[river]], m.V_AXES, caption="value v₆", corner="source")])
    q2 = _reveal(
        "Why is bank's query not its updated representation?",
        "The query is a working vector in the query/key axes that scores the sources; it is never passed on {about}`design`. "
        "What is passed on is e + Δe, in the four representation features.",
        [matrix_html(att.Q[i][None], [lab[i]], m.QK_AXES, caption="query q₇ (used, then dropped) {about}`design`", corner="token"),
         matrix_html(att.e_new[i][None], [lab[i]], m.FEATURES, caption="e₇ + Δe₇ (passed on)", corner="token")])
    q3 = _reveal(
        "What does Δe₇ mean?",
        "It is the change that attention adds to bank's row: the message mapped back into the representation "
        "features by W_O. Its starting row is the same in both sentences; the change is not "
        "{claim}`bank_starts_identical update_follows_context`.",
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


CHAIN = ("e₁₀", "q₁₀", "scores", "weights", "message", "e′₁₀", "p(next)")


def chain_stages(key: str) -> list[dict]:
    """The last position's values at each stage of the chain: labels, values, title."""
    words, att = sentence_att(key)
    i = len(words) - 1
    lab = position_labels(words, 1)
    p = head(att.e_new[i])["p"]
    top = top_words(p)
    return [
        dict(x=list(m.FEATURES), y=att.e[i], title="embed: e₁₀ = E[the] + P₁₀ (the same row in A and B)"),
        dict(x=list(m.QK_AXES), y=att.Q[i], title="project: q₁₀ = e₁₀ W_Q (keys k = E W_K, values v = E W_V)"),
        dict(x=lab, y=att.S[i], title="score: q₁₀·kⱼ / √d_k for every source j ≤ 10"),
        dict(x=lab, y=att.A[i], title="normalise: α₁₀ⱼ = softmax of the scores"),
        dict(x=list(m.V_AXES), y=att.M[i], title="mix: m₁₀ = Σⱼ α₁₀ⱼ vⱼ"),
        dict(x=list(m.FEATURES), y=att.e_new[i], title="update: e′₁₀ = e₁₀ + m₁₀ W_O"),
        dict(x=list(m.VOCAB), y=p, title=f"predict: p = head(e′₁₀); top word {', '.join(top)} ({fmt(p.max(), 3)})"),
    ]


def _chain_axes(st) -> dict:
    """Axis settings of one chain frame: only this stage's categories, a range that fits its values."""
    y = np.asarray(st["y"])
    lo, hi = min(0.0, float(y.min())), max(0.0, float(y.max()))
    span = (hi - lo) or 1.0
    return dict(xaxis2=dict(categoryorder="array", categoryarray=list(st["x"]), range=[-0.5, len(st["x"]) - 0.5]),
                yaxis2=dict(range=[lo - 0.05 * span if lo < 0 else 0, hi + 0.2 * span],
                            title=dict(text="value at this step")))


def chain_figure():
    """Frames stepping through the chain for the last position; play buttons for sentences A and B."""
    fig = make_subplots(rows=2, cols=1, row_heights=[0.2, 0.8], vertical_spacing=0.12)
    n = len(CHAIN)

    def chain_trace(k):
        return go.Scatter(x=list(range(n)), y=[0] * n, mode="lines+markers+text", text=list(CHAIN),
                          textposition="bottom center", hoverinfo="skip", line=dict(color=MUTED, width=2),
                          marker=dict(size=22, symbol="square", color=[HIGHLIGHT if s == k else MUTED for s in range(n)],
                                      # the current stage is outlined too: in greyscale yellow and grey meet
                                      line=dict(color=EDGE, width=[3 if s == k else 1 for s in range(n)])))

    def bar_trace(st):
        return go.Bar(x=list(st["x"]), y=st["y"].tolist(), marker_color=BAR, text=[fmt(v) for v in st["y"]],
                      textposition="outside", cliponaxis=False, customdata=[fmt(v, 4) for v in st["y"]],
                      hovertemplate="%{x}: %{customdata}<extra></extra>")

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
    return fig


def chain_summary() -> str:
    return " ".join(f"Sentence {k} ({m.CONTEXT_NAMES[k]}): steps {', '.join(CHAIN)}; the last weights are largest on "
                    f"{ranked(st[3]['x'], st[3]['y'], 2)}, and the top words are "
                    f"{ranked(st[6]['x'], st[6]['y'])} {{about}}`reading`."
                    for k, st in (("A", chain_stages("A")), ("B", chain_stages("B"))))


def chain_states() -> Print:
    """Every step of the chain for sentence A, then the last step for B: the text compares the two top words."""
    n = len(CHAIN)
    return Print((*(State.slider(f"A, step {k + 1}: {name}", k) for k, name in enumerate(CHAIN)),
                  State.slider(f"B, step {n}: {CHAIN[-1]}", 2 * n - 1)), columns=2, height=300)


CHAIN_WIDGET = Widget(
    "bh-s20-chain", "The chain for the last position, step by step, for sentences A and B.", chain_figure,
    chain_summary, prints=chain_states, controls="Play buttons run it for each sentence; a slider picks any step.",
    # on a slide the chain's words and the bars' numbers keep their room: the slider closer under the bars
    slide=Slide({"margin.t": 92, "margin.b": 84, "sliders[0].pad.t": 52, "yaxis.domain": [0.64, 1],
                 "yaxis.range": [-1.9, 0.7], "yaxis2.domain": [0, 0.5]}))

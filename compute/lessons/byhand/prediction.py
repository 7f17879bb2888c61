"""The prediction (sections 2, 3 and 14): next-word bars for A and B, the last-token baseline, and the
last position's weights, row and prediction with attention on or bypassed."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.figures import ranked
from ...present.palette import BAR
from ...present.tables import fmt, position_labels, rows_html
from ...present.widgets import Print, Slide, State, Widget, place, update_buttons
from . import model as m
from .states.attention import KEYS, PREDICT_STATES, baseline_prediction, full_prediction, prediction_state, sentence_text


def sum_rows_html(key: str) -> str:
    """Each position's word row plus its position row, written out per feature."""
    r = m.rows(m.sentence(key))
    body = [(lab, *[f"{fmt(r.word_rows[i, c])} + {fmt(r.position_rows[i, c])} = {fmt(r.e[i, c])}"
                    for c in range(len(m.FEATURES))])
            for i, lab in enumerate(position_labels(r.words, 1))]
    return rows_html(["position word"] + list(m.FEATURES), body,
                     caption=f"Sentence {key}: e = E[word] + P, feature by feature (word + position = sum)")


def baseline_html() -> str:
    rows = []
    for key in KEYS:
        words = m.sentence(key)
        e = m.rows(words).e[-1]
        rows.append((f"{key}: {len(words)} {words[-1]}", *map(float, e)))
    return rows_html(["sentence: position word"] + list(m.FEATURES), rows, decimals=2,
                     caption="The one row the last-token model sees, in each sentence")


def _prob_title(key: str, model: str) -> str:
    return f"{model}, sentence {key}: “{sentence_text(key)} …”"


def prediction_figure(baseline: bool = False):
    """Next-word bars with an A/B switch (full model, or the last-token baseline)."""
    fn = baseline_prediction if baseline else full_prediction
    model = "Last token only" if baseline else "Full model"
    P = {k: fn(k) for k in KEYS}
    shown = {k: [fmt(x, 3) for x in P[k]] for k in KEYS}  # the hover's numbers, honestly rounded
    fig = go.Figure(go.Bar(x=list(m.VOCAB), y=P["A"].tolist(), marker_color=BAR, customdata=shown["A"],
                           hovertemplate="p(%{x}) = %{customdata}<extra></extra>"))
    fig.update_layout(
        margin=dict(l=60, r=20),
        yaxis=dict(range=[0, 0.35], title=dict(text="probability of the next word")),
        xaxis=dict(tickangle=-45),
        updatemenus=[update_buttons([f"A: … {m.CONTEXT_NAMES[k]} …" if k == "A" else f"B: … {m.CONTEXT_NAMES[k]} …"
                               for k in KEYS],
                              [[{"y": [P[k].tolist()], "customdata": [shown[k]]}, {"title.text": _prob_title(k, model)}]
                               for k in KEYS])])
    return place(fig, _prob_title("A", model), height=420, top=80, bottom=80, above=12)


def _state_label(key, attention):
    return f"{key} ({m.CONTEXT_NAMES[key]}), " + ("attention" if attention else "bypassed")


PANELS = ("weights α₁₀ⱼ of the last 'the'", "row fed to the head", "next-word probabilities")


def last_position_figure():
    """Buttons over sentence × attention: the last position's weights, the row fed to the head, the bars."""
    fig = make_subplots(rows=2, cols=2, specs=[[{}, {}], [{"colspan": 2}, None]], row_heights=[0.42, 0.58],
                        column_widths=[0.7, 0.3], vertical_spacing=0.2, horizontal_spacing=0.1,
                        subplot_titles=PANELS)

    def traces(key, att):
        s = prediction_state(key, att)
        return s, [position_labels(s["words"], 1), list(m.FEATURES), list(m.VOCAB)], [s["alpha"], s["x"], s["p"]]

    s, xs, ys = traces("A", True)
    for (r, c), x, y in zip(((1, 1), (1, 2), (2, 1)), xs, ys):
        fig.add_trace(go.Bar(x=x, y=y.tolist(), marker_color=BAR, customdata=[fmt(v, 4) for v in y],
                             hovertemplate="%{x}: %{customdata}<extra></extra>"), r, c)

    def title(s, key, att):
        top = s["top"]  # several words tie when attention is bypassed: name three, count the rest
        words = ", ".join(top[:3]) + (f" and {len(top) - 3} more tied" if len(top) > 3 else "")
        return f"{_state_label(key, att)}: top {'word' if len(top) == 1 else 'words'} {words} ({fmt(s['p_top'], 3)})"

    buttons = []
    for key, att in PREDICT_STATES:
        s, xs, ys = traces(key, att)
        buttons.append(dict(method="update", label=_state_label(key, att),
                            args=[{"x": xs, "y": [y.tolist() for y in ys], "customdata": [[fmt(v, 4) for v in y] for y in ys]},
                                  {"title.text": title(s, key, att)}]))
    fig.update_layout(title=dict(text=title(prediction_state("A", True), "A", True), y=0.98), height=640,
                      showlegend=False, margin=dict(l=50, r=20, t=140, b=80),
                      yaxis=dict(range=[0, 1]), yaxis3=dict(range=[0, 0.5], title=dict(text="probability")),
                      updatemenus=[dict(type="buttons", direction="right", buttons=buttons, x=0, y=1.13,
                                        xanchor="left", yanchor="bottom", font=dict(size=11))])
    fig.update_xaxes(tickangle=-40)
    return fig


def last_position_summary() -> str:
    return " ".join(f"{_state_label(k, a)}: top words {ranked(list(m.VOCAB), prediction_state(k, a)['p'])}."
                    for k, a in PREDICT_STATES)


def sums_table(key: str) -> HTML:
    return HTML(sum_rows_html(key))


def baseline_table() -> HTML:
    return HTML(baseline_html())


def _sentences() -> Print:
    """Both sentences, as the buttons switch them."""
    return Print(tuple(State.button(f"sentence {k} (… {m.CONTEXT_NAMES[k]} …)", b) for b, k in enumerate(KEYS)))


PREDICT = Widget(
    "bh-s02-predict", "The full model's next-word probabilities after sentence A and after sentence B.",
    prediction_figure,
    lambda: " ".join(f"After sentence {k} (… {m.CONTEXT_NAMES[k]} …) the most likely next words are "
                     f"{ranked(list(m.VOCAB), full_prediction(k))} {{about}}`reading`." for k in KEYS),
    prints=_sentences, controls="Buttons switch the sentence.")

BASELINE = Widget(
    "bh-s03-baseline", "Next-word probabilities when only the last token reaches the head, after sentence A "
    "and after sentence B {about}`design`.",
    lambda: prediction_figure(baseline=True),
    lambda: ("Only the last token reaches the head {about}`design`. Both sentences end in the same token, so "
             "the bars are the same for A and B {claim}`last_token_rows_identical baseline_ignores_context`: "
             f"{ranked(list(m.VOCAB), baseline_prediction('A'))} lead."),
    prints=_sentences, controls="Buttons switch the sentence.")

LAST_POSITION = Widget(
    "bh-s14-predict", "The last position's weights, the row fed to the head and the next-word "
    "probabilities, for sentence A and B, with attention and with attention bypassed.",
    last_position_figure, last_position_summary,
    prints=lambda: Print(tuple(State.button(_state_label(k, a), b) for b, (k, a) in enumerate(PREDICT_STATES)),
                         columns=1, height=360),
    controls="Buttons choose the sentence and the mode.",
    # on a slide the three panels side by side, their words upright and every one labelled, titles on two lines
    slide=Slide({"margin.t": 140, "margin.b": 70, "margin.l": 40, "margin.r": 4,
                 "updatemenus[0].y": 1, "updatemenus[0].pad.b": 54,
                 **{f"yaxis{n}.domain": [0, 1] for n in ("", "2", "3")},
                 **{f"xaxis{n}.tickangle": -90 for n in ("", "2", "3")}, "xaxis.dtick": 1, "xaxis3.dtick": 1,
                 "xaxis.domain": [0, 0.3], "xaxis2.domain": [0.36, 0.47], "xaxis3.domain": [0.58, 1],
                 **{f"annotations[{k}].yshift": 10 for k in range(3)},
                 "annotations[0].x": 0.15, "annotations[1].x": 0.415, "annotations[2].x": 0.79, "annotations[2].y": 1,
                 "annotations[0].text": PANELS[0].replace(" of", "<br>of"),
                 "annotations[1].text": PANELS[1].replace(" to", "<br>to")}))

"""The followed prediction shown: the story with the MLP's window boxed, where the head looks (marked words and
a bar figure), the two next-word distributions, and a sentence saying what happened (the case: states.follow)."""
from __future__ import annotations

import html
from dataclasses import fields

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...present.figures import in_site_build, show
from ...present.palette import BAR, EDGE, HIGHLIGHT, MUTED
from ...present.prose import said
from ...present.tables import fmt
from .states import follow as state
from .states.run import LabRun, data

SHOWN = 5                # words shown from each distribution
LOOKS = 3                # positions marked with their attention weight (those of at least 0.005)


class Case(state.Case):
    """A followed case with its displays."""

    def story_html(self) -> HTML:
        """The story up to the blank: the MLP's window boxed, earlier mentions of the answer underlined."""
        out = []
        for i, t in enumerate(self.tokens[1:], start=1):
            word = html.escape(t)
            if i in self.mentions:
                word = f"<u><b>{word}</b></u>"
            if i >= self.window_start:
                word = f'<span class="lab-window" style="outline: 1px solid; padding: 0 2px">{word}</span>'
            out.append(word)
        out.append("<b>___</b>")
        return HTML(f'<p class="lab-story">{" ".join(out)}</p>')

    def attention_html(self) -> HTML:
        """The story with the head's most-attended positions marked, and their weights."""
        top = {i for i in np.argsort(-self.attention)[:LOOKS].tolist() if self.attention[i] >= 0.005}
        out = []
        for i, t in enumerate(self.tokens):
            word = html.escape(t)
            if i in top:
                word = f"<mark>{word}<sup>{html.escape(fmt(self.attention[i], 2))}</sup></mark>"
            if i > 0 or i in top:
                out.append(word)
        return HTML(f'<p class="lab-story">{" ".join(out)} <b>___</b></p>')

    def attention_figure(self):
        """The head's weight on every position, bars; the earlier mentions highlighted, the MLP's window shaded.

        On the site, the site's figure; in a learner's Jupyter, the plotly figure itself (drawn by plotly there)."""
        fig = attention_bars(self)
        if not in_site_build():
            return fig
        where = ", ".join(str(i) for i in self.mentions) or "none"
        summary = (f"The head's weights over positions 0 to {self.position}: {fmt(self.on_mentions, 2)} on the earlier "
                   f"'{self.answer}' (position{'s' if len(self.mentions) > 1 else ''} {where}); the largest single weight is "
                   f"{fmt(self.attention.max(), 2)} at position {int(self.attention.argmax())} {{about}}`reading`. The MLP's window covers "
                   f"positions {self.window_start} to {self.position}.")
        return show(fig, "lab-attention", "The one-head model's attention from the blank to each earlier "
                    "position; the earlier mentions of the right word are highlighted, the MLP's window shaded.",
                    summary)

    def distributions_html(self) -> HTML:
        """Each model's most likely next words, the right one in bold."""
        itos = data().vocab.itos

        def cell(p, k):
            i = int(np.argsort(-p)[k])
            text = f"{html.escape(itos[i])} {html.escape(fmt(p[i], 2))}"
            return f"<b>{text}</b>" if i == self.word else text

        rows = "".join(f"<tr><th scope='row'>{k + 1}</th><td class='text'>{cell(self.p_mlp, k)}</td>"
                       f"<td class='text'>{cell(self.p_head, k)}</td></tr>" for k in range(SHOWN))
        rows += (f"<tr><th scope='row'>the right word</th><td class='text'>{html.escape(fmt(self.p_mlp[self.word], 3))}</td>"
                 f"<td class='text'>{html.escape(fmt(self.p_head[self.word], 3))}</td></tr>")
        return HTML('<div class="matrix-wrap"><table class="matrix"><caption>The next word after the blank: '
                    'each model\'s most likely words and their probabilities</caption><thead><tr>'
                    '<th scope="col">rank</th><th scope="col">window MLP</th><th scope="col">one attention head'
                    f'</th></tr></thead><tbody>{rows}</tbody></table></div>')

    def explain(self) -> str:
        itos = data().vocab.itos
        mlp_best, head_best = int(self.p_mlp.argmax()), int(self.p_head.argmax())
        return said(f"The right word is '{self.answer}', last said {self.distance} tokens back: outside the MLP's "
                f"window of {self.window}. The MLP gives it {fmt(self.p_mlp[self.word], 3)} and puts "
                f"'{itos[mlp_best]}' first ({fmt(self.p_mlp[mlp_best], 2)}). The head puts {fmt(self.on_mentions, 2)} of "
                f"its attention on the earlier '{self.answer}' and gives it {fmt(self.p_head[self.word], 3)}"
                + (" (its first choice)." if head_best == self.word else f"; its first choice is '{itos[head_best]}'."))


def attention_bars(case: Case) -> go.Figure:
    """Bars of the head's weights by position (word below), mentions of the answer in the highlight colour."""
    labels = [f"{i} {t}" for i, t in enumerate(case.tokens)]
    colours = [HIGHLIGHT if i in case.mentions else BAR for i in range(len(labels))]
    fig = go.Figure(go.Bar(x=labels, y=case.attention.tolist(), marker=dict(color=colours, line=dict(color=EDGE,
                           width=[2 if i in case.mentions else 0 for i in range(len(labels))])),
                           text=[fmt(w, 3) for w in case.attention], textposition="none",
                           hovertemplate="%{x}: weight %{text}<extra></extra>"))
    fig.add_vrect(x0=case.window_start - 0.5, x1=case.position + 0.5, fillcolor=MUTED, opacity=0.35, line_width=0,
                  annotation_text="the MLP's window", annotation_position="top left")
    fig.update_layout(title=dict(text=f"Where the head looks from the blank ('{case.answer}' highlighted)"),
                      height=340, margin=dict(l=60, r=20, t=50, b=40), bargap=0.1,
                      xaxis=dict(showticklabels=False, title=dict(text=f"position 0 to {case.position}")),
                      yaxis=dict(title=dict(text="attention weight"), range=[0, 1]))
    return fig


def follow(mlp: LabRun, head: LabRun, attention_fn) -> Case:
    """The first telling probe, both models run on its story (states.follow.follow), ready to show."""
    case = state.follow(mlp, head, attention_fn)
    return Case(**{f.name: getattr(case, f.name) for f in fields(case)})

"""Search as retrieval (sections 6 and 7): queries against video descriptions, then hard and soft
retrieval of what the videos hand back."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...present.figures import ranked
from ...present.palette import COLORSCALE
from ...present.tables import fmt, matrix_html
from ...present.widgets import Print, State, Widget, cell_text, column_scaled, grid, pairs, place, update_buttons
from .states import search
from .states.search import SEARCH_QUERY, TEMPERATURES, retrieval_grid


def search_html() -> str:
    Q, K, V = search.matrices()
    S = search.match_scores()
    return "".join([
        matrix_html(Q, list(search.QUERIES), search.TOPICS, corner="query \\ topic", decimals=0,
                    name="s06_queries", caption="Queries: what weight each search gives each topic"),
        matrix_html(K, list(search.VIDEOS), search.TOPICS, corner="video \\ topic", decimals=0,
                    name="s06_videos", caption="Video descriptions on the queries' topic axes"),
        matrix_html(S, list(search.QUERIES), list(search.VIDEOS), corner="query \\ video", decimals=0,
                    name="s06_scores", caption="Match scores: query · description"),
    ])


def values_html() -> str:
    _, _, V = search.matrices()
    return matrix_html(V, list(search.VIDEOS), search.VALUE_AXES, corner="video \\ value", decimals=1,
                       name="s07_values", caption="Values: what each video hands back when retrieved")


def scores_figure():
    """Match scores as a heatmap; hovering a cell writes out its dot product topic by topic."""
    Q, K, _ = search.matrices()
    S = search.match_scores()
    work = [[" + ".join(f"{int(Q[a, c])}·{int(K[b, c])}" for c in range(len(search.TOPICS))
                        if Q[a, c] and K[b, c]) or "no shared topic"
             for b in range(len(K))] for a in range(len(Q))]
    fig = go.Figure(go.Heatmap(
        z=S.tolist(), x=list(search.VIDEOS), y=list(search.QUERIES), text=cell_text(S, 0), texttemplate="%{text}",
        customdata=work, colorscale=COLORSCALE, colorbar=dict(title=dict(text="score")), xgap=2, ygap=2,
        hovertemplate="%{y} · %{x}<br>%{customdata} = %{z}<extra></extra>"))
    fig.update_layout(height=330, margin=dict(l=230, r=20, t=30, b=90), yaxis=dict(autorange="reversed"),
                      xaxis=dict(tickangle=-20))
    return fig


RETRIEVE_COLS = ("score", "weight") + tuple(f"weight ×<br>{a}" for a in search.VALUE_AXES)


RETRIEVE_DECIMALS = (0, 2, 1, 2, 1)


def retrieval_figure():
    """Hard/soft switch and a temperature slider: weights, weighted values, and the returned row."""
    rows_ = list(search.VIDEOS) + ["returned (sum)"]
    one = int(np.argmin(np.abs(TEMPERATURES - 1.0)))

    def data(grid):
        return {"z": [column_scaled(grid)], "text": [cell_text(grid, RETRIEVE_DECIMALS)]}

    def title(mode, T=None):
        q = list(search.QUERIES)[SEARCH_QUERY]
        return (f"Hard retrieval for “{q}”: the best match takes all the weight" if mode == "hard"
                else f"Soft retrieval for “{q}”: weights = softmax(score / {fmt(T)})")

    hard = retrieval_grid("hard")
    fig = go.Figure(grid(hard, rows_, RETRIEVE_COLS, decimals=RETRIEVE_DECIMALS))
    steps = [dict(method="update", label=fmt(T),
                  args=[data(retrieval_grid("soft", T)), {"title.text": title("soft", T), "updatemenus[0].active": 1}])
             for T in TEMPERATURES]
    fig.update_layout(
        margin=dict(l=160, r=20),
        yaxis=dict(autorange="reversed"), xaxis=dict(side="top", tickangle=0),
        updatemenus=[update_buttons(["hard", "soft"],
                              [[data(hard), {"title.text": title("hard")}],
                               [data(retrieval_grid("soft", 1.0)),
                                {"title.text": title("soft", 1.0), "sliders[0].active": one}]])],
        sliders=[dict(active=one, steps=steps, currentvalue=dict(prefix="temperature = "), pad=dict(t=10))])
    return place(fig, title("hard"), height=470, top=120, bottom=30, above=44)


def search_tables() -> HTML:
    return HTML(search_html())


def values_table() -> HTML:
    return HTML(values_html())


def scores_summary() -> str:
    S = search.match_scores()
    return " ".join(f"“{q}” scores highest with: {ranked(list(search.VIDEOS), S[a], 2, 0)} {{about}}`reading`."
                    for a, q in enumerate(search.QUERIES))


def retrieval_summary() -> str:
    hard, soft = search.retrieve(SEARCH_QUERY, "hard"), search.retrieve(SEARCH_QUERY, "soft", 1.0)
    q, vids = list(search.QUERIES)[SEARCH_QUERY], list(search.VIDEOS)
    return (f"For “{q}”, hard retrieval returns {vids[int(np.argmax(hard['weights']))]} alone; soft retrieval "
            f"at temperature 1 weighs {ranked(vids, soft['weights'])} and returns "
            + pairs(search.VALUE_AXES, soft["returned"]) + ".")


def retrieval_states() -> Print:
    """Hard retrieval, then soft at the lowest temperature, at 1 and at the highest (the text compares them)."""
    def soft(k):
        return State.slider(f"soft, temperature {fmt(TEMPERATURES[k])}", k)
    one = int(np.argmin(np.abs(TEMPERATURES - 1.0)))
    return Print((State.opening("hard"), soft(0), soft(one), soft(len(TEMPERATURES) - 1)), columns=1, height=300)


SCORES = Widget(
    "bh-s06-scores", "Match scores between three searches and five video descriptions (query · description).",
    scores_figure, scores_summary)

RETRIEVE = Widget(
    "bh-s07-retrieve", "Retrieval for one search: hard (best match only) or soft (softmax weights at a temperature) {about}`method`.",
    retrieval_figure, retrieval_summary, prints=retrieval_states,
    controls="Buttons switch between hard and soft; a slider sets the temperature.")

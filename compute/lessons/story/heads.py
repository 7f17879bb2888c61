"""From one head to four, and what the heads do: shapes, one story's attention, head roles, knock-outs."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from ...present.palette import COLORSCALE
from ...present.tables import fmt, matrix_html, rows_html
from ...present.widgets import Print, Widget, grid, update_buttons
from ...probes import KIND_NAMES
from ...published.story import FOUR_HEAD, load, story_corpus
from .states import heads
from .states.heads import query_positions

FOUR = FOUR_HEAD


def shapes_table() -> HTML:
    """Every matrix of one four-head layer on the worked story, with its shape."""
    cfg = load(FOUR).config
    T = len(story_corpus().val[heads.worked_story()].tokens) + 1
    d, H = cfg.d_model, cfg.n_head
    dh = d // H
    rows = [("X", f"{T} × {d}", "the layer's input, a row per token"),
            ("W_Q, W_K, W_V", f"{d} × {d}", f"{H} column blocks of {dh}, one per head"),
            ("Q_h, K_h, V_h", f"{T} × {dh}", "head h's own queries, keys, values"),
            ("A_h", f"{T} × {T}", "head h's attention weights"),
            ("Z_h = A_h V_h", f"{T} × {dh}", "what head h gathers"),
            ("Z = [Z_1 … Z_H]", f"{T} × {d}", "the heads side by side"),
            ("Z W_O", f"{T} × {d}", "mixed back into the stream")]
    return HTML(rows_html(["matrix", "shape", "what it is"], rows,
                          caption=f"One layer of the four-head model on the worked story (d = {d}, {H} heads of {dh})"))


def _state(q: int) -> dict:
    """The attention of every head from input position q (predicting story token q) over keys 0..q."""
    st = heads.query_state(FOUR, q)
    tokens = st["tokens"]
    keys = [f"{j} {t}" for j, t in enumerate(tokens[: q + 1])]
    return {"z": st["z"], "keys": keys, "word": st["word"], "query": f"{q} {tokens[q]}", "mentions": st["mentions"]}


def _title(st: dict) -> str:
    """Two short lines: a phone's width holds each."""
    mentions = ", ".join(map(str, st["mentions"])) or "none"
    return f"query “{st['query']}” → next word “{st['word']}”<br>earlier mentions at {mentions}"


def attention_figure() -> go.Figure:
    L, H = load(FOUR).config.n_layer, load(FOUR).config.n_head
    names = heads.head_labels(L, H)
    qs = query_positions()
    states = [_state(q) for q in qs]

    def data(st):
        custom = [[f"{n} → {k}: {fmt(w, 2)}" for k, w in zip(st["keys"], row)] for n, row in zip(names, st["z"])]
        return {"z": [st["z"].tolist()], "x": [st["keys"]], "customdata": [custom]}

    first = states[0]
    fig = go.Figure(go.Heatmap(z=first["z"].tolist(), x=first["keys"], y=names, zmin=0, zmax=1,
                               colorscale=COLORSCALE, colorbar=dict(title=dict(text="weight", side="right"), thickness=12),
                               customdata=data(first)["customdata"][0], hovertemplate="%{customdata}<extra></extra>"))
    fig.update_layout(
        height=470, margin=dict(l=60, r=10, b=100),
        xaxis=dict(title=dict(text="key: position and word (0 is <eos>)"), type="category", tickangle=-90,
                   tickfont=dict(size=9)),
        yaxis=dict(autorange="reversed", title=dict(text="layer and head")),
        updatemenus=[update_buttons([st["query"] for st in states],
                                    [[data(st), {"title.text": _title(st)}] for st in states])])
    fig.update_layout(title=dict(text=_title(first), font=dict(size=13), x=0.01, xref="container", y=0.97),
                      margin=dict(t=120))
    fig.layout.updatemenus[0].update(y=1.16)
    return fig


def strongest_keys() -> list[tuple]:
    """For each head (rows) and each query word of the figure (columns): the word it weights most, and
    that weight (what print shows instead of the buttons)."""
    A = heads.attention_on(FOUR, heads.worked_story())
    states = [_state(q) for q in query_positions()]
    names = heads.head_labels(*A.shape[:2])
    return [(name, *[f"{st['keys'][int(np.argmax(st['z'][r]))].split(' ', 1)[1]} {fmt(st['z'][r].max(), 2)}"
                     for st in states]) for r, name in enumerate(names)]


def attention_summary() -> str:
    st = _state(query_positions()[0])
    names = heads.head_labels(*heads.attention_on(FOUR, heads.worked_story()).shape[:2])
    best = int(np.argmax(st["z"][:, st["mentions"]].sum(1))) if st["mentions"] else 0
    return (f"Query {st['query']}, next word {st['word']}: the head that looks most at its earlier mentions is "
            f"{names[best]}, with {fmt(st['z'][best, st['mentions']].sum(), 2)} of its weight there {{about}}`reading`. "
            "Buttons choose other query words of this story.")


ATTENTION = Widget(
    "st-heads-attention", "Attention of the eight heads (two layers of four) from one query word of a validation "
    "story over each earlier position.", attention_figure, attention_summary, controls="Buttons choose the query word.",
    min_width=0,                              # every key on a phone's screen: the newest ones too
    prints=lambda: Print(why=f"Printed for the first query word, {_state(query_positions()[0])['query']}; the table "
                             "after it gives, for each query word, the position each head weights most {about}`method`."))


def strongest_keys_table() -> HTML:
    header = ["head \\ query", *[f"{_state(q)['query']} → {_state(q)['word']}" for q in query_positions()]]
    return HTML(rows_html(header, strongest_keys(),
                          caption="The word each head weights most, and its weight, for each query of the figure "
                                  "{about}`reading`"))


def roles_table(name: str = FOUR) -> HTML:
    """Each head's mean attention on earlier mentions of the right word, by probe kind, and a uniform row."""
    m = heads.mention_mass(name)
    L, H = m["mass"].shape[:2]
    M = np.vstack([m["mass"].reshape(L * H, -1), m["uniform"][None, :]])
    look = heads.looks(name)
    highlight = [(l * H + h, KIND_NAMES.index(k)) for k, (l, h) in look.items()]
    return HTML(matrix_html(M, heads.head_labels(L, H) + ["a uniform row"], KIND_NAMES, highlight=highlight,
                            corner="head \\ probe kind", name=f"roles-{name}",
                            caption="Mean attention weight on earlier mentions of the word to be predicted"))


def knockout_grid() -> np.ndarray:
    ko = heads.knockouts(FOUR)
    return np.array([[v[k] for k in KIND_NAMES] for v in ko.values()])


def knockout_figure() -> go.Figure:
    ko = heads.knockouts(FOUR)
    rows = ["all heads"] + [f"without L{l + 1} H{h + 1}" for (l, h) in list(ko)[1:]]
    fig = go.Figure(grid(knockout_grid(), rows, KIND_NAMES, per_column=False, zmax=1.0,
                         hover="%{y}: %{x} accuracy %{text}<extra></extra>"))
    fig.update_layout(height=380, margin=dict(l=130, r=20, t=30, b=20), xaxis=dict(side="top"),
                      yaxis=dict(autorange="reversed"))
    return fig


def knockout_summary() -> str:
    ko = heads.knockouts(FOUR)
    need = heads.needed(FOUR)
    return (f"Within-kind accuracy on the first {heads.ROLE_STORIES} validation stories, with each head, then with one "
            "head zeroed: " + "; ".join(
        f"without L{need[k][0] + 1} H{need[k][1] + 1} {k} falls from {fmt(ko['all heads'][k], 2)} "
        f"to {fmt(ko[need[k]][k], 2)}" for k in KIND_NAMES) + " {claim}`looking_heads_are_the_needed_heads`.")


KNOCKOUTS = Widget(
    "st-heads-knockouts", "Probe accuracy of the four-head model with its heads, and with each head zeroed in turn, "
    f"on the first {heads.ROLE_STORIES} validation stories (the accuracy tables of the measured comparison are on all of "
    "them) "
    "{about}`method`.",
    knockout_figure, knockout_summary)


def block_diagram() -> HTML:
    """The four-head model, drawn from its configuration (compute.present.diagram)."""
    from ...present.diagram import block_figure, described
    cfg = load(FOUR_HEAD).model.cfg
    return HTML(block_figure(cfg, f"The four-head model, drawn from its configuration: {described(cfg)}."))

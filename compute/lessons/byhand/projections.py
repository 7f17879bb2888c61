"""Projections (section 11): one token's row e, the q, k, v rows that the shared W_Q, W_K, W_V make from
it, and when each working row is made and used."""
from __future__ import annotations

import plotly.graph_objects as go
from IPython.display import HTML
from plotly.subplots import make_subplots

from ...present.palette import COLORSCALE, EMPTY, HIGHLIGHT, MUTED, OUTLINE, TEAL
from ...present.tables import fmt, matrix_html, position_labels, rows_table
from ...present.widgets import Print, Slide, State, Widget, button_rows, row_button, cell_text, dot_text, gaps, pairs, spelled, sub
from . import model as m
from .states.attention import LIFETIME_ROWS, LIFETIME_STATES, lifetime_codes, projection_rows, reader_positions


def projection_figure(key: str = "A", start: int = m.BANK):
    """Buttons over the tokens: e, then q, k, v from the shared W_Q, W_K, W_V, then e + Δe."""
    words = m.sentence(key)
    parts = [("e", m.FEATURES, "e (input, unchanged)"), ("q", m.QK_AXES, "q = e W_Q: asks for"),
             ("k", m.K_AXES, "k = e W_K: offers a match on"), ("v", m.V_AXES, "v = e W_V: sends"),
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
                h = [f"{name}{sub(pos)}[{a}] = e{sub(pos)} · {wn}[:, {a}]<br>= {dot_text(rws['e'], W[:, c])}"
                     f" = {fmt(row[c])}" for c, a in enumerate(axes)]
            zs.append(gaps(row[None]))
            texts.append(cell_text(row[None]))
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
                                 hovertemplate="%{customdata}<extra></extra>", colorscale=COLORSCALE,
                                 showscale=False, xgap=2, zmin=-0.5, zmax=2.5), row=r, col=1)
    fig.update_xaxes(side="top", type="category")
    fig.update_yaxes(type="category", tickfont=dict(size=12))
    buttons = []
    for pos in range(1, len(words) + 1):
        zs, texts, hovers, ys, title = state(pos)
        buttons.append(dict(method="update", label=position_labels(words, 1)[pos - 1],
                            args=[{"z": zs, "text": texts, "customdata": hovers, "y": ys},
                                  {"title.text": title}]))
    fig.update_layout(title=dict(text=state(start)[4], font=dict(size=13), y=0.985),
                      height=590, margin=dict(l=170, r=20, t=180, b=20),
                      updatemenus=button_rows(buttons, PER_ROW, pad_b=45, active=start - 1, font=dict(size=11)))
    r = projection_rows(key, start)
    return fig


def weight_tables() -> HTML:
    """W_Q, W_K, W_V with their named axes: shared by every token."""
    parts = [matrix_html(m.W_Q, m.FEATURES, m.QK_AXES, caption="W_Q (shared)", corner="feature \\ asks for",
                         name="W_Q"),
             matrix_html(m.W_K, m.FEATURES, m.K_AXES, caption="W_K (shared)", corner="feature \\ matches on",
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


def _lifetime_title(pos: int, t: int, T: int) -> str:
    words = m.sentence("A")
    p = sub(pos)
    if t < pos:
        what = f"none of position {pos}'s rows exists yet"
    elif t == pos:
        what = f"all of {words[pos - 1]}'s rows are made; q{p} reads keys 1–{pos}"
    else:
        what = f"position {t} reads k{p} and v{p} from the cache"
    return f"step {t} ({words[t - 1]}): {what}"


PER_ROW = 5  # token buttons to a row

LIFETIME_CELLS = ("", "made,<br>used", "from<br>cache", "not<br>needed")  # LIFETIME_STATES, short


def lifetime_figure(pos: int = m.BANK, T: int = 10):
    """The working rows of one position against the steps of the sentence, with a slider over the steps."""
    codes = lifetime_codes(pos, T)
    words = m.sentence("A")
    rows = lifetime_labels(pos)
    cols = position_labels(words, 1)[:T]
    n = len(LIFETIME_STATES)
    scale = [[k / (n - 1), c] for k, c in enumerate((EMPTY, HIGHLIGHT, TEAL, MUTED))]
    text = [[LIFETIME_CELLS[c] for c in row] for row in codes]
    hover = [[LIFETIME_STATES[c] for c in row] for row in codes]
    fig = go.Figure(go.Heatmap(z=codes.tolist(), x=cols, y=rows, text=text, texttemplate="%{text}",
                               textfont=dict(size=10), colorscale=scale, zmin=0, zmax=n - 1, showscale=False,
                               xgap=2, ygap=2, customdata=hover, hovertemplate="%{y} at step %{x}: %{customdata}<extra></extra>"))
    fig.update_xaxes(side="top", type="category")
    fig.update_yaxes(autorange="reversed", type="category")
    fig.add_shape(type="rect", xref="x", yref="paper", x0=pos - 1.5, x1=pos - 0.5, y0=0, y1=1,
                  line=dict(color=OUTLINE, width=3))
    steps = [dict(method="relayout", label=str(t),
                  args=[{"shapes[0].x0": t - 1.5, "shapes[0].x1": t - 0.5, "title.text": _lifetime_title(pos, t, T)}])
             for t in range(1, T + 1)]
    fig.update_layout(title=dict(text=_lifetime_title(pos, pos, T), x=0.01, xanchor="left", y=0.98),
                      height=420, margin=dict(l=90, r=20, t=90, b=70),
                      sliders=[dict(steps=steps, active=pos - 1, currentvalue=dict(prefix="step ", visible=True),
                                    pad=dict(t=10), y=0, yanchor="top")])
    return fig


def lifetime_labels(pos: int) -> list[str]:
    """The working rows of position `pos`: e₇, q₇, k₇, v₇, Δe₇, e₇ + Δe₇."""
    p = sub(pos)
    return [f"e{p} + Δe{p}" if name == "e + Δe" else f"{name}{p}" for name in LIFETIME_ROWS]


def lifetime_summary(pos: int = m.BANK, T: int = 10) -> str:
    codes = lifetime_codes(pos, T)
    parts = []
    for name, row in zip(lifetime_labels(pos), codes):
        used = [t + 1 for t, c in enumerate(row) if c in (1, 2)]
        parts.append(f"{name} is used at step{'s' if len(used) > 1 else ''} "
                     f"{used[0]}{'–' + str(used[-1]) if len(used) > 1 else ''}")
    return f"The rows of position {pos} over the steps 1–{T}: " + "; ".join(parts) + "."


def lifetime_table(pos: int = m.BANK) -> HTML:
    return rows_table(["row", "computed from", "computed when", "used by"], lifetime_rows(pos),
                      caption=f"Lifetime of the rows of position {pos} ({m.sentence('A')[pos - 1]})")


def projection_summary(key: str = "A", start: int = m.BANK) -> str:
    words = m.sentence(key)
    r = projection_rows(key, start)
    return (f"Shown: {position_labels(words, 1)[start - 1]}. e = ({pairs(m.FEATURES, r['e'])}); q = ({pairs(m.QK_AXES, r['q'])}); "
            f"k = ({pairs(m.K_AXES, r['k'])}); v = ({pairs(m.V_AXES, r['v'])}); "
            f"e + Δe = ({pairs(m.FEATURES, r['e_new'])}). Buttons show the rows of each token.")


def lifetime_states() -> Print:
    """Just before bank's step, bank's step, and the last step (the text describes the three)."""
    T = len(m.sentence("A"))
    return Print(tuple(State.slider(f"step {k}", k - 1) for k in (m.BANK - 1, m.BANK, T)), columns=1, height=300)


def projection_states() -> Print:
    """The three tokens whose queries the text compares: bank, the last the, heron."""
    words = m.sentence("A")
    cited = (m.BANK, len(words), words.index("heron") + 1)
    return Print(tuple(row_button(f"{k} {words[k - 1]}", k - 1, PER_ROW) for k in cited), columns=1, height=460)


LIFETIME = Widget(
    "bh-s11-lifetime", f"The working rows of bank (position {m.BANK}), one column per step of the sentence (the "
    "token being processed).", lifetime_figure, lifetime_summary, prints=lifetime_states,
    controls="The slider steps through the tokens.",
    # on a slide the cells take the room the title's and the slider's margins leave, each wide enough for its words
    slide=Slide({"margin.t": 50, "margin.b": 50, "margin.l": 64, "margin.r": 2, "sliders[0].pad.t": 0}))

PROJECTIONS = Widget(
    "bh-s11-projections", "One token's row e and the rows q, k, v that the shared matrices make from it, then e + Δe.",
    projection_figure, projection_summary, controls="Buttons choose the token.", prints=projection_states,
    # on a slide the five rows closer together, each under its header, the buttons just above them
    slide=Slide({"margin.t": 104, "margin.b": 6, "updatemenus[0].pad.b": 40, "updatemenus[1].pad.b": 8,
                 **{f"yaxis{n or ''}.domain": [round(0.8 - 0.2 * k, 3), round(0.905 - 0.2 * k, 3)]
                    for k, n in enumerate((0, 2, 3, 4, 5))}}))

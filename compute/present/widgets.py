"""Widgets: one record per interactive figure, and the pieces figures share (heatmap tables, buttons).

A Widget keeps together everything the page and the handout show of one
figure: its fixed id, caption, the figure itself (every state computed at
build time), its summary in words, and the states of its controls that the
text cites (a `Print`), which the handout prints side by side and the
figure's files hold.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import plotly.graph_objects as go
from IPython.display import HTML

from .figures import MIN_WIDTH, Print, Slide, State, figure_html, in_site_build
from .prose import defined, said, written_at
from .numbers import shown
from .palette import COLORSCALE
from .tables import fmt

__all__ = ["Print", "Slide", "State", "Widget", "box_module"]  # Print and State are declared with the figures


def box_module(src: str) -> str:
    """The tag that brings a box to life (the live box, the circuit box, the training box): its module, `src`
    relative to the page, which _static/site.js imports once the page's first screen is painted, so that opening
    the page starts no request for it before then (a module script would be fetched, with every module it
    imports, as soon as the parser saw it). An inert data block to the browser, a plain tag to a notebook."""
    return f'<script type="text/plain" class="box-module" data-src="{html.escape(src)}"></script>'


@dataclass(frozen=True)
class Widget:
    id: str                          # fixed div id: links and tests find the figure by it
    caption: str | Callable[[], str]  # the visible caption (a function when it names a computed value)
    figure: Callable[[], go.Figure]  # builds the figure, every state of its controls included
    summary: Callable[[], str]       # the figure in words, from the same states (its accessible description)
    prints: Print | Callable[[], Print] | None = None  # the states the text cites (a function when labels are computed)
    height: int | None = None        # overrides the figure's own height
    min_width: int = MIN_WIDTH       # px; narrower screens scroll the figure sideways (0: it fits any width)
    controls: str = ""               # web only, ending the caption: what the controls do ("Buttons choose the kind.")
    where: str = ""                  # where the widget is declared (set when it is): its sentences are audited there
    slide: Slide | None = None       # its layout on a slide, where its page's is too tall for one

    def __post_init__(self):
        if not self.where:
            object.__setattr__(self, "where", written_at())

    def built(self) -> go.Figure:
        fig = self.figure()
        if self.height:
            fig.update_layout(height=self.height)
        return fig

    def html(self) -> str:
        caption = self.caption() if callable(self.caption) else self.caption
        prints = self.prints() if callable(self.prints) else self.prints
        return figure_html(self.built(), self.id, caption, self.summary(), self.min_width, self.controls, prints,
                           where=self.where, caption_where=defined(self.caption), summary_where=defined(self.summary),
                           slide=self.slide)

    def show(self) -> HTML | go.Figure:
        """The widget, ready to display in a notebook cell of the site's build; in a learner's Jupyter, the
        plotly figure itself, which Jupyter draws live."""
        return HTML(self.html()) if in_site_build() else self.built()


def widgets_in(*modules) -> dict[str, Widget]:
    """The Widget records a module defines, by lower-case name: bank.DOT -> {"dot": DOT}."""
    return {name.lower(): w for mod in modules for name, w in vars(mod).items() if isinstance(w, Widget)}


def answer_html(question: str, answer: str, tables: list[str] = ()) -> str:
    """A question whose computed answer opens under it on the web page; the handout prints every answer at the
    end (class "answer", sitebuild.prints)."""
    where = written_at()
    question, answer = said(question, where), said(answer, where)
    return (f'<details class="answer"><summary>{html.escape(question)}</summary><p>{html.escape(answer)}</p>'
            + "".join(tables) + "</details>")


SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    """An integer as subscript digits: 7 -> ₇."""
    return str(n).translate(SUB)


NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty").split()


def spelled(n: int) -> str:
    """A small count in words, as prose writes it: 7 -> 'seven' (digits from 21 on)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def pairs(names, values, decimals: int = 2) -> str:
    """'water 0.72, finance 0.06': names with their values."""
    return ", ".join(f"{n} {shown(float(x), f'.{decimals}f')}" for n, x in zip(names, values))


def dot_text(a, b) -> str:
    """'0.10×2.00 + 0.00×0.00 + …': a dot product written out term by term."""
    return " + ".join(f"{fmt(x)}×{fmt(y)}" for x, y in zip(a, b))


# ------------------------------------------------------------------ tables drawn as heatmaps

def cell_text(M, decimals: int | tuple[int, ...] = 2) -> list[list[str]]:
    """Cell strings as printed (blank for NaN); `decimals` may give one count per column."""
    M = np.atleast_2d(M)
    d = decimals if isinstance(decimals, tuple) else (decimals,) * M.shape[1]
    return [["" if np.isnan(x) else fmt(float(x), d[c]) for c, x in enumerate(row)] for row in M]


def gaps(M) -> list[list[float | None]]:
    """Heatmap z with NaN and ±inf (masked) cells left blank."""
    return [[None if not np.isfinite(x) else float(x) for x in row] for row in np.atleast_2d(M)]


def column_scaled(M: np.ndarray) -> list[list[float | None]]:
    """Colour per column, scaled by the column's largest magnitude (columns differ in units)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    scale = np.nanmax(np.abs(M), axis=0)
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    return gaps(M / scale)


def grid(M, rows, cols, decimals: int | tuple[int, ...] = 2, hover: str | None = None, customdata=None,
         per_column=True, zmax: float | None = None, **kw) -> go.Heatmap:
    """A labelled table drawn as a heatmap: every cell shows its number; colours per column or shared."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    z = column_scaled(M) if per_column else gaps(M)
    return go.Heatmap(z=z, x=list(cols), y=list(rows), text=cell_text(M, decimals), texttemplate="%{text}",
                      textfont=dict(size=13), colorscale=COLORSCALE, showscale=False,
                      zmin=0, zmax=1 if per_column else zmax, xgap=2, ygap=2,
                      customdata=customdata, hoverongaps=False,
                      hovertemplate=hover or "%{y} · %{x}: %{text}<extra></extra>", **kw)


def arithmetic_grid(M, rows, cols, hover, **kw) -> go.Heatmap:
    """A matrix drawn as a heatmap with its numbers in the cells and each cell's arithmetic on hover."""
    return go.Heatmap(z=gaps(M), x=list(cols), y=list(rows), text=cell_text(M), texttemplate="%{text}",
                      customdata=hover, hovertemplate="%{customdata}<extra></extra>", colorscale=COLORSCALE,
                      showscale=False, xgap=2, ygap=2, hoverongaps=True, **kw)


def table_axes(fig: go.Figure, **where) -> None:
    """Read a heatmap like a table: column labels on top, first row at the top."""
    fig.update_xaxes(side="top", type="category", **where)
    fig.update_yaxes(autorange="reversed", type="category", **where)


# ------------------------------------------------------------------ controls

def update_buttons(labels: Sequence[str], args_list, active=0, x=0.0, y=1.18) -> dict:
    """A button row whose buttons each apply an `update` (data, layout[, traces])."""
    return dict(type="buttons", direction="right", active=active, x=x, y=y, xanchor="left",
                yanchor="bottom", showactive=True, pad=dict(r=4, t=0),
                buttons=[dict(label=label, method="update", args=a) for label, a in zip(labels, args_list)])


BUTTON_ROWS = "button rows"  # the name of every row of one set (_static/plotly-menus.js folds them into one)


def button_rows(buttons: list[dict], per_row: int, y: float = 1.0, pad_b: int = 40, active: int = -1,
                **kw) -> list[dict]:
    """Buttons split over several rows of updatemenus (top row first); the title names the state shown.
    `active` is the index of the button whose state is drawn first (-1: none), kept for the drop-down a
    narrow screen folds the rows into."""
    rows = [buttons[k:k + per_row] for k in range(0, len(buttons), per_row)]
    n = len(rows)
    return [dict(type="buttons", direction="right", buttons=r, x=0, y=y, xanchor="left", yanchor="bottom",
                 pad=dict(b=pad_b + 34 * (n - 1 - k)), showactive=False, name=BUTTON_ROWS,
                 active=active - k * per_row if 0 <= active - k * per_row < per_row else -1, **kw)
            for k, r in enumerate(rows)]


def row_button(label: str, index: int, per_row: int) -> State:
    """The state after pressing button `index` (from 0, in order) of a set split by button_rows, `per_row` a row."""
    return State.button(label, index % per_row, menu=index // per_row)


def place(fig: go.Figure, title: str, height: int, top: int, bottom: int, above: int = 0, **margin) -> go.Figure:
    """Title in the top strip, buttons (if any) `above` pixels over the plot area, out of the title's way."""
    plot = height - top - bottom
    fig.update_layout(height=height, margin=dict(t=top, b=bottom, **margin),
                      title=dict(text=title, x=0.01, xref="container", xanchor="left", y=1 - 6 / height,
                                 yanchor="top", font=dict(size=13)))
    for menu in fig.layout.updatemenus:
        if menu.type == "buttons" and menu.buttons[0].method == "update":
            menu.update(y=1 + above / plot, yanchor="bottom", x=0, xanchor="left")
    return fig

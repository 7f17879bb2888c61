"""A figure drawn for paper holds no text under 7 pt (sitebuild/figures/render.js, legible): a figure planted with
every small text plotly makes (a 6-px tick font, a subscript in a 12-px note, a log axis's minor ticks, the values
of 30 narrow bars it shrinks to fit, a heatmap's numbers it sizes to their cells) is drawn by the figure stage in
Chromium, set by Typst two states to a row, and read back from the PDF as the prints are
(tests/pdf/test_figures_on_paper.py shows the reading finds a text under 7 pt). Nor does a title print over a tick
label: panels stacked too close stop the stage."""
from __future__ import annotations

import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from compute.present import figures
from compute.present.figures import Print, State
from sitebuild.figures.forms import LEAST_PRINTED_PT
from sitebuild.figures.render import CACHE, FigureError
from sitebuild.prints import pdftext
from test_figure_cache import draw, site_folder
from helpers import typeset


def crowded_figure() -> go.Figure:
    fig = make_subplots(rows=1, cols=3)
    words = [f"w{i}" for i in range(30)]
    values = [0.001 * (i + 1) for i in range(30)]
    fig.add_trace(go.Bar(x=words, y=values, text=[f"{v:.3f}" for v in values], textposition="outside"), 1, 1)
    cells = [[(i * 12 + j) / 144 for j in range(12)] for i in range(12)]
    fig.add_trace(go.Heatmap(z=cells, texttemplate="%{z:.2f}", showscale=False), 1, 2)
    fig.add_trace(go.Scatter(x=[1, 10, 100, 1000], y=[1, 3, 30, 300]), 1, 3)
    fig.update_xaxes(tickfont=dict(size=6), row=1, col=1)
    fig.update_yaxes(type="log", row=1, col=3)
    fig.add_annotation(text="e<sub>7</sub> = E[bank] + P<sub>7</sub>", x=0, y=1.1, xref="paper", yref="paper",
                       showarrow=False, font=dict(size=12))
    fig.update_layout(showlegend=False, height=360)
    return fig


def test_a_crowded_figure_prints_every_text_at_7_pt_or_more(tmp_path):
    prints = Print(states=(State("as it opens"), State("again")), columns=2)
    body = figures.figure_html(crowded_figure(), "fig-crowded", "Small texts.", "Every small text plotly makes.",
                               prints=prints, where="lesson")
    page = f'<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>{body}</main></body></html>'
    html, build = site_folder(tmp_path, page), tmp_path / "build"
    done, _, _ = draw(html, build, page)          # the stage raises where a state would print a text under 7 pt
    assert done.drawn == 1
    entry, = (build / CACHE).iterdir()
    states = ", ".join(f'fig-state(none, "/{(entry / f"print-{k}.svg").relative_to(tmp_path)}", 332, 300)'
                       for k in range(2))
    pdf = typeset(tmp_path, f"#states-figure(columns: 2, ({states},), [Crowded])")
    drawn = pdftext.drawing_text(pdf)
    texts = " ".join(d.text for d in drawn)
    assert "E[bank]+P" in texts and "0.97" in texts  # the note, the cells' numbers printed
    assert pdftext.too_small(drawn, LEAST_PRINTED_PT) == []
    assert min(d.size for d in drawn) < LEAST_PRINTED_PT + 0.5       # raised to the least, not far above it


def stacked_figure(spacing: float) -> go.Figure:
    """Two panels stacked, the lower one's title `spacing` (a share of the height) below the upper one's axis."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=spacing, subplot_titles=("upper panel", "lower panel"))
    for row in (1, 2):
        fig.add_trace(go.Scatter(x=[0, 5, 10], y=[0, 1, 2]), row, 1)
    fig.update_layout(showlegend=False, height=300)
    return fig


def stage_over(tmp_path, fig: go.Figure):
    """The figure stage over a page holding `fig`, printed in one state."""
    body = figures.figure_html(fig, "fig-stacked", "Two panels.", "Two panels stacked.", where="lesson")
    page = f'<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>{body}</main></body></html>'
    html, build = site_folder(tmp_path, page), tmp_path / "build"
    return draw(html, build, page)


def test_a_panel_title_over_tick_labels_stops_the_figure_stage_naming_both(tmp_path):
    """No title prints over a tick label: panels stacked too close fail the stage with the title and the label;
    given room, the same panels draw."""
    with pytest.raises(FigureError, match=r"figure fig-stacked would print its title 'lower panel' over the tick "
                                          r"label '\d+'"):
        stage_over(tmp_path / "close", stacked_figure(0.15))
    done, _, _ = stage_over(tmp_path / "apart", stacked_figure(0.3))
    assert done.drawn == 1

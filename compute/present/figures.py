"""Plotly figures as the site embeds them: JSON beside an empty box that _static/figures.js draws."""
from __future__ import annotations

import html
import json
import os

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from IPython.display import HTML

from .numbers import honest_format
from .palette import FONT, TITLE_SIZE

CONFIG = {"displaylogo": False, "responsive": True}
DEFAULT_HEIGHT = 450  # plotly.js's own, for a figure whose layout sets none
# A figure is never drawn narrower than this (px): on a phone it scrolls sideways in its own box
# instead of crowding its labels; its controls stay in the part on screen (_static/plotly-menus.js).
MIN_WIDTH = 520


def figure_html(fig: go.Figure, div_id: str, caption: str, summary: str, min_width: int = MIN_WIDTH,
                controls: str = "") -> str:
    """The figure as <figure>: an empty plotly div (fixed id, stable across builds) at the figure's
    height, the figure's JSON beside it for _static/figures.js to draw when the reader nears it,
    a visible caption, and `summary`, the figure in words, as its accessible description
    (visually hidden). A figure with frames waits for its Play button instead of animating. Below
    `min_width` px (0: none) the figure scrolls sideways in a box of its own. `controls`: what the figure's
    controls do, ending the caption on the web page only (print shows one state and says which in a note)."""
    if not caption.strip() or not summary.strip():
        raise ValueError(f"figure {div_id}: a caption and a summary are required")
    fig.update_layout(font=FONT, template="plotly_white", title_font_size=TITLE_SIZE)
    height = fig.layout.height or DEFAULT_HEIGHT
    # The div keeps the figure's height before it is drawn, so nothing moves when it is.
    # The figcaption comes last: HTML allows it only as a <figure>'s first or last child.
    graph = f'<div id="{div_id}" class="plotly-graph-div" style="height:{height}px; width:100%;"></div>'
    if min_width:
        graph = (f'<div class="figure-scroll"><div id="{div_id}" class="plotly-graph-div" '
                 f'style="height:{height}px; width:100%; min-width:{min_width}px;"></div></div>')
    return (f'<figure class="plotly-figure" aria-describedby="{div_id}-summary">{graph}{inspect_html(fig, div_id)}'
            f'<script type="application/json" class="plotly-figure-spec" data-for="{div_id}">'
            f'{figure_json(fig)}</script>'
            f'<p class="figure-summary" id="{div_id}-summary">{html.escape(summary)}</p>'
            f'<figcaption>{html.escape(caption)}{_web_only(controls)}</figcaption></figure>')


def _web_only(text: str) -> str:
    return f' <span class="web-only">{html.escape(text)}</span>' if text else ""


def inspect_html(fig: go.Figure, div_id: str) -> str:
    """For a figure whose table cells carry their arithmetic (a heatmap with customdata on hover): the line
    under it where _static/plotly-inspect.js writes a clicked, tapped or keyed cell's sum. Empty otherwise.
    Written here, not by the script, so that nothing moves when the figure is drawn."""
    cells = [t for t in fig.data if t.type == "heatmap" and t.customdata is not None
             and "%{customdata}" in (t.hovertemplate or "")]
    if not cells:
        return ""
    first = cells[0].hovertemplate.replace("%{customdata}", str(cells[0].customdata[0][0]))
    sums = "=" in first.split("<extra>")[0]  # arithmetic, or a plain value per cell
    label, hint = (("Show the arithmetic", "Click or tap a cell to see its arithmetic.") if sums
                   else ("Show a cell", "Click or tap a cell to see its value."))
    return (f'<div class="cell-inspect web-only" data-for="{div_id}">'
            f'<button type="button" aria-controls="{div_id}-inspect" title="Arrow keys: another cell">{label}</button>'
            f'<output id="{div_id}-inspect" aria-live="polite">{hint}</output></div>')


def figure_json(fig: go.Figure) -> str:
    """{"data", "layout", "frames", "config"} for Plotly.newPlot, safe inside a <script> element."""
    spec = json.loads(pio.to_json(fig, validate=False, pretty=False))
    spec["config"] = CONFIG
    # The template's trace defaults only for the trace types drawn (plotly_white has ~40 types).
    template = spec["layout"].get("template", {})
    if "data" in template:
        used = {trace.get("type", "scatter") for trace in spec["data"]}
        template["data"] = {kind: v for kind, v in template["data"].items() if kind in used}
    # '<' occurs in JSON only inside strings, where \u003c means the same: no '</script>' in it.
    return json.dumps(spec, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def in_site_build() -> bool:
    """True while the site's build executes a lesson (sitebuild sets SITEBUILD=1 for its kernels):
    figures are then the site's; a learner's Jupyter draws plotly figures itself."""
    return os.environ.get("SITEBUILD") == "1"


def show(fig: go.Figure, div_id: str, caption: str, summary: str, min_width: int = MIN_WIDTH) -> HTML:
    """figure_html, ready to display in a notebook cell."""
    return HTML(figure_html(fig, div_id, caption, summary, min_width))


def ranked(labels, values, n: int = 3, decimals: int = 2) -> str:
    """The n largest values with their labels, largest first: 'fall 0.62, rise 0.21, of 0.05'."""
    order = np.argsort(-np.asarray(values, dtype=float), kind="stable")[:n]
    return ", ".join(f"{labels[k]} {honest_format(float(values[k]), f'.{decimals}f')}" for k in order)

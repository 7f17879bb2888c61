"""Plotly figures as the site embeds them: one declaration per figure, drawn three ways.

A figure is its plotly spec plus a `Print`: the states of its controls that the
text cites. From that one declaration the build (sitebuild.figures.render) draws
the page's first picture (an SVG per light/dark and page/phone width), the
handout's small multiples (one SVG per cited state, no control drawn) and the
files a reader takes away (SVG, PNG, CSV); the reader's browser draws the live
figure from the same spec when the reader first touches it (_static/figures.js).
"""
from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from IPython.display import HTML

from .notation import figure_labels_subscripted, subscripted
from .numbers import shown
from .palette import FONT, TITLE_SIZE
from .prose import said, written_at

CONFIG = {"displaylogo": False, "responsive": True}
DEFAULT_HEIGHT = 450  # plotly.js's own, for a figure whose layout sets none
# A figure is never drawn narrower than this (px): on a phone it scrolls sideways in its own box
# instead of crowding its labels; its controls stay in the part on screen (_static/plotly-menus.js).
MIN_WIDTH = 520


@dataclass(frozen=True)
class State:
    """One state of a figure's controls that the text cites: the handout prints it, the files hold it."""
    label: str                                   # printed above the state: "λ = 0.00", "sentence B"
    steps: tuple[tuple[str, int, int], ...] = ()  # the controls worked from the opening state, in order:
                                                 # ("menu", i, button) of layout.updatemenus[i], ("slider", i, step)

    @classmethod
    def opening(cls, label: str) -> "State":
        """The figure as it opens."""
        return cls(label)

    @classmethod
    def button(cls, label: str, button: int, menu: int = 0) -> "State":
        """The state after pressing button `button` of updatemenus[`menu`]."""
        return cls(label, (("menu", menu, button),))

    @classmethod
    def slider(cls, label: str, step: int, slider: int = 0) -> "State":
        """The state at step `step` of sliders[`slider`] (a negative step counts from the end)."""
        return cls(label, (("slider", slider, step),))

    def then(self, other: "State", label: str | None = None) -> "State":
        """This state's steps followed by `other`'s: two controls set at once."""
        return State(label or f"{self.label}, {other.label}", self.steps + other.steps)


@dataclass(frozen=True)
class Print:
    """How a figure goes to paper and to files: the states its text cites, side by side, no control drawn."""
    states: tuple[State, ...] = ()   # in print order; empty: the figure as it opens
    columns: int = 0                 # states per printed row (0: two when there are two or more)
    height: int | None = None        # px of each printed state (None: the figure's print height)
    why: str = ""                    # a figure with controls printed in one state: why that state tells the story

    def as_json(self) -> dict:
        return {"states": [{"label": s.label, "steps": [list(t) for t in s.steps]} for s in self.states],
                "columns": self.columns, "height": self.height, "why": self.why}


@dataclass(frozen=True)
class Slide:
    """How a figure is laid out on its slide (sitebuild.decks.cut, _static/slides.js), where its type is magnified to
    24 px and its room has a projector's proportions, wider and shorter than a page's: changes to its page
    layout, keyed as plotly.relayout keys them ("yaxis2.domain", "annotations[1].y"), for a figure whose
    page layout does not keep its words apart in that room (panels side by side rather than stacked)."""
    layout: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"layout": self.layout}


def controls_of(fig: go.Figure) -> list[str]:
    """What the figure's reader can work on the page: 'menu 0 (2 buttons)', 'slider 0 (21 steps)', 'frames'."""
    found = [f"menu {i} ({len(m.buttons)} button{'s' if len(m.buttons) != 1 else ''})"
             for i, m in enumerate(fig.layout.updatemenus or ()) if m.buttons]
    found += [f"slider {i} ({len(s.steps)} steps)" for i, s in enumerate(fig.layout.sliders or ()) if s.steps]
    return found


def resolved(fig: go.Figure, prints: Print | None, div_id: str) -> Print:
    """`prints` checked against the figure's controls, slider steps counted from the end made positive.

    A figure with controls names at least two states its text cites, or says why one tells the story."""
    prints = prints or Print()
    menus, sliders = fig.layout.updatemenus or (), fig.layout.sliders or ()
    controls = controls_of(fig)
    if controls and len(prints.states) < 2 and not prints.why.strip():
        raise ValueError(f"figure {div_id} has controls ({', '.join(controls)}) but its Print names "
                         f"{len(prints.states)} state(s): name the states its text cites, or say why one is enough")
    labels = [s.label for s in prints.states]
    if any(not label.strip() for label in labels) or len(set(labels)) != len(labels):
        raise ValueError(f"figure {div_id}: every printed state needs a label of its own, got {labels}")
    states = []
    for state in prints.states:
        steps = []
        for kind, i, j in state.steps:
            items = ([m.buttons for m in menus] if kind == "menu" else
                     [s.steps for s in sliders] if kind == "slider" else None)
            if items is None or not 0 <= i < len(items) or not -len(items[i]) <= j < len(items[i]):
                raise ValueError(f"figure {div_id}: state {state.label!r} works {kind} {i} step {j}, "
                                 f"which the figure does not have (it has {', '.join(controls) or 'no controls'})")
            steps.append((kind, i, j % len(items[i])))
        states.append(State(state.label, tuple(steps)))
    return Print(tuple(states), prints.columns, prints.height, prints.why)


def figure_html(fig: go.Figure, div_id: str, caption: str, summary: str, min_width: int = MIN_WIDTH,
                controls: str = "", prints: Print | None = None, where: str = "", caption_where: str | None = None,
                summary_where: str | None = None, slide: Slide | None = None) -> str:
    """The figure as <figure>: an empty plotly div (fixed id, stable across builds) at the figure's
    height, the figure's JSON beside it, a visible caption, and `summary`, the figure in words, as its
    accessible description (visually hidden). The build draws the div's first picture and the printed
    states (`prints`, checked here) from the same JSON; the reader's browser draws the live figure
    when the reader first touches it. Below `min_width` px (0: none) the figure scrolls sideways in a
    box of its own. `controls`: what the figure's controls do, ending the caption on the web page only.
    `slide`: its layout on a slide, where that is not its page's (checked against the figure here)."""
    if not caption.strip() or not summary.strip():
        raise ValueError(f"figure {div_id}: a caption and a summary are required")
    where = where or written_at()  # its sentences are audited where they are written (compute.present.prose)
    caption, summary = said(caption, caption_where or where), said(summary, summary_where or where)
    controls = said(controls, where)
    fig.update_layout(font=FONT, template="plotly_white", title_font_size=TITLE_SIZE)
    prints = resolved(fig, prints, div_id)
    if prints.why:
        prints = Print(prints.states, prints.columns, prints.height, said(prints.why, where))
    height = fig.layout.height or DEFAULT_HEIGHT
    # The div keeps the figure's height before it is drawn, so nothing moves when it is.
    # The figcaption comes last: HTML allows it only as a <figure>'s first or last child.
    graph = (f'<div id="{div_id}" class="plotly-graph-div" data-height="{height}" data-min-width="{min_width}" '
             f'style="height:{height}px; width:100%;{f" min-width:{min_width}px;" if min_width else ""}"></div>')
    if min_width:
        graph = f'<div class="figure-scroll">{graph}</div>'
    declared = html.escape(json.dumps(prints.as_json(), ensure_ascii=False, separators=(",", ":")))
    on_slide = f' data-slide="{html.escape(slide_json(fig, slide, div_id))}"' if slide else ""
    return (f'<figure class="plotly-figure" aria-describedby="{div_id}-summary" data-print="{declared}"{on_slide}>'
            f'{graph}{inspect_html(fig, div_id)}'
            f'<script type="application/json" class="plotly-figure-spec" data-for="{div_id}">'
            f'{figure_json(fig)}</script>'
            f'<p class="figure-summary" id="{div_id}-summary">{html.escape(summary)}</p>'
            f'<figcaption>{subscripted(html.escape(caption))}{_web_only(controls)}</figcaption></figure>')


def slide_json(fig: go.Figure, slide: Slide, div_id: str) -> str:
    """`slide` as the figure's slide reads it, each key checked to name a property the figure has (an axis, an
    annotation) and to take the value given: a key that plotly would quietly ignore is an error here."""
    copy = go.Figure(fig)
    for key, value in slide.layout.items():
        path = key.replace("[", ".").replace("]", "").split(".")
        try:
            if not _has_axis(fig, path[0]):
                raise KeyError(f"the figure has no {path[0]}")
            target = copy.layout
            for part in path[:-1]:
                target = target[int(part)] if part.isdigit() else target[part]
            said = (target[path[-1]] if path[-1] == "text" else
                    slide.layout.get(key.removesuffix("ticktext") + "tickvals") if path[-1] == "ticktext" else None)
            if path[-1] in ("text", "ticktext") and _unbroken(value) != said:
                raise ValueError(f"a slide breaks the page's words over lines, it does not change them "
                                 f"(the page says {said!r})")
            target[path[-1]] = value
        except (KeyError, IndexError, ValueError, TypeError) as error:
            reason = next(line.strip() for line in f"{error}\n?".splitlines() if line.strip())  # plotly's first line
            raise ValueError(f"figure {div_id}: its slide changes {key} = {value!r}, which its layout cannot take "
                             f"({reason})") from None
    return json.dumps(slide.as_json(), ensure_ascii=False, separators=(",", ":"))


def _unbroken(words):
    """Words, or a list of them, with the line breaks a slide puts in taken out."""
    if isinstance(words, (list, tuple)):
        return [_unbroken(w) for w in words]
    return " ".join(str(words).replace("<br>", " ").split())


def _has_axis(fig: go.Figure, name: str) -> bool:
    """False for an axis ("yaxis3") that no trace of the figure is drawn on; True for any other name."""
    axis = re.fullmatch(r"([xy])axis(\d*)", name)
    if not axis:
        return True
    return any((getattr(trace, f"{axis[1]}axis", None) or axis[1]) == axis[1] + axis[2] for trace in fig.data)


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
    spec = figure_labels_subscripted(json.loads(pio.to_json(fig, validate=False, pretty=False)))  # e_7 as e₇
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


def show(fig: go.Figure, div_id: str, caption: str, summary: str, min_width: int = MIN_WIDTH,
         prints: Print | None = None) -> HTML | go.Figure:
    """figure_html, ready to display in a notebook cell of the site's build; in a learner's Jupyter, the
    plotly figure itself, which Jupyter draws live."""
    if not in_site_build():
        return fig
    return HTML(figure_html(fig, div_id, caption, summary, min_width, prints=prints))


def ranked(labels, values, n: int = 3, decimals: int = 2) -> str:
    """The n largest values with their labels, largest first: 'fall 0.62, rise 0.21, of 0.05'."""
    order = np.argsort(-np.asarray(values, dtype=float), kind="stable")[:n]
    return ", ".join(f"{labels[k]} {shown(float(values[k]), f'.{decimals}f')}" for k in order)

"""Subscripts as they print: "e_7", "W_O", "q_{7}", "s_5,j" in a figure's labels or a table's headers print as
e₇-style subscripts (<sub>), in plotly's labels (which take <sub>) and in HTML tables alike, so the web page,
the pictures drawn at build and the handout show one notation. Lessons write the plain form, as in the math."""
from __future__ import annotations

import re

# A letter (Latin or Greek, primed or not) then _ then {anything} or a run of letters and digits, with commas
# ("s_5,j"): what the lessons' math writes as a subscript.
SUBSCRIPT = re.compile(r"(?<=[A-Za-zΑ-Ωα-ω′'])_(?:\{([^{}]+)\}|([0-9A-Za-z]+(?:,[0-9A-Za-z]+)*))")


def subscripted(text: str) -> str:
    """`text` with each x_i written x<sub>i</sub> (for plotly's labels, or HTML already escaped)."""
    return SUBSCRIPT.sub(lambda m: f"<sub>{m.group(1) or m.group(2)}</sub>", text)


# a figure's labels (tick, trace, button, slider), and a category axis's order, which names the same words
LABEL_KEYS = {"ticktext", "name", "label", "prefix", "categoryarray", "tickvals"}
TITLED = {"title"}                                        # {"title": {"text": ...}}


def figure_labels_subscripted(spec: object, key: str = "", parent: str = "") -> object:
    """A plotly figure's JSON with subscripts in its labels: titles, axis titles, tick labels, annotations, trace
    names, a category axis's words (in the traces, the frames and the controls' restyle arguments alike),
    buttons' and slider steps' labels. Hover texts and customdata are left as they are (a script reads them as
    plain text)."""
    if isinstance(spec, dict):
        return {k: (_label(v) if _is_label(k, v, key, spec) else figure_labels_subscripted(v, k, key))
                for k, v in spec.items()}
    if isinstance(spec, list):
        return [figure_labels_subscripted(v, key, parent) for v in spec]
    return spec


def _is_label(k: str, v: object, key: str, owner: dict) -> bool:
    if k == "text" and (key in TITLED or key == "annotations"):
        return True
    if k in LABEL_KEYS or k in ("x", "y"):     # x, y: a category axis's words, in a trace or a control's args
        return _words(v)
    return k == "text" and key == "title"


def _words(v) -> bool:
    """A string, or a list (of lists) of strings only."""
    return isinstance(v, str) or (isinstance(v, list) and bool(v) and all(_words(x) for x in v))


def _label(v):
    return subscripted(v) if isinstance(v, str) else [_label(x) for x in v]

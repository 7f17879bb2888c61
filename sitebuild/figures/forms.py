"""A drawn figure's forms, from what plotly drew at build (sitebuild.figures.render): pure functions, no browser.

* `steady_svg`: plotly's SVG with its random id (a new one each drawing) replaced by a fixed one, and the
  pressed button's colour written in (an image does not see the page's style sheets);
* `side_by_side`: the printed states as one SVG, each under its label (the file a reader takes away);
* `figure_csv`: the numbers every printed state plots, one row per point, with named columns;
* `page_rules`, `figure_tag`, `extras_html`: the page's markup for the figure's pictures, printed states and files.
"""
from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import dataclass

# px: a figure's width where the text column holds WIDE px (the column of a 1280 px screen; 672-800 px at 1100 px
# and wider), and on a 375 px phone (327 px of text); the container query that picks one is the page's
# (page_rules). Between the two (a 960 px screen's 640 px column) the figure keeps the phone's width.
WIDE = 672
PHONE = 327
PRINT_WIDTH = 680    # the handout's text width in CSS px (sitebuild/prints/chapter.typ: 170 mm)
PRINT_GAP = 16       # px between printed states side by side
LABEL_HEIGHT = 22    # px of a state's label above it, in the SVG a reader takes away
PRESSED = "fill: rgb(244, 250, 255)"  # plotly's own colour for a pressed button (site.css recolours it)


def geometry(min_width: int) -> dict[str, dict[str, int]]:
    """The two widths a figure is drawn at, and how much of each is on screen (its controls fit that)."""
    return {"wide": {"width": max(WIDE, min_width), "shown": WIDE},
            "narrow": {"width": max(PHONE, min_width), "shown": PHONE}}


def state_width(columns: int) -> int:
    return (PRINT_WIDTH - (columns - 1) * PRINT_GAP) // columns


# How the handout places a printed state (sitebuild/prints/chapter.typ, states-figure): the text column's width
# shared by `columns` with a gutter between them, less a 4 % inset on the right of each.
TEXT_WIDTH_PT = 170 * 72 / 25.4
COLUMN_GUTTER_PT = 10
STATE_INSET = 0.04
LEAST_PRINTED_PT = 7.0   # no text of a figure prints smaller on A4


def printed_scale(columns: int) -> float:
    """Points on paper per px of a state drawn for `columns` to a row."""
    column = (TEXT_WIDTH_PT - (columns - 1) * COLUMN_GUTTER_PT) / columns
    return column * (1 - STATE_INSET) / state_width(columns)


def least_px(columns: int) -> float:
    """The smallest text, in px, a state drawn for `columns` to a row may hold: LEAST_PRINTED_PT on paper
    (rounded up to a tenth of a px)."""
    return -(-LEAST_PRINTED_PT / printed_scale(columns) * 10 // 1) / 10


def columns(declared: int, states: int) -> int:
    """States to a printed row: as declared, else two when there are two or more."""
    return declared or (2 if states > 1 else 1)


_UID = re.compile(r'id="defs-([0-9a-z]+)"')


def steady_svg(svg: str, uid: str, pressed: str = "") -> str:
    """`svg` with plotly's random id (clip paths, defs, legend) replaced by `uid`, its root's attributes in one
    order, and the pressed button painted `pressed` (a CSS colour; empty: plotly's own). Raises ValueError on an
    SVG that is not plotly's."""
    svg = steady_root(svg)
    found = _UID.search(svg)
    if not found:
        raise ValueError("not an SVG plotly drew: no defs id")
    old = found.group(1)
    uses = len(re.findall(rf'(?:id="|url\([\'"]?#|href="#)[a-z-]*{re.escape(old)}', svg))
    if svg.count(old) != uses:  # the id also stands in the figure's text: replacing it would change the text
        raise ValueError(f"plotly's id {old} also occurs outside ids")
    svg = svg.replace(old, uid)
    if pressed:
        svg = svg.replace(PRESSED, f"fill: {pressed}")
    return svg


_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\bwidth="(?P<w>[\d.]+)" height="(?P<h>[\d.]+)"')
_ATTRIBUTE = re.compile(r'\s+([^\s=]+)="([^"]*)"')
# plotly's root attributes in the order its export writes them where the drawing settled before it: the order an
# attribute is first set in, which a late redraw changes (`style` set after `viewBox` once, in one of two builds)
ROOT_ORDER = ("class", "xmlns", "xmlns:xlink", "width", "height", "style", "viewBox")
_RANK = {name: k for k, name in enumerate(ROOT_ORDER)}


def steady_root(svg: str) -> str:
    """`svg` with its root element's attributes in ROOT_ORDER (any others after them, as they came): the same
    picture, written the same whatever order the drawing set them in."""
    root = _ROOT.search(svg)
    if not root:
        return svg
    attributes = _ATTRIBUTE.findall(root.group(0))
    ordered = sorted(attributes, key=lambda a: _RANK.get(a[0], len(ROOT_ORDER)))   # stable: the others keep theirs
    closing = "/>" if root.group(0).endswith("/>") else ">"
    tag = "<svg" + "".join(f' {name}="{value}"' for name, value in ordered) + closing
    if len(tag) != len(root.group(0)):   # an attribute the pattern did not read would be lost
        raise ValueError(f"an SVG root whose attributes are not all name=\"value\": {root.group(0)[:80]}")
    return svg[:root.start()] + tag + svg[root.end():]


def svg_size(svg: str) -> tuple[float, float]:
    root = _ROOT.search(svg)
    size = _SIZE.search(root.group(0)) if root else None
    if not size:
        raise ValueError("an SVG without width and height")
    return float(size["w"]), float(size["h"])


@dataclass(frozen=True)
class Printed:
    """One printed state: its label and plotly's SVG of it."""
    label: str
    svg: str


def side_by_side(states: list[Printed], columns: int, font: str = "system-ui, sans-serif") -> str:
    """The states as one SVG, `columns` to a row, each under its label (no label over a single state)."""
    if len(states) == 1 and not states[0].label:
        return states[0].svg
    label = LABEL_HEIGHT if any(s.label for s in states) else 0
    sizes = [svg_size(s.svg) for s in states]
    cell = max(w for w, _ in sizes)
    width = columns * cell + (columns - 1) * PRINT_GAP
    parts, y = [], 0.0
    for row in range(0, len(states), columns):
        row_height = max(h for _, h in sizes[row:row + columns])
        for k, (state, (w, h)) in enumerate(zip(states[row:row + columns], sizes[row:row + columns])):
            x = k * (cell + PRINT_GAP)
            if state.label:
                parts.append(f'<text x="{x:g}" y="{y + 15:g}" font-family="{html.escape(font)}" font-size="14" '
                             f'font-weight="600" fill="#222">{html.escape(state.label)}</text>')
            inner = _ROOT.sub(f'<svg x="{x:g}" y="{y + label:g}" width="{w:g}" height="{h:g}" '
                              f'viewBox="0 0 {w:g} {h:g}">', state.svg.strip(), count=1)
            parts.append(inner)
        y += label + row_height + (PRINT_GAP if row + columns < len(states) else 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width:g}" height="{y:g}" viewBox="0 0 {width:g} {y:g}">'
            f'<rect width="{width:g}" height="{y:g}" fill="#fff"/>' + "".join(parts) + "</svg>")


def _value(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return repr(v) if v == v else ""
    return str(v)


def _points(trace: dict):
    """(x, y, z, text) for every point the trace plots."""
    def at(values, k):
        if isinstance(values, list):
            return values[k] if k < len(values) else None
        return values  # one text for every point

    if trace["type"] == "heatmap":
        text = trace.get("text")
        for r, row in enumerate(trace.get("z") or []):
            texts = at(text, r)
            for c, value in enumerate(row):
                yield (at(trace.get("x"), c) if trace.get("x") is not None else c,
                       at(trace.get("y"), r) if trace.get("y") is not None else r,
                       value, at(texts, c))
        return
    xs, ys = trace.get("x"), trace.get("y")
    n = max(len(xs) if isinstance(xs, list) else 0, len(ys) if isinstance(ys, list) else 0)
    for k in range(n):
        yield (at(xs, k) if xs is not None else k), (at(ys, k) if ys is not None else k), None, at(trace.get("text"), k)


def _axis_header(letter: str, titles: set[str]) -> str:
    titles = {t for t in titles if t}
    return f"{letter} ({titles.pop()})" if len(titles) == 1 else letter


def figure_csv(states: list[tuple[str, list[dict]]]) -> str:
    """The numbers each state plots (label, traces as figurerender.js reads them), one row per point.
    Columns: state (when there are several), series, x and y (named after their axis when all traces share
    one title), value (a heatmap cell's), text (the label drawn on a bar or cell, when any is)."""
    rows = []
    for label, traces in states:
        for trace in traces:
            series = trace.get("name") or f"{trace['type']} {trace['index'] + 1}"
            for x, y, z, text in _points(trace):
                rows.append((label, series, x, y, z, text))
    all_traces = [t for _, traces in states for t in traces]
    columns = (["state"] if len(states) > 1 else []) + ["series",
               _axis_header("x", {t.get("xtitle", "") for t in all_traces}),
               _axis_header("y", {t.get("ytitle", "") for t in all_traces})]
    with_value = any(z is not None for *_, z, _ in rows)
    with_text = any(t not in (None, "") for *_, t in rows)
    columns += (["value"] if with_value else []) + (["text"] if with_text else [])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for label, series, x, y, z, text in rows:
        row = ([label] if len(states) > 1 else []) + [series, _value(x), _value(y)]
        row += ([_value(z)] if with_value else []) + ([_value(text)] if with_text else [])
        writer.writerow(row)
    return out.getvalue()


# ------------------------------------------------------------------ the page's markup

def _url(up: str, name: str) -> str:
    return f"{up}{name}"


def page_rules(fid: str, pictures: dict[str, str], sizes: dict[str, dict], up: str) -> str:
    """CSS for one figure's box: its size and picture for the wide and narrow width, light and dark (the
    page's toggle sets html[data-theme]; a page without script follows the system's setting)."""
    def rule(which: str, mode: str) -> str:
        return f"background-image:url({_url(up, pictures[f'{mode}-{which}'])})"

    def block(which: str) -> str:
        g = sizes[which]
        return (f"#{fid}{{--fig:{which};width:{g['width']}px;height:{g['height']}px;{rule(which, 'light')}}}"
                f"html[data-theme=dark] #{fid}{{{rule(which, 'dark')}}}"
                f"@media (prefers-color-scheme:dark){{html:not([data-theme]) #{fid}{{{rule(which, 'dark')}}}}}")
    return block("wide") + f"@container (max-width:{WIDE - 0.02}px){{{block('narrow')}}}"


PAGE_STYLE = re.compile(r'<style id="figure-pictures">.*?</style>\n?', re.S)


def with_page_style(page: str, rules: str) -> str:
    """The page with its figures' rules in <head> (replacing an earlier build's)."""
    page = PAGE_STYLE.sub("", page)
    if not rules:
        return page
    return page.replace("</head>", f'<style id="figure-pictures">{rules}</style>\n</head>', 1)


GRAPH_TAG = re.compile(r'<div id="(?P<id>[^"]+)" class="plotly-graph-div[^"]*" data-height="(?P<height>\d+)" '
                       r'data-min-width="(?P<min>\d+)"[^>]*>')


def figure_tag(fid: str, height: int, min_width: int, sizes: dict[str, dict], controls: bool) -> str:
    """The figure box's opening tag as drawn at build: its sizes come from the page's rules, its geometry rides along for
    figures.js; a figure with controls takes keyboard focus until they are drawn."""
    keep = json.dumps({k: {"width": g["width"], "shown": g["shown"], "height": g["height"]} for k, g in sizes.items()},
                      separators=(",", ":"))
    focus = ' tabindex="0" role="group" aria-label="Figure controls"' if controls else ""
    return (f'<div id="{fid}" class="plotly-graph-div" data-height="{height}" data-min-width="{min_width}" '
            f"data-geometry='{keep}'{focus}>")


EXTRAS = re.compile(r"<!--figure-extras-->.*?<!--/figure-extras-->", re.S)


@dataclass(frozen=True)
class FileNames:
    """Where a figure's files are, relative to the site's root."""
    svg: str
    png: str
    csv: str


def extras_html(states: list[dict], columns: int, why: str, files: FileNames, up: str, caption: str) -> str:
    """What the build adds to a figure before its caption: its printed states (each an SVG under its label,
    shown on paper only) and the line of files to take it away (web)."""
    cells = []
    for s in states:
        label = f'<p class="figure-state-label">{html.escape(s["label"])}</p>' if s["label"] else ""
        alt = html.escape(f"{caption} ({s['label']})" if s["label"] else caption)
        cells.append(f'<div class="figure-state">{label}<img src="{_url(up, s["image"])}" width="{s["width"]}" '
                     f'height="{s["height"]}" alt="{alt}" loading="lazy"></div>')
    why_html = f'<p class="figure-why">{html.escape(why)}</p>' if why else ""
    links = " · ".join(f'<a href="{_url(up, path)}" download>{name}</a>'
                       for name, path in (("SVG", files.svg), ("PNG", files.png), ("CSV", files.csv)))
    return ("<!--figure-extras-->"
            f'<div class="figure-print" style="--columns:{columns};--gap:{PRINT_GAP}px">{"".join(cells)}</div>'
            f'{why_html}'
            f'<p class="figure-files">This figure to keep: {links} (the numbers it plots)</p>'
            "<!--/figure-extras-->")


def files_note_html(files: FileNames) -> str:
    """Where the figure's files are, ending its caption on paper."""
    return (f'<!--figure-extras--><span class="figure-files-print"> On the website as '
            f'{html.escape(files.svg.rsplit(".", 1)[0])}.svg, .png and .csv (its numbers).</span><!--/figure-extras-->')

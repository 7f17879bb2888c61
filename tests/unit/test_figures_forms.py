"""sitebuild.figures.forms and the page side of sitebuild.figures.render: a drawn figure's SVG made steady, its states
side by side, its numbers as CSV, and the page's markup for its pictures (rewritten the same on every build)."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import plotly.graph_objects as go
import pytest

from compute.present.figures import Print, State, figure_html
from sitebuild.figures import forms as forms
from sitebuild.figures.draw import require_legible
from sitebuild.figures.figure import Figure, FigureError
from sitebuild.figures.render import figures_in, rewrite

PLOTLY_SVG = ('<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">'
              '<defs id="defs-a1b2c3"><clipPath id="clipa1b2c3xyplot"><rect/></clipPath>'
              '<linearGradient id="ga1b2c3-cb1"/></defs><g clip-path="url(#clipa1b2c3xyplot)">'
              '<rect style="fill: url(\'#ga1b2c3-cb1\')"/><rect style="fill: rgb(244, 250, 255)"/></g>'
              '<text>water 0.29</text></svg>')


def test_steady_svg_replaces_plotlys_random_id_everywhere_and_paints_the_pressed_button():
    svg = forms.steady_svg(PLOTLY_SVG, "fig0001", "#1f5f9e")
    assert "a1b2c3" not in svg
    assert svg.count("fig0001") == PLOTLY_SVG.count("a1b2c3") == 5
    assert "fill: #1f5f9e" in svg and "244, 250, 255" not in svg
    assert "water 0.29" in svg
    # the same drawing with another random id gives the same bytes
    assert forms.steady_svg(PLOTLY_SVG.replace("a1b2c3", "zz9y8x"), "fig0001", "#1f5f9e") == svg


def test_steady_svg_writes_the_roots_attributes_in_one_order():
    """plotly writes its root's attributes in the order they were first set, which a late redraw changed once (two
    builds of one source, `style` before and after `viewBox`): the steady SVG is the same bytes either way."""
    settled = PLOTLY_SVG.replace('height="200" viewBox', 'height="200" style="" viewBox')
    late = PLOTLY_SVG.replace('viewBox="0 0 320 200">', 'viewBox="0 0 320 200" style="">')
    assert settled != late
    assert forms.steady_svg(late, "fig0001") == forms.steady_svg(settled, "fig0001")
    assert forms.steady_svg(settled, "fig0001").startswith(
        '<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="320" height="200" style="" viewBox=')
    # an attribute plotly does not write stays, after the known ones; the rest of the drawing is untouched
    other = forms.steady_svg(late.replace('<svg class', '<svg data-x="1" class'), "fig0001")
    assert other.startswith('<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="320" height="200" '
                            'style="" viewBox="0 0 320 200" data-x="1">')
    assert other.split(">", 1)[1] == forms.steady_svg(settled, "fig0001").split(">", 1)[1]
    with pytest.raises(ValueError, match="not all name="):   # an attribute it cannot read is refused, not dropped
        forms.steady_svg(settled.replace('<svg class', "<svg data-x='1' class"), "fig0001")


def test_steady_svg_refuses_an_id_that_also_stands_in_the_text():
    with pytest.raises(ValueError, match="occurs outside ids"):
        forms.steady_svg(PLOTLY_SVG.replace("water 0.29", "a1b2c3"), "x")
    with pytest.raises(ValueError, match="not an SVG plotly drew"):
        forms.steady_svg("<svg></svg>", "x")


def test_states_side_by_side_keep_each_drawing_under_its_label():
    states = [forms.Printed(label, PLOTLY_SVG.replace("a1b2c3", f"s{k}")) for k, label in enumerate("ABC")]
    svg = forms.side_by_side(states, columns=2)
    width, height = forms.svg_size(svg)
    assert width == 2 * 320 + forms.PRINT_GAP
    assert height == 2 * (forms.LABEL_HEIGHT + 200) + forms.PRINT_GAP  # two rows
    assert [m for m in re.findall(r'font-weight="600" fill="#222">([^<]*)<', svg)] == ["A", "B", "C"]
    assert re.findall(r'<svg x="([\d.]+)" y="([\d.]+)"', svg) == [
        ("0", str(forms.LABEL_HEIGHT)), (str(320 + forms.PRINT_GAP), str(forms.LABEL_HEIGHT)),
        ("0", str(2 * forms.LABEL_HEIGHT + 200 + forms.PRINT_GAP))]
    # a figure of one state without a label is its own drawing
    assert forms.side_by_side([forms.Printed("", PLOTLY_SVG)], 1) == PLOTLY_SVG


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_csv_has_a_row_per_point_and_names_its_columns_after_the_axes():
    bars = {"index": 0, "type": "bar", "name": "A (river)", "x": ["water", "finance"], "y": [0.29, 1 / 3],
            "text": None, "xtitle": "", "ytitle": "value"}
    other = dict(bars, index=1, name="", y=[0.5, 0.25])
    rows = _rows(forms.figure_csv([("λ = 0", [bars, other]), ("λ = 1", [dict(bars, y=[1.0, 0.0])])]))
    assert rows[0] == ["state", "series", "x", "y (value)"]
    assert rows[1] == ["λ = 0", "A (river)", "water", "0.29"]
    assert rows[2] == ["λ = 0", "A (river)", "finance", repr(1 / 3)]  # every digit plotly was given
    assert rows[3] == ["λ = 0", "bar 2", "water", "0.5"]
    assert rows[-1] == ["λ = 1", "A (river)", "finance", "0.0"]
    assert len(rows) == 1 + 4 + 2


def test_csv_of_a_heatmap_gives_each_cell_its_value_and_its_printed_text():
    heat = {"index": 0, "type": "heatmap", "name": "", "x": ["q", "k"], "y": ["1 The", "2 heron"],
            "z": [[0.5, None], [1.25, 2.0]], "text": [["0.50", ""], ["1.25", "2.00"]], "xtitle": "", "ytitle": ""}
    rows = _rows(forms.figure_csv([("", [heat])]))
    assert rows == [["series", "x", "y", "value", "text"], ["heatmap 1", "q", "1 The", "0.5", "0.50"],
                    ["heatmap 1", "k", "1 The", "", ""], ["heatmap 1", "q", "2 heron", "1.25", "1.25"],
                    ["heatmap 1", "k", "2 heron", "2.0", "2.00"]]


def test_page_rules_give_each_width_and_mode_its_picture():
    sizes = {"wide": {"width": 640, "shown": 640, "height": 420}, "narrow": {"width": 520, "shown": 327, "height": 455}}
    pictures = {f"{m}-{w}": f"_static/rendered/k-{m}-{w}.svg" for m in ("light", "dark") for w in ("wide", "narrow")}
    css = forms.page_rules("fig-a", pictures, sizes, "../")
    wide, narrow = css.split("@container", 1)
    assert "#fig-a{--fig:wide;width:640px;height:420px;background-image:url(../_static/rendered/k-light-wide.svg)}" in wide
    assert "html[data-theme=dark] #fig-a{background-image:url(../_static/rendered/k-dark-wide.svg)}" in wide
    assert "html:not([data-theme]) #fig-a{background-image:url(../_static/rendered/k-dark-wide.svg)}" in wide
    assert narrow.startswith(f" (max-width:{forms.WIDE - 0.02}px)")
    assert "--fig:narrow;width:520px;height:455px" in narrow and "k-dark-narrow.svg" in narrow


def test_geometry_is_the_wide_and_the_phone_width_never_under_the_figures_own_minimum():
    assert forms.geometry(0) == {"wide": {"width": forms.WIDE, "shown": forms.WIDE},
                                 "narrow": {"width": forms.PHONE, "shown": forms.PHONE}}
    assert forms.geometry(680)["wide"]["width"] == 680 and forms.geometry(520)["narrow"]["width"] == 520


def _page(prints=None, controls=False) -> str:
    fig = go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))
    if controls:
        fig.update_layout(sliders=[dict(steps=[dict(label=str(k), method="update", args=[{}]) for k in range(3)])])
    body = figure_html(fig, "fig-a", "Bars, <b>two</b>", "a 1, b 2", controls="A slider moves.", prints=prints)
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


def _markup(html: str) -> tuple[str, dict]:
    fig = figures_in(html, "posts/lesson.html")[0]
    sizes = {"wide": {"width": 640, "shown": 640, "height": 450}, "narrow": {"width": 520, "shown": 327, "height": 450}}
    tag = forms.figure_tag(fig.id, fig.height, fig.min_width, sizes, fig.controls)
    states = [{"label": "λ = 0", "image": "_static/rendered/k-print-0.svg", "width": 332, "height": 300},
              {"label": "λ = 1", "image": "_static/rendered/k-print-1.svg", "width": 332, "height": 300}]
    files = forms.FileNames("figures/lesson/fig-a.svg", "figures/lesson/fig-a.png", "figures/lesson/fig-a.csv")
    extras = forms.extras_html(states, fig.columns, "", files, "../", fig.caption), forms.files_note_html(files)
    return fig, {"fig-a": (tag, extras)}


def test_a_figure_is_found_with_its_states_and_its_printed_caption():
    page = _page(Print((State.slider("λ = 0", 0), State.slider("λ = 1", -1))), controls=True)
    fig, _ = _markup(page)
    assert (fig.id, fig.height, fig.min_width, fig.controls, fig.columns) == ("fig-a", 450, 520, True, 2)
    assert fig.caption == "Bars, <b>two</b>"  # the caption's text as printed (escaped in the page), no web-only words
    assert [s["steps"] for s in fig.prints["states"]] == [[["slider", 0, 0]], [["slider", 0, 2]]]
    assert json.loads(fig.spec)["layout"]["sliders"]


def test_a_figure_with_its_slide_layout_is_found_and_one_the_build_cannot_read_is_an_error():
    """A figure that declares its slide (an attribute more) is drawn and printed like any other; a figure written
    in a form the build does not read stops it, never leaving a figure undrawn and unprinted."""
    from compute.present.figures import Slide
    from sitebuild.figures.render import FigureError
    fig = go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))
    body = figure_html(fig, "fig-s", "Bars.", "a 1, b 2", slide=Slide({"margin.t": 20}))
    assert [f.id for f in figures_in(f"<body>{body}</body>", "posts/lesson.html")] == ["fig-s"]
    unread = body.replace(' aria-describedby="fig-s-summary"', "")
    with pytest.raises(FigureError, match=r"posts/lesson.html: 1 figure\(s\) written in a form the build does not read"):
        figures_in(f"<body>{body}{unread}</body>", "posts/lesson.html")


def test_rewriting_a_page_adds_pictures_states_and_files_once_however_often_it_runs():
    page = _page(Print((State.slider("λ = 0", 0), State.slider("λ = 1", -1))), controls=True)
    _, markup = _markup(page)
    once = rewrite(page, markup, "#fig-a{}")
    again = _markup(once)  # the next build finds the same figure in the page it left
    assert again[0] == _markup(page)[0] and again[1] == markup
    assert rewrite(once, again[1], "#fig-a{}") == once
    assert once.count('<style id="figure-pictures">#fig-a{}</style>') == 1 and once.index("<style") < once.index("</head>")
    assert once.count('class="figure-print"') == 1 and once.count("<img ") == 2
    assert 'data-geometry=\'{"wide":{"width":640' in once and 'tabindex="0"' in once
    assert 'style="height:' not in once  # the box's size comes from the page's rules
    assert '<a href="../figures/lesson/fig-a.csv" download>CSV</a>' in once
    assert "figures/lesson/fig-a.svg, .png and .csv (its numbers).</span><!--/figure-extras--></figcaption>" in once
    # the figure's own markup is intact: its JSON, summary and caption
    assert once.count('class="plotly-figure-spec"') == 1 and "a 1, b 2" in once and "A slider moves." in once
    assert once.index('class="figure-print"') < once.index("<figcaption>")


def test_a_figure_without_controls_takes_no_focus():
    page = _page()
    _, markup = _markup(page)
    assert "tabindex" not in rewrite(page, markup, "")


def test_the_least_text_prints_at_7_pt_however_many_states_share_a_row():
    for columns in (1, 2, 3, 4):
        least, scale = forms.least_px(columns), forms.printed_scale(columns)
        assert least * scale >= forms.LEAST_PRINTED_PT > (least - 0.1) * scale, columns
    # the placement the scale assumes is the template's: 170 mm of text, 10 pt between states, 4 % inset each
    typ = (Path(forms.__file__).parents[1] / "prints" / "chapter.typ").read_text()
    states = typ[typ.index("#let states-figure"):typ.index("#let drawing(")]
    assert "column-gutter: 10pt" in states and "inset: (right: 4%)" in states
    assert 'paper: "a4", margin: (x: 20mm' in typ and forms.TEXT_WIDTH_PT == pytest.approx((210 - 40) * 72 / 25.4)


def planted_figure(columns: int) -> Figure:
    prints = {"columns": columns, "states": [{"label": "a", "steps": []}, {"label": "b", "steps": []}]}
    return Figure("posts/lesson.html", "fig-small", "{}", prints, 300, 0, "A caption.")


def test_a_state_that_would_print_under_7_pt_stops_the_build_naming_it():
    figure = planted_figure(2)
    least = forms.least_px(2)
    require_legible(figure, "a", {"size": least, "text": "0.25"})           # exactly the least: it prints
    with pytest.raises(FigureError, match=r"^posts/lesson\.html: figure fig-small \(printed state 'b'\) would print "
                                          r"'0\.01' at 5\.5 pt, under the 7 pt"):
        require_legible(figure, "b", {"size": 8, "text": "0.01"})

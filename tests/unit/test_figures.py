"""compute.figures.figure_html: every figure is a <figure> with a caption and a text alternative."""

import html as html_module
import json
import re

import plotly.graph_objects as go
import pytest

from compute.present import figures


def _fig():
    return go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))


def test_figure_wraps_plot_with_caption_and_described_summary():
    html = figures.figure_html(_fig(), "fig-test", "Bars & more", "b is 2, a is 1 <twice>")
    assert html.startswith('<figure class="plotly-figure" aria-describedby="fig-test-summary" data-print="')
    assert html.endswith("</figure>")
    assert 'id="fig-test" class="plotly-graph-div"' in html
    assert "<figcaption>Bars &amp; more</figcaption>" in html
    summary = re.search(r'<p class="figure-summary" id="fig-test-summary">(.*?)</p>', html)
    assert summary and summary.group(1) == "b is 2, a is 1 &lt;twice&gt;"
    # the plot comes first, then its summary, then its caption (HTML allows a <figcaption>
    # only as the first or last child of its <figure>), all inside the one <figure>
    assert html.index("plotly-graph-div") < html.index("figure-summary") < html.index("<figcaption>")
    assert html.endswith("</figcaption></figure>")


@pytest.mark.parametrize("caption, summary", [("", "s"), ("c", ""), ("  ", "s"), ("c", "\n")])
def test_caption_and_summary_are_required(caption, summary):
    with pytest.raises(ValueError, match="fig-x"):
        figures.figure_html(_fig(), "fig-x", caption, summary)


def test_ranked_lists_largest_first():
    assert figures.ranked(["a", "b", "c", "d"], [0.1, 0.4, 0.2, 0.3], n=3) == "b 0.40, d 0.30, c 0.20"
    assert figures.ranked(["x", "y"], [3, 7], n=5, decimals=0) == "y 7, x 3"


def _spec(html: str) -> dict:
    found = re.search(r'<script type="application/json" class="plotly-figure-spec" data-for="([^"]+)">(.*?)</script>',
                      html, re.S)
    assert found
    return found.group(1), json.loads(found.group(2))


def test_figure_json_sits_beside_an_empty_div_of_the_figure_height():
    fig = _fig().update_layout(height=333)
    html = figures.figure_html(fig, "fig-h", "c", "s", min_width=0)
    assert ('<div id="fig-h" class="plotly-graph-div" data-height="333" data-min-width="0" '
            'style="height:333px; width:100%;"></div>') in html
    # by default the figure keeps a width below which it scrolls sideways in a box of its own
    boxed = figures.figure_html(fig, "fig-h", "c", "s")
    assert (f'<div class="figure-scroll"><div id="fig-h" class="plotly-graph-div" data-height="333" '
            f'data-min-width="{figures.MIN_WIDTH}" style="height:333px; width:100%; '
            f'min-width:{figures.MIN_WIDTH}px;"></div></div>') in boxed
    target, spec = _spec(html)
    assert target == "fig-h"
    assert spec["data"][0]["type"] == "bar" and spec["data"][0]["y"] == [1, 2]
    assert spec["layout"]["height"] == 333
    assert spec["config"] == {"displaylogo": False, "responsive": True}
    # no height in the layout: the div keeps plotly.js's default height
    assert 'style="height:450px;' in figures.figure_html(_fig(), "fig-d", "c", "s")


def test_figure_json_keeps_frames_and_only_the_template_defaults_it_uses():
    fig = go.Figure(go.Heatmap(z=[[1, 2]]), frames=[go.Frame(data=[go.Heatmap(z=[[2, 1]])], name="swap")])
    _, spec = _spec(figures.figure_html(fig, "fig-f", "c", "s"))
    assert [f["name"] for f in spec["frames"]] == ["swap"]
    assert set(spec["layout"]["template"]["data"]) == {"heatmap"}
    assert spec["layout"]["template"]["layout"]["plot_bgcolor"] == "white"  # plotly_white's look stays


def test_figure_json_cannot_close_its_script_element():
    fig = go.Figure(go.Bar(x=["</script><b>x"], y=[1]))
    html = figures.figure_html(fig, "fig-s", "c", "s")
    assert html.count("</script>") == 1
    _, spec = _spec(html)
    assert spec["data"][0]["x"] == ["</script><b>x"]


def test_a_figure_whose_cells_carry_arithmetic_gets_the_line_for_it():
    sums = go.Figure(go.Heatmap(z=[[1]], customdata=[["1×2 + 3 = 5"]], hovertemplate="%{customdata}<extra></extra>"))
    values = go.Figure(go.Heatmap(z=[[1]], customdata=[["weight 0.5"]], hovertemplate="%{customdata}<extra></extra>"))
    html = figures.figure_html(sums, "fig-s", "c", "s")
    assert '<div class="cell-inspect web-only" data-for="fig-s"><button type="button" aria-controls="fig-s-inspect"' in html
    assert ">Show the arithmetic</button>" in html and '<output id="fig-s-inspect" aria-live="polite">' in html
    assert ">Show a cell</button>" in figures.figure_html(values, "fig-v", "c", "s")
    assert "cell-inspect" not in figures.figure_html(_fig(), "fig-b", "c", "s")  # a bar chart: none


# ------------------------------------------------------------------ the states a figure prints

def _declared(html: str) -> dict:
    import html as escape
    return json.loads(escape.unescape(re.search(r' data-print="([^"]*)"', html).group(1)))


def _with_controls():
    fig = _fig()
    fig.update_layout(updatemenus=[dict(type="buttons", buttons=[dict(label="A", method="update", args=[{}]),
                                                                 dict(label="B", method="update", args=[{}])])],
                      sliders=[dict(steps=[dict(label=str(k), method="update", args=[{}]) for k in range(5)])])
    return fig


def test_a_figure_without_controls_prints_as_it_opens():
    assert _declared(figures.figure_html(_fig(), "fig-p", "c", "s")) == {"states": [], "columns": 0, "height": None,
                                                                         "why": ""}


def test_a_figure_with_controls_must_name_the_states_its_text_cites():
    with pytest.raises(ValueError, match=r"fig-c has controls \(menu 0 \(2 buttons\), slider 0 \(5 steps\)\)"):
        figures.figure_html(_with_controls(), "fig-c", "c", "s")
    with pytest.raises(ValueError, match="names 1 state"):
        figures.figure_html(_with_controls(), "fig-c", "c", "s", prints=figures.Print((figures.State.button("A", 0),)))
    # or say why one state tells the story
    one = figures.figure_html(_with_controls(), "fig-c", "c", "s", prints=figures.Print(why="The table has the rest."))
    assert _declared(one)["why"] == "The table has the rest."


def test_printed_states_are_the_controls_steps_counted_from_the_front():
    State = figures.State
    prints = figures.Print((State.opening("first"), State.button("B", 1), State.slider("last", -1),
                            State.button("B", 1).then(State.slider("", 2), "B at 2")), columns=1, height=300)
    declared = _declared(figures.figure_html(_with_controls(), "fig-c", "c", "s", prints=prints))
    assert declared == {"states": [{"label": "first", "steps": []}, {"label": "B", "steps": [["menu", 0, 1]]},
                                   {"label": "last", "steps": [["slider", 0, 4]]},
                                   {"label": "B at 2", "steps": [["menu", 0, 1], ["slider", 0, 2]]}],
                        "columns": 1, "height": 300, "why": ""}


@pytest.mark.parametrize("states, message", [
    ((figures.State.button("A", 0), figures.State.button("C", 2)), "works menu 0 step 2"),
    ((figures.State.button("A", 0), figures.State.slider("far", 5)), "works slider 0 step 5"),
    ((figures.State.button("A", 0), figures.State.button("B", 0, menu=1)), "works menu 1 step 0"),
    ((figures.State.button("A", 0), figures.State.button("A", 1)), "a label of its own"),
    ((figures.State.button("", 0), figures.State.button("B", 1)), "a label of its own"),
])
def test_a_state_the_figure_cannot_reach_is_refused(states, message):
    with pytest.raises(ValueError, match=message):
        figures.figure_html(_with_controls(), "fig-c", "c", "s", prints=figures.Print(states))


def test_a_widget_in_a_learners_jupyter_is_the_live_plotly_figure(monkeypatch):
    """Outside the site's build (a downloaded notebook run in Jupyter) a widget shows plotly's own figure,
    which Jupyter draws; in the build, the site's figure markup."""
    from compute.present.widgets import Widget
    widget = Widget("fig-w", "c", _fig, lambda: "s")
    monkeypatch.delenv("SITEBUILD", raising=False)
    assert isinstance(widget.show(), go.Figure)
    monkeypatch.setenv("SITEBUILD", "1")
    assert 'id="fig-w"' in widget.show().data


def test_labels_print_subscripts_in_traces_frames_and_controls_but_not_in_hover_data():
    from compute.present.notation import figure_labels_subscripted, subscripted
    assert subscripted("e_7 + Δe_7") == "e<sub>7</sub> + Δe<sub>7</sub>"
    assert subscripted("q_{7} · k_j, s_5,j") == "q<sub>7</sub> · k<sub>j</sub>, s<sub>5,j</sub>"
    assert subscripted("a plain label, 1_000 and x_") == "a plain label, 1_000 and x_"
    spec = {"data": [{"type": "heatmap", "y": ["m_7"], "x": [1, 2], "customdata": [["e_7 = 1"]],
                      "hovertemplate": "e_7 %{z}"}],
            "frames": [{"data": [{"y": ["e_7"]}]}],
            "layout": {"title": {"text": "W_O"}, "xaxis": {"title": {"text": "k_j"}, "ticktext": ["q_1"]},
                       "annotations": [{"text": "message m_7"}],
                       "updatemenus": [{"buttons": [{"label": "v_j", "args": [{"y": [["α_j v_j"]]}]}]}]}}
    out = figure_labels_subscripted(spec)
    assert out["data"][0]["y"] == ["m<sub>7</sub>"] and out["data"][0]["x"] == [1, 2]
    assert out["data"][0]["customdata"] == [["e_7 = 1"]] and out["data"][0]["hovertemplate"] == "e_7 %{z}"
    assert out["frames"][0]["data"][0]["y"] == ["e<sub>7</sub>"]
    lay = out["layout"]
    assert lay["title"]["text"] == "W<sub>O</sub>" and lay["xaxis"]["title"]["text"] == "k<sub>j</sub>"
    assert lay["xaxis"]["ticktext"] == ["q<sub>1</sub>"] and lay["annotations"][0]["text"] == "message m<sub>7</sub>"
    button = lay["updatemenus"][0]["buttons"][0]
    assert button["label"] == "v<sub>j</sub>" and button["args"] == [{"y": [["α<sub>j</sub> v<sub>j</sub>"]]}]


def test_a_table_prints_its_headers_and_caption_with_subscripts():
    from compute.present.tables import rows_html
    out = rows_html(["key j", "q_7 · k_j"], [("W_O", 1.0)], caption="Row e_7 <b>")
    assert "<th scope=\"col\">q<sub>7</sub> · k<sub>j</sub></th>" in out
    assert "<th scope=\"row\">W<sub>O</sub></th>" in out and "Row e<sub>7</sub> &lt;b&gt;" in out


def test_a_category_axis_keeps_one_spelling_of_each_word_in_its_order_and_its_traces():
    """An axis ordered by categoryarray must name the words as its traces do, or plotly counts each twice."""
    import plotly.graph_objects as go
    from compute.present.figures import figure_json
    import json
    fig = go.Figure(go.Heatmap(z=[[1], [2]], y=["e_7", "Δe_7"], x=["a_1"]))
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=["e_7", "Δe_7"])
    fig.update_xaxes(tickvals=[0.5], ticktext=["k_j"])
    spec = json.loads(figure_json(fig))
    assert spec["layout"]["yaxis"]["categoryarray"] == spec["data"][0]["y"] == ["e<sub>7</sub>", "Δe<sub>7</sub>"]
    assert spec["layout"]["xaxis"]["tickvals"] == [0.5] and spec["layout"]["xaxis"]["ticktext"] == ["k<sub>j</sub>"]


def _panels():
    """Two heatmaps stacked, each titled by an annotation: a figure that a slide lays out side by side."""
    fig = go.Figure([go.Heatmap(z=[[1, 2]], xaxis="x", yaxis="y"), go.Heatmap(z=[[3]], xaxis="x2", yaxis="y2")])
    fig.update_layout(yaxis=dict(domain=[0.6, 1]), yaxis2=dict(domain=[0, 0.4]), xaxis2=dict(anchor="y2"),
                      annotations=[dict(text="the first panel", x=0, y=1), dict(text="the second panel", x=0, y=0.4)])
    return fig


def test_a_figure_declares_its_slide_layout_beside_its_print_states():
    slide = figures.Slide({"xaxis.domain": [0, 0.45], "xaxis2.domain": [0.55, 1], "yaxis2.domain": [0, 1],
                           "annotations[1].y": 1, "annotations[1].text": "the second<br>panel", "margin.t": 40})
    html = figures.figure_html(_panels(), "fig-panels", "Two panels.", "One and two.", slide=slide)
    declared = re.search(r'data-slide="([^"]*)"', html).group(1)
    assert json.loads(html_module.unescape(declared))["layout"] == slide.layout
    assert "data-slide" not in figures.figure_html(_panels(), "fig-panels", "Two panels.", "One and two.")


@pytest.mark.parametrize("change, message", [
    ({"yaxis3.domain": [0, 1]}, "has no yaxis3"),                    # an axis no trace is drawn on
    ({"annotations[2].y": 1}, "annotations[2].y"),                   # an annotation it does not have
    ({"yaxis.domian": [0, 1]}, "'domian'"),                          # a property plotly does not know
    ({"yaxis.domain": "top"}, "Invalid value"),                      # a value plotly refuses
    ({"annotations[0].text": "another panel"}, "'the first panel'"),  # new words: a slide only breaks lines
    ({"xaxis.tickvals": ["a"], "xaxis.ticktext": ["b"]}, "['a']"),   # tick words not the values they label
])
def test_a_slide_layout_the_figure_cannot_take_is_refused_naming_the_key(change, message):
    with pytest.raises(ValueError, match=re.escape(message)) as refused:
        figures.figure_html(_panels(), "fig-panels", "Two panels.", "One and two.", slide=figures.Slide(change))
    assert str(refused.value).startswith("figure fig-panels: its slide changes ") and "\n" not in str(refused.value)

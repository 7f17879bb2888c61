"""compute.figures.figure_html: every figure is a <figure> with a caption and a text alternative."""

import re

import plotly.graph_objects as go
import pytest

from compute import figures


def _fig():
    return go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))


def test_figure_wraps_plot_with_caption_and_described_summary():
    html = figures.figure_html(_fig(), "fig-test", "Bars & more", "b is 2, a is 1 <twice>")
    assert html.startswith('<figure class="plotly-figure" aria-describedby="fig-test-summary">')
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


def test_show_is_figure_html_for_a_cell():
    assert figures.show(_fig(), "fig-y", "c", "s").data == figures.figure_html(_fig(), "fig-y", "c", "s")


def test_ranked_lists_largest_first():
    assert figures.ranked(["a", "b", "c", "d"], [0.1, 0.4, 0.2, 0.3], n=3) == "b 0.40, d 0.30, c 0.20"
    assert figures.ranked(["x", "y"], [3, 7], n=5, decimals=0) == "y 7, x 3"

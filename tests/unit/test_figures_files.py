"""sitebuild.figures.files: a published page's figure data moved into content-hashed files."""
from __future__ import annotations

import json

import plotly.graph_objects as go

from compute.present.figures import figure_html
from sitebuild.figures.files import FOLDER, externalize
from sitebuild.sitecheck import figure_specs


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def figure(name: str, y) -> str:
    fig = go.Figure(go.Scatter(x=[0, 1], y=y, name="a </script> b"))
    return figure_html(fig, name, "caption", "summary")


def test_each_figure_moves_to_a_file_named_by_its_content(tmp_path):
    site = tmp_path / "site"
    (site / "posts").mkdir(parents=True)
    inline = page(figure("one", [1, 2]) + figure("two", [3, 4]))
    (site / "posts" / "a.html").write_text(inline)
    (site / "b.html").write_text(page(figure("one", [1, 2])))          # the same data on another page
    before = figure_specs(inline)
    assert externalize(site) == 3
    a, b = (site / "posts" / "a.html").read_text(), (site / "b.html").read_text()
    assert "plotly-figure-spec" in a and '"data"' not in a and '"data"' not in b
    assert 'data-src="../_static/figures/' in a and 'data-src="_static/figures/' in b
    assert figure_specs(a, site / "posts" / "a.html") == before     # the same JSON, read from the files
    files = sorted((site / FOLDER).iterdir())
    assert len(files) == 2                                             # one file for the same data twice
    assert all(json.loads(f.read_text())["data"][0]["name"] == "a </script> b" for f in files)
    assert externalize(site) == 0                                      # published pages carry no data to move


def test_other_data_gets_another_name(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text(page(figure("one", [1, 2])))
    (site / "b.html").write_text(page(figure("one", [1, 3])))
    externalize(site)
    assert len(list((site / FOLDER).iterdir())) == 2
    src = [p.read_text().split('data-src="')[1].split('"')[0] for p in (site / "a.html", site / "b.html")]
    assert src[0] != src[1]

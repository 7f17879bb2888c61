"""The figure stage's cache under faults (sitebuild.figures.render, sitebuild.sealed): a kept figure whose files
are not as they were drawn (one deleted, meta.json cut short, a picture cut short) is drawn again, the build says
so, and the site gets the whole picture; a figure without a caption stops the stage naming it.

A page of one figure is drawn in Chromium into a folder of its own, as the build draws the lessons' pages."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import plotly.graph_objects as go
import pytest

from compute.present import figures
from conftest import ROOT
from sitebuild import sealed
from sitebuild.figures.render import CACHE, IMAGES, FigureError, STATIC_CODE, figures_in, render_figures

PAGE = "posts/lesson.html"


def figure_page(caption: str = "Two bars") -> str:
    fig = go.Figure(go.Bar(x=["a", "b"], y=[0.25, 0.75]))
    body = figures.figure_html(fig, "fig-cache", caption, "b is three times a.", where="lesson")
    return f'<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>{body}</main></body></html>'


def site_folder(tmp: Path, page: str) -> Path:
    """An html folder as Sphinx leaves it, with what the drawing reads of _static/ and one page."""
    html = tmp / "html"
    for name in STATIC_CODE:
        (html / "_static" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "_static" / name, html / "_static" / name)
    (html / "posts").mkdir()
    (html / PAGE).write_text(page)
    return html


def draw(html: Path, build: Path, page: str) -> tuple:
    """The figure stage over `page` (written afresh, as Sphinx writes it each build): what it drew, what it
    remade, and the published pictures' bytes."""
    (html / PAGE).write_text(page)
    sealed.start()
    done = render_figures(html, build)
    pictures = {p.name: p.read_bytes() for p in sorted((html / IMAGES).iterdir())}
    return done, sealed.healed(), pictures


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The figure drawn once into an empty cache: (html folder, build folder, its one cache entry, pictures)."""
    tmp = tmp_path_factory.mktemp("figcache")
    page = figure_page()
    html, build = site_folder(tmp, page), tmp / "build"
    done, healed, pictures = draw(html, build, page)
    assert done.drawn == 1 and healed == []
    entry, = (build / CACHE).iterdir()
    return html, build, entry, pictures


@pytest.fixture
def cache(drawn, tmp_path):
    """A copy of the drawn folders, to damage."""
    html, build, entry, pictures = drawn
    html2, build2 = Path(shutil.copytree(html, tmp_path / "html")), Path(shutil.copytree(build, tmp_path / "build"))
    return html2, build2, build2 / CACHE / entry.name, pictures


def test_an_intact_cache_is_used_and_nothing_is_drawn(cache):
    html, build, entry, pictures = cache
    done, healed, now = draw(html, build, figure_page())
    assert (done.drawn, healed) == (0, []) and now == pictures


@pytest.mark.parametrize("damage, why", [
    (lambda e: (e / "light-wide.svg").unlink(), "light-wide.svg is missing"),
    (lambda e: (e / "meta.json").write_text((e / "meta.json").read_text()[:20]), "meta.json has 20 bytes"),
    (lambda e: (e / "print-0.svg").write_bytes((e / "print-0.svg").read_bytes()[:-300]), "print-0.svg has"),
    (lambda e: (e / "figure.png").write_bytes(b"\0" * (e / "figure.png").stat().st_size), "figure.png changed"),
    (lambda e: (e / sealed.SEAL).write_text("{"), "sealed.json is not readable JSON"),
    (lambda e: (e / sealed.SEAL).unlink(), "not sealed"),
], ids=["picture-deleted", "meta-cut-short", "print-cut-short", "png-overwritten", "seal-unreadable", "seal-missing"])
def test_a_damaged_entry_is_drawn_again_and_named(cache, damage, why):
    """Each damage once broke every later build (a FileNotFoundError, a JSONDecodeError) or published a picture
    cut short; now the entry is drawn again, the summary names the figure and what was wrong, and the site gets
    the same pictures an undamaged cache gives."""
    html, build, entry, pictures = cache
    damage(entry)
    done, healed, now = draw(html, build, figure_page())
    assert done.drawn == 1
    assert len(healed) == 1 and healed[0].startswith(f"figure fig-cache ({PAGE}), {CACHE}/{entry.name}: {why}"), healed
    assert now == pictures
    assert draw(html, build, figure_page())[1] == []          # healed for good: the next build finds it whole


def test_a_figure_without_a_caption_stops_the_figure_stage_naming_it():
    page = re.sub(r"<figcaption>.*?</figcaption>", "", figure_page(), flags=re.S)
    with pytest.raises(FigureError, match=rf"^{PAGE}: figure fig-cache has no caption"):
        figures_in(page, PAGE)
    empty = re.sub(r"<figcaption>.*?</figcaption>", "<figcaption> </figcaption>", figure_page(), flags=re.S)
    with pytest.raises(FigureError, match="has no caption"):
        figures_in(empty, PAGE)
    assert figures_in(figure_page(), PAGE)[0].caption.startswith("Two bars")


# figures.js's drawing, as the build's harness calls it, followed a frame later by a change of the figure's title
# (as a redraw plotly or figures.js schedules for a later frame would change it).
LATE_CHANGE = """
(function () {
  var plot = window.siteFigures.plot;
  window.siteFigures.plot = function (gd, figure, geometry) {
    return plot(gd, figure, geometry).then(function (done) {
      requestAnimationFrame(function () { window.Plotly.relayout(gd, { "title.text": "settled late" }); });
      return done;
    });
  };
})();
"""


def test_a_figure_that_changes_a_frame_after_it_is_drawn_is_pictured_as_it_settles(tmp_path):
    """A picture is kept only once the figure's data and layout stay the same after it is taken
    (sitebuild/figures/render.js, svg): a drawing that changes the title a frame later is pictured with the
    late title, for the page in both modes and widths and on paper, never as it was first drawn."""
    page = figure_page()
    html, build = site_folder(tmp_path, page), tmp_path / "build"
    with (html / "_static" / "figures.js").open("a") as script:
        script.write(LATE_CHANGE)
    done, _, _ = draw(html, build, page)
    assert done.drawn == 1
    entry, = (build / CACHE).iterdir()
    pictures = sorted(entry.glob("*.svg"))
    assert [p.name for p in pictures] == ["dark-narrow.svg", "dark-wide.svg", "figure.svg", "light-narrow.svg",
                                          "light-wide.svg", "print-0.svg"]
    for picture in pictures:
        assert "settled late" in picture.read_text(), picture.name

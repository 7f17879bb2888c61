"""benchmarks/run.py reads each stage's time from what the build prints, and tabulates their medians."""
from __future__ import annotations

import io

from benchmarks.run import read_build, stage_table
from compute.progress import Progress


def _printed(times: dict[str, float], said: list[str]) -> str:
    """What a build prints at its end, its stages line written by compute.progress itself."""
    progress = Progress(out=io.StringIO(), tty=False)
    progress.times = list(times.items())
    return "\n".join([*said, "claims: posts/a.md: 1 sentence bound", progress.report(), "took 9.9 s"]) + "\n"


def test_the_stages_and_what_the_build_did_are_read_from_its_output():
    said = ["site/ published: 7 pages, 5 handouts (1 printed, 4 unchanged)", "checked beside the pages: story",
            "executed: posts/story-models.md", "figures: 37 drawn to SVG, PNG and CSV (3 new, 34 kept)"]
    build = read_build(12.5, _printed({"audit": 3.25, "slide PDFs": 10.0, "publish": 0.04}, said))
    assert build.seconds == 12.5
    assert build.stages == {"audit": 3.2, "slide PDFs": 10.0, "publish": 0.0}   # as printed, to 0.1 s
    assert build.said == said


def test_the_stage_table_gives_each_stages_median_under_each_build():
    runs = [read_build(1.0, _printed({"audit": a, "pages": p}, [])) for a, p in ((1.0, 9.0), (3.0, 1.0), (2.0, 5.0))]
    lines = stage_table({"cold build": runs, "after the retrain": []})
    assert "| audit | 2.0 s |" in lines and "| pages | 5.0 s |" in lines
    assert not any("after the retrain" in line for line in lines)   # a kind of build that did not run


def test_a_build_that_ran_no_stage_has_no_stage_times():
    from sitebuild.__main__ import UNCHANGED
    build = read_build(0.3, f"site/ published: 7 pages\n{UNCHANGED}\ntook 0.2 s\n")
    assert build.stages == {} and build.said == ["site/ published: 7 pages"]


def test_each_page_is_set_beside_the_one_line_page_and_its_requests_before_the_paint_are_budgeted():
    from benchmarks.run import markdown
    page = {"page": "posts/a.html", "html_gzip": 9e3, "requests": 30, "before_paint": 12, "gzip_bytes": 3e5,
            "ready_ms": 180.0, "shift": 0.0, "figures": 0, "view_ms": None, "link_ms": None, "link_worst": None,
            "touch_ms": None, "math": False}
    quick = {**page, "page": "guide.html", "ready_ms": 100.0, "before_paint": 3}
    text = markdown([], [], [page, quick], (0, 0, 5, 3), blank_ms=60.0)
    assert "| 180 ms | 3.00x (60 ms) |" in text and "| 100 ms | 1.67x (60 ms) |" in text
    assert "within 2 times the one-line page's, slowest 3.00 times (OVER BUDGET)" in text
    assert "at most 8 requests before its first paint, most 12 (OVER BUDGET)" in text
    fine = markdown([], [], [quick], (0, 0, 5, 3), blank_ms=60.0)
    assert "slowest 1.67 times (within budget)" in fine and "most 3 (within budget)" in fine

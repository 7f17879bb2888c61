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

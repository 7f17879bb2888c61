"""The build's progress (sitebuild.progress): a line per stage in a log, a bar on a terminal, nothing when
quiet, the time of each stage at the end; Sphinx's reports taken out of its output."""
from __future__ import annotations

import io

import pytest

from sitebuild import progress
from sitebuild.progress import Progress

pytestmark = pytest.mark.unit


def run(p: Progress) -> None:
    with progress.using(p):
        with progress.stage("pages", "Sphinx"):
            progress.expect(3)
            for name in ("a", "b", "c"):
                progress.advance(name)
        with progress.stage("publish"):
            progress.warn("posts/x.md:3: WARNING: something\n")


def test_a_log_gets_a_line_per_stage_and_no_bar():
    out = io.StringIO()
    p = Progress(out=out, tty=False)
    run(p)
    assert out.getvalue() == "pages: Sphinx ...\npublish ...\nposts/x.md:3: WARNING: something\n"
    assert [name for name, _ in p.times] == ["pages", "publish"]
    assert p.report().startswith("stages: pages ") and ", publish " in p.report()


def test_a_terminal_gets_a_bar_rewritten_in_place_and_cleared():
    out = io.StringIO()
    run(Progress(out=out, tty=True))
    text = out.getvalue()
    assert "\r\033[K  [" + "#" * 8 + "." * 16 + "] 1/3 a" in text and "] 3/3 c" in text
    # the bar is cleared before the next stage's line is written
    assert "3/3 c\r\033[Kpublish ...\n" in text


def test_quiet_prints_nothing_but_a_warning():
    out = io.StringIO()
    run(Progress(out=out, quiet=True, tty=True))
    assert out.getvalue() == "posts/x.md:3: WARNING: something\n"


def test_sphinx_reports_are_taken_out_of_its_output():
    out = io.StringIO()
    with progress.using(Progress(out=out, tty=False)), progress.stage("pages"):
        assert progress.sphinx_line(progress.MARK + "total 2\n")
        assert progress.sphinx_line(progress.MARK + "reading posts/lab\n")
        assert progress.sphinx_line(progress.MARK + "lesson posts/lab executed 12.34\n")
        assert progress.sphinx_line(progress.MARK + "lesson posts/hello cached 3.0\n")
        assert not progress.sphinx_line("posts/x.md:3: WARNING: something\n")
    assert out.getvalue() == ("pages ...\n  posts/lab.md: executed in 12.3 s\n"
                              "  posts/hello.md: taken from the cache\n")


def test_a_step_run_alone_reports_to_nobody(capsys):
    progress.advance("x")
    with progress.stage("alone"):
        progress.expect(1)
    assert capsys.readouterr().out == ""


"""Long commands' progress (compute.progress; the build's through sitebuild.progress): a line per stage in a log,
a bar on a terminal, nothing when quiet, the time of each stage at the end; Sphinx's reports taken out of its
output; python -m compute's train, bench and export alike, and Ctrl-C one line."""
from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from helpers import as_from_a_terminal
from forked import compute as run_compute

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



def _compute(*argv: str, **kw) -> subprocess.CompletedProcess:
    return run_compute(*argv, cwd=ROOT, timeout=300, **kw)


def test_a_long_command_of_compute_says_its_stages_then_its_result_then_their_times(tmp_path):
    """python -m compute bench (as train and export): a line as each stage starts, the result, and last the
    time each stage took; quiet, the result alone. Not a terminal: no bar."""
    out = tmp_path / "t.json"
    said = _compute("bench", "recompute", "--quick", "--out", str(out)).stdout.splitlines()
    assert said[0] == "time: recompute at T = 16, 32, 1 runs each ..."
    assert said[1] == f"wrote {out} (6 timings)" and re.fullmatch(r"stages: time \d+\.\d s", said[2]) and len(said) == 3
    assert "\r" not in "".join(said)
    quiet = _compute("bench", "recompute", "--quick", "--out", str(out), "--quiet")
    assert quiet.stdout.splitlines() == [f"wrote {out} (6 timings)"] and quiet.stderr == ""


def test_ctrl_c_stops_a_seed_search_with_one_line_and_nothing_after(tmp_path):
    """Ctrl-C reaches the command and its worker processes (one process group): one line, exit 130, no
    traceback from any of them."""
    with as_from_a_terminal([sys.executable, "-m", "compute", "train", "walkthrough", "--search-seeds", "0-199",
                             "--out", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True) as proc:
        assert proc.stdout.readline().startswith("search: seeds 0-199 on 2 processes")
        time.sleep(1.5)                                                # the workers are training
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=300)  # a whole-suite run on 2 cores can take a minute to stop the workers
    assert (proc.returncode, err, out) == (130, "error: interrupted; python -m compute train stopped\n", "")
    assert not (tmp_path / "walkthrough.safetensors").exists()

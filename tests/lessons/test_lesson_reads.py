"""The build's cache key (sitebuild.pages.stamps) covers every compute file a lesson really reads.

A lesson's code cells run under an audit hook recording every file opened; every compute module
loaded and every file read from compute/ or the checkpoint folder must be among the lesson's declared
dependencies. The downloaded notebooks run under the same audit (tests/lessons/test_notebooks.py), so
here only the lessons whose page runs other cells than their notebook: the lab (its page reads the
published run; its notebook trains). The build's check before the pages (sitebuild.preflight.run) has a key per
lesson package, made the same way: each package's check runs under the same audit.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from reads import REPORT_AUDIT, START_AUDIT, story_models_elsewhere, undeclared_reads
from sitebuild.pages.stamps import code_cells

RUN = START_AUDIT + r"""
cells = json.loads(sys.stdin.read())
scope = {}
for cell in cells:
    exec(compile(cell, "<cell>", "exec"), scope)
""" + REPORT_AUDIT

PAGE_ONLY = ["lab"]


@pytest.mark.parametrize("lesson", PAGE_ONLY)
def test_declared_dependencies_cover_what_the_lesson_reads(lesson, monkeypatch, tmp_path):
    text = (ROOT / "posts" / f"{lesson}.md").read_text()
    # Part III's models from a folder of their own, as in tests/lessons/test_notebooks.py: the lab reads the
    # published ones, and its stamp names none of that folder's
    elsewhere = str(story_models_elsewhere(tmp_path / "story-models"))
    monkeypatch.setenv("COMPUTE_STORY_MODELS", elsewhere)
    proc = subprocess.run([sys.executable, "-c", "import json, sys\n" + RUN], input=json.dumps(code_cells(text)),
                          cwd=ROOT / "posts", capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin",
                               "COMPUTE_STORY_MODELS": elsewhere,
                               **{k: v for k, v in os.environ.items() if k.startswith("OMP_")}},  # ./test's
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    missing, read = undeclared_reads(lesson, proc.stdout.splitlines()[-1])
    assert read, "the run read nothing from compute/: the hook saw nothing"
    assert not missing, f"{lesson} reads files its build stamp does not cover: {missing}"


def _audited(code: str, cwd) -> str:
    """The last line of `code` run under the read audit: the files it opened and the modules it loaded."""
    proc = subprocess.run([sys.executable, "-c", START_AUDIT + code + REPORT_AUDIT], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1",
                                          "PATH": "/usr/bin:/bin",
                                          **{k: v for k, v in os.environ.items() if k.startswith("OMP_")}},
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()[-1]


def lesson_packages() -> list:
    """Each lesson package by name, its page(s) as the case's id."""
    from compute.checks import lesson_names, lesson_records
    return [pytest.param(name, id="+".join(r.page for r in lesson_records([name]))) for name in lesson_names()]


@pytest.mark.parametrize("name", lesson_packages())
def test_each_lessons_check_reads_only_what_its_key_covers(name):
    from sitebuild.preflight.run import KEY_CELL
    report = _audited(f"from compute.checks import preflight\npreflight([{name!r}])\n", ROOT)
    missing, read = undeclared_reads(name, report, KEY_CELL.format(name=name))
    assert read, "the check read nothing from compute/: the hook saw nothing"
    assert not missing, f"the check of {name} reads files its key does not cover: {missing}"

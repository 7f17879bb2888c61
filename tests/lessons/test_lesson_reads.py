"""The build's cache key (sitebuild.stamps) covers every compute file a lesson really reads.

Each lesson's code cells run here as the kernel runs them (in posts/, the repository on the path),
with an audit hook recording every file opened; every compute module loaded and every file read
from compute/ or the checkpoint folder must be among the lesson's declared dependencies.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LESSONS, ROOT
from sitebuild.stamps import checkpoint_folder, code_cells, lesson_dependencies

RUN = r"""
import json, sys
opened = set()
sys.addaudithook(lambda event, args: opened.add(str(args[0])) if event == "open" and isinstance(args[0], str) else None)
cells = json.loads(sys.stdin.read())
scope = {}
for cell in cells:
    exec(compile(cell, "<cell>", "exec"), scope)
modules = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
print(json.dumps(sorted(opened | {m for m in modules if m})))
"""


@pytest.mark.parametrize("lesson", LESSONS)
def test_declared_dependencies_cover_what_the_lesson_reads(lesson):
    text = (ROOT / "posts" / f"{lesson}.md").read_text()
    proc = subprocess.run([sys.executable, "-c", RUN], input=json.dumps(code_cells(text)), cwd=ROOT / "posts",
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1",
                                                               "PATH": "/usr/bin:/bin"}, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    read = {Path(p).resolve() for p in json.loads(proc.stdout.splitlines()[-1])}
    compute, folder = (ROOT / "compute").resolve(), checkpoint_folder(ROOT).resolve()
    ours = {p for p in read if (p.is_relative_to(compute) or p.is_relative_to(folder)) and p.is_file()}
    deps = lesson_dependencies(ROOT, text)
    declared = {p.resolve() for p in (*deps.modules, *deps.checkpoints)}
    assert ours, "the run read nothing from compute/: the hook saw nothing"
    missing = sorted(p.relative_to(ROOT).as_posix() for p in ours - declared)
    assert not missing, f"{lesson} reads files its build stamp does not cover: {missing}"

"""The guides as written: every Python block an author is told to write or run (outside the new-lesson template,
which tests/build/test_new_lesson.py builds whole) runs as printed, and every command the README and the guides
show runs its `--help` (the commands themselves take minutes: a build, a training run, a benchmark), which also
checks that the command exists and takes the options shown. A `python -m compute ...` command runs in a process
forked from one that has imported torch already (tests/forked.py): the same arguments, folder and environment."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from forked import compute as run_compute

GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,4})(\w*)\n(.*?)^\1$", re.S | re.M)
TEMPLATE = "## Adding a lesson"      # docs/authors.md: the template, built whole by the new-lesson test


def blocks(language: str) -> list[tuple[str, str]]:
    """(where, text) of each fenced block in `language`, the template's section left out."""
    found = []
    for guide in GUIDES:
        text = guide.read_text()
        if TEMPLATE in text:                        # left out as blank lines: the others keep their line numbers
            head, rest = text.split(TEMPLATE, 1)
            section, tail = rest.split("\n## ", 1)
            text = head + "\n" * (TEMPLATE + section).count("\n") + "\n## " + tail
        for m in FENCE.finditer(text):
            if m.group(2) == language:
                line = text[: m.start()].count("\n") + 1
                found.append((f"{guide.relative_to(ROOT)}:{line}", m.group(3)))
    return found


def commands() -> list[tuple[str, list[str]]]:
    """Each command line of the guides' shell blocks, its comment taken off."""
    found = []
    for where, text in blocks("sh"):
        for line in text.splitlines():
            words = shlex.split(line, comments=True)
            if words and (words[0].startswith("./") or words[0] == ".venv/bin/python"):
                found.append((where, words))
    return found


def test_the_guides_show_python_to_run_and_commands():
    assert len(blocks("python")) >= 2 and len(commands()) >= 15


@pytest.mark.parametrize("where,code", blocks("python"), ids=[w for w, _ in blocks("python")])
def test_a_python_block_of_a_guide_runs_as_printed(where, code):
    proc = subprocess.run([sys.executable, "-"], input=code, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{where}:\n{proc.stderr[-2000:]}"
    assert proc.stdout.strip(), f"{where} prints nothing"


@pytest.mark.parametrize("where,words", commands(), ids=[" ".join(w) for _, w in commands()])
def test_a_command_of_a_guide_answers_its_help(where, words):
    if words[:3] == [".venv/bin/python", "-m", "compute"]:
        proc = run_compute(*words[3:], "--help", cwd=ROOT, timeout=300)
    else:
        argv = [sys.executable, *words[1:]] if words[0] == ".venv/bin/python" else words
        proc = subprocess.run([*argv, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "usage" in proc.stdout.lower(), f"{where}: {' '.join(words)}\n{proc.stderr[-1500:]}"

"""Build the HTML with sphinx-build, and tell which notebooks it executed.

sphinx-build runs as a child that dies with this process (a killed build leaves
no Sphinx or kernel behind: the kernel exits when its parent does). Its
messages pass through, except the crash report Sphinx prints when a lesson cell
raises: that becomes one line naming the lesson, the line and the exception.
A glue role that printed nothing (no such key, a format its value cannot take)
fails the build with one line each: the lesson, the line the role is on, why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from jupyter_cache import get_cache

from sitebuild import progress
from sitebuild.cores import die_with_parent

# Printed by every kernel at start-up; says nothing about this build.
_NOISE = ("Kernel is running over TCP without encryption",)
PROSE = "prose"  # <build_dir>/prose/<page>.jsonl: the sentences each lesson's Python wrote (sitebuild.prose.audit)
# MyST-NB's glue roles warn at the line where each is written (sitebuild.pages.claimroles)
_GLUE_WARNING = re.compile(r"^(?P<path>.+\.md):(?P<line>\d+): WARNING: (?P<message>.*?) \[mystnb\.glue\]")
_NO_KEY = re.compile(r"No key '(?P<key>[^']+)' found in glue data")
_CRASH_LOG = re.compile(r"(/\S*sphinx-err-\w+\.log)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class SphinxError(Exception):
    """sphinx-build failed (a warning, an error, or a notebook cell raised)."""


def cache_records(cache_dir: Path) -> dict[int, str]:
    """The jupyter-cache's records, {primary key: notebook path}; {} before the first build."""
    if not (cache_dir / "global.db").exists():
        return {}
    return {r.pk: r.uri for r in get_cache(str(cache_dir)).list_cache_records()}


def build_html(root: Path, build_dir: Path, url: str | None = None, stop: threading.Event | None = None) -> list[str]:
    """Run `sphinx-build -b html -W --keep-going -q --no-color` on `root` into `build_dir`/html.

    Returns the notebooks executed by this build (paths relative to `root`):
    those with a new jupyter-cache record; every other notebook came from the
    cache. Raises SphinxError when the build fails, or when `stop` is set
    before it ends (the check beside it failed: the child is stopped then),
    KeyboardInterrupt when interrupted (the child is stopped first).
    """
    cache_dir = build_dir / ".jupyter_cache"
    before = cache_records(cache_dir)
    cmd = [
        sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "--no-color",
        "-d", str(build_dir / "doctrees"), str(root), str(build_dir / "html"),
    ]
    prose = build_dir / PROSE
    prose.mkdir(parents=True, exist_ok=True)
    for left in prose.glob("kernel-*.jsonl"):  # a run stopped before its last cell
        left.unlink()
    # the lessons' kernels know they run for the site (compute.present), and where to record the prose they write
    # lessons execute side by side (sitebuild.pages.ahead), each kernel's torch with its own threads: a thread
    # waiting for work sleeps instead of spinning on a core another kernel needs (the numbers are the same)
    env = {**os.environ, "SITEBUILD": "1", "SITEBUILD_PROSE_DIR": str(prose.resolve()),
           "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
           **({"SITEBUILD_URL": url} if url else {})}   # the site's public address (sitebuild.pages.frontbox)
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            bufsize=1, preexec_fn=die_with_parent)
    assert proc.stdout is not None
    if stop is not None:
        threading.Thread(target=_stop_when, args=(stop, proc), daemon=True).start()
    crash_log = None
    glue_faults = []  # "<page>, line N: <why>", for each glue role that printed nothing
    try:
        in_report = False
        for line in proc.stdout:  # pass sphinx's warnings through as they come
            in_report = in_report or line.startswith(("Versions", "Exception occurred"))
            found = _CRASH_LOG.search(line)
            crash_log = found.group(1) if found else crash_log
            if progress.sphinx_line(line):                   # which page is read, which lesson executed
                continue
            if not in_report and not any(noise in line for noise in _NOISE):
                fault = glue_fault(line, root)
                if fault:
                    glue_faults.append(fault)
                progress.warn(line)
        code = proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        raise
    if code != 0:
        # Warnings are not remembered between builds: re-read every page next time, so that a
        # rebuild with nothing changed does not pass over the warning that failed this one.
        (build_dir / "doctrees" / "environment.pickle").unlink(missing_ok=True)
        cell = cell_error(Path(crash_log), root) if crash_log else None
        raise SphinxError(cell or "\n".join(glue_faults)
                          or f"sphinx-build failed (exit {code}); see the messages above")
    after = cache_records(cache_dir)
    executed = {uri for pk, uri in after.items() if pk not in before}
    return sorted(_relative(uri, root) for uri in executed)


def _stop_when(stop: threading.Event, proc: subprocess.Popen) -> None:
    """Stop sphinx-build (and the kernels it started) once `stop` is set, if it still runs."""
    while proc.poll() is None:
        if stop.wait(0.2):
            proc.terminate()
            return


def glue_fault(line: str, root: Path) -> str | None:
    """For a warning of a glue role, '<page>, line N: <why>' (the build's error line); else None."""
    m = _GLUE_WARNING.match(_ANSI.sub("", line).rstrip())
    if not m:
        return None
    no_key = _NO_KEY.match(m["message"])
    why = f"no value is glued as {no_key['key']!r}" if no_key else m["message"]
    return f"{_relative(m['path'], root)}, line {m['line']}: {why}"


def cell_error(log: Path, root: Path) -> str | None:
    """From Sphinx's crash log, '<lesson>, line N: <exception>' for a lesson cell that raised; else None."""
    try:
        text = _ANSI.sub("", log.read_text(errors="replace"))
    except OSError:
        return None
    block = re.search(r"An error occurred while executing the following cell:\n\s*-{10,}\n(.*?)\n\s*-{10,}\n(.*)",
                      text, re.S)
    lesson = re.search(r"ExecutionError: (\S+\.md)", text)
    if not block or not lesson:
        return None
    source, after = block.group(1), block.group(2)
    indent = re.match(r"\s*", source).group(0)
    cell = [line.removeprefix(indent) for line in source.splitlines()]
    exceptions = re.findall(r"^\s*(\w+(?:Error|Exception|Exit|Interrupt|Warning)\b.*)$", after.split("\n\n\n")[0], re.M)
    offset = re.search(r"line (\d+)", after)
    md = Path(lesson.group(1))
    where = _relative(str(md), root)
    line = _cell_line(md, cell, int(offset.group(1)) if offset else 1)
    what = exceptions[-1].strip() if exceptions else "the cell raised an exception"
    return f"{where}{f', line {line}' if line else ''}: {what}"


def _cell_line(md: Path, cell: list[str], line_in_cell: int) -> int | None:
    """The line of the .md file holding line `line_in_cell` of a code cell with this source."""
    try:
        lines = md.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    first = next((c for c in cell if c.strip()), "")
    for n, text in enumerate(lines):
        if text == first and lines[n:n + len(cell)] == cell:
            return n + line_in_cell
    return None


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path

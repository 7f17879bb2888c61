"""Run compute's pre-build check: `compute.checks.preflight()`, for each lesson whose inputs changed.

It returns on success, or raises an exception whose class (or a base class)
is named `CheckpointError` or `ClaimError` with a one-line message; that
becomes `PreflightError` here. Any other exception propagates unchanged. The
classes are matched by name so that a project without `compute.checks` (the
miniature projects of the build tests) still builds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from sitebuild.computechecks import compute_checks

EXPECTED_ERRORS = {"CheckpointError", "ClaimError"}


class PreflightError(Exception):
    """compute's preflight found a problem; the message is one line for the user."""


def run_preflight(names: list[str] | None = None) -> bool:
    """Call compute.checks.preflight (given `names`: for those lessons alone) if it exists; True when it ran.

    Raises PreflightError for a CheckpointError or ClaimError.
    """
    checks = compute_checks()
    if checks is None:
        return False
    try:
        checks.preflight() if names is None else checks.preflight(names)
    except Exception as exc:
        if EXPECTED_ERRORS & {cls.__name__ for cls in type(exc).__mro__}:
            raise PreflightError(str(exc)) from exc
        raise
    return True


RECORD = "preflight.json"  # under the build folder: each lesson's key when its check last passed
TIMES = "preflight-times.json"  # ... and how long each lesson page's check took, the last time it ran: the pages
                                # stage starts the lessons it executes longest first (sitebuild.pages.ahead)
# What a lesson's check imports, as a lesson's code cell would: its key is that cell's build stamp.
KEY_CELL = "```{{code-cell}}\nimport compute.checks\nimport compute.lessons.{name}\n```\n"


def lesson_key(root, name: str) -> str:
    """What lesson package `name`'s check reads, hashed as a lesson's build stamp is (sitebuild.pages.stamps):
    the compute modules it and compute.checks import, followed through their imports, the checkpoints and data
    files they declare, requirements.txt. Replacing one published checkpoint changes the keys of the lessons
    that read it, and of no other."""
    from sitebuild.pages.stamps import stamp_hash
    return stamp_hash(root, KEY_CELL.format(name=name))


def warm_up(root: Path, statements) -> None:
    """Run compute's warm-ups (compute.checks.WARM_UPS: Python statements, each computing and keeping a
    measurement several checks read), each in a process of its own, side by side (sitebuild.cores), and wait for
    them. A warm-up that fails is passed over: the check that needs its measurement computes it, and says what
    is wrong in one line."""
    from sitebuild.cores import at_once, die_with_parent

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
           "PYTHONDONTWRITEBYTECODE": "1", "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
    todo, running = list(statements), []
    try:
        while todo or running:
            while todo and len(running) < at_once():
                running.append(subprocess.Popen([sys.executable, "-c", todo.pop(0)], cwd=root, env=env,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                preexec_fn=die_with_parent))
            running[0].wait()
            running = [p for p in running if p.poll() is None]
    finally:
        for proc in running:
            proc.kill()
            proc.wait()


def _record_time(checks, name: str, seconds: float, path: Path) -> None:
    """How long lesson package `name`'s check took, under its page's name (nothing for the whole check, "*")."""
    records = getattr(checks, "lesson_records", None)
    if name == "*" or records is None:
        return
    try:
        times = json.loads(path.read_text()) if path.is_file() else {}
    except ValueError:
        times = {}
    times = times if isinstance(times, dict) else {}
    times.update({f"posts/{record.page}": round(seconds, 1) for record in records([name])})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(sorted(times.items())), indent=1))


def run_preflight_if_changed(root, build_dir) -> list[str]:
    """The check of each lesson whose key changed since its check last passed; the names of those checked.

    With compute.checks.lesson_names (the project's own), each lesson package has its key (lesson_key) and
    is checked alone. Without it (a project whose checks know no lessons), the whole check runs when any file
    of compute/ or of the checkpoint folders changed (sitebuild.pages.stamps.tree_hash), under the name "*".
    Raises PreflightError as run_preflight does; a lesson whose check failed is checked again next time.
    """
    from sitebuild.pages.stamps import tree_hash

    checks = compute_checks()
    if checks is None:
        return []
    record = Path(build_dir) / RECORD
    try:
        passed = json.loads(record.read_text()) if record.is_file() else {}
    except ValueError:
        passed = {}  # a damaged record: every lesson is checked again
    if not isinstance(passed, dict):
        passed = {}
    names = getattr(checks, "lesson_names", None)
    keys = {name: lesson_key(root, name) for name in names()} if names else {"*": tree_hash(Path(root))}
    checked = []
    if any(passed.get(name) != key for name, key in keys.items()):
        warm_up(Path(root), getattr(checks, "WARM_UPS", ()))
    for name, key in keys.items():
        if passed.get(name) == key:
            continue
        started = time.monotonic()
        run_preflight(None if name == "*" else [name])
        _record_time(checks, name, time.monotonic() - started, Path(build_dir) / TIMES)
        checked.append(name)
        passed[name] = key
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps({n: passed[n] for n in sorted(passed) if n in keys}, indent=1))
    return checked


class Beside:
    """run_preflight_if_changed in a thread of its own, beside the pages stage: the lessons execute meanwhile (the
    checks and the lessons' runs share the measurements they compute, compute.kept, and fill each other's idle
    core). `failed` is set the moment a check fails, so the pages stage can stop at once; result() waits for the
    checks and returns what run_preflight_if_changed returns, or raises what it raised."""

    def __init__(self, root: Path, build_dir: Path):
        self.failed = threading.Event()
        self._checked: list[str] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(root, build_dir), name="preflight", daemon=True)
        self._thread.start()

    def _run(self, root: Path, build_dir: Path) -> None:
        try:
            self._checked = run_preflight_if_changed(root, build_dir)
        except BaseException as exc:      # raised again by result(), in the build's own thread
            self._error = exc
            self.failed.set()

    def result(self) -> list[str]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._checked

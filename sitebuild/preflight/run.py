"""Run compute's pre-build check: `compute.checks.preflight()`.

It returns on success, or raises an exception whose class (or a base class)
is named `CheckpointError` or `ClaimError` with a one-line message; that
becomes `PreflightError` here. Any other exception propagates unchanged. The
classes are matched by name so that a project without `compute.checks` (the
miniature projects of the build tests) still builds.
"""

from __future__ import annotations

import importlib

EXPECTED_ERRORS = {"CheckpointError", "ClaimError"}


class PreflightError(Exception):
    """compute's preflight found a problem; the message is one line for the user."""


def run_preflight() -> bool:
    """Call compute.checks.preflight if it exists; True when it ran.

    Raises PreflightError for a CheckpointError or ClaimError.
    """
    try:
        checks = importlib.import_module("compute.checks")
    except ModuleNotFoundError as exc:
        # Only "compute.checks does not exist" means no preflight; a missing
        # import *inside* it is a real error.
        if exc.name in ("compute", "compute.checks"):
            return False
        raise
    try:
        checks.preflight()
    except Exception as exc:
        if EXPECTED_ERRORS & {cls.__name__ for cls in type(exc).__mro__}:
            raise PreflightError(str(exc)) from exc
        raise
    return True


def run_preflight_if_changed(root, build_dir) -> bool:
    """run_preflight, unless it already passed for exactly these compute/ files; True when it ran.

    The key covers every compute module and every file of the checkpoint
    folder compute will read (COMPUTE_CHECKPOINTS included): sitebuild.pages.stamps.tree_hash.
    """
    from pathlib import Path

    from sitebuild.pages.stamps import tree_hash

    record = Path(build_dir) / "preflight.sha256"
    key = tree_hash(Path(root))
    if record.is_file() and record.read_text() == key:
        return False
    ran = run_preflight()
    if ran:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(key)
    return ran

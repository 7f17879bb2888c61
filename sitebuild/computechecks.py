"""The project's own checks, compute.checks (its lessons, their claims and preflights), where it has them: a
miniature project of the build tests may have none."""
from __future__ import annotations

import importlib


def compute_checks():
    """The project's compute.checks module, or None in a project without one."""
    try:
        return importlib.import_module("compute.checks")
    except ModuleNotFoundError as exc:
        # Only "compute.checks does not exist" means none; a missing import *inside* it is a real error.
        if exc.name in ("compute", "compute.checks"):
            return None
        raise

"""How many processes the build runs side by side (lesson kernels, the checks' warm-ups): one per core, at most
AT_ONCE; SITEBUILD_KERNELS=N chooses (1: one after another). And a child process that dies with the build."""
from __future__ import annotations

import ctypes
import os
import signal

AT_ONCE = 4
KERNELS = "SITEBUILD_KERNELS"


def at_once() -> int:
    if os.environ.get(KERNELS, "").isdigit():
        return max(1, int(os.environ[KERNELS]))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(AT_ONCE, cores))


def die_with_parent() -> None:
    """In a child, before exec: get SIGKILL when the parent dies (Linux prctl PR_SET_PDEATHSIG), so a killed
    build leaves no worker behind."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (AttributeError, OSError):
        pass  # not Linux: an interrupted build may leave its worker running

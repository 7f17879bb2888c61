"""How many processes the build runs side by side (lesson kernels, the checks' warm-ups): one per core, at most
AT_ONCE; SITEBUILD_KERNELS=N chooses (1: one after another)."""
from __future__ import annotations

import os

AT_ONCE = 4
KERNELS = "SITEBUILD_KERNELS"


def at_once() -> int:
    if os.environ.get(KERNELS, "").isdigit():
        return max(1, int(os.environ[KERNELS]))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(AT_ONCE, cores))

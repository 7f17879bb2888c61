"""The date a build writes into what it makes (PDF dates, notebooks): the source's, never the clock's, so two
builds of one commit give the same bytes."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

FALLBACK_EPOCH = 946684800  # 2000-01-01, outside a git checkout without SOURCE_DATE_EPOCH


def source_epoch(root: Path) -> int:
    """SOURCE_DATE_EPOCH, or the time of the last commit of `root`, or a fixed date."""
    if os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=root, capture_output=True, text=True,
                             timeout=10)
        return int(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip().isdigit() else FALLBACK_EPOCH
    except (OSError, subprocess.SubprocessError):
        return FALLBACK_EPOCH

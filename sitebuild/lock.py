"""One build at a time per site: a lock file in the build folder, held for the whole build.

The lock is an flock(2) on `_build/build.lock`: the kernel drops it when the
process ends, however it ends (a killed build never leaves a stale lock). A
second build waits for the first, saying so in one line.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def build_lock(build_dir: Path, say=print):
    """Hold the build lock of `build_dir` for the duration of the with-block (waiting for it if needed)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    path = build_dir / "build.lock"
    with open(path, "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            say(f"waiting: another build of this site is running (pid {holder}); this one starts when it ends")
            fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        try:
            yield
        finally:
            f.seek(0)
            f.truncate()
            fcntl.flock(f, fcntl.LOCK_UN)

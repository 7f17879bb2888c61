"""The built site served from a process of its own, for the page benchmarks.

sitebuild.serve runs its server on a thread of the calling process. In a
benchmark that process is also Playwright's client, which relays every event
of the page it drives: the two share one interpreter lock, and on two cores
the server answered a page's two dozen first requests 100-250 ms late (its
style sheets arrived at 150-260 ms for pages of a few kB). A static host is a
process of its own; so is this one.
"""
from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from sitebuild.serve import serve
with serve(Path(sys.argv[2])) as base:
    print(base, flush=True)
    sys.stdin.read()   # until the parent closes it
"""


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """Serve `folder` from a child process (sitebuild.serve); yields the base URL."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(ROOT), str(folder)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        base = child.stdout.readline().strip()
        if not base.startswith("http://"):
            raise RuntimeError(f"the benchmark's server did not start for {folder}")
        yield base
    finally:
        child.stdin.close()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()

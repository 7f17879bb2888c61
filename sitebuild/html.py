"""Build the HTML with sphinx-build, and tell which notebooks it executed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jupyter_cache import get_cache

# Printed by every kernel at start-up; says nothing about this build.
_NOISE = ("Kernel is running over TCP without encryption",)


class SphinxError(Exception):
    """sphinx-build failed (a warning, an error, or a notebook cell raised)."""


def cache_records(cache_dir: Path) -> dict[int, str]:
    """The jupyter-cache's records, {primary key: notebook path}; {} before the first build."""
    if not (cache_dir / "global.db").exists():
        return {}
    return {r.pk: r.uri for r in get_cache(str(cache_dir)).list_cache_records()}


def build_html(root: Path, build_dir: Path) -> list[str]:
    """Run `sphinx-build -b html -W --keep-going -q` on `root` into `build_dir`/html.

    Returns the notebooks executed by this build (paths relative to `root`):
    those with a new jupyter-cache record; every other notebook came from the
    cache. Raises SphinxError when the build fails.
    """
    cache_dir = build_dir / ".jupyter_cache"
    before = cache_records(cache_dir)
    cmd = [
        sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
        "-d", str(build_dir / "doctrees"), str(root), str(build_dir / "html"),
    ]
    proc = subprocess.Popen(
        cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # pass sphinx's warnings through as they come
        if not any(noise in line for noise in _NOISE):
            sys.stdout.write(line)
            sys.stdout.flush()
    if proc.wait() != 0:
        raise SphinxError(f"sphinx-build failed (exit {proc.returncode}); see the messages above")
    after = cache_records(cache_dir)
    executed = {uri for pk, uri in after.items() if pk not in before}
    return sorted(_relative(uri, root) for uri in executed)


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path

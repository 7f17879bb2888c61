"""Where a command writes its results, checked before the work and kept after it: a run that could never be
written is refused before it starts, and one whose write fails all the same is written beside, never lost."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from .store import CheckpointError


def require_writable_folder(folder: Path, names: Iterable[str], what: str = "--out",
                            undone: str = "nothing was trained") -> None:
    """One CheckpointError naming `folder` (the folder `what` names) and the cause, unless the files `names` can
    be written in it, the folder made where missing: checked before a run, so that no finished run is lost to a
    path that could never take it."""
    flaw = folder_flaw(Path(folder), names)
    if flaw:
        raise CheckpointError(f"{folder}: {what} {flaw}; {undone}")


def require_writable_file(path: Path, what: str = "--out", undone: str = "nothing was measured") -> None:
    """One CheckpointError naming the file `path` (the file `what` names) and the cause, unless it can be
    written, its folder made where missing: checked before the work whose result it takes."""
    path = Path(path)
    if path.is_dir():
        raise CheckpointError(f"{path}: {what} is a folder, not a file; {undone}")
    flaw = folder_flaw(path.parent, [path.name])
    if flaw:
        raise CheckpointError(f"{path}: {what} cannot be written: {path.parent} {flaw}; {undone}")


def folder_flaw(folder: Path, names: Iterable[str]) -> str | None:
    """What keeps the files `names` from being written in `folder` (made where missing), said of the folder:
    'is a file, not a folder', 'cannot be made: /a is a file, not a folder', ...; None when nothing does.
    (Permissions are as os.access reads them: a process run as root passes them all.)"""
    if folder.exists() and not folder.is_dir():
        return "is a file, not a folder"
    if not folder.exists():
        parent = nearest_existing(folder)
        if not parent.is_dir():
            return f"cannot be made: {parent} is a file, not a folder"
        return None if os.access(parent, os.W_OK | os.X_OK) else f"cannot be made: {parent} is not writable"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "is not writable"
    for name in names:
        target = folder / name
        if target.is_dir():
            return f"cannot take {name}: {target} is a folder"
        if target.exists() and not os.access(target, os.W_OK):
            return f"cannot take {name}: {target} is not writable"
    return None


def nearest_existing(path: Path) -> Path:
    """`path` or the nearest of its parents that exists (a file, where the path runs through one)."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


Written = TypeVar("Written")


def written_or_kept(out: Path, write: Callable[[Path], Written], what: str = "the trained run") -> Written:
    """write(out): a finished run's files written in the folder `out`. Where that fails all the same (a full
    disk, the folder taken while the run trained), the run is written to a new folder beside `out` (or, failing
    that, in the temporary folder) and one CheckpointError names `out`, the cause and where the run is: a
    finished run is never lost to a write. `what` names the run in that line."""
    out = Path(out)
    try:
        return write(out)
    except OSError as err:
        cause = os_cause(err)
    kept, failed = written_elsewhere(out, write)
    if kept is not None:
        raise CheckpointError(f"{out}: cannot write {what} there ({cause}); it was written to {kept} instead")
    raise CheckpointError(f"{out}: cannot write {what} there ({cause}), nor in a new folder beside it or in the "
                          f"temporary folder ({failed}); it is lost")


def written_elsewhere(out: Path, write: Callable[[Path], object]) -> tuple[Path | None, str]:
    """write(a new folder beside `out`), else write(a new folder in the temporary folder): the folder written,
    or None and why the last try failed (a folder made for a failed try is removed)."""
    failed = ""
    for beside in (nearest_existing(out.parent), None):
        kept = None
        try:
            kept = Path(tempfile.mkdtemp(prefix=f"{out.name}.unsaved-", dir=beside))
            write(kept)
            return kept, ""
        except OSError as err:
            failed = os_cause(err)
            if kept is not None:
                shutil.rmtree(kept, ignore_errors=True)
    return None, failed


def os_cause(err: OSError) -> str:
    """An OSError as a cause: its message and the file it names."""
    return f"{err.strerror or err}: {err.filename}" if err.filename else str(err.strerror or err)

"""What the build keeps between builds, checked before it is used.

Every kept output (a figure's drawn forms, a printed PDF, an executed lesson) is written with a seal: the
size and SHA-256 of each file, recorded after the files themselves. Before a stage takes an entry from its
cache it asks `flaw` what is wrong with it: a file missing, cut short or changed since it was sealed, a seal
that is missing or unreadable. A damaged entry is dropped and made again, and the build's summary names it
(`heal`, `healed`): a cache heals instead of breaking every later build.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

SEAL = "sealed.json"      # a sealed folder's record of its files, written last

_healed: list[str] = []   # what this build dropped and made again: "<cache entry>: <why>"


def digest(path: Path) -> dict:
    """A file's size and SHA-256, as a seal records it."""
    data = path.read_bytes()
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def file_flaw(path: Path, sealed: object) -> str | None:
    """What is wrong with `path` against its seal ({bytes, sha256}), or None when it holds what was sealed."""
    if not isinstance(sealed, dict) or not {"bytes", "sha256"} <= set(sealed):
        return f"{path.name} has no seal"
    if not path.is_file():
        return f"{path.name} is missing"
    now = digest(path)
    if now["bytes"] != sealed["bytes"]:
        return f"{path.name} has {now['bytes']:,} bytes, {sealed['bytes']:,} when kept"
    if now["sha256"] != sealed["sha256"]:
        return f"{path.name} changed since it was kept"
    return None


def write_json(path: Path, value: object) -> None:
    """Write JSON so that a reader sees the whole file or the one before: a build stopped mid-write leaves no
    half a record."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps(value, indent=1, sort_keys=True))
    os.replace(tmp, path)


def read_json(path: Path, default):
    """A JSON record the build wrote, or `default` (and the flaw, for `heal`) when it is missing or unreadable."""
    if not path.is_file():
        return default, None
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (ValueError, UnicodeDecodeError):
        return default, f"{path.name} is not readable JSON"


def seal_folder(folder: Path, names: Iterable[str] | None = None) -> None:
    """Record the size and digest of each file in `folder` (default: every file but the seal), last."""
    names = sorted(names if names is not None else (p.name for p in folder.iterdir() if p.is_file() and p.name != SEAL))
    write_json(folder / SEAL, {name: digest(folder / name) for name in names})


def folder_flaw(folder: Path) -> str | None:
    """What is wrong with a sealed folder, or None when every file it sealed is there as it was."""
    if not (folder / SEAL).is_file():
        return "not sealed (a build stopped while making it?)"
    record, flaw = read_json(folder / SEAL, None)
    if flaw or not isinstance(record, dict) or not record:
        return flaw or f"{SEAL} lists no file"
    for name, sealed in sorted(record.items()):
        flaw = file_flaw(folder / name, sealed)
        if flaw:
            return flaw
    return None


def heal(entry: str, why: str) -> None:
    """Note that the cache entry `entry` was damaged (`why`) and is being made again."""
    _healed.append(f"{entry}: {why}")


def healed() -> list[str]:
    """The entries this build dropped and made again, in the order it found them."""
    return list(_healed)


def start() -> None:
    """A new build: nothing healed yet."""
    _healed.clear()

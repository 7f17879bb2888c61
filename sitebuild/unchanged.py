"""A build with nothing to do: the last successful build's inputs, site/ and _build/ all as it left them.

Every stage keeps its own cache, but asking each whether it has work costs seconds (Sphinx reads its
environment, the audit imports the lessons' claims, each stage hashes what it reads). So a successful build
records, in _build/last-build.json, one key over everything the build reads and one over what it left:

* inputs: the contents of every file of the checkout that git does not ignore (the lessons, compute/ and its
  data, sitebuild/, conf.py, _static/, ...; not tests/, benchmarks/, .ci/ or the contributors' docs), the
  checkpoint folders in use when they are outside it, the settings the build reads (COMPUTE_CHECKPOINTS,
  COMPUTE_STORY_MODELS, SOURCE_DATE_EPOCH, SOURCE_COMMIT), its options, the date of the last commit and the
  Python that runs it;
* outputs: the name, size and modification time of every file under site/ and _build/ (its lock, this record
  and the kept measurements aside), so that a damaged or removed file is seen.

The next build that finds both keys equal does nothing and says so; any difference, and it runs every stage
as before (each taking what it can from its own cache). What is not an input here is not one of any stage's
either: the installed Chromium and Python packages (requirements.txt pins the packages; it is an input).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

RECORD = "last-build.json"
SETTINGS = ("COMPUTE_CHECKPOINTS", "COMPUTE_STORY_MODELS", "SOURCE_DATE_EPOCH", "SOURCE_COMMIT")
NOT_INPUTS = ("tests/", "benchmarks/", ".ci/", "docs/")      # read by people and tests, not by the build
READ_DOCS = ("docs/readers.md",)                               # sitebuild.prose.guide: the readers' guide
SKIPPED = {".git", ".venv", "_build", "site", "__pycache__", "node_modules"}
NOT_OUTPUTS = ("_build/build.lock", f"_build/{RECORD}", "_build/results/")   # compute.kept: any build's, not this one's


def source_files(root: Path) -> list[str]:
    """The checkout's files the build may read, relative to `root`, sorted: what git does not ignore (outside
    a git checkout, every file outside SKIPPED folders)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                             capture_output=True, text=True, timeout=30)
        names = out.stdout.split("\0") if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        names = None
    if names is None:
        names = [p.relative_to(root).as_posix() for p in root.rglob("*")
                 if p.is_file() and not SKIPPED & set(p.relative_to(root).parts[:-1])]
    return sorted(n for n in names if n and (not n.startswith(NOT_INPUTS) or n in READ_DOCS)
                  and (root / n).is_file())


def _file_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def inputs_key(root: Path, options: dict, epoch: int) -> str:
    """sha256 over everything a build of `root` with `options` reads (the module's docstring)."""
    h = hashlib.sha256(json.dumps({"options": options, "epoch": epoch, "python": sys.version,
                                   "settings": {k: os.environ.get(k) for k in SETTINGS}}, sort_keys=True).encode())
    for name in source_files(root):
        h.update(name.encode() + b"\0" + _file_digest(root / name))
    for setting in ("COMPUTE_CHECKPOINTS", "COMPUTE_STORY_MODELS"):
        folder = Path(os.environ[setting]) if os.environ.get(setting) else None
        if folder is not None and folder.is_dir() and not folder.resolve().is_relative_to(root.resolve()):
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                h.update(f"{setting}/{path.relative_to(folder).as_posix()}\0".encode() + _file_digest(path))
    return h.hexdigest()


def outputs_key(root: Path) -> str:
    """sha256 over the name, size and modification time of every file under site/ and _build/ (NOT_OUTPUTS
    aside)."""
    h = hashlib.sha256()
    for top in ("site", "_build"):
        for dirpath, dirnames, filenames in os.walk(root / top):
            dirnames.sort()
            for name in sorted(filenames):
                path = Path(dirpath) / name
                rel = path.relative_to(root).as_posix()
                if rel in NOT_OUTPUTS or rel.startswith(NOT_OUTPUTS[-1]):
                    continue
                try:
                    st = path.stat()
                except OSError:
                    continue
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def last_result(root: Path, inputs: str) -> dict | None:
    """What the last successful build reported, if its inputs were `inputs` and it left site/ and _build/ as
    they are now; else None."""
    record = root / "_build" / RECORD
    try:
        last = json.loads(record.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(last, dict) or last.get("inputs") != inputs or not isinstance(last.get("result"), dict):
        return None
    return last["result"] if last.get("outputs") == outputs_key(root) else None


def remember(root: Path, inputs: str, result: dict) -> None:
    """Record a successful build: its inputs' key, what it left, what it reported."""
    record = root / "_build" / RECORD
    record.parent.mkdir(parents=True, exist_ok=True)
    tmp = record.with_suffix(".tmp")
    tmp.write_text(json.dumps({"inputs": inputs, "outputs": outputs_key(root), "result": result}, sort_keys=True))
    tmp.replace(record)

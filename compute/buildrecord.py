"""The record a lesson's run keeps while the site builds: what its Python printed and which claims it checked.

The build names a folder in SITEBUILD_PROSE_DIR; each kernel appends one JSON entry a line to
`kernel-<pid>.jsonl` there, and the lesson's last cell files it under the page's name (sitebuild.pages.stamps).
Outside a build nothing is written. compute.present.prose records texts and numbers through it, compute.claims
each claim's outcome and margin (sitebuild.prose.margins reads those).
"""
from __future__ import annotations

import json
import os

RECORD = "SITEBUILD_PROSE_DIR"

_OPEN: dict[str, object] = {}  # the record's path -> the file, open for appending


def recording() -> bool:
    """Whether this process runs for the site's build (and so keeps a record)."""
    return bool(os.environ.get(RECORD))


def record_entry(entry: dict) -> None:
    """Append one entry to this kernel's record, while the site builds; nothing otherwise."""
    folder = os.environ.get(RECORD)
    if folder:
        _record_file(os.path.join(folder, f"kernel-{os.getpid()}.jsonl")).write(
            json.dumps(entry, ensure_ascii=False) + "\n")


def _record_file(path: str):
    """The record at `path`, opened once (a page writes thousands of entries) and line-buffered, so each entry
    reaches the file as it is written; opened again when the file is gone (moved under the page's name)."""
    out = _OPEN.get(path)
    if out is None or not os.path.exists(path):
        if out is not None:
            out.close()
        out = _OPEN[path] = open(path, "a", encoding="utf-8", buffering=1)
    return out

"""The read audit: which compute files a lesson's run opened, against what its build stamp declares."""

from __future__ import annotations

import json
from pathlib import Path

from sitebuild.pages.stamps import checkpoint_folder, lesson_dependencies, story_folder

ROOT = Path(__file__).resolve().parent.parent

# Run first in the lesson's process: every file opened from now on is recorded.
START_AUDIT = r"""
import sys as _audit_sys
_audit_opened = set()
_audit_sys.addaudithook(
    lambda event, args: _audit_opened.add(str(args[0])) if event == "open" and isinstance(args[0], str) else None)
"""

# Run last: one line of JSON, the files opened and the files of every module loaded.
REPORT_AUDIT = r"""
import json as _audit_json
print(_audit_json.dumps(sorted(_audit_opened | {
    m.__file__ for m in list(_audit_sys.modules.values()) if getattr(m, "__file__", None)})))
"""


def undeclared_reads(lesson: str, report_line: str, text: str | None = None) -> tuple[list[str], int]:
    """The compute and checkpoint files the run read that `lesson`'s stamp does not cover (or the stamp of the
    lesson text `text`), and how many such files it read in all."""
    text = (ROOT / "posts" / f"{lesson}.md").read_text() if text is None else text
    read = {Path(p).resolve() for p in json.loads(report_line)}
    folders = [(ROOT / "compute").resolve(), checkpoint_folder(ROOT).resolve(), story_folder(ROOT).resolve()]
    ours = {p for p in read if any(p.is_relative_to(folder) for folder in folders) and p.is_file()}
    deps = lesson_dependencies(ROOT, text)
    declared = {p.resolve() for p in (*deps.modules, *deps.checkpoints, *deps.data)}
    return sorted(p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(p) for p in ours - declared), len(ours)


def story_models_elsewhere(folder: Path) -> Path:
    """A story-models folder other than the published one, holding copies of the published story models (the
    files themselves, not links to them): a lesson run with COMPUTE_STORY_MODELS set to it reads them there
    where it reads Part III's folder, and its stamp must say so (Part III's does; the others' do not)."""
    from compute.published.storyfiles import CHECKPOINT_FILES
    folder.mkdir(parents=True, exist_ok=True)
    for name in CHECKPOINT_FILES:
        (folder / name).write_bytes((checkpoint_folder(ROOT) / name).read_bytes())
    return folder

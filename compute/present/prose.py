"""Sentences that Python writes into a page (captions, summaries, table captions, answers, box texts), kept for
the build's comparison audit.

A lesson's Python writes prose as much as its page does, and the same rule holds: a sentence that compares or
characterises computed values rests on a claim. Python text binds the same way, with the same roles inside the
string: `caption="Bank's row with a fraction λ of its update added {about}`method`."`. Every such text goes
through `said(text, where)`, which returns it without its roles (they print as nothing, as on the page) and,
while the site builds (sitebuild sets SITEBUILD_PROSE for each lesson's kernel), records the text as written and
the module and line that wrote it; the build audits the record (sitebuild.prose.audit) as it audits the page.
A text is recorded each time it is written: the build counts each text and place once.
"""
from __future__ import annotations

import functools
import math
import os
import re
import sys
from pathlib import Path

from ..buildrecord import RECORD, record_entry as _record  # the kernel's record while the site builds

ROLE = re.compile(r"(?P<before>\s*)\{(?:claim|about)\}`[^`]*`")
ROOT = Path(__file__).resolve().parents[2]


def without_roles(text: str) -> str:
    """The text as it prints: each {claim} or {about} role gone with the white space before it."""
    return ROLE.sub("", text)


PRESENT = Path(__file__).resolve().parent


def written_at() -> str:
    """'compute/lessons/x/y.py, line N': the first frame up the stack outside compute/present (and outside
    code a dataclass generates), where a lesson wrote the text."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<") and not _in_present(name):
            return located(name, frame.f_lineno)
        frame = frame.f_back
    return "an unknown place"


@functools.lru_cache(maxsize=None)
def _in_present(filename: str) -> bool:
    """Whether a code file is a module of compute/present (resolved once per file: a page writes thousands of
    numbers, and resolving a path asks the file system for each of its folders)."""
    return Path(filename).resolve().parent == PRESENT


def located(filename: str, line: int) -> str:
    return f"{_project_name(filename)}, line {line}"


@functools.lru_cache(maxsize=None)
def _project_name(filename: str) -> str:
    """A code file's path relative to the project's root, or its name when it lies outside."""
    path = Path(filename).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return path.name


def defined(fn) -> str | None:
    """Where a function (a summary, a caption) is written, if it is a named function of the project."""
    code = getattr(fn, "__code__", None)
    if code is None or getattr(fn, "__name__", "") == "<lambda>":
        return None
    return located(code.co_filename, code.co_firstlineno)


def printed(value: float, spec: str, text: str) -> str:
    """`text`, the number `value` printed with `spec`, recorded with where it was printed while the site builds:
    the build checks that one value prints one way across the site (sitebuild.prose.spelling)."""
    if os.environ.get(RECORD) and math.isfinite(value) and not float(value).is_integer():
        _record({"value": float(value), "spec": spec, "printed": text, "where": written_at()})
    return text


def said(text: str, where: str | None = None) -> str:
    """`text` as it prints (roles removed), recorded with `where` (default: the caller's module and line) while
    the site builds."""
    if not text:
        return text
    if os.environ.get(RECORD):
        _record({"text": text, "where": where or written_at()})
    return without_roles(text)
